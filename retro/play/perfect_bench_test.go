package play

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// BenchmarkPerfectMove times the shipped perfect player's move, its
// layers open (a first pass over the positions opens them and fills the
// block cache), over 200 random positions of each phase of the standard
// game of MUEHLE_BENCH_STONES stones (6 when unset) from random games,
// reading the folder MUEHLE_BENCH_DB (a flat one or its compressed copy):
// ns/op is one pass over the 200 positions; it reports the median and the
// worst move too, and the processor time of this process (which the load
// of other programs does not lengthen): per pass, and the median move. muehlectl bench perfect measures the same from the
// command line; this benchmark lets benchstat compare two builds.
//
//	MUEHLE_BENCH_DB=/tmp/z go test -run '^$' -bench PerfectMove ./retro/play/
func BenchmarkPerfectMove(b *testing.B) {
	db, stones, phases := benchDB(b)
	for ph, name := range []string{"moving", "placement"} {
		b.Run(name, func(b *testing.B) {
			move := func(i int, pos muehle.Position) (time.Duration, time.Duration) {
				p := NewShipped(db, nil, rand.NewPCG(uint64(i), 1), rand.NewPCG(uint64(i), 2))
				g, err := muehle.NewGameFrom(pos, stones)
				if err != nil {
					b.Fatal(err)
				}
				c0, _ := layers.CPUTime()
				t0 := time.Now()
				if _, err := p.Move(context.Background(), g); err != nil || p.LastFellBack() {
					b.Fatalf("%v: %v (fell back: %v)", pos, err, p.LastFellBack())
				}
				el := time.Since(t0)
				c1, _ := layers.CPUTime()
				return el, c1 - c0
			}
			for i, pos := range phases[ph] { // open the layers
				move(i, pos)
			}
			var ts, cs []time.Duration
			var cpu time.Duration
			for b.Loop() {
				for i, pos := range phases[ph] {
					t, c := move(i, pos)
					ts, cs, cpu = append(ts, t), append(cs, c), cpu+c
				}
			}
			slices.Sort(ts)
			slices.Sort(cs)
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-sec/op")
			b.ReportMetric(float64(cs[len(cs)/2].Nanoseconds())/1e6, "cpu-ms-median")
			b.ReportMetric(float64(ts[len(ts)/2].Nanoseconds())/1e6, "ms-median")
			b.ReportMetric(float64(ts[len(ts)-1].Nanoseconds())/1e6, "ms-worst")
		})
	}
}

// benchDB opens the folder MUEHLE_BENCH_DB, the standard game of
// MUEHLE_BENCH_STONES stones (6 when unset), closed when tb ends, and
// returns it with 200 positions of each phase (moving, placement: the
// mover has stones in hand) drawn at random from random games, each with
// a legal move, as muehlectl bench perfect draws them; it skips tb without
// the folder.
func benchDB(tb testing.TB) (*layers.DB, int, [2][]muehle.Position) {
	dir := os.Getenv("MUEHLE_BENCH_DB")
	if dir == "" {
		tb.Skip("MUEHLE_BENCH_DB names no folder")
	}
	stones := 6
	if s, err := strconv.Atoi(os.Getenv("MUEHLE_BENCH_STONES")); err == nil {
		stones = s
	}
	v := muehle.Standard.With(stones)
	db, err := layers.OpenDB(dir, v)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	const n = 200
	var phases [2][]muehle.Position
	for _, p := range v.Rules().RandomPositions(stones, 1, 100*n) {
		if len(p.AppendMoves(nil)) == 0 {
			continue
		}
		ph := min(int(p.Hand[p.Turn]), 1)
		phases[ph] = append(phases[ph], p)
	}
	rng := rand.New(rand.NewPCG(1, 51))
	for ph := range phases {
		rng.Shuffle(len(phases[ph]), func(i, j int) { phases[ph][i], phases[ph][j] = phases[ph][j], phases[ph][i] })
		phases[ph] = phases[ph][:min(n, len(phases[ph]))]
	}
	return db, stones, phases
}
