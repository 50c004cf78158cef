package layers

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc64"
	"math/bits"
	"os"
)

// LayerWriter writes a layer file from its body in pieces, for a body too
// large to hold in memory at once (an imported layer): the same layer file
// and block file as Write and WriteLayer (for a dense body WriteDense and
// WriteDenseLayer, for a file of the format before WriteOld), byte for
// byte, by the same conventions (name.tmp and name.blocks.tmp, synced,
// renamed, the block file first). The header is computed from the bytes
// written; Commit installs the file, Abort removes the temporary one.
type LayerWriter struct {
	d     *DB
	k     Key
	path  string
	f     *os.File
	w     *bufio.Writer
	size  uint64      // the body size: the layer's slots, or its dense body's bytes
	old   bool        // a file of the format before (OldVersion)
	dense *denseWrite // a dense body: its layout and the check of its parts; nil otherwise
	n     uint64      // bytes written so far
	count [256]uint64 // the values written, by value
	sums  []uint64    // CRC-64 of each finished block
	crc   uint64      // CRC-64 of the block under way
	err   error       // a dense body that does not hold together, found while written
	done  bool
}

// NewWriter starts writing the file of layer k with one byte per slot
// (LayoutFlat): dir/k<stones>/name.tmp, the folder created if needed. The
// body must have exactly the slots of the layer's index.
func (d *DB) NewWriter(k Key) (*LayerWriter, error) { return d.newWriter(k, false, nil) }

// NewOldWriter starts writing the file of layer k in the format before
// (OldVersion: one byte per slot, in the order before), as NewWriter
// does: a layer of a package of the program before installed as it was,
// for ConvertOld to rewrite. The body is taken as it comes; ConvertOld
// checks it against the index.
func (d *DB) NewOldWriter(k Key) (*LayerWriter, error) { return d.newWriter(k, true, nil) }

// NewDenseWriter starts writing the dense file (version 2) of layer k
// storing stored values, as NewWriter does: the body written is the dense
// body as its file holds it (the bits, the rank directory, the values;
// doc.go), DenseBodySize(slots, stored) bytes. The bits and the directory
// are checked against each other as they are written, and the number of
// set bits against stored, so that a body whose parts disagree is never
// installed.
func (d *DB) NewDenseWriter(k Key, stored uint64) (*LayerWriter, error) {
	if _, ok := keySlot(k); ok && ValidIn(d.v, k) {
		if slots := d.x.Layer(k).Size(); stored > slots {
			return nil, fmt.Errorf("layers: writing layer %v: %d values stored in %d slots", k, stored, slots)
		}
	}
	return d.newWriter(k, false, &stored)
}

// newWriter starts a file of one byte per slot (with old set, of the
// format before), or with stored not nil a dense one storing *stored
// values.
func (d *DB) newWriter(k Key, old bool, stored *uint64) (*LayerWriter, error) {
	if _, ok := keySlot(k); !ok || !ValidIn(d.v, k) {
		return nil, fmt.Errorf("layers: writing layer %v: not a layer of %s", k, d.v.Name())
	}
	if err := d.ensureDir(); err != nil {
		return nil, err
	}
	path := d.Path(k)
	f, err := CreateRegular(path + ".tmp")
	if err != nil {
		return nil, fmt.Errorf("layers: writing %s: %w", path, err)
	}
	slots := d.x.Layer(k).Size()
	w := &LayerWriter{d: d, k: k, path: path, f: f, w: bufio.NewWriterSize(f, 1<<20), size: slots, old: old}
	if stored != nil {
		w.dense = newDenseWrite(slots, *stored)
		w.size = w.dense.size
	}
	if _, err := w.w.Write(make([]byte, HeaderSize)); err != nil { // the header comes last
		w.Abort()
		return nil, fmt.Errorf("layers: writing %s: %w", path, err)
	}
	return w, nil
}

// what names the body the writer expects, for messages.
func (w *LayerWriter) what() string {
	if w.dense != nil {
		return fmt.Sprintf("the dense body's %d bytes", w.size)
	}
	return fmt.Sprintf("the layer's %d slots", w.size)
}

// Write appends p to the body; writing more than the body's size is an
// error, and so, for a dense body, is a rank directory that does not
// match the bits written before it.
func (w *LayerWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("layers: writing %s: already committed or aborted", w.path)
	}
	if w.err != nil {
		return 0, w.err
	}
	if uint64(len(p)) > w.size-w.n {
		return 0, fmt.Errorf("layers: writing %s: more than %s", w.path, w.what())
	}
	if w.dense != nil {
		if err := w.dense.observe(w.n, p, &w.count); err != nil {
			w.err = fmt.Errorf("layers: writing %s: %w: %v", w.path, ErrChecksum, err)
			return 0, w.err
		}
	} else {
		for _, v := range p {
			w.count[v]++
		}
	}
	n, err := w.w.Write(p)
	if err != nil {
		return n, fmt.Errorf("layers: writing %s: %w", w.path, err)
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
	if err := w.complete(); err != nil {
		return Header{}, err
	}
	return w.header(w.finalSums()), nil
}

