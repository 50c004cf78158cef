package play

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// TestStoreTimes measures reading the folders MUEHLE_STORE_DBS names (a
// comma list: a flat one and its compressed copy, say) of the standard
// game of MUEHLE_STORE_STONES stones: a random probe whose block is not
// decoded yet (the block cache held to one block, so that nearly every
// probe decodes one; the files in the page cache), median and 99th
// percentile; and the perfect move over 200 positions of each phase from
// random games, its layers open (a first pass over the positions opens
// them; the second is timed), median and worst, with a block cache of
// MUEHLE_STORE_CACHE MiB (layers.DefaultCacheBytes when unset)
// (docs/design.md, layers/doc.go).
//
//	MUEHLE_STORE_DBS=/tmp/flat,/tmp/z MUEHLE_STORE_STONES=6 go test -run StoreTimes -v ./retro/play/
func TestStoreTimes(t *testing.T) {
	dirs := os.Getenv("MUEHLE_STORE_DBS")
	if dirs == "" {
		t.Skip("MUEHLE_STORE_DBS names no folders")
	}
	stones, _ := strconv.Atoi(os.Getenv("MUEHLE_STORE_STONES"))
	v := muehle.Standard.With(stones)
	for dir := range strings.SplitSeq(dirs, ",") {
		db, err := layers.OpenDB(dir, v)
		if err != nil {
			t.Fatal(err)
		}
		// Probes: random canonical slots of random layers, by their slots.
		var keys []layers.Key
		var weights []uint64
		var total uint64
		for _, k := range layers.OrderIn(v, true) {
			if db.Has(k) {
				n := db.Indexer().Layer(k).Size()
				keys, weights, total = append(keys, k), append(weights, n), total+n
			}
		}
		r := rand.New(rand.NewPCG(51, 1))
		var ps []muehle.Position
		for len(ps) < 20000 {
			x := r.Uint64N(total)
			j := 0
			for x >= weights[j] {
				x -= weights[j]
				j++
			}
			if p, ok := db.Indexer().Layer(keys[j]).Position(x); ok {
				ps = append(ps, p)
			}
		}
		for _, p := range ps[:2000] { // open the layers
			db.Probe(p)
		}
		db.SetCacheBytes(1)
		ts := make([]time.Duration, 0, len(ps))
		for _, p := range ps {
			t0 := time.Now()
			if _, err := db.Probe(p); err != nil {
				t.Fatal(err)
			}
			ts = append(ts, time.Since(t0))
		}
		slices.Sort(ts)
		t.Logf("%s: %d random probes, block not decoded: median %v, 99th percentile %v, worst %v", dir, len(ts), ts[len(ts)/2], ts[len(ts)*99/100], ts[len(ts)-1])
		cache, _ := strconv.ParseInt(os.Getenv("MUEHLE_STORE_CACHE"), 10, 64) // MiB; 0: the default
		db.SetCacheBytes(cache << 20)

		// The perfect move.
		all := muehle.Standard.Rules().RandomPositions(stones, 52, 20000)
		var phases [2][]muehle.Position
		for _, p := range all {
			if ph := min(int(p.Hand[0]+p.Hand[1]), 1); len(phases[1-ph]) < 200 && len(p.AppendMoves(nil)) > 0 {
				phases[1-ph] = append(phases[1-ph], p)
			}
		}
		for ph, name := range []string{"moving", "placement"} {
			perfect := NewPerfect(db, rand.NewPCG(1, 2), nil)
			var times []time.Duration
			for pass := range 2 {
				for _, p := range phases[ph] {
					g, err := muehle.NewGameFrom(p, stones)
					if err != nil {
						t.Fatal(err)
					}
					t0 := time.Now()
					if _, err := perfect.Move(context.Background(), g); err != nil {
						t.Fatalf("%v: %v", p, err)
					}
					if pass == 1 {
						times = append(times, time.Since(t0))
					}
				}
			}
			slices.Sort(times)
			t.Logf("%s: the perfect move in %d %s positions, layers open: median %v, worst %v", dir, len(times), name, times[len(times)/2], times[len(times)-1])
		}
		db.Close()
	}
}
