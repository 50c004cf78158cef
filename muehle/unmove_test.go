package muehle

import (
	"slices"
	"testing"
)

// TestUnmovesInverseMoves checks on random positions of every game that
// every child lists its parent among its un-moves, and that every un-move
// leads back to a valid parent that lists the position among its children:
// the diagonals of Twelve Men's Morris, its full board and Lasker's
// place-or-move included.
func TestUnmovesInverseMoves(t *testing.T) {
	for _, r := range testGames() {
		t.Run(r.ID, func(t *testing.T) { checkUnmovesInverseMoves(t, r) })
	}
}

func checkUnmovesInverseMoves(t *testing.T, r *Rules) {
	var mbuf [MaxMoves]Move
	var ubuf [MaxUnmoves]Move
	nChildren, nParents := 0, 0
	for _, p := range gameTestPositions(t, r, sampleSize(r, 4000)) {
		for _, m := range p.AppendMoves(mbuf[:0]) {
			c := p.Play(m)
			nChildren++
			if n := count(c.AppendUnmoves(ubuf[:0]), m); n != 1 {
				t.Fatalf("%s plays %s to %s: un-moves list it %d times, want once", p, m, c, n)
			}
			if q := c.Unplay(m); q != p {
				t.Fatalf("%s plays %s to %s: Unplay gives %s, want the parent", p, m, c, q)
			}
		}
		unmoves := p.AppendUnmoves(ubuf[:0])
		for _, u := range unmoves {
			q := p.Unplay(u)
			nParents++
			if err := q.Validate(r.Stones); err != nil {
				t.Fatalf("un-move %s of %s gives %s: %v", u, p, q, err)
			}
			if n := count(q.AppendMoves(mbuf[:0]), u); n != 1 {
				t.Fatalf("un-move %s of %s gives %s, whose moves list %s %d times, want once", u, p, q, u, n)
			}
			if c := q.Play(u); c != p {
				t.Fatalf("un-move %s of %s gives %s, which plays it to %s, want the position", u, p, q, c)
			}
			if count(unmoves, u) != 1 {
				t.Fatalf("un-moves of %s list %s %d times, want once", p, u, count(unmoves, u))
			}
		}
	}
	t.Logf("%d children and %d parents checked", nChildren, nParents)
}

// TestUnslides checks that AppendUnslides gives exactly the un-moves
// without removal that are slides or jumps, in every game: in a game whose
// phases mix, those of its un-slides whose parent's hands fit.
func TestUnslides(t *testing.T) {
	for _, r := range testGames() {
		t.Run(r.ID, func(t *testing.T) {
			extra := 0
			checkUnmoveSubset(t, r, "unslides", func(u Move) bool { return !u.IsPlacement() && !u.IsRemoval() },
				func(p *Position, buf []Move) []Move {
					all := p.AppendUnslides(buf)
					if !r.Mixed {
						return all
					}
					var fit []Move
					for _, u := range all {
						if q := p.Unplay(u); r.HandsFit(q.Hand, q.Turn, r.Stones) {
							fit = append(fit, u)
						} else {
							extra++
						}
					}
					return fit
				})
			t.Logf("%s: %d un-slides to parents whose hands do not fit", r.ID, extra)
		})
	}
}

// TestUnslideSums holds AppendUnslideSums to AppendUnslides in every
// game: base + w[From] - w[To] for each un-slide, in the same order,
// after what the buffer held, with weights far enough apart that a wrong
// point shows.
func TestUnslideSums(t *testing.T) {
	var w [32]uint64
	for i := range w {
		w[i] = uint64(i+1) << (2 * i % 60)
	}
	var ubuf [MaxUnmoves]Move
	for _, r := range testGames() {
		some := 0
		for _, p := range gameTestPositions(t, r, 2000) {
			want := []uint64{7}
			const base = 1 << 62
			for _, u := range p.AppendUnslides(ubuf[:0]) {
				want = append(want, base+w[u.From]-w[u.To])
			}
			got := p.AppendUnslideSums([]uint64{7}, base, &w)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: the un-slide sums of %s: got %v, want %v", r.ID, p, got, want)
			}
			if len(got) > 1 {
				some++
			}
		}
		if some < 200 {
			t.Errorf("%s: %d positions with un-slides, want at least 200", r.ID, some)
		}
	}
}

// TestUnplacements checks that UnplacementPoints gives exactly the
// un-moves without removal that are placements, in every game.
func TestUnplacements(t *testing.T) {
	for _, r := range testGames() {
		t.Run(r.ID, func(t *testing.T) {
			checkUnmoveSubset(t, r, "unplacements", func(u Move) bool { return u.IsPlacement() && !u.IsRemoval() },
				func(p *Position, buf []Move) []Move {
					for t := p.UnplacementPoints(); t != 0; t &= t - 1 {
						buf = append(buf, Move{NoPoint, t.First(), NoPoint})
					}
					return buf
				})
		})
	}
}

