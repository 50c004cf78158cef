package retro

import (
	"context"
	"fmt"
	"sync/atomic"

	"muehle/layers"
)

// DeriveLayer computes the body of the moving layer k from its children's
// values, which db holds: for every slot, the value BestChild gives its
// position, and Unused where the slot is no position's index. body has
// one byte per slot of the layer and is zero (Unused) on entry; done, when
// not nil, counts the slots computed.
//
// It is the verifier's rule run forwards: a layer that VerifyLayer passes
// holds exactly these values, so a verified layer need not be stored
// where its children are (a package leaves the second of each moving pair
// out, layers/pack, and its import calls this). It is one ply of look-ups
// for each slot, about as long as VerifyLayer on the layer, not the
// retrograde solve: the layer's own values are never read. A child that
// holds no value is an error: db lacks a layer below, or holds a damaged
// one.
func DeriveLayer(ctx context.Context, db *layers.DB, k layers.Key, workers int, body []byte, done *atomic.Uint64) error {
	ix := db.Indexer().Layer(k)
	switch {
	case !k.IsMoving():
		return fmt.Errorf("retro: derive %s: only a moving layer is derived from its children", k)
	case uint64(len(body)) != ix.Size():
		return fmt.Errorf("retro: derive %s: a body of %d bytes for %d slots", k, len(body), ix.Size())
	}
	c, err := newChildTables(db, k, defaultMemBytes(), false, nil)
	if err != nil {
		return err
	}
	defer c.release()
	game := db.Variant().Game
	return forRanges(ctx, Workers(workers), ix.Size(), 1<<14, done, func(_ int, lo, hi uint64) error {
		var w bestWork
		for i, pos := range ix.Positions(lo, hi) {
			pos.Game = game
			v, missing := c.best(&w, &pos)
			if missing {
				return fmt.Errorf("retro: derive %s: slot %d (%v): %s", k, i, pos, reasonChildMissing)
			}
			body[i] = byte(v)
		}
		return nil
	})
}
