package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	bits64 "math/bits"
	"math/rand/v2"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

func init() {
	register("reach", "count the placement classes reachable from the empty board: exactly (small games) or by sampling", runReach)
}

func runReach(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("reach", "[--game G] [--stones K] [--samples N] [--seed S]", stderr)
	game := fs.String("game", "standard", "the game: "+muehle.GameIDs())
	stones := fs.Int("stones", 0, "stones per side, 3 up to the game's (0 = the game's)")
	samples := fs.Int("samples", 0, "estimate from this many uniformly random placement classes, each tested backwards (0: count exactly, forwards from the empty board)")
	seed := fs.Uint64("seed", 1, "seed of the samples")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	v, verr := variantFlags(*game, *stones)
	if err := errors.Join(verr, inRange("--samples", *samples, 0, 100_000_000, "")); err != nil {
		return flagError(fs, err)
	}
	x, err := layers.DefaultIndexer()
	if err != nil {
		return err
	}
	start := time.Now()
	mixed := v.Rules().Mixed
	if mixed && *samples > 0 {
		return flagError(fs, fmt.Errorf("--samples: %s mixes placing and moving, and the backwards test knows placements only; count exactly (without --samples)", v.Game))
	}
	if *samples > 0 {
		return reachSampled(ctx, stdout, x, v, *samples, *seed, start)
	}
	if mixed {
		return reachMixed(ctx, stdout, x, v, start)
	}
	return reachExact(ctx, stdout, x, v, start)
}

// reachMixed counts the placement classes (the layers with stones in hand)
// of variant v of a game whose phases mix (Lasker Morris) that a game
// reaches from the empty board, exactly. There a side may move instead of
// placing, so the placements made do not order the classes as the plies
// of retro.Reach do; the stones in hand of both sides do, as no move adds
// any. So the classes are found level by level, from all stones in hand
// down to one: within a level, slides, jumps and removals lead to classes
// of the same level, found until no new one comes; placements lead to the
// next level. Its output gives each level's count.
func reachMixed(ctx context.Context, stdout io.Writer, x *layers.Indexer, v muehle.Variant, start time.Time) error {
	type bits map[layers.Key][]uint64
	reached, next := bits{}, bits{}
	set := func(b bits, k layers.Key, i uint64) bool {
		w := b[k]
		if w == nil {
			w = make([]uint64, (x.Layer(k).Size()+63)/64)
			b[k] = w
		}
		if w[i/64]&(1<<(i%64)) != 0 {
			return false
		}
		w[i/64] |= 1 << (i % 64)
		return true
	}
	hands := func(k layers.Key) int { return int(k.WH) + int(k.BH) }
	p0 := v.NewPosition()
	k0 := layers.KeyOf(p0)
	set(reached, k0, x.Layer(k0).Index(p0))
	set(next, k0, x.Layer(k0).Index(p0))
	var count, total uint64
	for _, k := range layers.OrderIn(v, true) {
		if !k.IsMoving() {
			total += x.Layer(k).Classes()
		}
	}
	var moves [muehle.MaxMoves]muehle.Move
	for level := hands(k0); level > 0; level-- {
		var levelCount uint64
		frontier := bits{}
		for k, w := range next {
			if hands(k) == level {
				frontier[k] = w
				delete(next, k)
			}
		}
		for len(frontier) > 0 {
			more := bits{}
			for k, w := range frontier {
				ix := x.Layer(k)
				for j, word := range w {
					if err := ctx.Err(); err != nil {
						return err
					}
					for ; word != 0; word &= word - 1 {
						i := uint64(j)*64 + uint64(bits64.TrailingZeros64(word))
						levelCount++
						p, ok := ix.Position(i)
						if !ok {
							return fmt.Errorf("reach: layer %s slot %d is marked reachable but not canonical", k, i)
						}
						p.Game = v.Game
						for _, m := range p.AppendMoves(moves[:0]) {
							c := p.Play(m)
							ck := layers.KeyOf(c)
							if ck.IsMoving() || !layers.ValidIn(v, ck) {
								continue // the placements are over, or the game
							}
							ci := x.Layer(ck).Index(c)
							if !set(reached, ck, ci) {
								continue
							}
							if hands(ck) == level {
								set(more, ck, ci)
							} else {
								set(next, ck, ci)
							}
						}
					}
				}
			}
			frontier = more
		}
		fmt.Fprintf(stdout, "stones in hand %2d: %d classes reached\n", level, levelCount)
		count += levelCount
	}
	fmt.Fprintf(stdout, "%s: %d of %d placement classes reachable from the empty board (%.2f%%), counted in %.1f s\n",
		v, count, total, 100*float64(count)/float64(total), time.Since(start).Seconds())
	return nil
}

