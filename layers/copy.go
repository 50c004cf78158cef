package layers

import (
	"fmt"
	"math/bits"
)

// Copy is a layer's values copied from its file into memory outside the Go
// heap (AllocLarge: huge pages where the system allows), one byte per
// slot, for a solver or verifier that looks up values at random in a
// whole layer: no page faults, few TLB misses, and one cache miss a look-up
// (a dense layer read where it lies needs three: its bits, its rank, its
// value). It reads like the File it was copied from and is safe for
// concurrent reads.
type Copy struct {
	flat    []byte // one byte per slot; nil for a dense layer read in place (View)
	dense   *Dense // a dense layer read in place; nil otherwise
	release func()
}

// Copy returns a copy of the file's values in memory, one byte per slot
// (Unused where a dense layer stores none), and lets the file's pages go
// from this process's resident memory (DropPages). A compressed file's
// flat body, decoded in memory already, is not copied again; a dense
// layer's copy takes a byte for each of its slots, stored or not
// (CopyBytes).
func (f *File) Copy() (*Copy, error) {
	if f.dense != nil {
		c, err := f.dense.flatCopy()
		if err != nil {
			return nil, fmt.Errorf("layers: copying %s into memory: %w", f.path, err)
		}
		if f.z == nil {
			DropPages(f.m)
		}
		return c, nil
	}
	if f.z != nil {
		return f.View(), nil
	}
	c, err := f.copyBody()
	if err != nil {
		return nil, err
	}
	DropPages(f.m)
	return c, nil
}

// CopyBytes returns the memory Copy takes for the file's values: a byte
// per slot of a dense layer, the body of a flat file not compressed, and
// nothing for a compressed flat file, whose decoded body Copy reads.
func (f *File) CopyBytes() int64 {
	switch {
	case f.dense != nil:
		return int64(f.dense.Slots())
	case f.z != nil:
		return 0
	}
	return int64(len(f.body))
}

// View returns the file's values as a Copy that reads the mapped file
// itself, without copying: for a reader whose memory budget has no room
// for a copy. Its Release does nothing; it is valid until the file is
// closed.
func (f *File) View() *Copy {
	c := &Copy{flat: f.body, release: func() {}}
	if f.dense != nil {
		c.flat, c.dense = nil, f.dense
	}
	return c
}

// Value returns the value of slot i, as File.Value does. It is small
// enough to be inlined: a verifier calls it for every child.
func (c *Copy) Value(i uint64) Value {
	if i < uint64(len(c.flat)) {
		return Value(c.flat[i])
	}
	return c.denseValue(i)
}

// denseValue is Value of a dense layer (whose flat is nil), or of a slot
// out of range; not inlined, so that Value is.
//
//go:noinline
func (c *Copy) denseValue(i uint64) Value {
	if c.dense != nil {
		return c.dense.Value(i)
	}
	return Unused
}

// Release frees the copy's memory; it must not be used afterwards.
func (c *Copy) Release() { c.release() }

// copyBody returns a Copy of f's body, flat, in memory outside the Go
// heap (AllocLarge).
func (f *File) copyBody() (*Copy, error) {
	b, release, err := AllocLarge(len(f.body))
	if err != nil {
		return nil, fmt.Errorf("layers: copying %s into memory: %w", f.path, err)
	}
	copy(b, f.body)
	return &Copy{flat: b, release: release}, nil
}

// flatCopy returns the values of d one byte per slot, Unused (0) where
// none is stored, in memory from AllocLarge.
func (d *Dense) flatCopy() (*Copy, error) {
	b, release, err := AllocLarge(int(d.slots))
	if err != nil {
		return nil, err
	}
	r := 0
	for w, x := range d.bits {
		for ; x != 0; x &= x - 1 {
			b[w*64+bits.TrailingZeros64(x)] = d.values[r]
			r++
		}
	}
	return &Copy{flat: b, release: release}, nil
}
