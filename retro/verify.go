package retro

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"muehle/layers"
	"muehle/muehle"
)

// Mismatch is a stored value that differs from the value its children give.
type Mismatch struct {
	Key      layers.Key
	Index    uint64
	Position muehle.Position
	Stored   layers.Value
	Want     layers.Value
}

// String describes the mismatch on one line.
func (m Mismatch) String() string {
	return fmt.Sprintf("layer %s slot %d (%v): stored %v, children give %v", m.Key, m.Index, m.Position, m.Stored, m.Want)
}

// VerifyLayer recomputes the value of every position of the layer k from
// its children's stored values (BestChild) and returns up to limit
// mismatches. Unused slots must be exactly those that are not canonical.
// Since every win and loss must be backed by a child one ply closer to the
// end, a layer that passes holds the true values of the game.
func VerifyLayer(ctx context.Context, db *layers.DB, k layers.Key, workers, limit int, done *atomic.Uint64) ([]Mismatch, error) {
	f, err := db.Layer(k)
	if err != nil {
		return nil, err
	}
	ix := db.Indexer().Layer(k)
	var (
		mu  sync.Mutex
		out []Mismatch
		n   atomic.Int64
	)
	report := func(m Mismatch) {
		if n.Add(1) > int64(limit) {
			return
		}
		mu.Lock()
		out = append(out, m)
		mu.Unlock()
	}
	err = forRanges(ctx, workerCount(workers), ix.Size(), 1<<14, done, func(_ int, lo, hi uint64) error {
		for i := lo; i < hi; i++ {
			got := f.Value(i)
			pos, ok := ix.Position(i)
			if !ok {
				if got != layers.Unused {
					report(Mismatch{Key: k, Index: i, Stored: got, Want: layers.Unused})
				}
				continue
			}
			want, err := BestChild(db, pos)
			if err != nil {
				return fmt.Errorf("retro: verify %s slot %d: %w", k, i, err)
			}
			if got != want {
				report(Mismatch{Key: k, Index: i, Position: pos, Stored: got, Want: want})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if c := n.Load(); c > int64(len(out)) {
		return out, fmt.Errorf("retro: layer %s: %d mismatches, first %d listed", k, c, len(out))
	}
	return out, nil
}
