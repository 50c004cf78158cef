package search

import (
	"context"
	"fmt"
	"testing"
	"time"

	"muehle/muehle"
	"muehle/retro/playtest"
)

// benchPositions are the positions of the search benchmark: the empty
// board, a placement middle game and a moving-phase position, all from
// seeded random games.
func benchPositions() []muehle.Position {
	ps := []muehle.Position{muehle.NewPosition(9)}
	return append(ps, playtest.Positions(7, 9, 8, 30)...)
}

// BenchmarkAlphaBeta searches each benchmark position to a fixed depth
// with all enhancements and reports nodes per second (one core).
func BenchmarkAlphaBeta(b *testing.B) {
	ps := benchPositions()
	a := NewAlphaBeta(Limits{Depth: 6}, nil, nil)
	b.ReportAllocs()
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

// searchOptionTable lists the configurations of BenchmarkSearchOptions.
var searchOptionTable = []struct {
	name string
	opt  SearchOptions
}{
	{"all", SearchOptions{}},
	{"noTT", SearchOptions{NoTT: true}},
	{"noOrdering", SearchOptions{NoOrdering: true}},
	{"noPVS", SearchOptions{NoPVS: true}},
	{"noAspiration", SearchOptions{NoAspiration: true}},
	{"noQuiescence", SearchOptions{NoQuiescence: true}},
	{"none", SearchOptions{NoTT: true, NoOrdering: true, NoPVS: true, NoAspiration: true}},
}

// BenchmarkSearchOptions reports the nodes of a fixed-depth search over
// the benchmark positions with each enhancement switched off in turn: the
// table of issue 5. Run with -benchtime 1x; the counts are deterministic.
func BenchmarkSearchOptions(b *testing.B) {
	ps := append(benchPositions(), playtest.Positions(8, 9, 50, 80)...)
	for _, depth := range []int{5, 7} {
		for _, c := range searchOptionTable {
			b.Run(fmt.Sprintf("depth=%d/%s", depth, c.name), func(b *testing.B) {
				var nodes uint64
				for b.Loop() {
					nodes = 0
					for _, p := range ps {
						a := NewAlphaBeta(Limits{Depth: depth}, nil, nil)
						a.SetOptions(c.opt)
						g, _ := muehle.NewGameFrom(p, 9)
						r, err := a.Search(context.Background(), g)
						if err != nil {
							b.Fatal(err)
						}
						nodes += r.Nodes
					}
				}
				b.ReportMetric(float64(nodes), "nodes")
			})
		}
	}
}
