//go:build long

package main

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
)

// The checks of issue 5 on a complete small game, run with -tags long: the
// solver (retro) computes the database, the perfect player (retro/play)
// plays from it. They live here, where both may be imported, because the
// players' package must not import the solver, not even in its tests.
// MUEHLE_TEST_K sets the stones per side (default 4; issue 5 asks for 5,
// whose database takes tens of minutes to solve), MUEHLE_TEST_DB a database
// directory to use or complete (default a temporary one).

// perfectPlyCap ends a test game as a draw after this many plies.
const perfectPlyCap = 400

// solvedDB returns the complete database (all phases) of the test's game.
func solvedDB(t *testing.T) (*layers.DB, int) {
	k := 4
	if s := os.Getenv("MUEHLE_TEST_K"); s != "" {
		var err error
		if k, err = strconv.Atoi(s); err != nil {
			t.Fatalf("MUEHLE_TEST_K=%q: %v", s, err)
		}
	}
	dir := os.Getenv("MUEHLE_TEST_DB")
	if dir == "" {
		dir = t.TempDir()
	}
	return solveAllIn(t, dir, k), k
}

// perfectGame plays one game from g between perfect (on side pc) and
// other, and returns the result, failing the test when the perfect player
// makes a move that worsens its outcome or falls back.
func perfectGame(t *testing.T, db *layers.DB, g *muehle.Game, pc muehle.Color, perfect *play.Perfect, other muehle.Player) muehle.Result {
	t.Helper()
	var players [2]muehle.Player
	players[pc], players[pc^1] = perfect, other
	r, _ := checkedGame(t, db, g, players)
	return r
}

// checkedGame plays one game from g, players[c] moving for colour c, and
// returns the result and the moves each colour played. Every move of a
// perfect player is checked against the database: it must not worsen the
// mover's outcome, and it must not come from the fallback player. A game
// still going after perfectPlyCap plies is a draw.
func checkedGame(t *testing.T, db *layers.DB, g *muehle.Game, players [2]muehle.Player) (muehle.Result, [2]int) {
	t.Helper()
	ctx := context.Background()
	var moves [2]int
	for g.Ply() < perfectPlyCap {
		if r, _ := g.Result(); r != muehle.Ongoing {
			return r, moves
		}
		pos := g.Position()
		pl := players[pos.Turn]
		m, err := pl.Move(ctx, g.Clone())
		if err != nil {
			t.Fatal(err)
		}
		moves[pos.Turn]++
		if perfect, ok := pl.(*play.Perfect); ok {
			if perfect.LastFellBack() {
				t.Fatalf("%s: fell back with a complete database: %s", pos, perfect.FallbackReason())
			}
			before, after, err := valuesAround(db, pos, m)
			if err != nil {
				t.Fatal(err)
			}
			if after.Parent().Outcome() < before.Outcome() {
				t.Errorf("%s (%s): perfect played %s, worth %s", pos, before, m, after.Parent())
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return muehle.Draw, moves
}

// TestPerfectSolvedGame solves the game once and runs the checks on it.
func TestPerfectSolvedGame(t *testing.T) {
	db, k := solvedDB(t)
	t.Run("500 games", func(t *testing.T) { perfect500(t, db, k) })
	t.Run("won starts", func(t *testing.T) { perfectConvertsWins(t, db, k) })
}

// perfect500 plays 500 games of the perfect player, half against random
// and half against alpha-beta depth 4, alternating colours, and checks
// that no move of the perfect player worsens its outcome.
func perfect500(t *testing.T, db *layers.DB, k int) {
	start, err := db.Probe(muehle.NewPosition(k))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("k=%d: the empty board is %s for White", k, start)
	const games = 500
	var lost, won, drawn [2]int
	for i := range games {
		perfect := play.NewPerfect(db, rand.NewPCG(uint64(i), 1), nil)
		vsAB := i%2 == 0
		var other muehle.Player = muehle.NewSeededRandom(uint64(i))
		if vsAB {
			other = play.NewAlphaBeta(play.Limits{Depth: 4}, rand.NewPCG(uint64(i), 2), nil)
		}
		pc := muehle.Color(i / 2 % 2)
		r := perfectGame(t, db, muehle.NewGame(k), pc, perfect, other)
		j := 0
		if vsAB {
			j = 1
		}
		switch {
		case r == muehle.Draw:
			drawn[j]++
		case (r == muehle.WhiteWins) == (pc == muehle.White):
			won[j]++
		default:
			lost[j]++
		}
	}
	t.Logf("perfect against random: %d won, %d drawn, %d lost; against alpha-beta depth 4: %d won, %d drawn, %d lost",
		won[0], drawn[0], lost[0], won[1], drawn[1], lost[1])
	if lost[0]+lost[1] > 0 && start.Outcome() == layers.Draw {
		t.Errorf("perfect lost %d games from a drawn start", lost[0]+lost[1])
	}
}

// perfectConvertsWins starts games from positions reached by random
// play that the database says the side to move wins, gives that side to
// the perfect player and the other to the random player, and checks that
// the perfect player wins every one, within the database depth. Wins in
// one ply are left out as too easy.
func perfectConvertsWins(t *testing.T, db *layers.DB, k int) {
	rng := rand.New(rand.NewPCG(5, 5))
	const starts = 200
	n, plies, deepest := 0, 0, 0
	for try := 0; n < starts && try < 100*starts; try++ {
		p := muehle.NewPosition(k)
		for range rng.IntN(12 * k) {
			ms := p.Moves()
			if len(ms) == 0 {
				break
			}
			p = p.Play(ms[rng.IntN(len(ms))])
		}
		if p.IsOver() {
			continue
		}
		v, err := db.Probe(p)
		if err != nil {
			t.Fatal(err)
		}
		if v.Outcome() != layers.Win || v.Depth() < 3 {
			continue
		}
		n++
		deepest = max(deepest, v.Depth())
		g, err := muehle.NewGameFrom(p, k)
		if err != nil {
			t.Fatal(err)
		}
		perfect := play.NewPerfect(db, rand.NewPCG(uint64(n), 3), nil)
		r := perfectGame(t, db, g, p.Turn, perfect, muehle.NewSeededRandom(uint64(n)))
		if want := muehle.Result(muehle.WhiteWins + muehle.Result(p.Turn)); r != want {
			t.Errorf("from %s (%s): got %s, want %s", p, v, r, want)
		}
		if g.Ply() > v.Depth() {
			t.Errorf("from %s (%s): won after %d plies, later than the database depth", p, v, g.Ply())
		}
		plies += g.Ply()
	}
	if n < starts {
		t.Fatalf("found only %d won starts", n)
	}
	t.Logf("k=%d: %d won starts (won in 3 to %d plies) converted against random, %d plies in all", k, n, deepest, plies)
}
