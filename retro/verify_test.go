package retro

import (
	"context"
	"errors"
	"testing"

	"muehle/layers"
)

// TestChildTablesAreBestChild checks the fast path of the solver and the
// verifier against the definition: for every stored position of every
// layer of the solved k=4 game, moving and placement, childTables.best
// must equal BestChild, which probes each child through the database, and
// find every child stored.
func TestChildTablesAreBestChild(t *testing.T) {
	if raceEnabled {
		t.Skip("solves the k=4 game, slow under the race detector; run without it")
	}
	db := openDB(t, t.TempDir(), 4)
	solve(t, db, SolveOptions{SkipVerify: true, Placement: true})
	total := 0
	for _, k := range layers.Order(4, true) {
		c, err := newChildTables(db, k, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		ix := db.Indexer().Layer(k)
		var w childWork
		checked := 0
		for i := range ix.Size() {
			pos, ok := ix.Position(i)
			if !ok || f.Value(i) == layers.Unused {
				continue
			}
			want, err := BestChild(db, pos)
			if err != nil {
				t.Fatal(err)
			}
			if got, missing := c.best(&w, pos); got != want || missing {
				t.Fatalf("layer %s slot %d (%v): got %v (missing %v), want %v", k, i, pos, got, missing, want)
			}
			checked++
		}
		c.release()
		total += checked
	}
	if total == 0 {
		t.Error("no stored position checked")
	}
}

// TestVerifyCancelled expects a cancelled verification to report the
// cancellation, never a clean pass.
func TestVerifyCancelled(t *testing.T) {
	db := openDB(t, t.TempDir(), 3)
	solve(t, db, SolveOptions{SkipVerify: true})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := VerifyLayer(ctx, db, layers.Moving(3, 3), 0, 10, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want an error wrapping context.Canceled", err)
	}
}
