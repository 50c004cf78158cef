package layers

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"muehle/muehle"
)

// BenchmarkReadCompressed measures what a solver pays to read a finished
// layer kept compressed, the rates of the cost model's reading term
// (retro/cost.go: costDecodeNanos, costFillNanos, costFillMixedNanos).
// It reads layer MUEHLE_READ_LAYER (6-6 when unset) of the game
// MUEHLE_READ_GAME (standard when unset) with MUEHLE_READ_STONES stones a
// side (the game's when unset) in the folder MUEHLE_READ_DB, through a
// database opened afresh for each read, and reports processor time (all
// goroutines, CPUTime):
//
//   - decode: the body decoded and checked (its blocks' CRCs, the
//     header's figures), as DB.Layer does before the fill: cpu-ns/op and
//     cpu-ns/byte of the body;
//   - full: DB.Layer, in form 2 the decoding and then the won depths found
//     by one ply over the children as they lie: cpu-ns/op, cpu-ns/won
//     (all of it per won slot, as BenchmarkFillWon reports it) and
//     fill-ns/won (what is more than decoding, per won slot: give it the
//     decode's cpu-ns/op as MUEHLE_READ_DECODE_NS, else it is left out).
//
// For instance (a folder solved with --compress):
//
//	MUEHLE_READ_DB=/tmp/h51k/l6 MUEHLE_READ_GAME=lasker MUEHLE_READ_STONES=6 MUEHLE_READ_LAYER=6-6 \
//	  go test -run '^$' -bench ReadCompressed -benchtime 1x -count 3 ./layers/
func BenchmarkReadCompressed(b *testing.B) {
	v, k, open := envCompressedLayer(b)
	b.Run("decode", func(b *testing.B) {
		var cpu time.Duration
		var bytes uint64
		for b.Loop() {
			db := open()
			h, err := db.Header(k)
			if err != nil {
				b.Fatal(err)
			}
			c0 := cpuTime(b)
			f, _, err := openCompressed(db.Path(k), v, k, false, h, nil)
			if err != nil {
				b.Fatal(err)
			}
			cpu += cpuTime(b) - c0
			bytes += uint64(len(f.body))
			f.z.close()
			db.Close()
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(bytes), "cpu-ns/byte")
	})
	b.Run("full", func(b *testing.B) {
		var cpu time.Duration
		var won uint64
		for b.Loop() {
			db := open()
			c0 := cpuTime(b)
			f, err := db.Layer(k)
			if err != nil {
				b.Fatal(err)
			}
			cpu += cpuTime(b) - c0
			won += f.Header().Won
			db.Close()
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		if won > 0 {
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(won), "cpu-ns/won")
			if s := os.Getenv("MUEHLE_READ_DECODE_NS"); s != "" {
				dec, err := strconv.ParseFloat(s, 64)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric((float64(cpu.Nanoseconds())/float64(b.N)-dec)/float64(won/uint64(b.N)), "fill-ns/won")
			}
		}
	})
}

// BenchmarkWriteCompressed measures what a solver pays to write a layer
// compressed once it is verified (writeCompressed, as DB.CompressDerived
// calls it): the layer BenchmarkReadCompressed reads, decoded once in the
// form stored, then coded into a temporary file each time. It reports
// processor time (cpu-ns/op, cpu-ns/byte of the body) and the file's
// bytes. For instance (the campaign's folder):
//
//	MUEHLE_READ_DB=~/.local/share/muehle MUEHLE_READ_GAME=lasker MUEHLE_READ_LAYER=7-8 \
//	  go test -run '^$' -bench WriteCompressed -benchtime 3x ./layers/
func BenchmarkWriteCompressed(b *testing.B) {
	v, k, open := envCompressedLayer(b)
	db := open()
	defer db.Close()
	h, err := db.Header(k)
	if err != nil {
		b.Fatal(err)
	}
	f, _, err := openCompressed(db.Path(k), v, k, false, h, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer f.z.close()
	var parts []Part
	if !h.Dense() {
		parts = db.Indexer().Layer(k).Parts()
	}
	path := filepath.Join(b.TempDir(), "layer.z")
	var cpu time.Duration
	var size int64
	for b.Loop() {
		c0 := cpuTime(b)
		if size, err = writeCompressed(path, f.z.m[zPreamble:zPreamble+HeaderSize], f.body, zShift, parts, h.valuesFrom()); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime(b) - c0
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(len(f.body)), "cpu-ns/byte")
	b.ReportMetric(float64(size), "file-bytes")
}

// envCompressedLayer returns the game and the key of the compressed layer
// the reading and writing benchmarks measure (BenchmarkReadCompressed),
// and a function opening its folder afresh.
func envCompressedLayer(b *testing.B) (muehle.Variant, Key, func() *DB) {
	dir := os.Getenv("MUEHLE_READ_DB")
	if dir == "" {
		b.Skip("MUEHLE_READ_DB names no folder")
	}
	v := envVariant(b, "MUEHLE_READ_GAME", "MUEHLE_READ_STONES")
	k := Moving(6, 6)
	if s := os.Getenv("MUEHLE_READ_LAYER"); s != "" {
		var err error
		if k, err = ParseKey(s); err != nil {
			b.Fatal(err)
		}
	}
	return v, k, func() *DB {
		db, err := OpenDB(dir, v)
		if err != nil {
			b.Fatal(err)
		}
		if !db.Compressed(k) {
			b.Fatalf("layer %s of %s is not compressed", k, dir)
		}
		return db
	}
}

// cpuTime returns the process's processor time, and skips the benchmark
// where it is not read.
func cpuTime(b *testing.B) time.Duration {
	t, ok := CPUTime()
	if !ok {
		b.Skip("the processor time is not read here")
	}
	return t
}

// envVariant returns the game named by the environment variable game
// (standard when unset) with the stones a side that stones names (the
// game's when unset), for the measurements that read a folder named in
// the environment.
func envVariant(tb testing.TB, game, stones string) muehle.Variant {
	tb.Helper()
	v := muehle.NineMensMorris
	if g := os.Getenv(game); g != "" {
		r, ok := muehle.GameByName(g)
		if !ok {
			tb.Fatalf("%s %q: want one of %s", game, g, muehle.GameIDs())
		}
		v = r.Game().With(r.Stones)
	}
	if s := os.Getenv(stones); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			tb.Fatalf("%s %q: %v", stones, s, err)
		}
		v.Stones = n
	}
	return v
}
