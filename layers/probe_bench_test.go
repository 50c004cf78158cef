package layers

import (
	"slices"
	"testing"
	"time"

	"muehle/muehle"
)

// probeDB returns a database of the 9-stone game in a temporary directory
// holding layer 5-5 (31 MB), and random positions of that layer.
func probeDB(b *testing.B) (*DB, []muehle.Position) {
	db, err := OpenDB(b.TempDir(), muehle.NineMensMorris)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	k := Moving(5, 5)
	body := make([]byte, db.Indexer().Layer(k).Size())
	for i := range body {
		body[i] = byte(Decided(i % 7))
	}
	if err := db.Write(k, body); err != nil {
		b.Fatal(err)
	}
	return db, benchPositions(k, 1<<12)
}

func benchProbe(b *testing.B, cold bool) {
	db, ps := probeDB(b)
	f, err := db.Layer(Moving(5, 5))
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		if cold {
			b.StopTimer()
			if err := dropCache(f); err != nil {
				b.Skipf("cannot drop the file cache: %v", err)
			}
			b.StartTimer()
		}
		for _, p := range ps {
			if _, err := db.Probe(p); err != nil {
				b.Fatal(err)
			}
		}
		n += len(ps)
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(n), "ns/probe")
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "probes/s")
}

// BenchmarkProbeWarm probes random positions of a layer in the page cache.
func BenchmarkProbeWarm(b *testing.B) { benchProbe(b, false) }

// BenchmarkProbeCold probes random positions of a layer after evicting its
// file from the page cache (Linux only): most probes read from the disk.
func BenchmarkProbeCold(b *testing.B) { benchProbe(b, true) }

// TestFirstProbeTime measures the first probe into a layer of 269 MB (6-7
// of the 9-stone game, a synthetic body) in a fresh DB, its file in the
// page cache: with the whole body checked on opening (as without a block
// file) and with the block file (the body checked block by block). It
// prints the times; it checks only that the lazy open was lazy.
func TestFirstProbeTime(t *testing.T) {
	needLong(t, "writes a layer of 269 MB")
	dir := t.TempDir()
	db, err := OpenDB(dir, muehle.NineMensMorris)
	if err != nil {
		t.Fatal(err)
	}
	k := Moving(6, 7)
	body := make([]byte, db.Indexer().Layer(k).Size())
	for i := range body {
		body[i] = byte(Decided(i % 7))
	}
	if err := db.Write(k, body); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ps := benchPositions(k, 100)
	for round := range 3 {
		for _, lazy := range []bool{false, true} {
			db, err := OpenDB(dir, muehle.NineMensMorris)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if !lazy {
				if _, err := db.Layer(k); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Probe(ps[0]); err != nil {
				t.Fatal(err)
			}
			first := time.Since(start)
			start = time.Now()
			for _, p := range ps[1:] {
				if _, err := db.Probe(p); err != nil {
					t.Fatal(err)
				}
			}
			rest := time.Since(start)
			if got := checkedBlocks(db, k) != -1; got != lazy {
				t.Errorf("open lazily: got %v, want %v", got, lazy)
			}
			t.Logf("round %d, lazy %-5v: first probe %8.3f ms, the next %d probes %7.3f ms", round, lazy,
				first.Seconds()*1e3, len(ps)-1, rest.Seconds()*1e3)
			db.Close()
		}
	}
}

// BenchmarkProbeCompressed probes random positions of layer 5-5 of the
// 9-stone game (31 MB; the body of fingerprints of its positions, which
// compresses as a layer of few draws does) kept compressed, its file in
// the page cache: with the block cache held to one block, so that nearly
// every probe decodes its block (miss), and with the cache's default
// bound, every block decoded once and kept (hit). It reports the median
// and the 99th percentile of single probes.
func BenchmarkProbeCompressed(b *testing.B) {
	db, err := OpenDB(b.TempDir(), muehle.Standard.With(9))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	k := Moving(5, 5)
	l := db.Indexer().Layer(k)
	body := make([]byte, l.Size())
	for i := range body {
		if p, ok := l.Position(uint64(i)); ok {
			body[i] = byte(fingerprint(p))
		}
	}
	if err := db.Write(k, body); err != nil {
		b.Fatal(err)
	}
	if _, _, _, err := db.Compress(k); err != nil {
		b.Fatal(err)
	}
	ps := benchPositions(k, 1<<12)
	for _, tc := range []struct {
		name  string
		cache int64
	}{{"miss", 1}, {"hit", 0}} {
		b.Run(tc.name, func(b *testing.B) {
			db.SetCacheBytes(tc.cache)
			var ts []time.Duration
			for b.Loop() {
				for _, p := range ps {
					t0 := time.Now()
					if _, err := db.Probe(p); err != nil {
						b.Fatal(err)
					}
					ts = append(ts, time.Since(t0))
				}
			}
			slices.Sort(ts)
			b.ReportMetric(float64(ts[len(ts)/2].Nanoseconds()), "ns-median")
			b.ReportMetric(float64(ts[len(ts)*99/100].Nanoseconds()), "ns-p99")
		})
	}
}
