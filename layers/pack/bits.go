package pack

import (
	"muehle/layers"
)

// Bit contexts (coder 3). A dense layer's body starts with the bits of
// its stored slots, one per slot (layers/dense.go): which classes a game
// can reach. Reachable classes lie together in the slot order much as
// values do, so the coder takes each bit of a block as a symbol in the
// context of the bits around its slot (the slot before, two before, the
// slot one B class back and the slots beside it, two B classes back),
// and codes each context's symbols as a stream (encodeContexts), as the
// context streams code values. Only blocks wholly within the bits of a
// dense layer are coded so; the contexts look only at the block's own
// bits.
const (
	coderBits    = 3
	bitsContexts = 64
)

// bitsOf returns, for a block of n bytes from byte base on of layer l's
// body, the layer's slots and parts when the block lies wholly within
// the bits of a dense body (coder 3 may code it); ok is false otherwise.
func bitsOf(x *layers.Indexer, l *Layer, base uint64, n int) (slots uint64, parts []layers.Part, ok bool) {
	if !l.Dense() || l.Old() || base+uint64(n) > 8*((l.Slots+63)/64) {
		return 0, nil, false
	}
	return l.Slots, x.Layer(l.key).Parts(), true
}

// bitSegments returns the segments of the slots whose bits are the n bytes
// of a dense body from byte base on: slots 8×base to 8×(base+n), at most
// slots, split by the layer's parts; lo and hi count slots from 8×base.
func bitSegments(n int, base, slots uint64, parts []layers.Part) []segment {
	first := 8 * base
	end := min(first+8*uint64(n), slots)
	if end <= first {
		return nil
	}
	return segments(int(end-first), first, parts)
}

// bitContext returns the context of slot i of a block's bits b (bit i%8 of
// byte i/8) in segment s, from the bits before it.
func bitContext(b []byte, i int, s segment) int {
	bit := func(j int) int { return int(b[j>>3] >> (j & 7) & 1) }
	c := 0
	if i > s.lo {
		c = bit(i - 1)
		if i > s.lo+1 {
			c |= bit(i-2) << 1
		}
	}
	if u := i - s.stride; s.stride > 0 && u >= s.lo {
		c |= bit(u) << 2
		if s.stride > 1 { // the slot beside it, before this one
			c |= bit(u+1) << 4
		}
		if u > s.lo {
			c |= bit(u-1) << 3
		}
		if u-s.stride >= s.lo {
			c |= bit(u-s.stride) << 5
		}
	}
	return c
}

// encodeBits appends the bit contexts of raw, the bytes of a dense body of
// slots slots from byte base on, all within its bits, to dst.
func (sc *streamCoder) encodeBits(dst, raw []byte, base, slots uint64, parts []layers.Part) []byte {
	n := 8 * len(raw)
	if cap(sc.ctx) < n {
		sc.ctx = make([]uint16, n)
	}
	if cap(sc.syms) < n {
		sc.syms = make([]byte, n)
	}
	ctx, syms := sc.ctx[:0], sc.syms[:0]
	for _, s := range bitSegments(len(raw), base, slots, parts) {
		for i := s.lo; i < s.hi; i++ {
			ctx = append(ctx, uint16(bitContext(raw, i, s)))
			syms = append(syms, raw[i>>3]>>(i&7)&1)
		}
	}
	return sc.encodeContexts(dst, syms, ctx, bitsContexts)
}

// decodeBits decodes the bit contexts p of a block of n bytes of a dense
// body of slots slots, from byte base on, into dst[:n].
func (sc *streamCoder) decodeBits(dst, p []byte, n int, base, slots uint64, parts []layers.Part) ([]byte, error) {
	segs := bitSegments(n, base, slots, parts)
	m := 0
	for _, s := range segs {
		m += s.hi - s.lo
	}
	syms, err := sc.streams(p, m, bitsContexts)
	if err != nil {
		return nil, err
	}
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	clear(dst)
	for _, s := range segs {
		for i := s.lo; i < s.hi; i++ {
			c := bitContext(dst, i, s)
			if sc.start[c] >= sc.count[c] {
				return nil, errStreams("the stream of context %d ends early", c)
			}
			if b := syms[sc.start[c]]; b > 1 {
				return nil, errStreams("a bit of %d", b)
			} else {
				dst[i>>3] |= b << (i & 7)
			}
			sc.start[c]++
		}
	}
	return dst, nil
}

// The rank directory (coder 4). A dense body's rank directory follows from
// its bits (layers.DenseDirectory), so a block that holds any of it is
// coded without it: the bytes before it (bits) and after it (values), each
// coded apart, the directory's bytes left out and derived on import from
// the layer's bits, which all come before it. The block's data:
//
//	uvarint  the length of the first part's zstd frame (0: the block has
//	         no bytes before the directory)
//	         that frame
//	then, when the block has bytes after the directory: a byte, their
//	coder (0 a zstd frame, 1 context streams without a geometry), and
//	their coded bytes.
const coderDirectory = 4

// directoryPart returns, for a block of n bytes from byte base on of layer
// l's body, how many of its bytes lie before the rank directory (head) and
// after it (tail); ok is false when the block holds none of the directory
// or the layer is not dense.
func directoryPart(l *Layer, base uint64, n int) (head, tail int, ok bool) {
	if !l.Dense() || l.Old() {
		return 0, 0, false
	}
	dir, val := layers.DenseRegions(l.Slots, l.Stored)
	end := base + uint64(n)
	if end <= dir || base >= val {
		return 0, 0, false
	}
	if base < dir {
		head = int(dir - base)
	}
	if end > val {
		tail = int(end - val)
	}
	return head, tail, true
}
