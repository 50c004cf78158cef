package retro

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// TestSameAsDatabase recomputes every moving pair of the database folder
// MUEHLE_BENCH_DB with at most MUEHLE_COMPARE_MAX stones (default 10) and
// compares the bodies byte for byte with the stored layers: a solver change
// must not change a single value. The folder's layers may come from an
// older version of the solver. MUEHLE_BENCH_GAME names another game, as
// for the benchmarks below.
//
//	MUEHLE_BENCH_DB=~/.local/share/muehle go test -run SameAsDatabase -v ./retro/
func TestSameAsDatabase(t *testing.T) {
	src := os.Getenv("MUEHLE_BENCH_DB")
	if src == "" {
		t.Skip("MUEHLE_BENCH_DB names no database folder")
	}
	maxStones := 10
	if s := os.Getenv("MUEHLE_COMPARE_MAX"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("MUEHLE_COMPARE_MAX: %v", err)
		}
		maxStones = n
	}
	v := benchVariant(t)
	from, err := layers.OpenDB(src, v)
	if err != nil {
		t.Fatal(err)
	}
	defer from.Close()
	for _, k := range layers.MovingLayers(v.Stones) {
		if k.W > k.B || int(k.W+k.B) > maxStones || !from.Has(k) || !from.Has(k.Partner()) {
			continue
		}
		r := &run{db: from, workers: Workers(0), tmp: t.TempDir(), unit: Unit{Keys: []layers.Key{k}}}
		if p := k.Partner(); p != k {
			r.unit.Keys = append(r.unit.Keys, p)
		}
		bodies, release, err := r.compute(context.Background())
		if err != nil {
			t.Fatalf("pair %s: %v", r.unit, err)
		}
		for i, x := range r.unit.Keys {
			f, err := from.Layer(x)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(bodies[i].flat, f.Body()) {
				t.Errorf("layer %s: the recomputed body differs from %s", x, from.Path(x))
			} else {
				t.Logf("layer %s: %d slots identical", x, len(bodies[i].flat))
			}
		}
		release()
	}
}

// The benchmarks in this file solve single pairs of the standard game that
// are too large to build from nothing inside a benchmark. They read the
// layers a pair removes into from the database folder named by
// MUEHLE_BENCH_DB (for example the default ~/.local/share/muehle after
// `muehlectl solve --max-stones 10`) and are skipped without it:
//
//	MUEHLE_BENCH_DB=~/.local/share/muehle go test -run '^$' -bench 'Large' -benchtime 1x ./retro/
//
// MUEHLE_BENCH_GAME names another game (its own stone count), whose
// database in that folder the named benchmarks read, so that a pair of
// Twelve Men's Morris and the same pair of the standard game are timed
// side by side:
//
//	MUEHLE_BENCH_DB=~/.local/share/muehle MUEHLE_BENCH_GAME=twelve MUEHLE_BENCH_PAIR=8-9 go test -run '^$' -bench 'NamedPair|NamedLayer' -benchtime 1x ./retro/
//
// Nothing is written to that folder: the layers are linked into a
// temporary one.

// BenchmarkSolveLargeSlide solves the slide pair 4-6 + 6-4 (52 million
// slots) without writing or verifying it.
func BenchmarkSolveLargeSlide(b *testing.B) { benchLargePair(b, layers.Moving(4, 6)) }

// BenchmarkSolveNamedPair solves the pair named by MUEHLE_BENCH_PAIR (for
// example 5-7), for profiling any pair.
func BenchmarkSolveNamedPair(b *testing.B) {
	k, err := layers.ParseKey(os.Getenv("MUEHLE_BENCH_PAIR"))
	if err != nil || !k.IsMoving() {
		b.Skipf("MUEHLE_BENCH_PAIR names no moving layer: %v", err)
	}
	benchLargePair(b, k)
}

// BenchmarkSolveLargeFlying solves the flying pair 3-7 + 7-3 (30 million
// slots), whose propagation is long.
func BenchmarkSolveLargeFlying(b *testing.B) { benchLargePair(b, layers.Moving(3, 7)) }

// BenchmarkVerifyLargeSlide verifies the layers 4-6 and 6-4, which must be
// in the MUEHLE_BENCH_DB folder too.
func BenchmarkVerifyLargeSlide(b *testing.B) { benchLargeVerify(b, layers.Moving(4, 6)) }

