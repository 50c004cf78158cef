package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro/playtest"
)

// matchPlyCap ends a test game as a draw after this many plies.
const matchPlyCap = 400

// playGame plays one game of k stones between white and black and returns
// its result; a game reaching matchPlyCap plies is a draw.
func playGame(t testing.TB, k int, white, black muehle.Player) muehle.Result {
	t.Helper()
	g := muehle.NewGame(k)
	ctx := context.Background()
	for g.Ply() < matchPlyCap {
		if r, _ := g.Result(); r != muehle.Ongoing {
			return r
		}
		pl := white
		if g.Position().Turn == muehle.Black {
			pl = black
		}
		m, err := pl.Move(ctx, g.Clone())
		if err != nil {
			t.Fatalf("%s at ply %d: %v", pl.Name(), g.Ply(), err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s played %s at ply %d: %v", pl.Name(), m, g.Ply(), err)
		}
	}
	return muehle.Draw
}

// score counts the results of a series from the view of one player.
type score struct{ win, draw, loss int }

// playSeries plays n games of k stones between a and b, a taking White in
// even games and Black in odd ones, and returns a's results.
func playSeries(t testing.TB, n, k int, a, b muehle.Player) score {
	var s score
	for i := range n {
		aColor := muehle.Color(i % 2)
		w, bl := a, b
		if aColor == muehle.Black {
			w, bl = b, a
		}
		switch r := playGame(t, k, w, bl); {
		case r == muehle.Draw:
			s.draw++
		case (r == muehle.WhiteWins) == (aColor == muehle.White):
			s.win++
		default:
			s.loss++
		}
	}
	return s
}

// TestAlphaBetaBeatsRandom plays alpha-beta depth 4 against random: 200
// games (long), 20 with -short, 4 with -short under the race detector.
func TestAlphaBetaBeatsRandom(t *testing.T) {
	n := 200 // long: the games of issue 5
	if testing.Short() {
		n = 20
		if testenv.Race {
			n = 4
		}
	}
	ab := NewAlphaBeta(Limits{Depth: 4}, rand.NewPCG(1, 2), nil)
	r := muehle.NewSeededRandom(3)
	s := playSeries(t, n, 9, ab, r)
	t.Logf("alpha-beta depth 4 against random, %d games: %d won, %d drawn, %d lost", n, s.win, s.draw, s.loss)
	if 100*s.win < 99*n {
		t.Errorf("got %d wins of %d, want at least 99 %%", s.win, n)
	}
}

// TestAlphaBetaRandomTies checks that with a random source the player
// chooses among the moves of the best score, all of them in time, and
// that without one it always plays the same move.
func TestAlphaBetaRandomTies(t *testing.T) {
	for _, p := range append([]muehle.Position{muehle.NewPosition(9)}, playtest.Positions(31, 9, 3, 24, 50)...) {
		const depth = 2
		best := int32(-infScore)
		scores := map[muehle.Move]int32{}
		for _, m := range p.Moves() {
			sc := -refSearch(p.Play(m), []muehle.Position{p}, depth-1, 1, true)
			scores[m] = sc
			best = max(best, sc)
		}
		ties := 0
		for _, sc := range scores {
			if sc == best {
				ties++
			}
		}
		seen := map[muehle.Move]bool{}
		for seed := range uint64(40) {
			a := NewAlphaBeta(Limits{Depth: depth}, rand.NewPCG(seed, 7), nil)
			a.SetOptions(SearchOptions{TTBits: 12})
			g, _ := muehle.NewGameFrom(p, 9)
			m, err := a.Move(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if scores[m] != best {
				t.Errorf("%s: seed %d played %s scoring %d, want one of the moves scoring %d", p, seed, m, scores[m], best)
			}
			seen[m] = true
		}
		if ties > 1 && len(seen) < 2 {
			t.Errorf("%s: %d moves tie, but 40 seeds all played %v", p, ties, seen)
		}
		t.Logf("%s: %d tied moves, %d chosen by 40 seeds", p, ties, len(seen))
		var first muehle.Move
		for i := range 3 {
			a := NewAlphaBeta(Limits{Depth: depth}, nil, nil)
			g, _ := muehle.NewGameFrom(p, 9)
			m, _ := a.Move(context.Background(), g)
			if i > 0 && m != first {
				t.Errorf("%s: without a source got %s, then %s", p, first, m)
			}
			first = m
		}
	}
}
