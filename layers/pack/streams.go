package pack

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/klauspost/compress/fse"

	"muehle/layers"
)

// The coders of a block's data (byte 9 of its header, from package format
// 3 on). Export codes every block of a body both ways and keeps the
// smaller; the reach files' blocks are always zstd frames.
const (
	coderZstd    = 0 // one zstd frame
	coderStreams = 1 // context streams (below)
)

// Context streams. A value is much like its neighbours: the slot before it
// and the slot of the same A rank one B class back (layers/doc.go: B class
// major, A rank minor, so that one B class back is one stride of the
// layer's part back). So the coder gives each byte of a block a context
// made of the classes of those neighbours and of the byte two back, puts
// every byte into the stream of its context, and codes each stream with
// FSE (github.com/klauspost/compress/fse, zstd's entropy coder): a stream
// holds the values that follow one kind of neighbourhood, and its own
// distribution of them is narrower than the block's. Where values repeat
// over long distances (the flying layers) zstd's matches do better, and
// export keeps the zstd frame.
//
// The contexts look only at bytes of the same block, so a block decodes on
// its own. In a body without a geometry (a dense body: the bits, the rank
// directory and the values of the stored slots) the byte three back takes
// the place of the slot one B class back.
//
// The context of byte i: (mid(left)×24 + mid(up))×6 + r6(left2), where a
// missing neighbour counts as 0 (Unused).
const (
	midClasses  = 24
	r6Classes   = 6
	numContexts = midClasses * midClasses * r6Classes
)

var midClass, r6Class = func() (mid, r6 [256]uint8) {
	for v := range 256 {
		// mid: Unused, drawn, each depth below 12 apart, then won and lost
		// in five bands of 12 plies.
		if v < 14 {
			mid[v] = uint8(v)
		} else {
			mid[v] = uint8(14 + v&1 + 2*min((v-14)/12, 4))
		}
		// r6: Unused, drawn, won and lost within 24 plies, won and lost
		// deeper.
		if v < 2 {
			r6[v] = uint8(v)
		} else {
			r6[v] = uint8(2 + v&1 + 2*min((v-2)/24, 1))
		}
	}
	return mid, r6
}()

// A stream's coding, the byte after its count.
const (
	streamRaw = 0 // the bytes as they are
	streamRLE = 1 // one byte, repeated count times
	streamFSE = 2 // an FSE stream
)

// maxStreamHeader bounds the bytes before a block's streams: the context
// count, and per context its number, count, coding and length.
const maxStreamHeader = binary.MaxVarintLen32 + numContexts*(3*binary.MaxVarintLen32+1)

// geometry returns the parts of layer l whose body's context streams see
// one B class back: those of its index for a body of one byte per slot;
// none for a dense body, whose values are those of the stored slots
// only, or a layer of the format before, whose slots are in another
// order.
func geometry(x *layers.Indexer, l *Layer) []layers.Part {
	if l.Dense() || l.Old() {
		return nil
	}
	return x.Layer(l.key).Parts()
}

// segment is a run of a block's bytes within one part of the layer:
// raw[lo:hi], whose slot one B class back is stride bytes before (0: the
// byte three back stands in for it).
type segment struct{ lo, hi, stride int }

// segments splits a block's n bytes, the first of them byte base of the
// body, by the parts of its layer; with no parts, the block is one segment
// without a stride.
func segments(n int, base uint64, parts []layers.Part) []segment {
	if parts == nil {
		return []segment{{0, n, 0}}
	}
	var segs []segment
	end := base + uint64(n)
	for _, p := range parts {
		lo, hi := max(p.First, base), min(p.First+p.Slots, end)
		if lo < hi {
			segs = append(segs, segment{int(lo - base), int(hi - base), int(p.Stride)})
		}
	}
	return segs
}

// contextAt returns the context of byte i of raw in segment s, from the
// bytes before it.
func contextAt(raw []byte, i int, s segment) int {
	var l, l2, u byte
	if i > s.lo {
		l = raw[i-1]
		if i > s.lo+1 {
			l2 = raw[i-2]
		}
	}
	if s.stride > 0 {
		if i-s.stride >= s.lo {
			u = raw[i-s.stride]
		}
	} else if i > s.lo+2 {
		u = raw[i-3]
	}
	return (int(midClass[l])*midClasses+int(midClass[u]))*r6Classes + int(r6Class[l2])
}

// streamCoder codes blocks as context streams; one per goroutine.
type streamCoder struct {
	ctx    []uint16
	count  [numContexts]int
	start  [numContexts]int
	sorted []byte
	body   []byte
	fse    fse.Scratch
}

