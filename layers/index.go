package layers

import (
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"muehle/muehle"
)

// Indexer numbers positions: it owns the group-B table and hands out the
// index of each layer. It is safe for concurrent use.
type Indexer struct {
	t *bTable
	// orbits[id][w][b] is the number of A configurations with w mover's and
	// b opponent's stones that are canonical under stabilizer id: those of
	// smallest rank among their images.
	orbits [maxStabs][9][9]uint64

	// board is nil for the standard board's index (the table t) and names
	// a small board otherwise (small.go), whose tables small holds by the
	// stone counts.
	board *muehle.Board
	small map[[2]uint8]*smallLayer

	mu     sync.Mutex
	layers map[Key]*LayerIndex
}

// NewIndexer returns an indexer whose group-B table is loaded from
// cacheDir/groupb-v2.tab (TableFile) when that file is valid, and otherwise
// built and written there (atomically). With cacheDir "" the table is built
// and not cached. Failing to write the cache is an error.
func NewIndexer(cacheDir string) (*Indexer, error) {
	t, err := openTable(cacheDir)
	if err != nil {
		if t != nil && t.release != nil {
			t.release()
		}
		return nil, err
	}
	return newIndexer(t), nil
}

var defaultIndexer struct {
	once sync.Once
	x    *Indexer
	err  error
}

// DefaultIndexer returns the process-wide indexer, with its table cached in
// the user's cache directory (os.UserCacheDir()/muehle) or, if that fails,
// built without caching. It is created once.
func DefaultIndexer() (*Indexer, error) {
	d := &defaultIndexer
	d.once.Do(func() {
		if dir, err := os.UserCacheDir(); err == nil {
			// A table built but not saved in the cache comes with an
			// error and is still right; only a missing table falls back.
			if t, _ := openTable(filepath.Join(dir, "muehle")); t != nil {
				d.x = newIndexer(t)
				return
			}
		}
		d.x, d.err = NewIndexer("")
	})
	return d.x, d.err
}

func newIndexer(t *bTable) *Indexer {
	x := &Indexer{t: t, layers: make(map[Key]*LayerIndex)}
	for id, stab := range t.stabs {
		if stab == 0 {
			continue
		}
		for c := range numACodes {
			m := decode8[c]
			w, b := uint8(m), uint8(m>>8)
			if minRank(stab, w, b) == aRank[c] {
				x.orbits[id][bits.OnesCount8(w)][bits.OnesCount8(b)]++
			}
		}
	}
	if t.release != nil {
		runtime.AddCleanup(x, func(release func()) { release() }, t.release)
	}
	return x
}

// minRank returns the smallest rank of the images of the A configuration
// (w, b) under the symmetries in the mask stab.
func minRank(stab uint16, w, b uint8) uint16 {
	r := uint16(0xffff)
	for ; stab != 0; stab &= stab - 1 {
		s := bits.TrailingZeros16(stab)
		if q := aRank[symACode[s][w]+2*symACode[s][b]]; q < r {
			r = q
		}
	}
	return r
}

// Layer returns the index of layer k. Only the board counts k.W and k.B
// matter for the numbering: a placement layer numbers its boards like
// M(W,B). The result is cached.
func (x *Indexer) Layer(k Key) *LayerIndex {
	x.mu.Lock()
	defer x.mu.Unlock()
	if l := x.layers[k]; l != nil {
		return l
	}
	l := x.newLayer(k)
	x.layers[k] = l
	return l
}

// subLayer is the part of a layer with a given split of the stones between
// the groups: its first slot and its number of B classes.
type subLayer struct {
	off uint64 // first slot
	n   uint64 // classes of the B part
	na  uint64 // configurations of the A part: the stride of the B class
	g   uint32 // B group number
	aw  uint8  // mover's stones in group A
	ab  uint8  // opponent's stones in group A
}

// slot returns the slot of A rank r and B class c: B class major, A rank
// minor, so that neighbouring slots share their B part (locate inverts
// it; format 1 had the other order, convert.go).
func (s *subLayer) slot(r, c uint64) uint64 { return s.off + c*s.na + r }

