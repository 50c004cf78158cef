package layers

import (
	"fmt"
	"slices"
	"sync"

	"muehle/muehle"
)

// A reader of a whole layer that needs the depths of only a few of its won
// slots (the solver's count phase, the verifier) need not pay for all of
// them: BorrowStored gives a layer of compressed form 2 as its file
// stores it, FillWon finds the depths of the won slots the reader marks,
// and a WonReader finds one position's depth at a time. The depths are
// found as DB.Layer finds them all (fillWon, one ply over the children).

// BorrowStored is Borrow of layer k as its file stores it: a layer of one
// byte per slot in compressed form 2 comes decoded, but each won slot holds
// "won" without its depth, the value WinIn(1) (stored true); any other
// layer comes as Borrow gives it, every value complete (stored false).
// The body is the DB's: a reader that fills depths in copies it first.
func (d *DB) BorrowStored(k Key) (f *File, stored bool, release func(), err error) {
	return d.borrowStored(k, false)
}

// DenseBits returns a copy of the stored slots of the dense layer k, bit
// i%64 of word i/64 for slot i (Dense.Bits); ok is false when k's file is
// not dense. A file of compressed form 2 is read as stored: which slots
// it stores does not depend on the won depths, whose finding would need
// the layers its moves lead to (a solver computing one of those again
// reads the bits of the layers above it).
func (d *DB) DenseBits(k Key) (bits []uint64, ok bool, err error) {
	f, _, release, err := d.borrowStored(k, true)
	if err != nil {
		return nil, false, err
	}
	defer release()
	if f.Dense() == nil {
		return nil, false, nil
	}
	return slices.Clone(f.Dense().Bits()), true, nil
}

// borrowStored is BorrowStored; with dense, a dense layer of compressed
// form 2 comes as stored too.
func (d *DB) borrowStored(k Key, dense bool) (f *File, stored bool, release func(), err error) {
	for {
		e, err := d.layer(k, true)
		if err != nil {
			return nil, false, nil, err
		}
		if !e.f.open || e.f.h.Dense() && !dense {
			f, release, err := d.Borrow(k)
			return f, false, release, err
		}
		if !d.hold(e) { // retired meanwhile: look again
			continue
		}
		var once sync.Once
		return e.f, true, func() { once.Do(func() { d.release(e.f) }) }, nil
	}
}

// FillWon sets the depth of the won slots of body whose bit is set in
// marks (bit i%64 of marks[i/64] for slot i): body is a copy of layer k's
// body as BorrowStored gave it (stored), one byte per slot. The other
// slots stay as they are, a won one "won". It works on all cores; a
// marked won slot without a lost child gives a *DamagedError of k, a
// child's layer missing or damaged its error.
func (d *DB) FillWon(k Key, body []byte, marks []uint64) error {
	h, err := d.storedHeader(k)
	if err != nil {
		return err
	}
	if uint64(len(body)) != h.Slots || uint64(len(marks)) < (h.Slots+63)/64 {
		return fmt.Errorf("layers: FillWon %s: a body of %d slots and marks for %d, the layer has %d", k, len(body), 64*len(marks), h.Slots)
	}
	return d.fillWon(k, h, body, marks)
}

// storedHeader returns the header of layer k, open in compressed form 2 with one
// byte per slot.
func (d *DB) storedHeader(k Key) (Header, error) {
	e, err := d.layer(k, false)
	if err != nil {
		return Header{}, err
	}
	if !e.f.open || e.f.h.Dense() {
		return Header{}, fmt.Errorf("layers: %s is not kept in compressed form 2 with one byte per slot", k)
	}
	return e.f.h, nil
}

// A WonReader finds the depths of won positions of one layer one at a
// time, as FillWon does. One per goroutine; Release ends its reading of
// the layers beside.
type WonReader struct {
	r plyReader
}

// WonReader returns a reader of the won depths of layer k's positions.
func (d *DB) WonReader(k Key) *WonReader {
	return &WonReader{r: plyReader{d: d, k: k}}
}

// Depth returns the depth of p, a position of the reader's layer won for
// its side to move: 1 + the least depth of its children lost for theirs.
// A position none of whose children is lost gives an error.
func (w *WonReader) Depth(p muehle.Position) (int, error) {
	return w.r.wonDepth(p)
}

// Release gives back the layers the reader read.
func (w *WonReader) Release() { w.r.release() }

// CopyStored returns a copy in memory of the body of f, a layer of one
// byte per slot borrowed as stored (BorrowStored), that FillWon can fill
// in: unlike Copy it copies a compressed file's decoded body too.
func (f *File) CopyStored() (*Copy, error) {
	if f.dense != nil || f.body == nil {
		return nil, fmt.Errorf("layers: %s: no body of one byte per slot to copy", f.path)
	}
	return f.copyBody()
}

// StoredCopy returns a Copy that reads b, when b is a copy of f's body as
// CopyStored gives it in which FillWon may since have found the depths of
// some won slots: f's body but for those depths (ok false otherwise). Its
// Release does nothing; b stays its owner's. The solver's count phase
// hands its copies of the layers it read as stored, the depths it needed
// found, to the verifier of its unit so, which would otherwise copy them
// again and find most of those depths once more. The check (a page at a
// time, a few hundredths of a second per hundred million slots) makes
// sure that the verifier reads the file's values, whatever the count did
// with its copy; a won slot's depth it takes as FillWon found it.
func (f *File) StoredCopy(b []byte) (c *Copy, ok bool) {
	if f.dense != nil || f.body == nil || !sameStored(f.body, b, f.h.valuesFrom()) {
		return nil, false
	}
	return &Copy{flat: b, release: func() {}}, true
}

// Flat returns the copy's bytes, one per slot: nil for a dense layer.
func (c *Copy) Flat() []byte { return c.flat }
