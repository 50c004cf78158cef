package retro

import (
	"context"
	"testing"
	"time"

	"muehle/muehle"
)

// benchPositions are the positions of the search benchmark: the empty
// board, a placement middle game and a moving-phase position, all from
// seeded random games.
func benchPositions() []muehle.Position {
	ps := []muehle.Position{muehle.NewPosition(9)}
	return append(ps, testPositions(7, 9, 8, 30)...)
}

// BenchmarkAlphaBeta searches each benchmark position to a fixed depth
// with all enhancements and reports nodes per second (one core).
func BenchmarkAlphaBeta(b *testing.B) {
	ps := benchPositions()
	a := NewAlphaBeta(Limits{Depth: 6}, nil, nil)
	var nodes uint64
	var searching time.Duration // without the time Reset takes to clear the table
	for b.Loop() {
		for _, p := range ps {
			a.Reset() // every round the same work
			g, _ := muehle.NewGameFrom(p, 9)
			start := time.Now()
			r, err := a.Search(context.Background(), g)
			searching += time.Since(start)
			if err != nil {
				b.Fatal(err)
			}
			nodes += r.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/searching.Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
