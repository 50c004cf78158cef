package layers

import (
	"testing"

	"muehle/muehle"
)

// orbitOf returns the smallest image of the configuration (mover m,
// opponent o) under the symmetries of board b, as one number: the plain
// canonical form, computed without the index's ranks.
func orbitOf(b *muehle.Board, m, o muehle.Bitboard) uint64 {
	least := ^uint64(0)
	for s := range muehle.Symmetry(b.NumSymmetries()) {
		least = min(least, uint64(b.Map(s, m))<<32|uint64(b.Map(s, o)))
	}
	return least
}

// TestSmallIndex checks the index of the small boards exhaustively on
// every layer of Three Men's Morris and on layers of the 16-point board:
// every slot's position indexes back to the slot, every configuration of
// the layer indexes to a slot whose position is an image of it, and the
// slots are as many as the orbits counted plainly, numbered in the order
// of their smallest configurations.
func TestSmallIndex(t *testing.T) {
	for _, c := range []struct {
		board *muehle.Board
		keys  []Key
	}{
		{muehle.ThreeBoard, []Key{Moving(3, 3), Moving(2, 3), Moving(1, 0), Moving(0, 0), Moving(2, 2)}},
		{muehle.ThreePlainBoard, []Key{Moving(3, 3), Moving(3, 2)}},
		{muehle.SixBoard, []Key{Moving(3, 3), Moving(4, 4), Moving(2, 0)}},
	} {
		x, err := IndexerFor(c.board)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range c.keys {
			l := x.Layer(k)
			for i := range l.Size() {
				p, ok := l.Position(i)
				if !ok || !l.Canonical(i) {
					t.Fatalf("%s %v: slot %d has no position", c.board, k, i)
				}
				if j := l.Index(p); j != i {
					t.Fatalf("%s %v: slot %d: Index(Position) = %d", c.board, k, i, j)
				}
			}
			// The classes are numbered in the order of their smallest
			// configuration, as the layer files on disk number them:
			// each slot's representative has the smallest rank among
			// its images, and the representatives' ranks increase.
			prev := int64(-1)
			for i, rep := range l.small.reps {
				m, o := rep&0xffff, rep>>16
				r := l.small.rank(m, o)
				if int64(r) <= prev {
					t.Fatalf("%s %v: slot %d's representative has rank %d, not above the slot before's %d", c.board, k, i, r, prev)
				}
				prev = int64(r)
				for s := range muehle.Symmetry(c.board.NumSymmetries()) {
					im, io := c.board.Map(s, muehle.Bitboard(m)), c.board.Map(s, muehle.Bitboard(o))
					if q := l.small.rank(uint32(im), uint32(io)); q < r {
						t.Fatalf("%s %v: slot %d's representative has rank %d, an image of it %d", c.board, k, i, r, q)
					}
				}
			}
			orbits := map[uint64]bool{}
			n := c.board.NumPoints()
			all := c.board.All()
			var walk func(from int, left int, set muehle.Bitboard, out *[]muehle.Bitboard)
			walk = func(from, left int, set muehle.Bitboard, out *[]muehle.Bitboard) {
				if left == 0 {
					*out = append(*out, set)
					return
				}
				for q := from; q <= n-left; q++ {
					walk(q+1, left-1, set|muehle.Point(q).Bit(), out)
				}
			}
			var ms, os []muehle.Bitboard
			walk(0, int(k.W), 0, &ms)
			walk(0, int(k.B), 0, &os)
			for _, m := range ms {
				for _, o := range os {
					if m&o != 0 || (m|o)&^all != 0 {
						continue
					}
					orbit := orbitOf(c.board, m, o)
					orbits[orbit] = true
					p := muehle.Position{Stones: [2]muehle.Bitboard{m, o}}
					i, ok := l.IndexChecked(p)
					if !ok {
						t.Fatalf("%s %v: IndexChecked(%v) refused", c.board, k, p)
					}
					q, _ := l.Position(i)
					if got := orbitOf(c.board, q.Stones[0], q.Stones[1]); got != orbit {
						t.Fatalf("%s %v: %v indexes to slot %d, %v, not an image of it", c.board, k, p, i, q)
					}
				}
			}
			if uint64(len(orbits)) != l.Size() || l.Classes() != l.Size() {
				t.Errorf("%s %v: %d slots, %d classes, want the %d orbits", c.board, k, l.Size(), l.Classes(), len(orbits))
			}
		}
	}
	if got := muehle.ThreeBoard.NumSymmetries(); got != 8 {
		t.Errorf("the 3×3 board's symmetries: got %d, want 8", got)
	}
}
