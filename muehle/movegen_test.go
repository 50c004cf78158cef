package muehle

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// gameFeatures lists, for each game, the features its samples must show
// besides those of the standard game (features.check).
var gameFeatures = map[GameID][]string{
	Twelve: {"drawn", "diagonal", "diagonal mill"},
	Lasker: {"place or move", "place or jump"},
}

// TestMovesAgainstNaive compares AppendMoves, AppendRemovalMoves,
// CountMoves, IsOver, IsDrawn and IsLegal with the naive generator of naive_test.go on thousands of
// random positions of every game: reachable ones from playouts, and
// scattered ones that make the rare cases (blocked sides, removals when all
// stones are in mills, full boards) common. Each sample must show every
// feature of its game a number of times.
func TestMovesAgainstNaive(t *testing.T) {
	for _, r := range testGames() {
		reachable, _ := gamePlayouts(r, 1, 5000)
		for _, tc := range []struct {
			name string
			ps   []Position
			min  int
		}{
			{"reachable", reachable, 5},
			{"scattered", gameScattered(r, 2, 5000), 50},
		} {
			t.Run(r.ID+"/"+tc.name, func(t *testing.T) {
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
					removals, others := p.AppendRemovalMoves(buf[:0])
					wantRemovals := slices.DeleteFunc(slices.Clone(want), func(m Move) bool { return !m.IsRemoval() })
					if got := sortMoves(slices.Clone(removals)); !slices.Equal(got, wantRemovals) || others != len(want)-len(wantRemovals) {
						t.Fatalf("AppendRemovalMoves of %s: got %v and %d others, want %v and %d", p, got, others, wantRemovals, len(want)-len(wantRemovals))
					}
					drawn := naiveDrawn(p)
					if got := p.IsDrawn(); got != drawn {
						t.Fatalf("IsDrawn of %s: got %v, want %v", p, got, drawn)
					}
					if over, want := p.IsOver(), len(want) == 0 && !drawn; over != want {
						t.Fatalf("IsOver of %s: got %v, want %v", p, over, want)
					}
					for _, m := range want {
						if !p.IsLegal(m) {
							t.Fatalf("IsLegal(%s) in %s: got false, want true", m, p)
						}
					}
				}
				want := append(baseFeatures(r.FlyAt > 0, true), gameFeatures[r.game]...)
				if tc.name == "reachable" && r.game != Standard {
					// Random games of the other rules reach the rare cases
					// (full boards, all stones in mills, blocked sides on
					// the small board) too seldom; the scattered sample
					// must show them.
					want = append(baseFeatures(r.FlyAt > 0, false), gameFeatures[r.game]...)
					want = slices.DeleteFunc(want, func(s string) bool { return s == "drawn" })
				}
				f.check(t, tc.min, want)
			})
		}
	}
}

// TestMovesDoNotAllocate checks that move and un-move generation into a
// buffer of MaxMoves (MaxUnmoves for un-moves) allocate nothing, in every
// game.
func TestMovesDoNotAllocate(t *testing.T) {
	var ps []Position
	for _, r := range testGames() {
		ps = append(ps, gameTestPositions(t, r, 200)...)
	}
	var buf [MaxUnmoves]Move
	allocs := testing.AllocsPerRun(10, func() {
		for i := range ps {
			ps[i].AppendMoves(buf[:0])
			ps[i].AppendRemovalMoves(buf[:0])
			ps[i].AppendUnmoves(buf[:0])
			ps[i].AppendUnslides(buf[:0])
			ps[i].CountMoves()
		}
	})
	if allocs != 0 {
		t.Errorf("allocations per run: got %v, want 0", allocs)
	}
}

// TestMaxMoves checks that no sampled position of any game has more moves
// than MaxMoves.
func TestMaxMoves(t *testing.T) {
	for _, r := range testGames() {
		most := 0
		for _, p := range gameTestPositions(t, r, 4000) {
			most = max(most, p.CountMoves(), len(naiveMoves(p)))
		}
		t.Logf("%s: at most %d moves", r.ID, most)
		if most > MaxMoves {
			t.Errorf("%s: most moves: got %d, want at most MaxMoves = %d", r.ID, most, MaxMoves)
		}
	}
}

// TestMillTargets compares MillTargets with ClosesMill point by point on
// the stones of random positions of every board, and the standard board's
// package functions with its methods.
func TestMillTargets(t *testing.T) {
	for _, r := range testGames() {
		b := r.Board
		for _, p := range gameTestPositions(t, r, 2000) {
			for c := White; c <= Black; c++ {
				own := p.Stones[c]
				free := p.Empty()
				got := b.MillTargets(own, free)
				var want Bitboard
				for q := range Point(b.n) {
					if free.Has(q) && b.ClosesMill(own, q) {
						want |= q.Bit()
					}
				}
				if got != want {
					t.Fatalf("MillTargets for %s in %s: got %v, want %v", c, p, got.Points(), want.Points())
				}
				if b == StandardBoard && (MillTargets(own, free) != got || InMill(own) != b.InMill(own) || Removable(own) != b.Removable(own)) {
					t.Fatalf("the standard board's functions and methods differ on %s", p)
				}
			}
		}
	}
}

// TestMillTargetsBySpace holds millTargets's tables (boardTables.millSpace)
// to its loop over the mills, which serves a board of more than 21
// mills, on random sets of stones of every size on every board.
func TestMillTargetsBySpace(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 21))
	for _, r := range testGames() {
		b := r.Board
		if !b.millSpace {
			t.Errorf("%s: %d mills, not in a word", b.id, b.nMills)
			continue
		}
		loop := b.boardTables
		loop.millSpace = false
		// A set of about a quarter, half or three quarters of the points.
		set := func() Bitboard {
			x := Bitboard(rng.Uint32())
			switch rng.IntN(3) {
			case 0:
				x &= Bitboard(rng.Uint32())
			case 2:
				x |= Bitboard(rng.Uint32())
			}
			return x & b.all
		}
		for range 20000 {
			own := set()
			free := b.all &^ own &^ set()
			if got, want := b.millTargets(own, free), loop.millTargets(own, free); got != want {
				t.Fatalf("%s: own %v, free %v: %v from the tables, %v from the loop", b.id, own.Points(), free.Points(), got.Points(), want.Points())
			}
		}
	}
}