// LayerIndex numbers the positions of one layer: index = sub-layer offset +
// class(B) × configurations(A) + rank(A part after B's symmetry), the
// smallest such index among the equivalent A parts being the canonical
// one.
type LayerIndex struct {
	x       *Indexer // keeps the indexer, and so the table's memory, alive
	t       *bTable
	small   *smallLayer     // a small board's table (small.go), or nil
	all     muehle.Bitboard // the board's points
	key     Key
	sub     [9][9]subLayer // by stones of mover and opponent in group A
	bySplit [256]subSlots  // the same by w<<4 | b (aSplit), for rankEntries
	order   []subLayer     // the sub-layers in slot order
	size    uint64
	classes uint64
}

func (x *Indexer) newLayer(k Key) *LayerIndex {
	l := &LayerIndex{x: x, t: x.t, key: k, all: muehle.AllPoints}
	w, b := int(k.W), int(k.B)
	if x.board != nil {
		l.all = x.board.All()
		s := x.small[[2]uint8{k.W, k.B}]
		if s == nil {
			s = newSmallLayer(x.board, w, b)
			x.small[[2]uint8{k.W, k.B}] = s
		}
		l.small = s
		l.size, l.classes = uint64(len(s.reps)), uint64(len(s.reps))
		return l
	}
	for aw := 0; aw <= min(w, 8); aw++ {
		for ab := 0; ab <= min(b, 8-aw); ab++ {
			bw, bb := w-aw, b-ab
			if bw+bb > 16 {
				continue
			}
			g := bGroup(bw, bb)
			n := uint64(x.t.groupStart[g+1] - x.t.groupStart[g])
			s := subLayer{off: l.size, n: n, na: uint64(len(aUnrank[aw][ab])), g: uint32(g), aw: uint8(aw), ab: uint8(ab)}
			l.sub[aw][ab] = s
			l.bySplit[aw<<4|ab] = subSlots{off: s.off, na: s.na}
			l.order = append(l.order, s)
			l.size += n * uint64(len(aUnrank[aw][ab]))
			for id := range maxStabs {
				l.classes += uint64(x.t.stabCount[g][id]) * x.orbits[id][aw][ab]
			}
		}
	}
	return l
}

// Key returns the layer's key.
func (l *LayerIndex) Key() Key { return l.key }

// Size returns the number of slots, canonical or not.
func (l *LayerIndex) Size() uint64 { return l.size }

// Classes returns the number of canonical slots: the number of positions of
// the layer up to the 16 symmetries.
func (l *LayerIndex) Classes() uint64 { return l.classes }

// Index returns the canonical slot of p, whose side to move must have
// l.Key().W stones on the board and the opponent l.Key().B; the hands are
// ignored. It does not allocate. For a position with other counts, or with
// overlapping stone sets, the result is meaningless (but Index does not
// panic); IndexChecked checks the counts.
func (l *LayerIndex) Index(p muehle.Position) uint64 {
	t := p.Turn & 1
	m := p.Stones[t]
	o := p.Stones[t^1] &^ m
	if l.small != nil {
		return l.small.index(m, o)
	}
	return l.slotOf(m, o, l.t.tab[bCode(m, o)])
}

// slotOf is Index of the position whose side to move has the stones m and
// the opponent o, e the table entry of its B part. It is one function, a
// leaf: split in two, the call between them cost IndexChildren 6 % of its
// ranks per CPU-second (docs/games.md).
func (l *LayerIndex) slotOf(m, o muehle.Bitboard, e uint32) uint64 {
	wa, ba := aMask(m), aMask(o)
	sub := &l.sub[bits.OnesCount8(wa)][bits.OnesCount8(ba)]
	s := e >> symShift & 15
	id := e >> stabShift
	var r uint16
	if id == 0 {
		r = aRank[symACode[s][wa]+2*symACode[s][ba]]
	} else {
		r = minRank(l.t.stabs[id&(maxStabs-1)], symA[s][wa], symA[s][ba])
	}
	return sub.slot(uint64(r), uint64(e&classMask))
}

// IndexAll stores Index(ps[i]) in out[i] for every i < min(len(ps),
// len(out)). On positions far apart it is faster than calling Index one by
// one: it loads all the table entries first, so that their cache misses
// overlap, and then ranks with the entries it loaded.
func (l *LayerIndex) IndexAll(ps []muehle.Position, out []uint64) {
	n := min(len(ps), len(out))
	ps, out = ps[:n], out[:n]
	if l.small != nil {
		for i := range ps {
			out[i] = l.Index(ps[i])
		}
		return
	}
	tab := l.t.tab
	for i := range ps {
		t := ps[i].Turn & 1
		m := ps[i].Stones[t]
		out[i] = uint64(tab[bCode(m, ps[i].Stones[t^1]&^m)])
	}
	for i := range ps {
		t := ps[i].Turn & 1
		m := ps[i].Stones[t]
		out[i] = l.slotOf(m, ps[i].Stones[t^1]&^m, uint32(out[i]))
	}
}

