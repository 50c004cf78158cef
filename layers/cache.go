package layers

import (
	"container/list"
	"encoding/binary"
	"math/bits"
	"sync"
)

// DefaultCacheBytes is the bound of a DB's block cache until
// SetCacheBytes: the decoded blocks of compressed layers it keeps for
// probes, and the bodies of compressed layers decoded in full it holds
// for DB.Layer, each up to this many bytes.
const DefaultCacheBytes = 256 << 20

// blockCache keeps decoded blocks of compressed files, the least recently
// used given up first once their bytes exceed max. It is safe for
// concurrent use.
type blockCache struct {
	mu    sync.Mutex
	max   int64
	bytes int64
	lru   list.List // of *cached, the most recent in front
	m     map[cacheKey]*list.Element
}

type cacheKey struct {
	file  uint64 // zFile.id
	block int
}

type cached struct {
	key  cacheKey
	data []byte
}

// get returns block b of z, decoded, from the cache or decoded now and
// kept. The error wraps ErrChecksum.
func (c *blockCache) get(z *zFile, b int) ([]byte, error) {
	key := cacheKey{z.id, b}
	c.mu.Lock()
	if e, ok := c.m[key]; ok {
		c.lru.MoveToFront(e)
		data := e.Value.(*cached).data
		c.mu.Unlock()
		return data, nil
	}
	c.mu.Unlock()
	coder := coders.Get().(*blockCoder)
	data, err := z.decode(make([]byte, z.blockLen(b)), b, coder)
	coders.Put(coder)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[key]; ok { // decoded meanwhile by another probe
		return e.Value.(*cached).data, nil
	}
	if c.m == nil {
		c.m = make(map[cacheKey]*list.Element)
	}
	c.m[key] = c.lru.PushFront(&cached{key, data})
	c.bytes += int64(cap(data))
	for c.bytes > c.limit() && c.lru.Len() > 1 {
		e := c.lru.Back()
		old := c.lru.Remove(e).(*cached)
		delete(c.m, old.key)
		c.bytes -= int64(cap(old.data))
	}
	return data, nil
}

// limit is the bound in bytes; c.mu is held.
func (c *blockCache) limit() int64 {
	if c.max <= 0 {
		return DefaultCacheBytes
	}
	return c.max
}

// forget drops the blocks of the file id (closed or found damaged).
func (c *blockCache) forget(id uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.lru.Front(); e != nil; {
		next := e.Next()
		if v := e.Value.(*cached); v.key.file == id {
			c.lru.Remove(e)
			delete(c.m, v.key)
			c.bytes -= int64(cap(v.data))
		}
		e = next
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
