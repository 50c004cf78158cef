package retro

import (
	"context"
	"os"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// BenchmarkSolvePair solves the pair 4-5 + 5-4 again and again (all layers
// up to nine stones are computed once beforehand, so only the pair is missing) and reports classes solved per second, the
// figure of the throughput target, and per second per core.
func BenchmarkSolvePair(b *testing.B) {
	benchPair(b, layers.Moving(4, 5), 9)
}

// BenchmarkSolvePair36 does the same for the pair 3-6 + 6-3, whose
// propagation phase is long (a flying side, deep wins).
func BenchmarkSolvePair36(b *testing.B) {
	benchPair(b, layers.Moving(3, 6), 9)
}

func benchPair(b *testing.B, k layers.Key, maxStones int) {
	db, err := layers.OpenDB(b.TempDir(), muehle.NineMensMorris)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := Solve(context.Background(), db, SolveOptions{MaxStones: maxStones, SkipVerify: true}); err != nil {
		b.Fatal(err)
	}
	keys := []layers.Key{k, k.Partner()}
	var classes uint64
	for _, x := range keys {
		classes += db.Indexer().Layer(x).Classes()
	}
	opts := SolveOptions{MaxStones: maxStones, SkipVerify: true}
	workers := Workers(0)
	for b.Loop() {
		for _, x := range keys {
			os.Remove(db.Path(x))
		}
		if err := Solve(context.Background(), db, opts); err != nil {
			b.Fatal(err)
		}
	}
	perSec := float64(classes) * float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(perSec, "classes/s")
	b.ReportMetric(perSec/float64(workers), "classes/s/core")
}

// BenchmarkPlacementLayer recomputes the placement layer p3+1-4+0 of the
// four-stone game (its children are all moving positions) and reports
// placement positions (classes) per second.
func BenchmarkPlacementLayer(b *testing.B) {
	db, err := layers.OpenDB(b.TempDir(), muehle.Standard.With(4))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := Solve(context.Background(), db, SolveOptions{SkipVerify: true}); err != nil {
		b.Fatal(err)
	}
	k, err := layers.ParseKey("p3+1-4+0")
	if err != nil {
		b.Fatal(err)
	}
	classes := db.Indexer().Layer(k).Classes()
	for b.Loop() {
		if _, err := solvePlacement(context.Background(), db, k, nil, Workers(0), 1<<30, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	perSec := float64(classes) * float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(perSec, "classes/s")
	b.ReportMetric(perSec/float64(Workers(0)), "classes/s/core")
}

// BenchmarkReachableSweep computes the reachable classes of the largest
// placement layers of the 5-stone game, p4+1-5+0 and p5+1-4+0 (the last
// placement, children in the moving layers), as the solver does, over
// the moving layers solved once; it reports reachable classes per second
// of processor time.
func BenchmarkReachableSweep(b *testing.B) {
	db, err := layers.OpenDB(b.TempDir(), muehle.Standard.With(5))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := Solve(context.Background(), db, SolveOptions{SkipVerify: true}); err != nil {
		b.Fatal(err)
	}
	var keys []layers.Key
	var reach []ReachBits
	var classes uint64
	err = Reach(context.Background(), db.Indexer(), muehle.Standard.With(5), 0, func(ply int, r ReachPly) error {
		if ply != 2*5-1 {
			return nil
		}
		for k, bits := range r {
			keys, reach = append(keys, k), append(reach, bits)
			classes += bits.Count()
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	cpu0, _ := layers.CPUTime()
	for b.Loop() {
		for i, k := range keys {
			if _, err := solvePlacement(context.Background(), db, k, reach[i], Workers(0), 1<<30, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu1, _ := layers.CPUTime()
	b.ReportMetric(float64(classes)*float64(b.N)/(cpu1-cpu0).Seconds(), "classes/cpu-s")
}

// BenchmarkReachPass runs the forward pass of the 5-stone game (25
// million placement slots, 13.5 million of them reachable) and reports
// reachable classes marked per second of processor time.
func BenchmarkReachPass(b *testing.B) {
	x, err := layers.DefaultIndexer()
	if err != nil {
		b.Fatal(err)
	}
	var classes uint64
	cpu0, _ := layers.CPUTime()
	for b.Loop() {
		classes = 0
		err := Reach(context.Background(), x, muehle.Standard.With(5), 0, func(_ int, r ReachPly) error {
			classes += r.Count()
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	cpu1, _ := layers.CPUTime()
	b.ReportMetric(float64(classes)*float64(b.N)/(cpu1-cpu0).Seconds(), "classes/cpu-s")
}
