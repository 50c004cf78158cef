package main

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// forEach calls do for every item of items, jobs calls at a time, and
// returns the first error. After an error the context do gets is
// cancelled and no further call starts; when ctx is done no further call
// starts either, and forEach returns ctx's error. The long measurements
// (match, tactics, searcherrors) run their games and positions through it.
func forEach(ctx context.Context, jobs int, items []int, do func(ctx context.Context, item int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(jobs, 1))
	for _, it := range items {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error { return do(gctx, it) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// indices returns the items 0 to n-1, for forEach over a whole slice.
func indices(n int) []int {
	is := make([]int, n)
	for i := range is {
		is[i] = i
	}
	return is
}