// complete returns an error unless the whole body is written and, for a
// dense body, holds together.
func (w *LayerWriter) complete() error {
	if w.err != nil {
		return w.err
	}
	if w.n != w.size {
		return fmt.Errorf("layers: writing %s: %d of %s written", w.path, w.n, w.what())
	}
	if w.dense != nil {
		if err := w.dense.finish(&w.count); err != nil {
			return fmt.Errorf("layers: writing %s: %w: %v", w.path, ErrChecksum, err)
		}
	}
	return nil
}

// header returns the header of the body written, whose blocks have the
// CRC-64s sums.
func (w *LayerWriter) header(sums []uint64) Header {
	// headerOfCounts takes the body's size for the slots of a file of one
	// byte per slot; a dense file's header then says its slots and stored.
	h := headerOfCounts(w.d.v, w.k, w.size, &w.count, sums)
	if w.dense != nil {
		h.Layout, h.Slots, h.Stored = LayoutDense, w.dense.slots, w.dense.stored
	}
	if w.old {
		h.Version = OldVersion
	}
	return h
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
	if err := w.complete(); err != nil {
		w.Abort()
		return Header{}, err
	}
	w.sums = w.finalSums()
	h := w.header(w.sums)
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
		err = installLayer(w.path, h, binary.LittleEndian.Uint32(head[72:]), blockShift, w.sums)
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

// denseWrite follows a dense body as it is written in pieces: it counts
// the set bits of each block of 512 slots as the bits go by, compares the
// rank directory written after them with the one those counts give (as
// Dense.check does with a whole body), and counts the values.
type denseWrite struct {
	slots, stored            uint64
	super, sub, values, size uint64   // the layout (denseLayout)
	pop                      []uint16 // set bits of each block of 512 slots
	dir                      []byte   // the directory the bits give, encoded; nil until the bits are in
	set                      uint64   // set bits in all
}

func newDenseWrite(slots, stored uint64) *denseWrite {
	c := &denseWrite{slots: slots, stored: stored}
	c.super, c.sub, c.values, c.size = denseLayout(slots, stored)
	c.pop = make([]uint16, (slots+1<<rankBlockShift-1)>>rankBlockShift)
	return c
}

// observe takes the bytes p at offset off of the body: the bits are
// counted, the directory compared, the values counted into count.
func (c *denseWrite) observe(off uint64, p []byte, count *[256]uint64) error {
	end := off + uint64(len(p))
	if off < c.super {
		for i, b := range p[:min(end, c.super)-off] {
			o := off + uint64(i)
			// Byte o holds the bits of slots 8o to 8o+7: none of them may
			// be set at or beyond the layer's slots.
			if tail := c.slots - min(c.slots, 8*o); tail < 8 && b>>tail != 0 {
				return fmt.Errorf("bits set beyond the layer's %d slots (byte %d of the body)", c.slots, o)
			}
			c.pop[o/(1<<(rankBlockShift-3))] += uint16(bits.OnesCount8(b))
		}
	}
	if end > c.super && off < c.values {
		if c.dir == nil {
			c.directory()
		}
		lo, hi := max(off, c.super), min(end, c.values)
		got, want := p[lo-off:hi-off], c.dir[lo-c.super:hi-c.super]
		if !bytes.Equal(got, want) {
			i := lo
			for got[i-lo] == want[i-lo] {
				i++
			}
			if i < c.sub {
				return fmt.Errorf("the rank directory does not match the bits (superblock %d)", (i-c.super)/8)
			}
			return fmt.Errorf("the rank directory does not match the bits (block %d)", (i-c.sub)/2)
		}
	}
	if end > c.values {
		for _, v := range p[max(off, c.values)-off:] {
			count[v]++
		}
	}
	return nil
}

// directory computes the rank directory the bits give, encoded as the
// body holds it, and the number of set bits.
func (c *denseWrite) directory() {
	c.dir = make([]byte, c.values-c.super)
	const blocksPerSuper = 1 << (rankSuperShift - rankBlockShift)
	var total, inSuper uint64
	for b, n := range c.pop {
		if b%blocksPerSuper == 0 {
			binary.LittleEndian.PutUint64(c.dir[8*(b/blocksPerSuper):], total)
			inSuper = 0
		}
		binary.LittleEndian.PutUint16(c.dir[c.sub-c.super+2*uint64(b):], uint16(inSuper))
		total += uint64(n)
		inSuper += uint64(n)
	}
	c.set = total
}

// finish checks a dense body written in full: as many set bits as values,
// and no value Unused (a dense file stores a value for each set bit).
func (c *denseWrite) finish(count *[256]uint64) error {
	if c.dir == nil {
		c.directory()
	}
	if c.set != c.stored {
		return fmt.Errorf("%d slots marked stored, %d values", c.set, c.stored)
	}
	if count[Unused] != 0 {
		return fmt.Errorf("%d of the %d stored values are Unused", count[Unused], c.stored)
	}
	return nil
}
