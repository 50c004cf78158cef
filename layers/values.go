package layers

// Values is a layer's values as every reader reads them, whatever the
// file holds: one byte per slot, a dense body, or either compressed
// (doc.go). *File implements it (DB.Layer decodes a compressed layer in
// full), and so does *Copy; a reader of single positions uses DB.Probe
// (Prober), which reads a compressed layer block by block. No reader
// outside this package needs to know how a layer lies on disk.
type Values interface {
	// Value returns the value of slot i: Unused when i is out of range
	// or not stored.
	Value(i uint64) Value
}

var (
	_ Values = (*File)(nil)
	_ Values = (*Copy)(nil)
)
