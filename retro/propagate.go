package retro

import (
	"context"
	"fmt"
	"sync/atomic"

	"muehle/layers"
	"muehle/muehle"
)

// settle tells slot i of layer l that one of its children has the value
// decided at depth d: a lost child (d even) wins the slot at d+1; a won
// child (d odd) counts down the slot's counter, and the last one loses it
// at d+1, the largest depth among its children plus one. A slot decided
// here is appended to the list of depth d+1.
func (pr *pair) settle(l int, i uint64, d int, out *pusher) error {
	w := &pr.state[l][i]
	for {
		s := atomic.LoadUint32(w)
		v := layers.Value(s & valueMask)
		if v != layers.Drawn {
			if v == layers.Unused {
				pr.errs.Add(1)
			}
			return nil // decided already, at a smaller depth
		}
		var ns uint32
		if d%2 == 0 {
			ns = uint32(layers.WinIn(d + 1))
		} else {
			c := s >> counterShift
			if c == 0 {
				pr.errs.Add(1)
				return nil
			}
			if c == 1 {
				ns = uint32(layers.LossIn(d + 1))
			} else {
				ns = uint32(layers.Drawn) | (c-1)<<counterShift
			}
		}
		if atomic.CompareAndSwapUint32(w, s, ns) {
			if layers.Value(ns&valueMask) != layers.Drawn {
				return out.push(d+1, makeEntry(l, i, false))
			}
			return nil
		}
	}
}

// propagate is the second phase: it works through the lists in increasing
// depth. A slot decided at depth d settles each of its distinct parents in
// the pair; a seed settles its own slot with the depth of its child in a
// smaller layer. What is never decided stays Drawn.
func (pr *pair) propagate(ctx context.Context, workers int, done *atomic.Uint64) error {
	for d := pr.lists.next(0); d >= 0; d = pr.lists.next(d + 1) {
		if err := pr.propagateDepth(ctx, d, workers, done); err != nil {
			return err
		}
		if err := pr.lists.done(d); err != nil {
			return err
		}
	}
	if n := pr.errs.Load(); n > 0 {
		return fmt.Errorf("retro: pair %s: %d inconsistencies: %w", pr.keys[0], n, errCorrupt)
	}
	return nil
}

// propagateDepth processes the list of depth d with workers goroutines.
func (pr *pair) propagateDepth(ctx context.Context, d, workers int, done *atomic.Uint64) error {
	const batch = 1 << 14
	batches := make(chan []entry, workers)
	errc := make(chan error, workers+1)
	free := make(chan []entry, 2*workers)
	for range 2 * workers {
		free <- make([]entry, batch)
	}
	for range workers {
		go func() {
			out := newPusher(pr.lists)
			var unmoves [muehle.MaxUnmoves]muehle.Move
			var parents distinct
			var err error
			for b := range batches {
				for _, e := range b {
					if err != nil {
						break
					}
					l, i := e.layer(), e.index()
					if e.seed() {
						err = pr.settle(l, i, d, out)
						continue
					}
					pos, ok := pr.index[l].Position(i)
					if !ok {
						pr.errs.Add(1)
						continue
					}
					p := pr.partner(l)
					parents.reset()
					for _, u := range pos.AppendUnslides(unmoves[:0]) {
						j := pr.index[p].Index(pos.Unplay(u))
						if !parents.add(j) {
							continue
						}
						if err = pr.settle(p, j, d, out); err != nil {
							break
						}
					}
				}
				done.Add(uint64(len(b)))
				free <- b[:cap(b)]
			}
			if err == nil {
				err = out.flush()
			}
			errc <- err
		}()
	}
	var readErr error
	for readErr == nil {
		if readErr = ctx.Err(); readErr != nil {
			break
		}
		b := <-free
		n, err := pr.lists.drain(d, b)
		if err != nil {
			readErr = err
			break
		}
		if n == 0 {
			break
		}
		batches <- b[:n]
	}
	close(batches)
	first := readErr
	for range workers {
		if err := <-errc; err != nil && first == nil {
			first = err
		}
	}
	return first
}
