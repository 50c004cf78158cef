package main

import (
	"context"
	"maps"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro"
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
	if testenv.Race {
		ks = ks[:1]
	}
	for _, k := range ks {
		fwd := map[layers.Key]retro.ReachBits{}
		err := retro.Reach(context.Background(), x, muehle.Standard.With(k), 0, func(_ int, r retro.ReachPly) error {
			maps.Copy(fwd, r)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		back := newBackReach(muehle.Standard.With(k), x)
		reached, classes := 0, 0
		for _, key := range layers.PlacementLayers(k) {
			ix := x.Layer(key)
			for i := range ix.Size() {
				p, ok := ix.Position(i)
				if !ok {
					continue
				}
				classes++
				f := fwd[key].Has(i)
				if b := back.reachable(gameOrientation(p)); f != b {
					t.Fatalf("k=%d layer %v slot %d %v: forwards reachable %v, backwards %v", k, key, i, gameOrientation(p), f, b)
				}
				if f {
					reached++
				}
			}
		}
		// The counts of docs/placement.md, from the first forward count
		// (a single-threaded one, since replaced by retro.Reach).
		if want := map[int]int{3: 31_534, 4: 934_636}[k]; reached != want {
			t.Errorf("k=%d: got %d of %d classes reachable, want %d", k, reached, classes, want)
		}
	}
}
