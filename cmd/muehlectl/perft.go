package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"muehle/muehle"
)

func init() {
	register("perft", "count move sequences to a depth (move generator check)", runPerft)
}

func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("perft", "--depth N [--position TEXT] [--game G] [--stones K] [--workers N] [--time] [--divide]", stderr)
	depth := fs.Int("depth", 0, "count to this `depth` (1 to 12), printing each depth from 1")
	text := fs.String("position", "", "start `position` (default the empty board; see muehle/doc.go; its game is the game)")
	game := fs.String("game", "standard", "the game of the empty board: "+muehle.GameIDs())
	stones := fs.Int("stones", 0, "stones per side, 3 up to the game's (0 = the game's)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines counting in parallel")
	timed := fs.Bool("time", false, "also print the time and speed of each depth on stderr")
	divide := fs.Bool("divide", false, "then print the count below each first move at the last depth (to find where two generators part)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *depth < 1 || *depth > 12 {
		fmt.Fprintf(stderr, "--depth must be 1 to 12, not %d\n", *depth)
		fs.Usage()
		return errUsage
	}
	if err := inRange("--workers", *workers, 1, maxWorkersPerCore*runtime.NumCPU(), fmt.Sprintf("; at most %d per core", maxWorkersPerCore)); err != nil {
		return flagError(fs, err)
	}
	r, err := gameFlag(*game)
	if err != nil {
		return flagError(fs, err)
	}
	var pos muehle.Position
	if *text != "" {
		if pos, err = muehle.ParsePosition(*text); err != nil {
			return err
		}
		r = pos.Rules()
	}
	if *stones == 0 {
		*stones = r.Stones
	}
	if *text == "" {
		pos = r.NewPosition(*stones)
	}
	if err := pos.Validate(*stones); err != nil {
		return err
	}
	for d := 1; d <= *depth; d++ {
		start := time.Now()
		n, err := parallelPerft(ctx, pos, d, *workers)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "perft %d %d\n", d, n)
		if *timed {
			el := time.Since(start)
			fmt.Fprintf(stderr, "perft %d: %.3fs, %.1f M moves/s with %d workers\n", d, el.Seconds(), float64(n)/el.Seconds()/1e6, *workers)
		}
	}
	if *divide {
		for _, m := range pos.Moves() {
			n, err := parallelPerft(ctx, pos.Play(m), *depth-1, *workers)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s %d\n", pos.Board().MoveString(m), n)
		}
	}
	return nil
}

// parallelPerft is muehle.Perft spread over workers goroutines: the tree
// is expanded a few plies until there are enough sub-trees to share out,
// each sub-tree is counted by muehle.Perft, and ctx is checked between
// sub-trees.
func parallelPerft(ctx context.Context, p muehle.Position, depth, workers int) (uint64, error) {
	frontier := []muehle.Position{p}
	left := depth
	for left > 3 && len(frontier) < 64*workers {
		var next []muehle.Position
		for _, q := range frontier {
			for _, m := range q.Moves() {
				next = append(next, q.Play(m))
			}
		}
		frontier, left = next, left-1
	}
	tasks := make(chan muehle.Position)
	counts := make([]uint64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for q := range tasks {
				counts[w] += muehle.Perft(q, left)
			}
		})
	}
	var err error
feed:
	for _, q := range frontier {
		select {
		case tasks <- q:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(tasks)
	wg.Wait()
	if err != nil {
		return 0, fmt.Errorf("perft %d interrupted: %w", depth, err)
	}
	var n uint64
	for _, c := range counts {
		n += c
	}
	return n, nil
}
