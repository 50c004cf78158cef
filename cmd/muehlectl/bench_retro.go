package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/search"
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
		db, err := layers.OpenDB(dir, muehle.Standard.With(4))
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
				res, err := search.NewAlphaBeta(search.Limits{Depth: 8}, nil, nil).Search(context.Background(), g)
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

// benchDB is a database of the standard game with every moving layer of at
// most nine stones, solved on all cores on first use (untimed), in a
// temporary folder removed when the benchmarks end.
var benchDB = sync.OnceValues(func() (*layers.DB, error) {
	dir, err := os.MkdirTemp("", "muehle-bench-")
	if err != nil {
		return nil, err
	}
	benchCleanups = append(benchCleanups, func() { os.RemoveAll(dir) })
	db, err := layers.OpenDB(dir, muehle.NineMensMorris)
	if err != nil {
		return nil, err
	}
	benchCleanups = append(benchCleanups, func() { db.Close() })
	if err := retro.Solve(context.Background(), db, retro.SolveOptions{MaxStones: 9, SkipVerify: true}); err != nil {
		return nil, fmt.Errorf("solving the layers of at most nine stones: %w", err)
	}
	return db, nil
})

func benchDBSetup() error { _, err := benchDB(); return err }

// benchPair solves the pair of k again on one goroutine, without
// verification, in benchDB, and returns its slots.
func benchPair(k layers.Key) uint64 {
	db, err := benchDB()
	if err != nil {
		return 0
	}
	keys := []layers.Key{k, k.Partner()}
	var n uint64
	for _, x := range keys {
		if err := os.Remove(db.Path(x)); err != nil {
			return 0
		}
		n += db.Indexer().Layer(x).Size()
	}
	if err := retro.Solve(context.Background(), db, retro.SolveOptions{MaxStones: int(k.W + k.B), Workers: 1, SkipVerify: true}); err != nil {
		return 0
	}
	return n
}

func init() {
	// pair45 solves the slide pair 4-5 + 5-4 (21 million slots) and pair36
	// the flying pair 3-6 + 6-3 (14 million slots), each on one goroutine;
	// verify45 verifies the layers 4-5 and 5-4 on one goroutine. The layers
	// they need are solved first, untimed.
	addBenchmarkSetup("pair45", "slots", benchDBSetup, func() uint64 { return benchPair(layers.Moving(4, 5)) })
	addBenchmarkSetup("pair36", "slots", benchDBSetup, func() uint64 { return benchPair(layers.Moving(3, 6)) })
	addBenchmarkSetup("verify45", "slots", benchDBSetup, func() uint64 {
		db, err := benchDB()
		if err != nil {
			return 0
		}
		var n uint64
		for _, k := range []layers.Key{layers.Moving(4, 5), layers.Moving(5, 4)} {
			bad, err := retro.VerifyLayer(context.Background(), db, k, 1, 1, nil)
			if err != nil || len(bad) > 0 {
				return 0
			}
			n += db.Indexer().Layer(k).Size()
		}
		return n
	})
}