// benchDB returns a database in a temporary folder holding links to the
// layers of MUEHLE_BENCH_DB that k and its partner remove into, and (with
// self) to the layers of the pair itself.
func benchDB(b *testing.B, k layers.Key, self bool) *layers.DB {
	b.Helper()
	src := os.Getenv("MUEHLE_BENCH_DB")
	if src == "" {
		b.Skip("MUEHLE_BENCH_DB names no database folder")
	}
	v := benchVariant(b)
	from, err := layers.OpenDB(src, v)
	if err != nil {
		b.Fatal(err)
	}
	defer from.Close()
	db, err := layers.OpenDB(b.TempDir(), v)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	pair := []layers.Key{k, k.Partner()}
	var need []layers.Key
	for _, x := range pair {
		for _, s := range x.Successors() {
			if s != pair[0] && s != pair[1] {
				need = append(need, s)
			}
		}
		if self {
			need = append(need, x)
		}
	}
	for _, x := range need {
		if !from.Has(x) {
			b.Skipf("%s has no layer %s", src, x)
		}
		if err := os.MkdirAll(filepath.Dir(db.Path(x)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.Symlink(from.Path(x), db.Path(x)); err != nil && !os.IsExist(err) {
			b.Fatal(err)
		}
	}
	return db
}

// benchVariant returns the game MUEHLE_BENCH_GAME names, or Nine Men's
// Morris, with MUEHLE_BENCH_STONES stones a side (the game's own when it
// is not set).
func benchVariant(tb testing.TB) muehle.Variant {
	name := os.Getenv("MUEHLE_BENCH_GAME")
	if name == "" {
		return muehle.NineMensMorris
	}
	r, ok := muehle.GameByName(name)
	if !ok {
		tb.Fatalf("MUEHLE_BENCH_GAME=%q: not a game (%s)", name, muehle.GameIDs())
	}
	stones := r.Stones
	if s := os.Getenv("MUEHLE_BENCH_STONES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 3 || n > r.Stones {
			tb.Fatalf("MUEHLE_BENCH_STONES=%q: not 3 to %d stones", s, r.Stones)
		}
		stones = n
	}
	return r.Game().With(stones)
}

func benchLargePair(b *testing.B, k layers.Key) {
	db := benchDB(b, k, false)
	u := Unit{Keys: []layers.Key{k}}
	if p := k.Partner(); p != k {
		u.Keys = append(u.Keys, p)
	}
	r := &run{db: db, workers: Workers(0), tmp: filepath.Join(b.TempDir(), "tmp"), unit: u}
	var slots uint64
	for _, x := range u.Keys {
		slots += db.Indexer().Layer(x).Size()
	}
	cpu0, _ := layers.CPUTime()
	for b.Loop() {
		_, release, err := r.compute(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		release()
	}
	reportSlotRates(b, slots, cpu0)
}

// BenchmarkVerifyNamedLayer verifies the layer named by MUEHLE_BENCH_PAIR.
func BenchmarkVerifyNamedLayer(b *testing.B) {
	k, err := layers.ParseKey(os.Getenv("MUEHLE_BENCH_PAIR"))
	if err != nil || !k.IsMoving() {
		b.Skipf("MUEHLE_BENCH_PAIR names no moving layer: %v", err)
	}
	db := benchDB(b, k, true)
	slots := db.Indexer().Layer(k).Size()
	cpu0, _ := layers.CPUTime()
	for b.Loop() {
		bad, err := VerifyLayer(context.Background(), db, k, 0, 1, nil)
		if err != nil || len(bad) > 0 {
			b.Fatalf("verify %s: %v %v", k, bad, err)
		}
	}
	reportSlotRates(b, slots, cpu0)
}

// BenchmarkDeriveNamedLayer derives the layer named by MUEHLE_BENCH_PAIR
// from its children (DeriveLayer), as an import of a package does.
func BenchmarkDeriveNamedLayer(b *testing.B) {
	k, err := layers.ParseKey(os.Getenv("MUEHLE_BENCH_PAIR"))
	if err != nil || !k.IsMoving() {
		b.Skipf("MUEHLE_BENCH_PAIR names no moving layer: %v", err)
	}
	db := benchDB(b, k, true)
	slots := db.Indexer().Layer(k).Size()
	body := make([]byte, slots)
	cpu0, _ := layers.CPUTime()
	for b.Loop() {
		clear(body)
		if err := DeriveLayer(context.Background(), db, k, 0, body, nil); err != nil {
			b.Fatalf("derive %s: %v", k, err)
		}
	}
	b.StopTimer()
	f, err := db.Layer(k)
	if err != nil {
		b.Fatal(err)
	}
	if i := firstDifference(body, f.Body()); i >= 0 {
		b.Fatalf("layer %s slot %d: derived %v, stored %v", k, i, layers.Value(body[i]), layers.Value(f.Body()[i]))
	}
	reportSlotRates(b, slots, cpu0)
}

func benchLargeVerify(b *testing.B, k layers.Key) {
	db := benchDB(b, k, true)
	keys := []layers.Key{k, k.Partner()}
	var slots uint64
	for _, x := range keys {
		slots += db.Indexer().Layer(x).Size()
	}
	cpu0, _ := layers.CPUTime()
	for b.Loop() {
		for _, x := range keys {
			bad, err := VerifyLayer(context.Background(), db, x, 0, 1, nil)
			if err != nil || len(bad) > 0 {
				b.Fatalf("verify %s: %v %v", x, bad, err)
			}
		}
	}
	reportSlotRates(b, slots, cpu0)
}

// reportSlotRates reports slots per second of wall time and per second of
// processor time since cpu0 (which other load on the machine does not
// lower).
func reportSlotRates(b *testing.B, slots uint64, cpu0 time.Duration) {
	b.Helper()
	n := float64(slots) * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "slots/s")
	if now, _ := layers.CPUTime(); now > cpu0 {
		cpu := (now - cpu0).Seconds()
		b.ReportMetric(n/cpu, "slots/cpu-s")
	}
}
