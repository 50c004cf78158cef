package layers

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/fse"
	"github.com/klauspost/compress/zstd"
)

// The coders of a compressed block (compressed.go), the first byte of its
// frame.
const (
	blockZstd    = 0 // one zstd frame, without zstd's checksum
	blockStreams = 1 // context streams (below)
	blockRaw     = 2 // the bytes as they are
)

// blockCoder codes and decodes the blocks of compressed layers; one per
// goroutine.
type blockCoder struct {
	sc  StreamCoder
	enc *zstd.Encoder
	dec *zstd.Decoder
}

// zstd's coders are made once: each holds tables worth reusing.
var (
	zstdEnc = sync.OnceValues(func() (*zstd.Encoder, error) {
		return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
	})
	zstdDec = sync.OnceValues(func() (*zstd.Decoder, error) {
		return zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(1<<24+1<<10))
	})
)

// encode appends the frame of raw, the bytes of a body from byte base on
// in a layer of the given parts (nil: a dense body), to dst: the smaller
// of a zstd frame and the bytes as they are, or context streams where
// they are smaller than both by more than a streamsGain-th of raw, where
// streams says to try them (in a layer where a sample of the blocks found
// that they pay: streamsPay).
func (c *blockCoder) encode(dst, raw []byte, base uint64, parts []Part, streams bool) ([]byte, error) {
	if c.enc == nil {
		var err error
		if c.enc, err = zstdEnc(); err != nil {
			return nil, err
		}
	}
	at := len(dst)
	dst = append(dst, blockZstd)
	dst = c.enc.EncodeAll(raw, dst)
	best := min(len(dst)-at-1, len(raw)) // the smaller payload
	if gain := len(raw) / streamsGain; streams && best > gain {
		if st := c.sc.Encode(nil, raw, base, parts, nil); len(st)+gain < best {
			return append(append(dst[:at], blockStreams), st...), nil
		}
	}
	if len(raw) <= len(dst)-at-1 {
		dst = append(append(dst[:at], blockRaw), raw...)
	}
	return dst, nil
}

// streamsGain: a block is coded as context streams only where they save
// more than a streamsGain-th of its bytes, for they decode about 8 times
// as slowly as zstd (TestCoderTrial, 2026-11-30: 137 µs against 17 µs a
// block of 16 KiB, the 6-stone game's layers), and a probe of a block not
// yet decoded waits for that. That is rare in a real game's layers: the
// 6-stone game solved so kept 598 blocks of streams of 34,854 and took
// 17.6 % more disk than with the smaller of the two each time; its
// blocks decode 4.3 times as fast (doc.go, "Or blocks that decode
// faster").
const streamsGain = 16

// streamsPay codes every streamsSample-th block of a layer both ways,
// and finds the streams worth trying on the layer where they win at least
// one of every streamsShare blocks of that sample.
const (
	streamsSample = 64
	streamsShare  = 32
)

// streamsPay tells whether the context streams are worth trying on the n
// blocks of a layer of the given parts, blocks of 2^shift bytes: block
// returns block b in the form stored (in buf, which has room for a block,
// where that differs from the body). It codes a sample of the blocks both
// ways, as encode does, and answers yes where the streams win a
// streamsShare-th of them, or where the layer has too few blocks for a
// sample. In Lasker Morris the streams were tried on nearly every block
// and kept on almost none (7-8: none of 32,237 blocks; 7-10: 9 of
// 25,800): the sample alone took writing 7-8 compressed from 41.5 to
// 15.8 processor ns a byte (BenchmarkWriteCompressed). The answer depends on the layer's bytes
// alone, so a layer computed twice is written the same.
func streamsPay(n int, block func(b int, buf []byte) []byte, shift uint, parts []Part) (bool, error) {
	if n < 2*streamsSample {
		return true, nil
	}
	c := coders.Get().(*blockCoder)
	defer coders.Put(c)
	buf := make([]byte, 0, 1<<shift)
	var dst []byte
	sampled, won := 0, 0
	for b := streamsSample / 2; b < n; b += streamsSample {
		var err error
		if dst, err = c.encode(dst[:0], block(b, buf), uint64(b)<<shift, parts, true); err != nil {
			return false, err
		}
		sampled++
		if dst[0] == blockStreams {
			won++
		}
	}
	return won*streamsShare >= sampled, nil
}