// IndexChecked is Index for a position that may be of another layer: ok is
// false when p's stone counts do not match the layer or the stones overlap.
func (l *LayerIndex) IndexChecked(p muehle.Position) (i uint64, ok bool) {
	t := p.Turn & 1
	m, o := p.Stones[t], p.Stones[t^1]
	if m&o != 0 || (m|o)&^l.all != 0 ||
		m.Count() != int(l.key.W) || o.Count() != int(l.key.B) {
		return 0, false
	}
	return l.Index(p), true
}

// locate splits slot i into its sub-layer, A rank and B class.
func (l *LayerIndex) locate(i uint64) (s *subLayer, r uint64, c uint64, ok bool) {
	if i >= l.size {
		return nil, 0, 0, false
	}
	lo, hi := 0, len(l.order)-1 // the last sub-layer with off ≤ i
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if l.order[mid].off <= i {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	s = &l.order[lo]
	c, r = (i-s.off)/s.na, (i-s.off)%s.na
	return s, r, c, true
}

// Position returns a representative position of slot i, with the mover's
// stones in Stones[White], White to move and the hands of the key. ok is
// false when i is out of range or never canonical.
func (l *LayerIndex) Position(i uint64) (p muehle.Position, ok bool) {
	if l.small != nil {
		if i >= l.size {
			return p, false
		}
		rep := l.small.reps[i]
		p.Stones = [2]muehle.Bitboard{muehle.Bitboard(rep & 0xffff), muehle.Bitboard(rep >> 16)}
		p.Hand = [2]uint8{l.key.WH, l.key.BH}
		return p, true
	}
	s, r, c, ok := l.locate(i)
	if !ok {
		return p, false
	}
	return l.positionIn(s, r, c)
}

// Cursor remembers the sub-layer and the B class of the last slot
// PositionAt unranked, with the class's B part, so that slots asked for
// in increasing order (a sorted work list) are mostly found without a
// search, and those of one class without a division or a look-up of the
// B part. Its zero value is ready for use.
type Cursor struct {
	s *subLayer
	// base is the first slot of the class, valid when s is set
	base uint64
	// the class's representative's stabiliser and stones of group B
	stab       uint32
	mover, opp muehle.Bitboard
}

// PositionAt is Position, with the cursor cur of this layer's slots.
func (l *LayerIndex) PositionAt(i uint64, cur *Cursor) (p muehle.Position, ok bool) {
	if l.small != nil {
		return l.Position(i)
	}
	s := cur.s
	if s == nil || i < cur.base || i-cur.base >= s.na {
		var c uint64
		if s != nil && i >= s.off && i-s.off < s.n*s.na {
			c = (i - s.off) / s.na // another class of the same sub-layer
		} else if s, _, c, ok = l.locate(i); !ok {
			cur.s = nil
			return p, false
		}
		rep := l.t.reps[l.t.groupStart[s.g]+uint32(c)]
		wb, bb := bMasks(rep & repCodeMask)
		*cur = Cursor{s: s, base: s.off + c*s.na, stab: rep >> repStabShift,
			mover: bMaskToBoard[0][wb&0xff] | bMaskToBoard[1][wb>>8],
			opp:   bMaskToBoard[0][bb&0xff] | bMaskToBoard[1][bb>>8]}
	}
	r := i - cur.base
	code := aUnrank[s.aw][s.ab][r]
	wa, ba := uint8(decode8[code]), uint8(decode8[code]>>8)
	if id := cur.stab; id != 0 && minRank(l.t.stabs[id&(maxStabs-1)], wa, ba) != uint16(r) {
		return p, false
	}
	p.Stones[muehle.White] = aMaskToBoard[wa] | cur.mover
	p.Stones[muehle.Black] = aMaskToBoard[ba] | cur.opp
	p.Hand = [2]uint8{l.key.WH, l.key.BH}
	return p, true
}

// positionIn is Position of A rank r and B class c of sub-layer s.
func (l *LayerIndex) positionIn(s *subLayer, r, c uint64) (p muehle.Position, ok bool) {
	rep := l.t.reps[l.t.groupStart[s.g]+uint32(c)]
	code := aUnrank[s.aw][s.ab][r]
	wa, ba := uint8(decode8[code]), uint8(decode8[code]>>8)
	if id := rep >> repStabShift; id != 0 && minRank(l.t.stabs[id&(maxStabs-1)], wa, ba) != uint16(r) {
		return p, false
	}
	wb, bb := bMasks(rep & repCodeMask)
	p.Stones[muehle.White] = aMaskToBoard[wa] | bMaskToBoard[0][wb&0xff] | bMaskToBoard[1][wb>>8]
	p.Stones[muehle.Black] = aMaskToBoard[ba] | bMaskToBoard[0][bb&0xff] | bMaskToBoard[1][bb>>8]
	p.Hand = [2]uint8{l.key.WH, l.key.BH}
	return p, true
}

// Canonical reports whether slot i is the index of some position.
func (l *LayerIndex) Canonical(i uint64) bool {
	if l.small != nil {
		return i < l.size
	}
	s, r, c, ok := l.locate(i)
	if !ok {
		return false
	}
	id := l.t.reps[l.t.groupStart[s.g]+uint32(c)] >> repStabShift
	if id == 0 {
		return true
	}
	code := aUnrank[s.aw][s.ab][r]
	return minRank(l.t.stabs[id&(maxStabs-1)], uint8(decode8[code]), uint8(decode8[code]>>8)) == uint16(r)
}

// Part is a run of a layer's slots with one split of the stones between
// the groups: Slots slots from First on, the B class changing every
// Stride slots (the configurations of the A part). Slot First+c×Stride+r
// is A rank r of B class c.
type Part struct {
	First, Slots, Stride uint64
}

// Parts returns the layer's parts in slot order; together they cover
// every slot once.
func (l *LayerIndex) Parts() []Part {
	if l.small != nil {
		return []Part{{First: 0, Slots: l.size, Stride: max(1, l.size)}}
	}
	ps := make([]Part, len(l.order))
	for i, s := range l.order {
		ps[i] = Part{First: s.off, Slots: s.n * s.na, Stride: s.na}
	}
	return ps
}

// NoSlot stands for a slot that holds no position (Swapped).
const NoSlot = ^uint64(0)

// Swapped sets out[k], for every k < len(out), to the slot in layer
// partner of the position of slot first+k with the colours exchanged: the
// same stones, the other side to move. partner must be the layer of the
// key with W and B exchanged (l itself when they are equal); a slot that
// is not canonical, or beyond the layer, gets NoSlot.
//
// It is Position, the colours exchanged and Index, but walks the slots in
// order: the slots of one B class share their B part, so the table entry
// of the exchanged B part is read once for them all (a random read of the
// large table, which Index makes for every slot), and each A rank costs
// a few small table look-ups.
func (l *LayerIndex) Swapped(first uint64, out []uint64, partner *LayerIndex) {
	if l.small != nil {
		for k := range out {
			p, ok := l.Position(first + uint64(k))
			if !ok {
				out[k] = NoSlot
				continue
			}
			p.Turn = muehle.Black // the opponent's stones, Stones[Black], move
			out[k] = partner.Index(p)
		}
		return
	}
	for k := 0; k < len(out); {
		s, r, c, ok := l.locate(first + uint64(k))
		if !ok {
			out[k] = NoSlot
			k++
			continue
		}
		rep := l.t.reps[l.t.groupStart[s.g]+uint32(c)]
		stab := rep >> repStabShift
		wb, bb := bMasks(rep & repCodeMask)
		mover := bMaskToBoard[0][wb&0xff] | bMaskToBoard[1][wb>>8]
		opp := bMaskToBoard[0][bb&0xff] | bMaskToBoard[1][bb>>8]
		e := partner.t.tab[bCodeOf(bb, wb)]
		for end := min(uint64(len(out)-k), s.na-r) + r; r < end; r, k = r+1, k+1 {
			code := aUnrank[s.aw][s.ab][r]
			wa, ba := uint8(decode8[code]), uint8(decode8[code]>>8)
			if stab != 0 && minRank(l.t.stabs[stab&(maxStabs-1)], wa, ba) != uint16(r) {
				out[k] = NoSlot
				continue
			}
			out[k] = partner.slotOf(opp|aMaskToBoard[ba], mover|aMaskToBoard[wa], e)
		}
	}
}
