package layers

import (
	"iter"
	"math/bits"
	"slices"
	"sync"

	"muehle/muehle"
)

// The index of the children of one position, and the positions of a run
// of slots: the verifier's loop, which visits every slot of a layer in
// order and ranks all the children of each position, needs neither a
// binary search per slot nor a full ranking per child.

// pointCode[p&31] packs point p's weight in an A code (digit 1, bits 32
// up; 0 for a point of group B) with its weight in a B code (bits 0-31;
// 0 for a point of group A). Entry 31 (NoPoint, -1) is 0.
var pointCode [32]uint64

// (Built from aPoints and bPoints alone: the init of groups.go runs
// after this file's.)
func init() {
	w := uint64(1)
	for _, p := range aPoints {
		pointCode[p] = w << 32
		w *= 3
	}
	w = 1
	for _, p := range bPoints {
		pointCode[p] = w
		w *= 3
	}
}

// aCodeRoom is the power of two above the largest A code: the tables
// indexed by an A code have this length, so that a code masked with
// aCodeRoom-1 needs no bounds check.
const aCodeRoom = 1 << 13

// Tables of the A codes for IndexMovesSplit, built from those of
// groups.go on first use.
var (
	aTablesOnce sync.Once
	// aSplit[c] is w<<4 | b for the A code c of w mover's and b
	// opponent's stones.
	aSplit [aCodeRoom]uint8
	// symRank[s][c] is the rank of the image under symmetry s of the A
	// configuration of code c.
	symRank [muehle.NumSymmetries][aCodeRoom]uint16
)

func buildATables() {
	for c := range numACodes {
		d := decode8[c]
		w, b := uint8(d), uint8(d>>8)
		aSplit[c] = uint8(bits.OnesCount8(w)<<4 | bits.OnesCount8(b))
		for s := range muehle.NumSymmetries {
			symRank[s][c] = aRank[symACode[s][w]+2*symACode[s][b]]
		}
	}
}

// IndexMoves stores in out[i] the index of p.Play(ms[i]) in this layer
// for every i < min(len(ms), len(out)); every move must lead into this
// layer. It is IndexAll of the children without making them: a child's
// A and B codes are the parent's, with the colours exchanged, changed at
// the points its move touches (from, to, the removed stone), and the
// table entries of all the children are loaded before any is ranked, so
// that their cache misses overlap (IndexMovesSplit with one layer).
func (l *LayerIndex) IndexMoves(p muehle.Position, ms []muehle.Move, out []uint64) {
	l.IndexMovesSplit(p, ms, out, l)
}

// IndexMovesSplit is IndexMoves of moves that lead into two layers: a
// move with a removal into the layer removals, one without into l, as a
// moving layer's slides and removals do, or a placement layer's
// placements. It stores in out[i] the index of p.Play(ms[i]) in its layer
// for every i < min(len(ms), len(out)). The parent's A and B codes, the
// colours exchanged, are kept in one word and changed by one sum per
// move; the child's rank in group A is one look-up (symRank) unless a
// symmetry fixes its B part.
func (l *LayerIndex) IndexMovesSplit(p muehle.Position, ms []muehle.Move, out []uint64, removals *LayerIndex) {
	n := min(len(ms), len(out))
	ms, out = ms[:n], out[:n]
	if l.small != nil || removals.small != nil {
		for i, m := range ms {
			if m.IsRemoval() {
				out[i] = removals.Index(p.Play(m))
			} else {
				out[i] = l.Index(p.Play(m))
			}
		}
		return
	}
	// The children's mover is the opponent: the parent's codes with the
	// colours exchanged. A child's codes are these with the moved stone
	// (digit 2 now) taken from its point and put on its target, and the
	// removed one (digit 1) taken off: the sum cannot borrow across the
	// two halves, since neither half of the result is negative.
	code, tab := swappedCodes(p), l.t.tab
	for i, m := range ms {
		cc := code + 2*pointCode[m.To&31] - 2*pointCode[m.From&31] - pointCode[m.Remove&31]
		out[i] = cc&^(1<<32-1) | uint64(tab[uint32(cc)]) | uint64(uint8(m.Remove)>>7)<<codeLayerShift
	}
	l.t.rankEntries(out, [2]*[256]subSlots{&removals.bySplit, &l.bySplit})
}

// IndexUnslides stores in out[i] the index in this layer of
// p.Unplay(us[i]) for every i < min(len(us), len(out)), where us are
// un-slides of p (AppendUnslides: no removal, no placement) leading into
// this layer. It is IndexMovesSplit backwards: the parent's mover is p's
// opponent, whose stone goes back from the un-move's To to its From.
func (l *LayerIndex) IndexUnslides(p muehle.Position, us []muehle.Move, out []uint64) {
	n := min(len(us), len(out))
	l.UnslideCodes(p, us[:n], out[:n])
	l.RankUnslides(out[:n])
}

// UnslideCodes is the first half of IndexUnslides: it stores in out[i]
// the packed A and B codes of p.Unplay(us[i]) (on a board whose
// symmetries are not the standard board's, its index), which
// RankUnslides turns into the index. Its caller may gather the codes of
// many positions' parents before ranking them all at once, so that the
// cache misses of their group-B table entries overlap.
func (l *LayerIndex) UnslideCodes(p muehle.Position, us []muehle.Move, out []uint64) {
	n := min(len(us), len(out))
	us, out = us[:n], out[:n]
	if l.small != nil {
		for i, u := range us {
			out[i] = l.Index(p.Unplay(u))
		}
		return
	}
	// The parent's codes: the mover is p's opponent (digit 1).
	code := swappedCodes(p)
	for i, u := range us {
		out[i] = code + pointCode[u.From&31] - pointCode[u.To&31]
	}
}

