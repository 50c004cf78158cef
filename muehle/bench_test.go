package muehle

import "testing"

// benchPositions is the sample the generation benchmarks loop over.
var benchPositions = RandomPositions(1, 4096)

// BenchmarkPerft5 counts perft 5 from the empty board; the metric is leaf
// moves per second (one core).
func BenchmarkPerft5(b *testing.B) {
	var n uint64
	for b.Loop() {
		n += Perft(NewPosition(StonesPerSide), 5)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkPerft3Sample counts perft 3 from sample positions of all
// phases, where moving and flying dominate.
func BenchmarkPerft3Sample(b *testing.B) {
	var n uint64
	for i := 0; b.Loop(); i++ {
		n += Perft(benchPositions[i%len(benchPositions)], 3)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkAppendMoves generates the moves of the sample positions.
func BenchmarkAppendMoves(b *testing.B) {
	var buf [MaxMoves]Move
	n := 0
	for b.Loop() {
		for i := range benchPositions {
			n += len(benchPositions[i].AppendMoves(buf[:0]))
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkCountMoves counts the moves of the sample positions.
func BenchmarkCountMoves(b *testing.B) {
	n := 0
	for b.Loop() {
		for i := range benchPositions {
			n += benchPositions[i].CountMoves()
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkAppendUnmoves generates the un-moves of the sample positions.
func BenchmarkAppendUnmoves(b *testing.B) {
	var buf [MaxUnmoves]Move
	n := 0
	for b.Loop() {
		for i := range benchPositions {
			n += len(benchPositions[i].AppendUnmoves(buf[:0]))
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "unmoves/s")
}

// BenchmarkAppendUnslides generates the un-slides of the sample positions,
// the solver's inner loop.
func BenchmarkAppendUnslides(b *testing.B) {
	var buf [MaxMoves]Move
	n := 0
	for b.Loop() {
		for i := range benchPositions {
			n += len(benchPositions[i].AppendUnslides(buf[:0]))
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "unmoves/s")
}

// BenchmarkSymmetryPosition maps the sample positions by all 16 symmetries.
func BenchmarkSymmetryPosition(b *testing.B) {
	var sink Bitboard
	n := 0
	for b.Loop() {
		for i := range benchPositions {
			for s := range Symmetry(NumSymmetries) {
				q := s.Position(benchPositions[i])
				sink |= q.Stones[0] ^ q.Stones[1]
			}
			n += NumSymmetries
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
	_ = sink
}

// BenchmarkAppendRemovalMoves generates the removals and counts the other
// moves (the solver's count phase) of the moving positions among random
// games' positions of the standard game and of Twelve Men's Morris.
func BenchmarkAppendRemovalMoves(b *testing.B) {
	for _, id := range []string{"standard", "twelve"} {
		r, _ := GameByName(id)
		var ps []Position
		for _, p := range r.RandomPositions(r.Stones, 2, 1<<15) {
			if p.Hand == [2]uint8{} && len(ps) < 4096 {
				ps = append(ps, p)
			}
		}
		b.Run(id, func(b *testing.B) {
			var buf [MaxMoves]Move
			n := 0
			for b.Loop() {
				for i := range ps {
					ms, k := ps[i].AppendRemovalMoves(buf[:0])
					n += len(ms) + k
				}
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