// decode decodes the frame p of a block of n bytes, body bytes from base
// on, into dst[:n]. A bad frame gives an error, never a panic.
func (c *blockCoder) decode(dst, p []byte, n int, base uint64, parts []Part) ([]byte, error) {
	if len(p) == 0 {
		return nil, errors.New("an empty frame")
	}
	switch p[0] {
	case blockZstd:
		if c.dec == nil {
			var err error
			if c.dec, err = zstdDec(); err != nil {
				return nil, err
			}
		}
		out, err := c.dec.DecodeAll(p[1:], dst[:0])
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		if len(out) != n {
			return nil, fmt.Errorf("a zstd frame of %d bytes, want %d", len(out), n)
		}
		return out, nil
	case blockStreams:
		return c.sc.Decode(dst, p[1:], n, base, parts, nil)
	case blockRaw:
		if len(p)-1 != n {
			return nil, fmt.Errorf("%d bytes stored, want %d", len(p)-1, n)
		}
		return append(dst[:0], p[1:]...), nil
	}
	return nil, fmt.Errorf("unknown coder %d", p[0])
}

// MidClass returns the class of a value in the contexts of the context
// streams (below).
func MidClass(v byte) uint8 { return midClass[v] }

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
// These contexts look only at bytes of the same block, so a block of
// coder 1 decodes on its own. In a body without a geometry (a dense body: the bits, the rank
// directory and the values of the stored slots) the byte three back takes
// the place of the slot one B class back.
//
// The context of byte i: (mid(left)×24 + mid(up))×6 + r6(left2), where a
// missing neighbour counts as 0 (Unused).
//
// The partner's value. A moving layer M(w,b) and its partner M(b,w) hold
// the same arrangements of stones with the other side to move, and the
// value of one says much about the value of the other: 4-8 coded knowing
// 8-4 takes a quarter less (docs/export.md). So a moving layer whose
// partner comes before it in the package (the second of each pair) has
// its blocks coded by coder 2, whose context is (mid(left)×24 +
// mid(up))×24 + mid(partner), the partner's value being that of the slot
// of the same stones with the colours exchanged (LayerIndex.Swapped).
// A layer that is its own partner (w = b) knows in this way the slots
// before the one coded, and counts the others as Unused.
const (
	midClasses      = 24
	r6Classes       = 6
	StreamContexts  = midClasses * midClasses * r6Classes
	partnerContexts = midClasses * midClasses * midClasses
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

// Segment is a run of a block's bytes within one part of the layer:
// raw[lo:hi], whose slot one B class back is stride bytes before (0: the
// byte three back stands in for it).
type Segment struct{ Lo, Hi, Stride int }

// streamSegments splits a block's n bytes, the first of them byte base of the
// body, by the parts of its layer; with no parts, the block is one segment
// without a stride.
func streamSegments(n int, base uint64, parts []Part) []Segment {
	if parts == nil {
		return []Segment{{0, n, 0}}
	}
	var segs []Segment
	end := base + uint64(n)
	for _, p := range parts {
		lo, hi := max(p.First, base), min(p.First+p.Slots, end)
		if lo < hi {
			segs = append(segs, Segment{int(lo - base), int(hi - base), int(p.Stride)})
		}
	}
	return segs
}

// StreamContext returns the context of byte i of raw in segment s, from the
// bytes before it.
func StreamContext(raw []byte, i int, s Segment) int {
	var l, l2, u byte
	if i > s.Lo {
		l = raw[i-1]
		if i > s.Lo+1 {
			l2 = raw[i-2]
		}
	}
	if s.Stride > 0 {
		if i-s.Stride >= s.Lo {
			u = raw[i-s.Stride]
		}
	} else if i > s.Lo+2 {
		u = raw[i-3]
	}
	return (int(midClass[l])*midClasses+int(midClass[u]))*r6Classes + int(r6Class[l2])
}

// contextWith returns the context of byte i of raw in segment s of coder 2,
// whose partner's value is p.
func contextWith(raw []byte, i int, s Segment, p byte) int {
	var l, u byte
	if i > s.Lo {
		l = raw[i-1]
	}
	if s.Stride > 0 && i-s.Stride >= s.Lo {
		u = raw[i-s.Stride]
	}
	return (int(midClass[l])*midClasses+int(midClass[u]))*midClasses + int(midClass[p])
}

// PartnerView is what coder 2 reads of a block's partner values: byte k
// of the block, slot base+k of its layer, has the partner slot js[k]
// (NoSlot: none), whose value is from[js[k]]. In a layer that is
// its own partner (self), from is the layer's own body, and only the
// slots before base+k are known: when decoding, the block is decoded
// into from[base:], so that they are.
type PartnerView struct {
	JS   []uint64
	From []byte
	Self bool
	Base uint64
}

// at returns the partner's value of byte k, 0 where it is not known.
func (v *PartnerView) at(k int) byte {
	j := v.JS[k]
	if j == NoSlot || v.Self && j >= v.Base+uint64(k) || j >= uint64(len(v.From)) {
		return 0
	}
	return v.From[j]
}

// StreamCoder codes blocks as context streams; one per goroutine.
type StreamCoder struct {
	ctx    []uint16
	count  []int // per context: its bytes; decoding, where its stream ends
	start  []int // per context: where its stream starts, then the next byte
	sorted []byte
	body   []byte
	left   []uint16 // decoding: the streams' left parts (decodeRun)
	fse    fse.Scratch
}

// Encode appends the context streams of raw, the bytes of a body from
// byte base on, to dst. The layout:
//
//	uvarint  n: the contexts that occur
//	n times  uvarint: the context's number minus the one before's (the
//	         first: its number); uvarint: its bytes; a byte: the
//	         coding (0 raw, 1 one byte repeated, 2 FSE); uvarint: the
//	         coded length (raw, FSE) or the byte (repeated)
//	         then the coded streams, in the contexts' order
//
// With a partner view v it codes the contexts of coder 2.
func (sc *StreamCoder) Encode(dst, raw []byte, base uint64, parts []Part, v *PartnerView) []byte {
	if cap(sc.ctx) < len(raw) {
		sc.ctx = make([]uint16, len(raw))
		sc.sorted = make([]byte, len(raw))
	}
	ctx := sc.ctx[:len(raw)]
	n := StreamContexts
	for _, s := range streamSegments(len(raw), base, parts) {
		if v != nil {
			n = partnerContexts
			for i := s.Lo; i < s.Hi; i++ {
				ctx[i] = uint16(contextWith(raw, i, s, v.at(i)))
			}
			continue
		}
		for i := s.Lo; i < s.Hi; i++ {
			ctx[i] = uint16(StreamContext(raw, i, s))
		}
	}
	return sc.EncodeContexts(dst, raw, ctx, n)
}

// EncodeContexts appends the streams of raw, byte i in context ctx[i] <
// n, to dst.
func (sc *StreamCoder) EncodeContexts(dst, raw []byte, ctx []uint16, n int) []byte {
	if cap(sc.sorted) < len(raw) {
		sc.sorted = make([]byte, len(raw))
	}
	sorted := sc.sorted[:len(raw)]
	if len(sc.count) < n {
		sc.count, sc.start = make([]int, n), make([]int, n)
	}
	count, start := sc.count[:n], sc.start[:n]
	clear(count)
	for _, c := range ctx {
		count[c]++
	}
	used, at := 0, 0
	for c, k := range count {
		start[c] = at
		at += k
		if k > 0 {
			used++
		}
	}
	for i, c := range ctx {
		sorted[start[c]] = raw[i]
		start[c]++
	}
	dst = binary.AppendUvarint(dst, uint64(used))
	body := sc.body[:0]
	prev := 0
	for c, k := range count {
		if k == 0 {
			continue
		}
		s := sorted[start[c]-k : start[c]]
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

// Decode decodes the context streams p of a block of n bytes, the first
// byte base of a body with the given parts, into dst[:n]; with a partner
// view v, those of coder 2 (for a layer that is its own partner, dst must
// be v.From[base:]). Bad streams give an error, never a panic.
func (sc *StreamCoder) Decode(dst []byte, p []byte, n int, base uint64, parts []Part, v *PartnerView) ([]byte, error) {
	contexts := StreamContexts
	if v != nil {
		contexts = partnerContexts
	}
	sorted, err := sc.streams(p, n, contexts)
	if err != nil {
		return nil, err
	}
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	if v == nil {
		if cap(sc.left) < n {
			sc.left = make([]uint16, n)
		}
		for j, b := range sorted {
			sc.left[j] = ctxLeft[b]
		}
	}
	for _, s := range streamSegments(n, base, parts) {
		// Without a partner, the bytes that lack a neighbour go the long
		// way and the rest, the body of the segment, the fast way.
		run := s.Hi
		if v == nil {
			run = min(s.Hi, s.Lo+max(2, cmp.Or(s.Stride, 3)))
		}
		for i := s.Lo; i < run; i++ {
			var c int
			if v != nil {
				c = contextWith(dst, i, s, v.at(i))
			} else {
				c = StreamContext(dst, i, s)
			}
			if sc.start[c] >= sc.count[c] {
				return nil, errStreams("the stream of context %d ends early", c)
			}
			dst[i] = sorted[sc.start[c]]
			sc.start[c]++
		}
		if err := sc.decodeRun(dst, sorted, run, s); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// Each value's part of a context (StreamContext), as the byte to the left
// and as the byte one B class back (or three back).
var ctxLeft, ctxUp = func() (left, up [256]uint16) {
	for v := range 256 {
		left[v] = uint16(midClass[v]) * midClasses * r6Classes
		up[v] = uint16(midClass[v]) * r6Classes
	}
	return left, up
}()

// decodeRun decodes bytes from..s.Hi of segment s into dst, each of them
// with all its neighbours in the segment (from ≥ s.Lo+2, and from the
// stride, or 3, after s.Lo), from the streams in sorted (and sc.left made
// of them). The decoding is
// one chain: each byte's context needs the byte before. So the loop reads
// the context's parts from tables, with no test of the segment's edges,
// and takes the next byte's left part from a copy of the streams made of
// those parts (sc.left), one look-up less on the chain
// (BenchmarkReadCompressed/decode of the standard game's 6-6: 11.4
// cpu-ns a byte before, 7.9 after).
func (sc *StreamCoder) decodeRun(dst, sorted []byte, from int, s Segment) error {
	if from >= s.Hi {
		return nil
	}
	stride := cmp.Or(s.Stride, 3)
	start, end, left := sc.start, sc.count, sc.left[:len(sorted)]
	l, l2 := int(ctxLeft[dst[from-1]]), dst[from-2]
	for i := from; i < s.Hi; i++ {
		c := l + int(ctxUp[dst[i-stride]]) + int(r6Class[l2])
		at := start[c]
		if at >= end[c] {
			return errStreams("the stream of context %d ends early", c)
		}
		b := sorted[at]
		l = int(left[at])
		start[c] = at + 1
		dst[i] = b
		l2 = dst[i-1]
	}
	return nil
}

// streams reads the streams p of n symbols in all, of contexts numbered
// below contexts (encodeContexts wrote them), and returns them one after
// another; stream c starts at sc.start[c] and ends at sc.count[c] (a
// context without a stream has sc.start[c] ≥ sc.count[c]).
func (sc *StreamCoder) streams(p []byte, n, contexts int) ([]byte, error) {
	if cap(sc.sorted) < n {
		sc.sorted = make([]byte, n)
	}
	sorted := sc.sorted[:n]
	type stream struct {
		c, k, coding, arg int
	}
	next := func() (int, error) {
		v, m := binary.Uvarint(p)
		if m <= 0 || v > uint64(max(n, contexts)) { // a count, a length or a context number
			return 0, errStreams("a bad number")
		}
		p = p[m:]
		return int(v), nil
	}
	used, err := next()
	if err != nil || used > contexts {
		return nil, errStreams("bad count of contexts")
	}
	ss := make([]stream, used)
	c, total := 0, 0
	for j := range ss {
		d, err := next()
		if err != nil {
			return nil, err
		}
		if c += d; (j > 0 && d == 0) || c >= contexts {
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
			return nil, errStreams("streams of %d symbols, the block holds %d", total, n)
		}
	}
	if total != n {
		return nil, errStreams("streams of %d symbols, the block holds %d", total, n)
	}
	if len(sc.count) < contexts {
		sc.count, sc.start = make([]int, contexts), make([]int, contexts)
	}
	clear(sc.count)
	clear(sc.start)
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
	return sorted, nil
}
