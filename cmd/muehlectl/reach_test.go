package main

import (
	"context"
	"testing"

	"muehle/layers"
)

// TestReachForwardBackward decides, for every placement class of the
// games with 3 and 4 stones, reachability from the empty board in two
// independent ways, forwards by moves and backwards by un-moves, and
// compares them.
func TestReachForwardBackward(t *testing.T) {
	x, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	ks := []int{3, 4}
	if testing.Short() {
		ks = ks[:1]
	}
	for _, k := range ks {
		fwd, _, err := reachForward(context.Background(), x, k)
		if err != nil {
			t.Fatal(err)
		}
		back := newBackReach(k, x)
		reached, classes := 0, 0
		for _, key := range layers.PlacementLayers(k) {
			ix := x.Layer(key)
			for i := range ix.Size() {
				p, ok := ix.Position(i)
				if !ok {
					continue
				}
				classes++
				f := fwd[key][i/64]&(1<<(i%64)) != 0
				if b := back.reachable(gameOrientation(p)); f != b {
					t.Fatalf("k=%d layer %v slot %d %v: forwards reachable %v, backwards %v", k, key, i, gameOrientation(p), f, b)
				}
				if f {
					reached++
				}
			}
		}
		if reached == 0 || reached == classes {
			t.Errorf("k=%d: got %d of %d classes reachable, want some but not all", k, reached, classes)
		}
	}
}