// AppendUnslideCodes appends to out the codes UnslideCodes stores for
// all the un-slides of p, in the order of AppendUnslides, without making
// the moves: each is p's codes plus one difference of two point weights
// (muehle.Position.AppendUnslideSums).
func (l *LayerIndex) AppendUnslideCodes(p muehle.Position, out []uint64) []uint64 {
	if l.small != nil {
		var buf [muehle.MaxUnmoves]muehle.Move
		us := p.AppendUnslides(buf[:0])
		n := len(out)
		out = slices.Grow(out, len(us))[:n+len(us)]
		l.UnslideCodes(p, us, out[n:])
		return out
	}
	return p.AppendUnslideSums(out, swappedCodes(p), &pointCode)
}

// RankUnslides replaces each code UnslideCodes stored in out with the
// index in this layer of its position.
func (l *LayerIndex) RankUnslides(out []uint64) {
	if l.small != nil {
		return
	}
	tab := l.t.tab
	for i, cc := range out {
		out[i] = cc&^(1<<32-1) | uint64(tab[uint32(cc)])
	}
	l.t.rankEntries(out, [2]*[256]subSlots{&l.bySplit, &l.bySplit})
}

// swappedCodes returns the A and B codes of p with the colours exchanged
// (digit 1 for the opponent of p's side to move), packed as pointCode
// packs a point's. It builds the A-code tables on first use.
func swappedCodes(p muehle.Position) uint64 {
	aTablesOnce.Do(buildATables)
	c := p.Turn & 1
	own := p.Stones[c]
	opp := p.Stones[c^1] &^ own
	return uint64(bCode(opp, own)) | uint64(uint32(aCode8[aMask(opp)])+2*uint32(aCode8[aMask(own)]))<<32
}

// codeLayerShift places, above a position's packed A code (as pointCode
// packs a point's), which of two layers it is in.
const codeLayerShift = 48

// rankEntries replaces each out[i], a position's group-B table entry
// (bits 0-31) with its A code (bits 32 up, as pointCode packs a point's)
// and the number of its layer (0 or 1) at codeLayerShift, with its slot
// in that layer, whose sub-layers are subs[number]. Its callers load
// all the entries first, so that their cache misses overlap.
func (t *bTable) rankEntries(out []uint64, subs [2]*[256]subSlots) {
	stabs := &t.stabs
	for i, cc := range out {
		e := uint32(cc)
		ac := uint16(cc>>32) & (aCodeRoom - 1)
		sub := &subs[cc>>codeLayerShift&1][aSplit[ac]]
		s := e >> symShift & 15
		var r uint16
		if e>>stabShift == 0 {
			r = symRank[s][ac]
		} else {
			d := decode8[ac]
			r = minRank(stabs[e>>stabShift&(maxStabs-1)], symA[s][uint8(d)], symA[s][uint8(d>>8)])
		}
		out[i] = sub.off + uint64(e&classMask)*sub.na + uint64(r)
	}
}

// subSlots is a sub-layer's first slot and stride, by the split of the
// stones in group A (LayerIndex.bySplit).
type subSlots struct {
	off, na uint64
}

// Positions yields the canonical slots of [lo, hi) in increasing order,
// each with its position as Position gives it: the slots that Position
// does not give a position are left out. It walks the slots in order, so
// that the slots of one B class share the B part's table look-ups.
func (l *LayerIndex) Positions(lo, hi uint64) iter.Seq2[uint64, muehle.Position] {
	return func(yield func(uint64, muehle.Position) bool) {
		hi = min(hi, l.size)
		if l.small != nil {
			for i := lo; i < hi; i++ {
				if p, ok := l.Position(i); ok && !yield(i, p) {
					return
				}
			}
			return
		}
		hand := [2]uint8{l.key.WH, l.key.BH}
		for i := lo; i < hi; {
			s, r, c, _ := l.locate(i)
			for ; c < s.n && i < hi; c, r = c+1, 0 {
				rep := l.t.reps[l.t.groupStart[s.g]+uint32(c)]
				stab := rep >> repStabShift
				wb, bb := bMasks(rep & repCodeMask)
				mover := bMaskToBoard[0][wb&0xff] | bMaskToBoard[1][wb>>8]
				opp := bMaskToBoard[0][bb&0xff] | bMaskToBoard[1][bb>>8]
				codes := aUnrank[s.aw][s.ab]
				for ; r < s.na && i < hi; r, i = r+1, i+1 {
					code := codes[r]
					wa, ba := uint8(decode8[code]), uint8(decode8[code]>>8)
					if stab != 0 && minRank(l.t.stabs[stab&(maxStabs-1)], wa, ba) != uint16(r) {
						continue
					}
					p := muehle.Position{Hand: hand}
					p.Stones[muehle.White] = aMaskToBoard[wa] | mover
					p.Stones[muehle.Black] = aMaskToBoard[ba] | opp
					if !yield(i, p) {
						return
					}
				}
			}
		}
	}
}
