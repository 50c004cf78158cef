package muehle

import (
	"slices"
	"testing"
)

// TestMovesAgainstNaive compares AppendMoves, CountMoves, IsOver and
// IsLegal with the naive generator of naive_test.go on thousands of random
// positions: reachable ones from playouts, and scattered ones that make
// the rare cases (blocked sides, removals when all stones are in mills)
// common. Each sample must show every feature a number of times.
func TestMovesAgainstNaive(t *testing.T) {
	reachable, _ := playoutPositions(1, 5000)
	for _, tc := range []struct {
		name string
		ps   []Position
		min  int
	}{
		{"reachable", reachable, 5},
		{"scattered", scatteredPositions(2, 5000), 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f features
			var buf [MaxMoves]Move
			for _, p := range tc.ps {
				f.add(p)
				got := sortMoves(slices.Clone(p.AppendMoves(buf[:0])))
				want := sortMoves(naiveMoves(p))
				if !slices.Equal(got, want) {
					t.Fatalf("moves of %s:\n%s\ngot  %v\nwant %v", p, p.Diagram(), got, want)
				}
				if n := p.CountMoves(); n != len(want) {
					t.Fatalf("CountMoves of %s: got %d, want %d", p, n, len(want))
				}
				if over, want := p.IsOver(), len(want) == 0; over != want {
					t.Fatalf("IsOver of %s: got %v, want %v", p, over, want)
				}
				for _, m := range want {
					if !p.IsLegal(m) {
						t.Fatalf("IsLegal(%s) in %s: got false, want true", m, p)
					}
				}
			}
			f.check(t, tc.min)
		})
	}
}

// TestMovesDoNotAllocate checks that move and un-move generation into a
// buffer of MaxMoves (MaxUnmoves for un-moves) allocate nothing.
func TestMovesDoNotAllocate(t *testing.T) {
	ps := testPositions(t, 200)
	var buf [MaxUnmoves]Move
	allocs := testing.AllocsPerRun(10, func() {
		for i := range ps {
			ps[i].AppendMoves(buf[:0])
			ps[i].AppendUnmoves(buf[:0])
			ps[i].AppendUnslides(buf[:0])
			ps[i].CountMoves()
		}
	})
	if allocs != 0 {
		t.Errorf("allocations per run: got %v, want 0", allocs)
	}
}

// TestMaxMoves checks that no sampled position has more moves than MaxMoves.
func TestMaxMoves(t *testing.T) {
	most := 0
	for _, p := range testPositions(t, 4000) {
		most = max(most, p.CountMoves(), len(naiveMoves(p)))
	}
	if most > MaxMoves {
		t.Errorf("most moves: got %d, want at most MaxMoves = %d", most, MaxMoves)
	}
}

// TestMillTargets compares MillTargets with ClosesMill point by point on
// the stones of random positions.
func TestMillTargets(t *testing.T) {
	for _, p := range testPositions(t, 2000) {
		for c := White; c <= Black; c++ {
			own := p.Stones[c]
			free := p.Empty()
			got := MillTargets(own, free)
			var want Bitboard
			for q := range Point(NumPoints) {
				if free.Has(q) && ClosesMill(own, q) {
					want |= q.Bit()
				}
			}
			if got != want {
				t.Fatalf("MillTargets for %s in %s: got %v, want %v", c, p, got.Points(), want.Points())
			}
		}
	}
}