// reachExact counts the reachable placement classes of variant v forwards
// (retro.Reach, as the solver marks them) and prints them by ply.
func reachExact(ctx context.Context, stdout io.Writer, x *layers.Indexer, v muehle.Variant, start time.Time) error {
	k := v.Stones
	var count, total uint64
	for _, key := range layers.PlacementLayers(k) {
		total += x.Layer(key).Classes()
	}
	err := retro.Reach(ctx, x, v, 0, func(ply int, r retro.ReachPly) error {
		n := r.Count()
		fmt.Fprintf(stdout, "ply %2d: %d classes reached\n", ply, n)
		count += n
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d of %d placement classes reachable from the empty board (%.2f%%), counted in %.1f s\n",
		v, count, total, 100*float64(count)/float64(total), time.Since(start).Seconds())
	return nil
}

// reachSampled estimates the share of reachable placement classes: it
// draws classes uniformly (a uniform slot over all placement layers,
// drawn again when not canonical) and tests each backwards, by un-moves
// to the empty board.
func reachSampled(ctx context.Context, stdout io.Writer, x *layers.Indexer, v muehle.Variant, n int, seed uint64, start time.Time) error {
	k := v.Stones
	keys := layers.PlacementLayers(k)
	var slots, classes uint64
	cum := make([]uint64, len(keys))
	for i, key := range keys {
		slots += x.Layer(key).Size()
		classes += x.Layer(key).Classes()
		cum[i] = slots
	}
	rng := rand.New(rand.NewPCG(seed, 13))
	r := newBackReach(v, x)
	yes := 0
	for s := 0; s < n; s++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		var p muehle.Position
		for {
			u := rng.Uint64N(slots)
			j := 0
			for cum[j] <= u {
				j++
			}
			lo := uint64(0)
			if j > 0 {
				lo = cum[j-1]
			}
			var ok bool
			if p, ok = x.Layer(keys[j]).Position(u - lo); ok {
				p.Game = v.Game
				break
			}
		}
		if r.reachable(gameOrientation(p)) {
			yes++
		}
		if len(r.memo) > reachMemoMax {
			clear(r.memo) // bounded memory: the memo only saves time
		}
		if (s+1)%1000 == 0 {
			fmt.Fprintf(stdout, "%d samples, %d reachable, %.1f s\n", s+1, yes, time.Since(start).Seconds())
		}
	}
	share := float64(yes) / float64(n)
	half := 1.96 * math.Sqrt(share*(1-share)/float64(n))
	fmt.Fprintf(stdout, "%s: %d of %d sampled placement classes reachable: %.2f%% ± %.2f%% (95%%), about %.3g ± %.2g of %d classes; %.1f s\n",
		v, yes, n, 100*share, 100*half, share*float64(classes), half*float64(classes), classes, time.Since(start).Seconds())
	return nil
}

// gameOrientation returns the placement position p (a layer's
// representative, White to move) with the colours as a game has them:
// Black to move when the mover has one stone more in hand.
func gameOrientation(p muehle.Position) muehle.Position {
	if p.Hand[p.Turn] != p.Hand[p.Turn^1] {
		return p.SwapColors()
	}
	return p
}

// reachMemoMax bounds the positions the backwards test remembers.
const reachMemoMax = 10_000_000

// backKey is a position up to symmetry, as its layer and index.
type backKey struct {
	key layers.Key
	i   uint64
}

// backReach decides reachability from the empty board backwards, by
// depth-first search over placement un-moves, remembering every decided
// position by class.
type backReach struct {
	k    int
	ci   *layers.Indexer
	memo map[backKey]bool
}

// newBackReach returns a backwards reachability test for variant v.
func newBackReach(v muehle.Variant, x *layers.Indexer) *backReach {
	return &backReach{k: v.Stones, ci: x, memo: map[backKey]bool{}}
}

// reachable reports whether a game of k stones can reach p, a placement
// position with the side to move's correct hands.
func (r *backReach) reachable(p muehle.Position) bool {
	if p.Stones[0]|p.Stones[1] == 0 {
		return p.Turn == muehle.White && int(p.Hand[0]) == r.k && int(p.Hand[1]) == r.k
	}
	key := layers.KeyOf(p)
	bk := backKey{key, r.ci.Layer(key).Index(p)}
	if v, ok := r.memo[bk]; ok {
		return v
	}
	var buf [muehle.MaxUnmoves]muehle.Move
	ok := false
	for _, m := range p.AppendUnmoves(buf[:0]) {
		if !m.IsPlacement() {
			continue // before a placement position came only placements
		}
		q := p.Unplay(m)
		if q.Total(muehle.White) > r.k || q.Total(muehle.Black) > r.k {
			continue
		}
		if r.reachable(q) {
			ok = true
			break
		}
	}
	r.memo[bk] = ok
	return ok
}
