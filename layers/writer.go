package layers

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc64"
	"os"
)

// LayerWriter writes a layer file from its body in pieces, for a body too
// large to hold in memory at once (an imported layer): the same layer file
// and block file as Write and WriteLayer, byte for byte, by the same
// conventions (name.tmp and name.blocks.tmp, synced, renamed, the block
// file first). The header is computed from the bytes written; Commit
// installs the file, Abort removes the temporary one.
type LayerWriter struct {
	d     *DB
	k     Key
	path  string
	f     *os.File
	w     *bufio.Writer
	slots uint64 // the body size the layer's index demands
	n     uint64 // bytes written so far
	count [256]uint64
	sums  []uint64 // CRC-64 of each finished block
	crc   uint64   // CRC-64 of the block under way
	done  bool
}

// NewWriter starts writing the file of layer k: dir/k<stones>/name.tmp,
// the folder created if needed. The body must have exactly the slots of
// the layer's index.
func (d *DB) NewWriter(k Key) (*LayerWriter, error) {
	if _, ok := keySlot(k); !ok || !k.Valid(d.stones) {
		return nil, fmt.Errorf("layers: writing layer %v: not a layer of the %d-stone game", k, d.stones)
	}
	if err := d.ensureDir(); err != nil {
		return nil, err
	}
	path := d.Path(k)
	f, err := CreateRegular(path + ".tmp")
	if err != nil {
		return nil, fmt.Errorf("layers: writing %s: %w", path, err)
	}
	w := &LayerWriter{d: d, k: k, path: path, f: f, w: bufio.NewWriterSize(f, 1<<20), slots: d.x.Layer(k).Size()}
	if _, err := w.w.Write(make([]byte, HeaderSize)); err != nil { // the header comes last
		w.Abort()
		return nil, fmt.Errorf("layers: writing %s: %w", path, err)
	}
	return w, nil
}

// Write appends p to the body; writing more than the layer's slots is an
// error.
func (w *LayerWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("layers: writing %s: already committed or aborted", w.path)
	}
	if uint64(len(p)) > w.slots-w.n {
		return 0, fmt.Errorf("layers: writing %s: more than the layer's %d slots", w.path, w.slots)
	}
	n, err := w.w.Write(p)
	if err != nil {
		return n, fmt.Errorf("layers: writing %s: %w", w.path, err)
	}
	for _, v := range p {
		w.count[v]++
	}
	bs := uint64(1) << blockShift
	for len(p) > 0 {
		take := min(uint64(len(p)), bs-w.n%bs)
		w.crc = crc64.Update(w.crc, crc64Table, p[:take])
		w.n += take
		p = p[take:]
		if w.n%bs == 0 {
			w.sums = append(w.sums, w.crc)
			w.crc = 0
		}
	}
	return n, nil
}

// Pending returns the header Commit would write, once the whole body is
// written: a caller that knows what the layer must hold compares it first.
func (w *LayerWriter) Pending() (Header, error) {
	if w.n != w.slots {
		return Header{}, fmt.Errorf("layers: writing %s: %d of the layer's %d slots written", w.path, w.n, w.slots)
	}
	return headerOfCounts(w.d.stones, w.k, w.slots, &w.count, w.finalSums()), nil
}

// finalSums returns the block CRCs, the last, short block included.
func (w *LayerWriter) finalSums() []uint64 {
	if w.n%(1<<blockShift) != 0 {
		return append(w.sums[:len(w.sums):len(w.sums)], w.crc)
	}
	return w.sums
}

// Commit finishes the file: it checks that the whole body was written,
// writes the header, syncs, writes the block file, removes the layer's
// verification record and renames both files into place, as Write does;
// the DB uses the new file from then on. It returns the header written.
// On an error the old file, if any, is unchanged.
func (w *LayerWriter) Commit() (Header, error) {
	if w.done {
		return Header{}, fmt.Errorf("layers: writing %s: already committed or aborted", w.path)
	}
	if w.n != w.slots {
		w.Abort()
		return Header{}, fmt.Errorf("layers: writing %s: %d of the layer's %d slots written", w.path, w.n, w.slots)
	}
	w.sums = w.finalSums()
	h := headerOfCounts(w.d.stones, w.k, w.slots, &w.count, w.sums)
	head := h.marshal()
	err := w.w.Flush()
	if err == nil {
		_, err = w.f.WriteAt(head, 0)
	}
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	w.done = true
	d := w.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if err == nil && d.closed {
		err = fmt.Errorf("database %s is closed", d.dir)
	}
	if err == nil {
		err = d.removeVerified(w.k) // the new file is not verified yet
	}
	if err == nil {
		err = installLayer(w.path, h, binary.LittleEndian.Uint32(head[72:]), w.sums)
	}
	if err != nil {
		os.Remove(w.path + ".tmp")
		return Header{}, fmt.Errorf("layers: writing %s: %w", w.path, err)
	}
	d.forgetLocked(w.k)
	return h, nil
}

// Abort removes the temporary file; the layer's file, if any, is
// unchanged. It may be called after Commit, and then does nothing.
func (w *LayerWriter) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.f.Close()
	os.Remove(w.path + ".tmp")
}
