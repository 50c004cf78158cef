package layers

import (
	"math/bits"
	"sync"

	"muehle/muehle"
)

// The index of a small board: a board of at most 16 points whose
// symmetries are not the standard board's (the 16-point board of Five and
// Six Men's Morris, the 3×3 boards of Three Men's Morris). It is built
// from the board alone (its points and muehle.Board's symmetries), one
// table per layer's stone counts, cached in the board's Indexer
// (IndexerFor). A layer's slots are its symmetry classes, every slot
// canonical: the configurations of w mover's and b opponent's stones are
// ranked (the mover's stones colex among the masks of w points, then the
// opponent's among the masks of b of the other points), each rank's class
// is read from a table, and the classes are numbered in the order of
// their smallest rank. So the index numbers exactly the positions up to
// the board's symmetries, and a layer file of such a board has no unused
// slots.

// maxSmallPoints bounds the points of a small board: a configuration is
// two 16-bit masks.
const maxSmallPoints = 16

// binom[n][k] is n choose k, for n ≤ 32.
var binom = func() (t [33][33]uint64) {
	for n := range t {
		t[n][0] = 1
		for k := 1; k <= n; k++ {
			t[n][k] = t[n-1][k-1] + t[n-1][k]
		}
	}
	return t
}()

// smallLayer is the table of one pair of stone counts on a small board.
type smallLayer struct {
	nOpp    uint64   // configurations of the opponent's stones per mover's
	classOf []uint32 // by configuration rank: the class
	reps    []uint32 // by class: the mover's mask | the opponent's mask << 16
}

// colexRank returns the rank of mask m among the masks with as many bits,
// in increasing order of their values (the colex order).
func colexRank(m uint32) uint64 {
	var r uint64
	for j := 1; m != 0; m, j = m&(m-1), j+1 {
		r += binom[bits.TrailingZeros32(m)][j]
	}
	return r
}

// squeeze returns the mask of o's points among the points not in m, the
// lowest free point bit 0.
func squeeze(o, m uint32) uint32 {
	var c uint32
	for ; o != 0; o &= o - 1 {
		i := bits.TrailingZeros32(o)
		c |= 1 << (i - bits.OnesCount32(m&(1<<i-1)))
	}
	return c
}

// spread is the inverse of squeeze: the points of free whose ranks among
// free are the bits of c.
func spread(c, free uint32) uint32 {
	var o uint32
	for j := 0; free != 0; free, j = free&(free-1), j+1 {
		if c&(1<<j) != 0 {
			o |= free & -free
		}
	}
	return o
}

// rank returns the configuration rank of the mover's stones m and the
// opponent's o.
func (s *smallLayer) rank(m, o uint32) uint64 {
	return colexRank(m)*s.nOpp + colexRank(squeeze(o, m))
}

// index returns the slot, the class, of the position with the mover's
// stones m and the opponent's o.
func (s *smallLayer) index(m, o muehle.Bitboard) uint64 {
	return uint64(s.classOf[s.rank(uint32(m), uint32(o))])
}

// newSmallLayer builds the table of w mover's and b opponent's stones on
// board bd: the configurations in rank order, each one not yet given a
// class the smallest of a new class, whose images all get that class
// (as buildTable does for group B). Each configuration's rank is
// computed about once, not once for each of its images.
func newSmallLayer(bd *muehle.Board, w, b int) *smallLayer {
	n := bd.NumPoints()
	s := &smallLayer{nOpp: binom[n-w][b]}
	all := uint32(bd.All())
	s.classOf = make([]uint32, binom[n][w]*s.nOpp)
	const unset = ^uint32(0)
	for i := range s.classOf {
		s.classOf[i] = unset
	}
	nSyms := muehle.Symmetry(bd.NumSymmetries())
	r := uint64(0)
	for m := uint32(1)<<w - 1; m <= all; m = nextMask(m) {
		for c := uint32(1)<<b - 1; c < 1<<(n-w); c = nextMask(c) {
			if s.classOf[r] == unset {
				o := spread(c, all&^m)
				cls := uint32(len(s.reps))
				s.reps = append(s.reps, m|o<<16)
				s.classOf[r] = cls
				for sym := muehle.Symmetry(1); sym < nSyms; sym++ {
					im := uint32(bd.Map(sym, muehle.Bitboard(m)))
					io := uint32(bd.Map(sym, muehle.Bitboard(o)))
					s.classOf[s.rank(im, io)] = cls
				}
			}
			r++
			if c == 0 {
				break
			}
		}
		if m == 0 {
			break
		}
	}
	return s
}

// nextMask returns the next larger mask with as many bits as m (m ≠ 0;
// Gosper's hack).
func nextMask(m uint32) uint32 {
	if m == 0 {
		return 1 << 31 // past every board: ends the loop
	}
	low := m & -m
	high := m + low
	return high | ((m^high)>>2)/low
}

// smallIndexers holds the Indexer of each small board (IndexerFor).
var smallIndexers sync.Map // *muehle.Board → *Indexer

// IndexerFor returns the indexer of the positions of board b: the
// DefaultIndexer for the boards with the standard board's points and
// symmetries, and for a small board (at most 16 points) an indexer built
// from the board, once per process.
func IndexerFor(b *muehle.Board) (*Indexer, error) {
	if b.SameSymmetries(muehle.StandardBoard) {
		return DefaultIndexer()
	}
	if x, ok := smallIndexers.Load(b); ok {
		return x.(*Indexer), nil
	}
	x, _ := smallIndexers.LoadOrStore(b, &Indexer{board: b, layers: make(map[Key]*LayerIndex), small: make(map[[2]uint8]*smallLayer)})
	return x.(*Indexer), nil
}

// smallBoard reports whether the index of board b is a small board's.
func smallBoard(b *muehle.Board) bool {
	return !b.SameSymmetries(muehle.StandardBoard) && b.NumPoints() <= maxSmallPoints
}
