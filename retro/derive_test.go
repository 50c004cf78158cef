package retro

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"muehle/layers"
	"muehle/muehle/testenv"
)

// TestDeriveLayer derives every moving layer of the solved 4-stone game
// (under the race detector, where that solve is slow, the 3-stone game's
// one layer) from the layers below it and expects the body the solver
// wrote, byte for byte, unused slots included.
func TestDeriveLayer(t *testing.T) {
	stones := 4
	if testenv.Race {
		stones = 3
	}
	db := openDB(t, t.TempDir(), stones)
	solve(t, db, SolveOptions{})
	ctx := context.Background()
	for _, k := range layers.Order(stones, false) {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		body := make([]byte, len(f.Body()))
		if err := DeriveLayer(ctx, db, k, 2, body, nil); err != nil {
			t.Fatal(err)
		}
		if i := firstDifference(body, f.Body()); i >= 0 {
			t.Fatalf("layer %s slot %d: derived %v, stored %v", k, i, layers.Value(body[i]), layers.Value(f.Body()[i]))
		}
	}
}

// TestDeriveLayerNeedsItsChildren expects an error, not a body, when a
// layer below is missing, and for a placement layer.
func TestDeriveLayerNeedsItsChildren(t *testing.T) {
	db := openDB(t, t.TempDir(), 3)
	solve(t, db, SolveOptions{Placement: true})
	k := layers.Moving(3, 3)
	if err := DeriveLayer(context.Background(), db, k, 1, make([]byte, 5), nil); err == nil {
		t.Error("a body of the wrong size: no error")
	}
	p := layers.Order(3, true)[len(layers.Order(3, false))]
	if err := DeriveLayer(context.Background(), db, p, 1, make([]byte, db.Indexer().Layer(p).Size()), nil); err == nil {
		t.Errorf("placement layer %s: no error", p)
	}
	if err := db.Remove(k); err != nil {
		t.Fatal(err)
	}
	err := DeriveLayer(context.Background(), db, k, 1, make([]byte, db.Indexer().Layer(k).Size()), nil)
	if !errors.Is(err, layers.ErrMissing) {
		t.Errorf("3-3 without its own file (its partner): got %v, want layers.ErrMissing", err)
	}
}

// firstDifference returns the first index where a and b differ, or -1.
func firstDifference(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
