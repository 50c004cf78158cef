//go:build long

package main

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/play"
)

// TestPerfectStandardGame checks the perfect player of the standard game
// (9 stones) on its complete database, given by MUEHLE_STANDARD_DB (the
// folder that holds k9/; the test skips without it and never computes a
// layer): games from the empty board against random, against alpha-beta
// depth 4 and against itself, colours alternating, in which no move of a
// perfect player may worsen its database outcome or come from the
// fallback player. MUEHLE_TEST_GAMES sets the number of games (default 6).
// The matches of docs/figures.md, 100 or 20 games each, are `muehlectl match`.
func TestPerfectStandardGame(t *testing.T) {
	dir := os.Getenv("MUEHLE_STANDARD_DB")
	if dir == "" {
		t.Skip("MUEHLE_STANDARD_DB is not set: this test needs the standard game's complete database")
	}
	games := 6
	if s := os.Getenv("MUEHLE_TEST_GAMES"); s != "" {
		var err error
		if games, err = strconv.Atoi(s); err != nil || games < 1 {
			t.Fatalf("MUEHLE_TEST_GAMES=%q: want a positive number", s)
		}
	}
	db, err := layers.OpenDB(dir, muehle.StonesPerSide)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, u := range makePlan(db, retro.SolveOptions{Placement: true}, 1, 1).Units {
		if !u.done() {
			t.Fatalf("%s: unit %s is %s; the test needs every layer computed and verified", dir, u.Name, u.Status)
		}
	}
	start, err := db.Probe(muehle.NewPosition(muehle.StonesPerSide))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the empty board is %s for White", start)

	opponents := []string{"random", "alpha-beta depth 4", "perfect"}
	for i := range games {
		perfect := play.NewPerfect(db, rand.NewPCG(uint64(i), 12), nil)
		var other muehle.Player
		switch i % len(opponents) {
		case 0:
			other = muehle.NewSeededRandom(uint64(i))
		case 1:
			other = play.NewAlphaBeta(play.Limits{Depth: 4}, rand.NewPCG(uint64(i), 4), nil)
		default:
			other = play.NewPerfect(db, rand.NewPCG(uint64(i), 13), nil)
		}
		pc := muehle.Color(i / len(opponents) % 2)
		var players [2]muehle.Player
		players[pc], players[pc^1] = perfect, other
		r, moves := checkedGame(t, db, muehle.NewGame(muehle.StonesPerSide), players)
		t.Logf("game %d, perfect (%s) against %s: %s after %d plies", i+1, pc, opponents[i%len(opponents)], r, moves[0]+moves[1])
		if lost := r != muehle.Draw && (r == muehle.WhiteWins) != (pc == muehle.White); lost && start.Outcome() == layers.Draw {
			t.Errorf("game %d: the perfect player lost from a drawn start", i+1)
		}
	}
}
