package layers

import (
	"math/rand/v2"
	"testing"
	"time"

	"muehle/muehle"
)

// benchPositions returns n random positions of layer k.
func benchPositions(k Key, n int) []muehle.Position {
	r := rand.New(rand.NewPCG(7, 8))
	ps := make([]muehle.Position, n)
	for i := range ps {
		ps[i] = randomPosition(r, int(k.W), int(k.B))
	}
	return ps
}

// childPositions returns the positions one move away from consecutive
// canonical slots of layer k, as the solver meets them: neighbours in the
// slot order, their children in move order.
func childPositions(b *testing.B, l *LayerIndex, n int) []muehle.Position {
	ps := make([]muehle.Position, 0, n)
	var buf [muehle.MaxMoves]muehle.Move
	for i := l.Size() / 3; len(ps) < n; i++ {
		p, ok := l.Position(i)
		if !ok {
			continue
		}
		for _, m := range p.AppendMoves(buf[:0]) {
			if !m.IsRemoval() {
				ps = append(ps, p.Play(m))
			}
		}
	}
	return ps[:n]
}

// benchIndex ranks ps over and over. Besides the rate per second of wall
// time it reports the rate per CPU-second, which other processes sharing the
// cores lower less (they still compete for caches and memory).
func benchIndex(b *testing.B, l *LayerIndex, ps []muehle.Position) {
	var sink uint64
	n := 0
	cpu, _ := CPUTime()
	for b.Loop() {
		for _, p := range ps {
			sink += l.Index(p)
		}
		n += len(ps)
	}
	now, _ := CPUTime()
	reportRanks(b, n, now-cpu)
	_ = sink
}

// BenchmarkIndexRandom ranks random positions of layer 8-8: every rank
// misses the caches on the group-B table.
func BenchmarkIndexRandom(b *testing.B) {
	l := testIndexer(b).Layer(Moving(8, 8))
	benchIndex(b, l, benchPositions(Moving(8, 8), 1<<16))
}

// BenchmarkIndexChildren ranks the children of consecutive slots of layer
// 8-8 (in layer 8-8 after the move, seen from the other side).
func BenchmarkIndexChildren(b *testing.B) {
	x := testIndexer(b)
	ps := childPositions(b, x.Layer(Moving(8, 8)), 1<<16)
	benchIndex(b, x.Layer(Moving(8, 8)), ps)
}

// BenchmarkIndexSmall ranks random positions of layer 3-3, whose part of
// the table is small.
func BenchmarkIndexSmall(b *testing.B) {
	l := testIndexer(b).Layer(Moving(3, 3))
	benchIndex(b, l, benchPositions(Moving(3, 3), 1<<16))
}

// BenchmarkPosition unranks random slots of layer 8-8.
func BenchmarkPosition(b *testing.B) {
	l := testIndexer(b).Layer(Moving(8, 8))
	r := rand.New(rand.NewPCG(9, 10))
	idx := make([]uint64, 1<<16)
	for i := range idx {
		idx[i] = r.Uint64N(l.Size())
	}
	var sink muehle.Bitboard
	n := 0
	for b.Loop() {
		for _, i := range idx {
			p, _ := l.Position(i)
			sink += p.Stones[0]
		}
		n += len(idx)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "unranks/s")
	_ = sink
}

// BenchmarkPositionSequential unranks consecutive slots of layer 8-8, as a
// solver sweeping a layer does.
func BenchmarkPositionSequential(b *testing.B) {
	l := testIndexer(b).Layer(Moving(8, 8))
	var sink muehle.Bitboard
	i, n := l.Size()/3, 0
	for b.Loop() {
		for range 1 << 16 {
			p, _ := l.Position(i)
			sink += p.Stones[0]
			i++
		}
		n += 1 << 16
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "unranks/s")
	_ = sink
}

// BenchmarkIndexAllRandom ranks the random positions of BenchmarkIndexRandom
// 256 at a time with IndexAll.
func BenchmarkIndexAllRandom(b *testing.B) {
	l := testIndexer(b).Layer(Moving(8, 8))
	ps := benchPositions(Moving(8, 8), 1<<16)
	out := make([]uint64, 256)
	n := 0
	cpu, _ := CPUTime()
	for b.Loop() {
		for i := 0; i < len(ps); i += len(out) {
			l.IndexAll(ps[i:i+len(out)], out)
		}
		n += len(ps)
	}
	now, _ := CPUTime()
	reportRanks(b, n, now-cpu)
}

// reportRanks reports n ranks done in the benchmark's time and in cpu of
// processor time (0 when unknown).
func reportRanks(b *testing.B, n int, cpu time.Duration) {
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "ranks/s")
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(n), "ns/rank")
	if cpu > 0 {
		b.ReportMetric(float64(n)/cpu.Seconds(), "ranks/cpu-s")
	}
}

// BenchmarkSmallLayerTable builds the table of the small board's largest
// layer, 6-6 of Six Men's Morris (1,681,680 configurations, 105,700
// classes), as a process does on its first position of that game.
func BenchmarkSmallLayerTable(b *testing.B) {
	var s *smallLayer
	for b.Loop() {
		s = newSmallLayer(muehle.SixBoard, 6, 6)
	}
	if len(s.reps) != 105700 {
		b.Fatalf("%d classes, want 105,700", len(s.reps))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(s.classOf)), "ns/config")
}
