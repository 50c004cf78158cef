package retro

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"muehle/layers"
	"muehle/muehle"
)

// A pair is the unit of retrograde analysis: a moving layer M(w,b) and its
// partner M(b,w), between which every move without removal goes; when w = b
// the layer is its own partner. Moves with a removal lead into smaller
// layers, which are finished and read from the database.
//
// During the analysis every slot has a 32-bit state word:
//
//	bits 0-7    the layers.Value; Drawn (1) also means "not decided yet"
//	bits 8-15   while undecided: the children not yet known to be won for
//	            the opponent (the successor counter)
//
// Words change only through compare-and-swap, so workers share them freely.
type pair struct {
	keys   []layers.Key         // one key, or two for w ≠ b
	index  []*layers.LayerIndex // numbering of each layer
	state  [][]uint32           // state words of each layer
	remove []*layers.File       // the layer a removal leads to, per layer (nil: game over)
	rmBody [][]byte             // its values, copied to memory for random access
	rmIdx  []*layers.LayerIndex // its numbering
	lists  *worklists
	errs   atomic.Uint64 // inconsistencies met (index or counter errors)
}

// partner returns the layer of the pair that a move without removal from
// layer l leads to.
func (pr *pair) partner(l int) int { return len(pr.keys) - 1 - l }

// slots returns the number of slots of the pair.
func (pr *pair) slots() uint64 {
	var n uint64
	for _, ix := range pr.index {
		n += ix.Size()
	}
	return n
}

const (
	valueMask    = 0xff
	counterShift = 8
)

// pusher buffers the work-list entries of one worker by depth, for the
// worker's shard of the lists.
type pusher struct {
	lists *worklists
	shard int
	buf   map[int][]entry
}

func newPusher(lists *worklists, shard int) *pusher {
	return &pusher{lists: lists, shard: shard, buf: map[int][]entry{}}
}

func (p *pusher) push(d int, e entry) error {
	b := append(p.buf[d], e)
	if len(b) >= 4096 {
		if err := p.lists.push(p.shard, d, b); err != nil {
			return err
		}
		b = b[:0]
	}
	p.buf[d] = b
	return nil
}

func (p *pusher) flush() error {
	for d, b := range p.buf {
		if err := p.lists.push(p.shard, d, b); err != nil {
			return err
		}
		p.buf[d] = b[:0]
	}
	return nil
}

// errCorrupt reports a state the analysis cannot reach with a correct index
// and move generator.
var errCorrupt = errors.New("retro: inconsistent successor counts or index")

// initLayer is the first phase (count) for layer l: it marks unused slots, blocked
// positions (lost in 0) and wins by removing the opponent's third stone
// (won in 1); counts for every other position its distinct children inside
// the pair; and seeds the work lists with the values of the children in
// smaller layers, at their own depth.
func (pr *pair) initLayer(ctx context.Context, l, workers int, done *atomic.Uint64) error {
	ix, part := pr.index[l], pr.index[pr.partner(l)]
	state := pr.state[l]
	rmFile, rmBody, rmIdx := pr.remove[l], pr.rmBody[l], pr.rmIdx[l]
	pushers := make([]*pusher, workers)
	for w := range pushers {
		pushers[w] = newPusher(pr.lists, w)
	}
	err := forRanges(ctx, workers, ix.Size(), 1<<14, done, func(w int, lo, hi uint64) error {
		out := pushers[w]
		var cw childWork
		var children distinct
		for i := lo; i < hi; i++ {
			pos, ok := ix.Position(i)
			if !ok {
				state[i] = uint32(layers.Unused)
				continue
			}
			ms := pos.AppendMoves(cw.moves[:0])
			if len(ms) == 0 {
				state[i] = uint32(layers.LossIn(0))
				if err := out.push(0, makeEntry(l, i, false)); err != nil {
					return err
				}
				continue
			}
			// Two moves without removal reach children of the same slot only
			// when a symmetry maps one child onto the other; it then fixes the
			// opponent's stones, which these moves leave alone. Without such a
			// symmetry every move is a child of its own, and no index is needed.
			dedupe := pos.Stones[muehle.Black].Symmetric()
			n := 0 // distinct children inside the pair
			ns, nr := 0, 0
			wonIn1 := false
			for _, m := range ms {
				if !m.IsRemoval() {
					if dedupe {
						cw.slide[ns] = pos.Play(m)
						ns++
					} else {
						n++
					}
					continue
				}
				if rmFile == nil { // the opponent is left with two stones
					wonIn1 = true
					break
				}
				cw.removal[nr] = pos.Play(m)
				nr++
			}
			if wonIn1 {
				state[i] = uint32(layers.WinIn(1))
				if err := out.push(1, makeEntry(l, i, false)); err != nil {
					return err
				}
				continue
			}
			if ns > 0 {
				part.IndexAll(cw.slide[:ns], cw.slideIx[:ns])
				children.reset()
				for _, j := range cw.slideIx[:ns] {
					if children.add(j) {
						n++
					}
				}
			}
			minLoss, maxWin, draw := -1, -1, false
			if nr > 0 {
				rmIdx.IndexAll(cw.removal[:nr], cw.rmIx[:nr])
			}
			for _, j := range cw.rmIx[:nr] {
				v := layers.Value(rmBody[j])
				switch v.Outcome() {
				case layers.Loss:
					if minLoss < 0 || v.Depth() < minLoss {
						minLoss = v.Depth()
					}
				case layers.Win:
					maxWin = max(maxWin, v.Depth())
				case layers.Draw:
					draw = true
				default:
					return fmt.Errorf("retro: layer %s slot %d: a removal leads to slot %d of layer %s, which has no value: %w", pr.keys[l], i, j, rmFile.Header().Key, errCorrupt)
				}
			}
			count, seed := removals{minLoss, maxWin, draw}.counter(n)
			state[i] = uint32(layers.Drawn) | uint32(count)<<counterShift
			var err error
			if seed >= 0 {
				err = out.push(seed, makeEntry(l, i, true))
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range pushers {
		if err := p.flush(); err != nil {
			return err
		}
	}
	return nil
}

// removals sums up what a position's moves with a removal lead to, as
// depths in the smaller layer, -1 where there is none: the fastest loss
// for the opponent, the slowest win for the opponent, and whether any is a
// draw.
type removals struct {
	minLoss, maxWin int
	draw            bool
}

// counter returns the successor counter of a position with n distinct
// children inside the pair, and the depth at which its removals seed the
// work lists (-1: no seed). A removal into a lost or drawn position means
// the position can never be lost, so it gets one unit that is never
// counted down; the seed at minLoss then wins it, unless a child inside the
// pair wins it sooner. Otherwise all removals into won positions count as
// one unit, counted down by the seed at maxWin, the slowest of them.
func (r removals) counter(n int) (count, seed int) {
	switch {
	case r.minLoss >= 0:
		return n + 1, r.minLoss
	case r.draw:
		return n + 1, -1
	case r.maxWin >= 0:
		return n + 1, r.maxWin
	}
	return n, -1
}
