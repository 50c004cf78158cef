package pack

import (
	"fmt"

	"muehle/layers"
)

// The coders of a block's data (byte 9 of its header, from package format
// 3 on). Export codes every block of a body both ways and keeps the
// smaller; the reach files' blocks are always zstd frames.
const (
	coderZstd    = 0 // one zstd frame
	coderStreams = 1 // context streams (below)
	coderPartner = 2 // context streams that know the partner layer's values
	coderStored  = 4 // the bytes as they are: a copied file's (format 5)
)

// Context streams: the coder lives in package layers (codec.go), which
// keeps compressed layers in blocks coded the same way; a package's
// coders 1 and 2 are its layers.StreamCoder without and with a partner
// view. The names below keep this package's use of it short.
const numContexts = layers.StreamContexts

var midClass = func() (m [256]uint8) {
	for v := range 256 {
		m[v] = layers.MidClass(byte(v))
	}
	return m
}()

// segment is a run of a block's bytes within one part of its layer
// (layers.Segment).
type segment = layers.Segment

// contextAt returns the context of byte i of raw in segment s.
func contextAt(raw []byte, i int, s segment) int { return layers.StreamContext(raw, i, s) }

// partnerView is what coder 2 reads of a block's partner values
// (layers.PartnerView: js, from, self and base are its JS, From, Self and
// Base).
type partnerView struct {
	js   []uint64
	from []byte
	self bool
	base uint64
}

func (v *partnerView) view() *layers.PartnerView {
	if v == nil {
		return nil
	}
	return &layers.PartnerView{JS: v.js, From: v.from, Self: v.self, Base: v.base}
}

// streamCoder codes blocks as context streams; one per goroutine.
type streamCoder struct{ c layers.StreamCoder }

func (sc *streamCoder) encode(dst, raw []byte, base uint64, parts []layers.Part, v *partnerView) []byte {
	return sc.c.Encode(dst, raw, base, parts, v.view())
}

func (sc *streamCoder) encodeContexts(dst, raw []byte, ctx []uint16, n int) []byte {
	return sc.c.EncodeContexts(dst, raw, ctx, n)
}

func (sc *streamCoder) decode(dst []byte, p []byte, n int, base uint64, parts []layers.Part, v *partnerView) ([]byte, error) {
	return sc.c.Decode(dst, p, n, base, parts, v.view())
}

// errStreams says what is wrong with a block's streams.
func errStreams(format string, a ...any) error {
	return fmt.Errorf("context streams: "+format, a...)
}

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

// partnerOf returns the index in m.Layers of the layer whose values
// coder 2 may read for layer i: its partner when that comes before it in
// the package, or i itself when the layer is its own partner; ok is false
// when the layer's blocks cannot be coded by coder 2 (not a moving layer
// of one byte per slot in today's order, or its partner not before it or
// travelling as its compressed file, whose body export does not decode).
func partnerOf(m *Manifest, i int) (j int, ok bool) {
	l := &m.Layers[i]
	k := l.key
	if !k.IsMoving() || l.Dense() || l.Old() {
		return 0, false
	}
	if k.W == k.B {
		return i, true
	}
	pk := layers.Key{W: k.B, B: k.W}
	for j := range i {
		if m.Layers[j].key == pk {
			return j, !m.Layers[j].Copied()
		}
	}
	return 0, false
}
