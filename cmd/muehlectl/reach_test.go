package main

import (
	"bytes"
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
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
	if raceEnabled {
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

// TestReachMixed counts Lasker Morris's reachable placement classes of 3
// stones (issue 48, item 6: reach failed, "marked reachable but not
// canonical"), and checks the count level by level of stones in hand
// against retro.Reach's ply by ply on the standard game, where the levels
// are the plies.
func TestReachMixed(t *testing.T) {
	code, out, errOut := muehlectl("reach", "--game", "lasker", "--stones", "3")
	if code != 0 || !strings.Contains(out, "lasker k3: 64339 of 65263 placement classes reachable") {
		t.Errorf("reach --game lasker --stones 3: got exit %d, %q, %q", code, out, errOut)
	}
	x, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	var mixed, exact bytes.Buffer
	v := muehle.Standard.With(3)
	if err := reachMixed(context.Background(), &mixed, x, v, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := reachExact(context.Background(), &exact, x, v, time.Now()); err != nil {
		t.Fatal(err)
	}
	total := func(s string) string {
		_, after, _ := strings.Cut(s, "k3: ")
		n, _, _ := strings.Cut(after, " placement")
		return n
	}
	if got, want := total(mixed.String()), total(exact.String()); got != want || got == "" {
		t.Errorf("standard k3 level by level: got %q, ply by ply %q", got, want)
	}
}
