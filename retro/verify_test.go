package retro

import (
	"context"
	"errors"
	"testing"

	"muehle/layers"
)

// TestMovingVerifierIsBestChild checks the verifier's fast path against the
// definition: for every position of every moving layer of the solved k=4
// game, movingVerifier.best must equal BestChild, which probes each child
// through the database.
func TestMovingVerifierIsBestChild(t *testing.T) {
	if raceEnabled {
		t.Skip("solves the k=4 game, slow under the race detector; run without it")
	}
	db := openDB(t, t.TempDir(), 4)
	solve(t, db, SolveOptions{SkipVerify: true})
	for _, k := range layers.MovingLayers(4) {
		v, err := newMovingVerifier(db, k)
		if err != nil {
			t.Fatal(err)
		}
		ix := db.Indexer().Layer(k)
		var w childWork
		checked := 0
		for i := range ix.Size() {
			pos, ok := ix.Position(i)
			if !ok {
				continue
			}
			want, err := BestChild(db, pos)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.best(&w, pos); got != want {
				t.Fatalf("layer %s slot %d (%v): got %v, want %v", k, i, pos, got, want)
			}
			checked++
		}
		v.release()
		t.Logf("layer %s: %d positions", k, checked)
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
