//go:build long

package main

import (
	"context"
	"math/rand/v2"
	"testing"

	"muehle/muehle"
	"muehle/retro/play"
)

// TestPlacementSearchSolvedGame checks the placement search, reading only
// the moving layers, against the stored placement layers of a complete
// small game (MUEHLE_TEST_K, default 4; MUEHLE_TEST_DB to reuse a folder,
// see solvedDB): the empty board and its 24 first placements, 2000 random
// reachable placement positions, up to 2000 classes of every placement
// layer, and 40 games of the perfect player choosing its placements by the
// search against random.
func TestPlacementSearchSolvedGame(t *testing.T) {
	db, k := solvedDB(t)
	ctx := context.Background()
	s := play.NewPlacementSearch(play.MovingOnly(db), db.Indexer(), nil, 20)
	check := func(p muehle.Position) {
		t.Helper()
		want, err := db.Probe(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Value(ctx, p)
		if err != nil || got != want {
			t.Fatalf("k=%d %v: got %v, %v; want the stored %v", k, p, got, err, want)
		}
	}
	empty := muehle.NewPosition(k)
	check(empty)
	for _, m := range empty.Moves() {
		check(empty.Play(m))
	}
	rng := rand.New(rand.NewPCG(uint64(k), 12))
	for range 2000 {
		check(samplePlacement(rng, k, 0, 0))
	}
	n := checkPlacementClasses(t, db, 2000)
	t.Logf("k=%d: %d classes of the placement layers match", k, n)

	for i := range 40 {
		pl := play.NewPerfect(play.MovingOnly(db), rand.NewPCG(uint64(i), 9), nil)
		pl.Placement = play.NewPlacementSearch(play.MovingOnly(db), db.Indexer(), nil, 20)
		perfectGame(t, db, muehle.NewGame(k), muehle.Color(i%2), pl, muehle.NewSeededRandom(uint64(i)))
	}
}
