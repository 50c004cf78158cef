package retro

import (
	"context"
	"sync/atomic"

	"muehle/layers"
)

// solvePlacement computes the placement layer k. Placement positions form
// an acyclic graph, and the layers are computed from the last placement back
// to the empty board, so every child of a position in k is already stored:
// either in a placement layer with one stone fewer in hand or in a moving
// layer. Each position's value is therefore the best of its children's
// stored values (BestChild) — alpha-beta with the database as its
// transposition table, where every node is a hit one ply down.
func solvePlacement(ctx context.Context, db *layers.DB, k layers.Key, workers int, done *atomic.Uint64) ([]byte, error) {
	ix := db.Indexer().Layer(k)
	body := make([]byte, ix.Size())
	err := forRanges(ctx, workers, ix.Size(), 1<<12, done, func(_ int, lo, hi uint64) error {
		for i := lo; i < hi; i++ {
			pos, ok := ix.Position(i)
			if !ok {
				continue // body[i] stays Unused
			}
			v, err := BestChild(db, pos)
			if err != nil {
				return err
			}
			body[i] = byte(v)
		}
		return nil
	})
	return body, err
}
