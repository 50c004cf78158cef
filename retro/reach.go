package retro

import (
	"context"
	"fmt"
	"iter"
	"math/bits"
	"sync/atomic"

	"muehle/layers"
	"muehle/muehle"
)

// ReachBits marks the slots of one placement layer whose classes a game
// can reach from the empty board: bit i%64 of word i/64 for slot i. Only
// canonical slots are ever set.
type ReachBits []uint64

// newReachBits returns the cleared bits of a layer with n slots.
func newReachBits(n uint64) ReachBits { return make(ReachBits, (n+63)/64) }

// Has reports whether slot i is reachable.
func (b ReachBits) Has(i uint64) bool { return b[i/64]&(1<<(i%64)) != 0 }

// Count returns the number of reachable slots.
func (b ReachBits) Count() uint64 {
	var n uint64
	for _, w := range b {
		n += uint64(bits.OnesCount64(w))
	}
	return n
}

// In yields the reachable slots i with lo <= i < hi, in order.
func (b ReachBits) In(lo, hi uint64) iter.Seq[uint64] { return layers.SetBits(b, lo, hi) }

// set marks slot i; several goroutines may set bits of one word at once.
func (b ReachBits) set(i uint64) { setBit(b, i) }

// setBit sets bit i%64 of words[i/64], the bit of slot i; several
// goroutines may set bits of one word at once. A bit set already is only
// read, so that a word many set stays shared in the caches.
func setBit(words []uint64, i uint64) {
	w := &words[i/64]
	m := uint64(1) << (i % 64)
	if atomic.LoadUint64(w)&m == 0 {
		atomic.OrUint64(w, m)
	}
}

// PlyOf returns the placements made before a position of the placement
// layer k of the game with stones per side: 0 for the empty board, up to
// 2·stones−1 for Black's last placement.
func PlyOf(stones int, k layers.Key) int { return 2*stones - int(k.WH) - int(k.BH) }

// PlyLayers returns the placement layers of the game with stones per side
// whose positions come after ply placements.
func PlyLayers(stones, ply int) []layers.Key {
	var ks []layers.Key
	for _, k := range layers.PlacementLayers(stones) {
		if PlyOf(stones, k) == ply {
			ks = append(ks, k)
		}
	}
	return ks
}

// ReachPly is the reachable slots of the placement layers of one ply.
type ReachPly map[layers.Key]ReachBits

// Count returns the number of reachable classes of the ply.
func (r ReachPly) Count() uint64 {
	var n uint64
	for _, b := range r {
		n += b.Count()
	}
	return n
}

// reachStart returns ply 0: the empty board, the one position of its layer.
func reachStart(x *layers.Indexer, v muehle.Variant) ReachPly {
	p := v.NewPosition()
	k := layers.KeyOf(p)
	ix := x.Layer(k)
	b := newReachBits(ix.Size())
	b.set(ix.Index(p))
	return ReachPly{k: b}
}

// reachNext returns the reachable slots of ply+1 from those of ply (from):
// every move of every reachable class leads to a reachable class, unless
// it ends the placement phase or the game. The classes of from are
// expanded by workers goroutines, which set the bits of the next ply with
// atomic operations; done counts the slots of from gone through.
//
// The placements of a layer k lead to two layers at most (k.Partner(),
// k.RemovalLayer()); a child in a moving layer has ended the placement
// phase, and a removal without a layer has ended the game. For each
// class the children of each layer are ranked together from the class's
// position and its moves (IndexMoves, the children never made), so that
// their cache misses overlap.
func reachNext(ctx context.Context, x *layers.Indexer, v muehle.Variant, ply int, from ReachPly, workers int, done *atomic.Uint64) (ReachPly, error) {
	next := ReachPly{}
	for _, k := range PlyLayers(v.Stones, ply+1) {
		next[k] = newReachBits(x.Layer(k).Size())
	}
	// target returns the index and the bits of layer t of the next ply,
	// or nils when t is not in the placement phase.
	target := func(k, t layers.Key) (*layers.LayerIndex, ReachBits, error) {
		if t.IsMoving() {
			return nil, nil, nil
		}
		b := next[t]
		if b == nil {
			return nil, nil, fmt.Errorf("retro: reach: a move from layer %s leads to layer %s, not of ply %d", k, t, ply+1)
		}
		return x.Layer(t), b, nil
	}
	for _, k := range PlyLayers(v.Stones, ply) {
		src := from[k]
		if src == nil {
			return nil, fmt.Errorf("retro: reach: ply %d lacks layer %s", ply, k)
		}
		ix := x.Layer(k)
		partIx, partBits, err := target(k, k.Partner())
		if err != nil {
			return nil, err
		}
		var rmIx *layers.LayerIndex
		var rmBits ReachBits
		if rm, ok := k.RemovalLayer(); ok {
			if rmIx, rmBits, err = target(k, rm); err != nil {
				return nil, err
			}
		}
		// Ranges of whole words (the chunk is a multiple of 64 slots).
		err = forRanges(ctx, Workers(workers), ix.Size(), 1<<14, done, func(_ int, lo, hi uint64) error {
			var w bestWork
			for i := range src.In(lo, hi) {
				p, ok := ix.Position(i)
				if !ok {
					return fmt.Errorf("retro: reach: layer %s slot %d is marked reachable but not canonical", k, i)
				}
				p.Game = v.Game
				ns, nr := 0, 0
				for _, m := range p.AppendMoves(w.moves[:0]) {
					switch {
					case !m.IsRemoval() && partBits != nil:
						w.kms[kindPlace][ns] = m
						ns++
					case m.IsRemoval() && rmBits != nil:
						w.kms[kindPlaceRemove][nr] = m
						nr++
					}
				}
				if ns > 0 {
					partIx.IndexMoves(p, w.kms[kindPlace][:ns], w.kidIx[kindPlace][:ns])
					for _, c := range w.kidIx[kindPlace][:ns] {
						partBits.set(c)
					}
				}
				if nr > 0 {
					rmIx.IndexMoves(p, w.kms[kindPlaceRemove][:nr], w.kidIx[kindPlaceRemove][:nr])
					for _, c := range w.kidIx[kindPlaceRemove][:nr] {
						rmBits.set(c)
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return next, nil
}

// Reach marks the placement classes of variant v that a game can reach
// from the empty board, ply by ply, and calls each with every ply's bits
// in order, from ply 0 (the empty board) to 2·stones−1.
// Only two plies are held at once. It is the one definition of a
// reachable placement class: the solver stores exactly these, and
// `muehlectl reach` counts them.
func Reach(ctx context.Context, x *layers.Indexer, v muehle.Variant, workers int, each func(ply int, r ReachPly) error) error {
	return reachFrom(ctx, x, v, 0, reachStart(x, v), workers, nil, each)
}

// reachFrom is Reach from the bits r of ply onwards (each is called for
// ply too); done counts the slots gone through.
func reachFrom(ctx context.Context, x *layers.Indexer, v muehle.Variant, ply int, r ReachPly, workers int, done *atomic.Uint64, each func(int, ReachPly) error) error {
	for {
		if err := each(ply, r); err != nil {
			return err
		}
		if ply == 2*v.Stones-1 {
			return nil
		}
		var err error
		if r, err = reachNext(ctx, x, v, ply, r, workers, done); err != nil {
			return err
		}
		ply++
	}
}

// placementSlots returns the slots of all placement layers of db's game.
func placementSlots(db *layers.DB) uint64 {
	var n uint64
	for _, k := range layers.PlacementLayers(db.Stones()) {
		n += db.Indexer().Layer(k).Size()
	}
	return n
}
