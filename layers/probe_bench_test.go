package layers

import (
	"testing"

	"muehle/muehle"
)

// probeDB returns a database of the 9-stone game in a temporary directory
// holding layer 5-5 (31 MB), and random positions of that layer.
func probeDB(b *testing.B) (*DB, []muehle.Position) {
	db, err := OpenDB(b.TempDir(), 9)
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
