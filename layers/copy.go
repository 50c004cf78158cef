package layers

import "fmt"

// Copy is a layer's values copied from its file into memory outside the Go
// heap (AllocLarge: huge pages where the system allows), for a solver or
// verifier that looks up values at random in a whole layer: no page
// faults, few TLB misses. It reads like the File it was copied from and is
// safe for concurrent reads.
type Copy struct {
	flat    []byte // one byte per slot; nil for a dense layer
	dense   *Dense // a dense layer; nil otherwise
	release func()
}

// Copy returns a copy of the file's body in memory, and lets the file's
// pages go from this process's resident memory (DropPages). A compressed
// file's body, decoded in memory already, is not copied again.
func (f *File) Copy() (*Copy, error) {
	if f.z != nil {
		c := f.View()
		if c.dense != nil {
			c.dense = c.dense.withWordRanks()
		}
		return c, nil
	}
	c, err := f.copyBody()
	if err != nil {
		return nil, err
	}
	DropPages(f.m)
	if f.dense != nil {
		if c.dense, err = denseView(c.flat, f.h.Slots, f.h.Stored); err != nil {
			c.release()
			return nil, fmt.Errorf("layers: copying %s into memory: %w", f.path, err)
		}
		c.dense = c.dense.withWordRanks() // a copy is made for many look-ups
		c.flat = nil
	}
	return c, nil
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
