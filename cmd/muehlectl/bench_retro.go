package main

import (
	"context"
	"os"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/play"
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
	// alphabeta searches three positions of a seeded random game to depth 8
	// with the default options and counts the nodes.
	addBenchmark("alphabeta", "nodes", func() uint64 {
		g := muehle.NewGame(muehle.StonesPerSide)
		r := muehle.NewSeededRandom(7)
		var nodes uint64
		for ply := range 30 {
			if ply%10 == 9 {
				res, err := play.NewAlphaBeta(play.Limits{Depth: 8}, nil, nil).Search(context.Background(), g)
				if err != nil {
					return 0
				}
				nodes += res.Nodes
			}
			m, err := r.Move(context.Background(), g)
			if err != nil || g.Play(m) != nil {
				break
			}
		}
		return nodes
	})
}