// checkUnmoveSubset checks that gen gives exactly the un-moves of
// AppendUnmoves that keep selects, on the test positions of r, and that
// at least 600 of them have some.
func checkUnmoveSubset(t *testing.T, r *Rules, name string, keep func(Move) bool, gen func(*Position, []Move) []Move) {
	var ubuf [MaxUnmoves]Move
	var gbuf [MaxMoves]Move
	nonEmpty := 0
	for _, p := range gameTestPositions(t, r, 6000) {
		var want []Move
		for _, u := range p.AppendUnmoves(ubuf[:0]) {
			if keep(u) {
				want = append(want, u)
			}
		}
		got := sortMoves(slices.Clone(gen(&p, gbuf[:0])))
		if sortMoves(want); !slices.Equal(got, want) {
			t.Fatalf("%s of %s:\ngot  %v\nwant %v", name, p, got, want)
		}
		if len(got) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < 600 {
		t.Errorf("positions with %s: got %d, want at least 600", name, nonEmpty)
	}
}

// TestUnmovesAgainstBruteForce finds the parents of random positions of
// every game by trying every way a stone of the previous mover may have
// arrived (from the hand or from any empty point, with or without any
// removal undone), keeping the candidates that pass Validate(r.Stones) and
// whose naive moves include the move, and compares them with
// AppendUnmoves.
func TestUnmovesAgainstBruteForce(t *testing.T) {
	for _, r := range testGames() {
		t.Run(r.ID, func(t *testing.T) { checkUnmovesAgainstBruteForce(t, r) })
	}
}

func checkUnmovesAgainstBruteForce(t *testing.T, r *Rules) {
	var ubuf [MaxUnmoves]Move
	total := 0
	ng := naiveGames[r.game]
	for _, p := range gameTestPositions(t, r, sampleSize(r, 1000)) {
		var want []Move
		o := p.Turn.Other()
		empty := p.Empty()
		for _, to := range p.Stones[o].Points() {
			froms := append([]Point{NoPoint}, empty.Points()...)
			for _, from := range froms {
				rems := append([]Point{NoPoint}, empty.Points()...)
				for _, rem := range rems {
					if rem != NoPoint && rem == from {
						continue
					}
					m := Move{from, to, rem}
					q := p
					q.Turn = o
					q.Stones[o] &^= to.Bit()
					if from == NoPoint {
						q.Hand[o]++
					} else {
						q.Stones[o] |= from.Bit()
					}
					if rem != NoPoint {
						q.Stones[p.Turn] |= rem.Bit()
					}
					if q.Validate(r.Stones) != nil {
						continue
					}
					// A cheap necessary condition before the naive generator:
					// a side with stones in hand places, unless the game
					// is mixed, and a slide is along an edge unless the
					// mover flies.
					flies := q.Total(o) <= ng.flyAt
					if from != NoPoint && ((q.Hand[o] > 0 && !ng.mixed) || (!flies && !ng.adjacent[from][to])) {
						continue
					}
					if count(naiveMoves(q), m) == 1 {
						want = append(want, m)
					}
				}
			}
		}
		got := sortMoves(slices.Clone(p.AppendUnmoves(ubuf[:0])))
		if sortMoves(want); !slices.Equal(got, want) {
			t.Fatalf("un-moves of %s:\n%s\ngot  %v\nwant %v", p, p.Diagram(), got, want)
		}
		total += len(got)
	}
	t.Logf("%d un-moves checked", total)
}

// TestMaxUnmoves checks the bound on un-moves on the worst case it
// describes and on random positions of every game.
func TestMaxUnmoves(t *testing.T) {
	var buf [MaxUnmoves]Move
	most := 0
	for _, text := range []string{
		"WWW...................BB b 0 0",        // White's mill a7 d7 g7 may have jumped in and removed a stone
		"WWW...................BB b 0 0 twelve", // the same with the diagonals
		"WWW..................... b 0 3 lasker", // and with Black's hand
		"WW...................... b 1 3 lasker", // two on the board and one in hand jump too
	} {
		worst := mustPosition(t, text)
		n := len(worst.AppendUnmoves(buf[:0]))
		t.Logf("un-moves of %s: %d", worst, n)
		most = max(most, n)
	}
	for _, r := range testGames() {
		for _, p := range gameTestPositions(t, r, 4000) {
			most = max(most, len(p.AppendUnmoves(buf[:0])))
		}
	}
	if most > MaxUnmoves {
		t.Errorf("most un-moves: got %d, want at most MaxUnmoves = %d", most, MaxUnmoves)
	}
}

// count returns how often m occurs in ms.
func count(ms []Move, m Move) int {
	n := 0
	for _, x := range ms {
		if x == m {
			n++
		}
	}
	return n
}

// TestUnslidesRoom checks that the un-move generators, which write by
// index into the room they make, allocate nothing when the buffer has the
// room their comments promise, and give the same moves after a buffer
// without room (which they copy) as after an empty one.
func TestUnslidesRoom(t *testing.T) {
	var big [MaxUnmoves]Move
	var slides [MaxMoves]Move
	for _, r := range testGames() {
		ps := gameTestPositions(t, r, 300)
		allocs := testing.AllocsPerRun(3, func() {
			for i := range ps {
				ps[i].AppendUnmoves(big[:0])
				ps[i].AppendUnslides(slides[:0])
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per run, want 0", r.ID, allocs)
		}
		for i := range ps {
			prefix := []Move{{NoPoint, 0, NoPoint}} // no room after it
			for name, gen := range map[string]func(*Position, []Move) []Move{
				"AppendUnmoves": (*Position).AppendUnmoves, "AppendUnslides": (*Position).AppendUnslides,
			} {
				want := gen(&ps[i], nil)
				got := gen(&ps[i], prefix[:1:1])
				if len(got) != len(want)+1 || got[0] != prefix[0] || !slices.Equal(got[1:], want) {
					t.Fatalf("%s: %s of %s after a full buffer: got %v, want %v after %v", r.ID, name, ps[i], got, want, prefix[0])
				}
			}
		}
	}
}
