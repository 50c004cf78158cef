package main

import (
	"context"
	"os"

	"muehle/layers"
	"muehle/retro"
)

func init() {
	// solve7 solves the moving layers with at most seven stones (3-3, then
	// the pair 3-4 + 4-3) on one goroutine, without verification, in a
	// temporary database, and counts the symmetry classes solved.
	addBenchmark("solve7", "classes", func() uint64 {
		dir, err := os.MkdirTemp("", "muehle-bench-")
		if err != nil {
			return 0
		}
		defer os.RemoveAll(dir)
		db, err := layers.OpenDB(dir, 4)
		if err != nil {
			return 0
		}
		defer db.Close()
		if err := retro.Solve(context.Background(), db, retro.SolveOptions{MaxStones: 7, Workers: 1, SkipVerify: true}); err != nil {
			return 0
		}
		var n uint64
		for _, k := range []layers.Key{layers.Moving(3, 3), layers.Moving(3, 4), layers.Moving(4, 3)} {
			n += db.Indexer().Layer(k).Classes()
		}
		return n
	})
}