// encode appends the context streams of raw, the bytes of a body from
// byte base on, to dst. The layout:
//
//	uvarint  n: the contexts that occur
//	n times  uvarint: the context's number minus the one before's (the
//	         first: its number); uvarint: its bytes; a byte: the
//	         coding (0 raw, 1 one byte repeated, 2 FSE); uvarint: the
//	         coded length (raw, FSE) or the byte (repeated)
//	         then the coded streams, in the contexts' order
func (sc *streamCoder) encode(dst, raw []byte, base uint64, parts []layers.Part) []byte {
	if cap(sc.ctx) < len(raw) {
		sc.ctx = make([]uint16, len(raw))
		sc.sorted = make([]byte, len(raw))
	}
	ctx, sorted := sc.ctx[:len(raw)], sc.sorted[:len(raw)]
	clear(sc.count[:])
	for _, s := range segments(len(raw), base, parts) {
		for i := s.lo; i < s.hi; i++ {
			c := contextAt(raw, i, s)
			ctx[i] = uint16(c)
			sc.count[c]++
		}
	}
	n, at := 0, 0
	for c, k := range sc.count {
		sc.start[c] = at
		at += k
		if k > 0 {
			n++
		}
	}
	for i, c := range ctx {
		sorted[sc.start[c]] = raw[i]
		sc.start[c]++
	}
	dst = binary.AppendUvarint(dst, uint64(n))
	body := sc.body[:0]
	prev := 0
	for c, k := range sc.count {
		if k == 0 {
			continue
		}
		s := sorted[sc.start[c]-k : sc.start[c]]
		dst = binary.AppendUvarint(dst, uint64(c-prev))
		dst = binary.AppendUvarint(dst, uint64(k))
		prev = c
		out, err := fse.Compress(s, &sc.fse)
		switch {
		case errors.Is(err, fse.ErrUseRLE):
			dst = append(dst, streamRLE)
			dst = binary.AppendUvarint(dst, uint64(s[0]))
		case err != nil || len(out) >= len(s):
			dst = append(dst, streamRaw)
			dst = binary.AppendUvarint(dst, uint64(len(s)))
			body = append(body, s...)
		default:
			dst = append(dst, streamFSE)
			dst = binary.AppendUvarint(dst, uint64(len(out)))
			body = append(body, out...)
		}
	}
	sc.body = body
	return append(dst, body...)
}

// errStreams says what is wrong with a block's streams.
func errStreams(format string, a ...any) error {
	return fmt.Errorf("context streams: "+format, a...)
}

// decode decodes the context streams p of a block of n bytes, the first
// byte base of a body with the given parts, into dst[:n]. Bad streams give
// an error, never a panic.
func (sc *streamCoder) decode(dst []byte, p []byte, n int, base uint64, parts []layers.Part) ([]byte, error) {
	if cap(sc.sorted) < n {
		sc.ctx = make([]uint16, n)
		sc.sorted = make([]byte, n)
	}
	sorted := sc.sorted[:n]
	type stream struct {
		c, k, coding, arg int
	}
	next := func() (int, error) {
		v, m := binary.Uvarint(p)
		if m <= 0 || v > uint64(n) {
			return 0, errStreams("a bad number")
		}
		p = p[m:]
		return int(v), nil
	}
	used, err := next()
	if err != nil || used > numContexts {
		return nil, errStreams("bad count of contexts")
	}
	ss := make([]stream, used)
	c, total := 0, 0
	for j := range ss {
		d, err := next()
		if err != nil {
			return nil, err
		}
		if c += d; (j > 0 && d == 0) || c >= numContexts {
			return nil, errStreams("context %d out of order", c)
		}
		k, err := next()
		if err != nil || k == 0 {
			return nil, errStreams("context %d: bad length", c)
		}
		if len(p) == 0 {
			return nil, errStreams("truncated")
		}
		coding := int(p[0])
		p = p[1:]
		arg, err := next()
		if err != nil {
			return nil, err
		}
		ss[j] = stream{c, k, coding, arg}
		if total += k; total > n {
			return nil, errStreams("streams of %d bytes, the block holds %d", total, n)
		}
	}
	if total != n {
		return nil, errStreams("streams of %d bytes, the block holds %d", total, n)
	}
	clear(sc.count[:])
	at := 0
	for _, s := range ss {
		out := sorted[at : at+s.k]
		switch s.coding {
		case streamRLE:
			if s.arg > 255 {
				return nil, errStreams("context %d: a repeated byte of %d", s.c, s.arg)
			}
			for i := range out {
				out[i] = byte(s.arg)
			}
		case streamRaw, streamFSE:
			if s.arg > len(p) {
				return nil, errStreams("context %d: %d bytes coded, %d left", s.c, s.arg, len(p))
			}
			coded := p[:s.arg]
			p = p[s.arg:]
			if s.coding == streamRaw {
				if s.arg != s.k {
					return nil, errStreams("context %d: %d raw bytes for %d", s.c, s.arg, s.k)
				}
				copy(out, coded)
				break
			}
			sc.fse.DecompressLimit = s.k
			d, err := fse.Decompress(coded, &sc.fse)
			if err != nil || len(d) != s.k {
				return nil, errStreams("context %d does not decode to its %d bytes", s.c, s.k)
			}
			copy(out, d)
		default:
			return nil, errStreams("context %d: unknown coding %d", s.c, s.coding)
		}
		sc.start[s.c] = at
		sc.count[s.c] = at + s.k // the stream's end
		at += s.k
	}
	if len(p) != 0 {
		return nil, errStreams("%d bytes after the last stream", len(p))
	}
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	for _, s := range segments(n, base, parts) {
		for i := s.lo; i < s.hi; i++ {
			c := contextAt(dst, i, s)
			if sc.start[c] >= sc.count[c] {
				return nil, errStreams("the stream of context %d ends early", c)
			}
			dst[i] = sorted[sc.start[c]]
			sc.start[c]++
		}
	}
	return dst, nil
}
