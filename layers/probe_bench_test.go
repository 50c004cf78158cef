package layers

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"muehle/muehle"
	"muehle/muehle/testenv"
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
	testenv.Long(t, "writes a layer of 269 MB")
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

// BenchmarkProbeFirst times single random probes of layer 5-5 of the
// 9-stone game (31 MB; the body of fingerprints of its positions, which
// compresses as a layer of few draws does, 1.6 bits a slot), each the
// first into its block, the file in the page cache: lying flat (the
// probe checks the block's CRC-64, 64 KiB) and compressed (the probe
// decodes and checks the block, 16 KiB, into the block cache). It reports
// the median and the 99th percentile of single probes (ns-median,
// ns-p99); the DB is opened again, untimed, whenever a probe would find
// its block checked or decoded already. "flat-hit" and "hit" probe the
// layers with every block checked or decoded already.
//
//	go test -run '^$' -bench ProbeFirst ./layers/
func BenchmarkProbeFirst(b *testing.B) {
	zw := zWrite
	defer func() { zWrite = zw }()
	zWrite = 1 // fingerprints, no game's values: form 2 needs a game's (won_test.go)
	dir := b.TempDir()
	k := Moving(5, 5)
	var ps []muehle.Position
	for _, form := range []string{"flat", "compressed", "flat-hit", "hit"} {
		sub := filepath.Join(dir, form)
		switch form {
		case "hit":
			sub = filepath.Join(dir, "compressed")
		case "flat-hit":
			sub = filepath.Join(dir, "flat")
		default:
			db, err := OpenDB(sub, muehle.NineMensMorris)
			if err != nil {
				b.Fatal(err)
			}
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
			if form == "compressed" {
				if _, _, _, err := db.Compress(k); err != nil {
					b.Fatal(err)
				}
			}
			db.Close()
			ps = benchPositions(k, 1<<12)
		}
		b.Run(form, func(b *testing.B) {
			shift := uint(blockShift)
			if form == "compressed" || form == "hit" {
				shift = zShift
			}
			probeTimes(b, sub, muehle.NineMensMorris, k, ps, shift, strings.HasSuffix(form, "hit"))
		})
	}
}

// probeTimes times single probes of the positions ps of layer k in the
// database of v in dir, reporting their median and 99th percentile
// (ns-median, ns-p99): with hit, every block of the layer read already;
// else each the first into its block of 2^shift bytes, the DB opened
// again, untimed, whenever a probe would find its block read already.
func probeTimes(b *testing.B, dir string, v muehle.Variant, k Key, ps []muehle.Position, shift uint, hit bool) {
	var db *DB
	seen := map[uint64]bool{} // the blocks probed since the DB was opened
	var l *LayerIndex
	open := func() {
		if db != nil {
			db.Close()
		}
		var err error
		if db, err = OpenDB(dir, v); err != nil {
			b.Fatal(err)
		}
		if _, err := db.Probe(ps[0]); err != nil { // open the layer
			b.Fatal(err)
		}
		l = db.Indexer().Layer(k)
		clear(seen)
		seen[l.Index(ps[0])>>shift] = true
	}
	open()
	defer func() { db.Close() }()
	if hit {
		for _, p := range ps {
			db.Probe(p)
		}
	}
	var ts []time.Duration
	for b.Loop() {
		for _, p := range ps {
			blk := l.Index(p) >> shift
			if !hit && seen[blk] {
				b.StopTimer()
				open()
				b.StartTimer()
			}
			seen[blk] = true
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
}
