package retro

import (
	"context"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Workers returns the goroutines a computation with Workers n uses: n if
// positive, else the number of usable cores.
func Workers(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// forRanges calls fn on consecutive ranges [lo, hi) of at most chunk slots
// covering [0, n), from workers goroutines. It stops at the first error or
// when ctx is cancelled, and adds the size of every finished range to done.
func forRanges(ctx context.Context, workers int, n, chunk uint64, done *atomic.Uint64, fn func(worker int, lo, hi uint64) error) error {
	var next atomic.Uint64
	g, ctx := errgroup.WithContext(ctx)
	for w := range workers {
		g.Go(func() error {
			for {
				if err := ctx.Err(); err != nil {
					return err
				}
				lo := next.Add(chunk) - chunk
				if lo >= n {
					return nil
				}
				hi := min(lo+chunk, n)
				if err := fn(w, lo, hi); err != nil {
					return err
				}
				if done != nil {
					done.Add(hi - lo)
				}
			}
		})
	}
	return g.Wait()
}
