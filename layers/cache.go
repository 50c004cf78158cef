package layers

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"sync/atomic"
)

// DefaultCacheBytes is the bound of a DB's memory for compressed layers
// until SetCacheBytes: the decoded blocks it keeps for probes and the
// bodies of compressed layers decoded in full it holds for DB.Layer,
// together up to this many bytes.
const DefaultCacheBytes = 1 << 30

// blockCache keeps decoded blocks of compressed files, up to max bytes.
// A probe finds a block in its file's slot (zFile.blocks) with one atomic
// load and marks it used; a probe that decodes a block inserts it and,
// over the bound, gives up blocks by the clock algorithm (a block used
// since the hand last passed is kept one more round). It is safe for
// concurrent use.
type blockCache struct {
	mu    sync.Mutex
	max   int64
	bytes int64
	ring  []*cachedBlock // the blocks held
	hand  int
	// held is the bytes of the bodies decoded in full that the DB holds
	// (DB.holdDecoded): the blocks get what they leave of the bound.
	held atomic.Int64
}

// cachedBlock is a decoded block held by the cache.
type cachedBlock struct {
	data []byte
	used atomic.Bool
	z    *zFile
	b    int
}

// get returns block b of z, decoded, from the cache or decoded now and
// kept. The error wraps ErrChecksum.
func (c *blockCache) get(z *zFile, b int) ([]byte, error) {
	if cb := z.blocks[b].Load(); cb != nil {
		if !cb.used.Load() {
			cb.used.Store(true)
		}
		return cb.data, nil
	}
	coder := coders.Get().(*blockCoder)
	data, err := z.decode(make([]byte, z.blockLen(b)), b, coder)
	coders.Put(coder)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cb := z.blocks[b].Load(); cb != nil { // decoded meanwhile by another probe
		return cb.data, nil
	}
	cb := &cachedBlock{data: data, z: z, b: b}
	z.blocks[b].Store(cb)
	c.ring = append(c.ring, cb)
	c.bytes += int64(cap(data))
	c.evict(cb)
	return data, nil
}

// evict gives up blocks by the clock algorithm while the cache exceeds
// its limit, keeping at least one block and never keep; c.mu is held.
func (c *blockCache) evict(keep *cachedBlock) {
	for limit := c.limit(); c.bytes > limit && len(c.ring) > 1; {
		c.hand %= len(c.ring)
		old := c.ring[c.hand]
		if old == keep {
			c.hand++
			continue
		}
		if old.used.Load() {
			old.used.Store(false)
			c.hand++
			continue
		}
		c.drop(c.hand)
	}
}

// shrink gives up blocks until the cache fits its limit (after
// SetCacheBytes, or a layer decoded in full).
func (c *blockCache) shrink() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.evict(nil)
}

// drop gives up the block at ring position i; c.mu is held.
func (c *blockCache) drop(i int) {
	old := c.ring[i]
	old.z.blocks[old.b].Store(nil)
	c.bytes -= int64(cap(old.data))
	last := len(c.ring) - 1
	c.ring[i] = c.ring[last]
	c.ring[last] = nil
	c.ring = c.ring[:last]
}

// limit is the bound of the blocks in bytes: the DB's bound less the
// bodies decoded in full it holds, and at least floor; c.mu is held.
func (c *blockCache) limit() int64 {
	return max(c.bound()-c.held.Load(), c.floor())
}

// floor is the room the blocks keep whatever the DB holds decoded in
// full: an eighth of the bound. A cache left one block decodes a block
// for nearly every probe; DB.holdDecoded lets go of layers to leave the
// blocks this much. c.mu is held.
func (c *blockCache) floor() int64 { return c.bound() / 8 }

// heldRoom is what the bodies a DB holds decoded in full may take: the
// bound less the blocks' floor.
func (c *blockCache) heldRoom() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bound() - c.floor()
}

// bound is the DB's bound in bytes (SetCacheBytes); c.mu is held.
func (c *blockCache) bound() int64 {
	if c.max <= 0 {
		return DefaultCacheBytes
	}
	return c.max
}

// forget drops the blocks of the file z (closed or found damaged).
func (c *blockCache) forget(z *zFile) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := 0; i < len(c.ring); {
		if c.ring[i].z == z {
			c.drop(i)
			continue
		}
		i++
	}
}

// size returns the bytes of decoded blocks the cache holds.
func (c *blockCache) size() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// at returns n bytes of z's body from off on, which must not cross a
// block boundary: value reads a byte, a uint16 or uint64 at an offset of
// its size, or words of one 64-byte line.
func (c *blockCache) at(z *zFile, off uint64, n int) ([]byte, error) {
	data, err := c.get(z, int(off>>z.shift))
	if err != nil {
		return nil, err
	}
	lo := int(off & (1<<z.shift - 1))
	return data[lo : lo+n], nil
}

// value returns the value of slot i of the compressed layer z with header
// h, reading through the cache: in a body of one byte per slot its byte;
// in a dense body its bit, its two rank directory entries, the words of
// bits before it in its 64-byte line and the value at its rank.
func (c *blockCache) value(z *zFile, h *Header, i uint64) (Value, error) {
	if i >= h.Slots {
		return Unused, nil
	}
	if !h.Dense() {
		b, err := c.at(z, i, 1)
		if err != nil {
			return Unused, err
		}
		return Value(b[0]), nil
	}
	le := binary.LittleEndian
	w := i >> 6
	line, err := c.at(z, 8*(w&^7), int(8*(w&7+1))) // the words of its line up to its own
	if err != nil {
		return Unused, err
	}
	word := le.Uint64(line[8*(w&7):])
	if word>>(i&63)&1 == 0 {
		return Unused, nil
	}
	super, sub, values, _ := denseLayout(h.Slots, h.Stored)
	sb, err := c.at(z, super+8*(i>>rankSuperShift), 8)
	if err != nil {
		return Unused, err
	}
	bb, err := c.at(z, sub+2*(i>>rankBlockShift), 2)
	if err != nil {
		return Unused, err
	}
	r := le.Uint64(sb) + uint64(le.Uint16(bb))
	for j := range w & 7 {
		r += uint64(bits.OnesCount64(le.Uint64(line[8*j:])))
	}
	r += uint64(bits.OnesCount64(word & (1<<(i&63) - 1)))
	if r >= h.Stored {
		return Unused, nil
	}
	v, err := c.at(z, values+r, 1)
	if err != nil {
		return Unused, err
	}
	return Value(v[0]), nil
}
