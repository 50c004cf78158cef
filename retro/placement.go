package retro

import (
	"context"
	"fmt"
	"sync/atomic"

	"muehle/layers"
)

// solvePlacement computes the placement layer k. Placement positions form
// an acyclic graph, and the layers are computed from the last placement back
// to the empty board, so every child of a position in k is already stored:
// either in a placement layer with one stone fewer in hand or in a moving
// layer. Each position's value is therefore the best of its children's
// stored values (BestChild) — alpha-beta with the database as its
// transposition table, where every node is a hit one ply down. The
// children's layers are read from copies in memory (childTables).
//
// With reach set, only the reachable slots are computed (every child of a
// reachable position is reachable, so stored), and the layer is dense: it
// stores their values and the bits of reach. With reach nil, every class
// is (the full sweep, one byte per slot), which needs every class of the
// placement layers one ply down.
//
// The children's layers are copied into memory when they fit in memBytes
// (newChildTables). Those read as stored, the won depths the layer needed
// found in them, go to filled (when not nil) for the layer's verifier,
// whose marks are the same.
func solvePlacement(ctx context.Context, db *layers.DB, k layers.Key, reach ReachBits, workers int, memBytes int64, filled *filledCopies, done *atomic.Uint64) (_ layerBody, err error) {
	ix, game := db.Indexer().Layer(k), db.Variant().Game
	if reach == nil {
		for _, s := range k.Successors() {
			if err := storesEveryClass(db, s); err != nil {
				return layerBody{}, fmt.Errorf("retro: the full sweep of %s: %w", k, err)
			}
		}
	}
	c, err := newChildTables(db, k, memBytes, true, nil)
	if err != nil {
		return layerBody{}, err
	}
	defer func() {
		if err == nil && filled != nil {
			c.handOver(filled)
		}
		c.release()
	}()
	// The children's layers of compressed form 2 come as stored, their
	// won slots without depths (childTables.holdsStored): only a position
	// all of whose children win needs those, for the depth of its loss.
	// Such a position waits (pending) until the depths of the won
	// children it marks are found (fillStored), and is then computed
	// again: far fewer depths than all of those layers' won slots.
	var pending []uint64
	if c.holdsStored() {
		pending = make([]uint64, (ix.Size()+63)/64)
	}
	// value computes the value of slot i, canonical or not; with wait it
	// marks the slot pending instead when its loss waits for won depths.
	value := func(w *bestWork, i uint64, wait []uint64) (layers.Value, error) {
		pos, ok := ix.Position(i)
		if !ok {
			return layers.Unused, nil
		}
		pos.Game = game
		v, missing := c.best(w, &pos)
		if missing {
			return v, fmt.Errorf("retro: layer %s slot %d (%v): %w: a child is not stored in the layers below", k, i, pos, ErrNotSolved)
		}
		if wait != nil && v.Outcome() == layers.Loss && c.markStored(w) {
			setBit(wait, i)
		}
		return v, nil
	}
	// again computes the pending slots once their children's won depths
	// are found, each value stored by put.
	again := func(put func(i uint64, v layers.Value)) error {
		if pending == nil {
			return nil
		}
		return c.settlePending(ctx, db, workers, pending, ix.Size(), func(w *bestWork, i uint64) error {
			v, err := value(w, i, nil)
			if err == nil {
				put(i, v)
			}
			return err
		})
	}
	if reach == nil {
		body := make([]byte, ix.Size())
		err := forRanges(ctx, workers, ix.Size(), 1<<12, done, func(_ int, lo, hi uint64) error {
			var w bestWork
			for i := lo; i < hi; i++ {
				v, err := value(&w, i, pending)
				if err != nil {
					return err
				}
				body[i] = byte(v)
			}
			return nil
		})
		if err == nil {
			err = again(func(i uint64, v layers.Value) { body[i] = byte(v) })
		}
		return layerBody{flat: body}, err
	}
	values := make([]byte, reach.Count())
	d, err := layers.NewDense(ix.Size(), reach, values)
	if err != nil {
		return layerBody{}, fmt.Errorf("retro: layer %s: %w", k, err)
	}
	// Ranges of whole words of reach; each range's values follow the
	// stored slots before it.
	err = forRanges(ctx, workers, ix.Size(), 1<<12, done, func(_ int, lo, hi uint64) error {
		var w bestWork
		r := d.Before(lo)
		for i := range reach.In(lo, hi) {
			v, err := value(&w, i, pending)
			if err != nil {
				return err
			}
			if v == layers.Unused {
				return fmt.Errorf("retro: reach: layer %s slot %d is marked reachable but not canonical", k, i)
			}
			values[r] = byte(v)
			r++
		}
		return nil
	})
	if err == nil {
		err = again(func(i uint64, v layers.Value) {
			r, _ := d.Rank(i)
			values[r] = byte(v)
		})
	}
	return layerBody{dense: d}, err
}

// reach returns the reachable slots of the placement layer k, nil with
// PlacementAll (every class is computed). The forward pass, when this
// solver computes it (in the first placement unit), is the unit's "reach"
// phase; waiting for the pass of another solver sharing the folder is no
// phase, and the record of the unit then holds none (CostAsRecorded).
func (r *run) reach(ctx context.Context, k layers.Key) (ReachBits, error) {
	if r.opts.PlacementAll {
		return nil, nil
	}
	var done atomic.Uint64
	stop := func() {}
	defer func() { stop() }()
	return reachFor(ctx, r.db, k, r.workers, &done, passWatch{
		wait: func(held error) {
			r.opts.note(fmt.Sprintf("unit %s: waiting for the forward pass another solver computes (%v)", r.unit.Name, held))
		},
		start: func() { stop = r.track(PhaseReach, layers.Key{}, placementSlots(r.db), &done) },
	})
}

// storesEveryClass returns nil when placement layer k of db holds a value
// for every class (or k is a moving layer), and otherwise an error saying
// that it holds only the reachable ones.
func storesEveryClass(db *layers.DB, k layers.Key) error {
	if k.IsMoving() {
		return nil
	}
	f, release, err := db.Borrow(k)
	if err != nil {
		return err
	}
	defer release()
	if !fullPlacement(f.Header(), db.Indexer().Layer(k)) {
		return fmt.Errorf("layer %s stores only the classes reachable from the empty board (%d of %d); solve it again with the full sweep first", k, stored(f.Header()), db.Indexer().Layer(k).Classes())
	}
	return nil
}

// stored returns the number of slots with a value in a layer file.
func stored(h layers.Header) uint64 { return h.Won + h.Lost + h.Drawn }

// fullPlacement reports whether a placement layer file with header h
// holds a value for every class of its layer ix: a layer of the full
// sweep, or of the reachable sweep where every class is reachable.
func fullPlacement(h layers.Header, ix *layers.LayerIndex) bool { return stored(h) == ix.Classes() }
