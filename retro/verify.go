package retro

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"muehle/layers"
	"muehle/muehle"
)

// Mismatch is a stored value that differs from the value its children give,
// or a slot whose being stored is wrong.
type Mismatch struct {
	Key      layers.Key
	Index    uint64
	Position muehle.Position
	Stored   layers.Value
	Want     layers.Value
	Reason   string // what is wrong, when it is not the value
}

// String describes the mismatch on one line.
func (m Mismatch) String() string {
	if m.Reason != "" {
		return fmt.Sprintf("layer %s slot %d (%v): stored %v: %s", m.Key, m.Index, m.Position, m.Stored, m.Reason)
	}
	return fmt.Sprintf("layer %s slot %d (%v): stored %v, children give %v", m.Key, m.Index, m.Position, m.Stored, m.Want)
}

// The reasons of mismatches that are not about the value.
const (
	reasonNotCanonical = "the slot is not the index of any position, yet stored"
	reasonChildMissing = "a child of the position is not stored in the layers below"
	reasonNoParent     = "no parent one placement earlier is stored, so no game reaches it"
	reasonNotStart     = "the first placement layer stores something besides the empty board"
)

// VerifyLayer recomputes the value of every stored position of the layer
// k from its children's stored values (BestChild, read from copies of
// the children's layers in memory: childTables) and returns up to limit
// mismatches. Since every win and loss must be backed by a child one ply
// closer to the end, a layer that passes holds the true values of the
// game. Which slots must be stored depends on the layer:
//
//   - a moving layer, or a placement layer of the full sweep (a value for
//     every class): exactly the canonical slots;
//   - a dense placement layer (the reachable sweep): every stored slot is
//     canonical, every child of a stored position is stored, and every
//     stored position has a stored parent one placement earlier (in that
//     layer's file, or before it is written in its reach file), the first
//     placement layer storing the empty board alone. Over all placement
//     layers this proves by induction on the placements that the stored
//     positions are exactly those a game reaches from the empty board;
//   - a placement layer of one byte per slot with holes (the reachable
//     sweep before the dense files): exactly the slots of its reach file.
//
// The children's layers are copied into memory when they fit in three
// quarters of the machine's memory.
func VerifyLayer(ctx context.Context, db *layers.DB, k layers.Key, workers, limit int, done *atomic.Uint64) ([]Mismatch, error) {
	return verifyLayer(ctx, db, k, workers, limit, defaultMemBytes(), done)
}

// verifyLayer is VerifyLayer with the children's layers copied into
// memory when they fit in memBytes.
func verifyLayer(ctx context.Context, db *layers.DB, k layers.Key, workers, limit int, memBytes int64, done *atomic.Uint64) ([]Mismatch, error) {
	f, err := db.Layer(k)
	if err != nil {
		return nil, err
	}
	ix, game := db.Indexer().Layer(k), db.Variant().Game
	c, err := newChildTables(db, k, memBytes)
	if err != nil {
		return nil, err
	}
	defer c.release()
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
	// check verifies the stored slot i, canonical or not.
	check := func(w *childWork, i uint64, got layers.Value, parents *parentCheck) {
		pos, ok := ix.Position(i)
		pos.Game = game
		switch {
		case !ok:
			if got != layers.Unused {
				report(Mismatch{Key: k, Index: i, Stored: got, Reason: reasonNotCanonical})
			}
			return
		case parents != nil && !parents.found(w, pos):
			report(Mismatch{Key: k, Index: i, Position: pos, Stored: got, Reason: parents.reason()})
			return
		}
		want, missing := c.best(w, pos)
		switch {
		case missing:
			report(Mismatch{Key: k, Index: i, Position: pos, Stored: got, Reason: reasonChildMissing})
		case got != want:
			report(Mismatch{Key: k, Index: i, Position: pos, Stored: got, Want: want})
		}
	}
	switch d := f.Dense(); {
	case d != nil:
		parents, perr := newParentCheck(db, k)
		if perr != nil {
			return nil, fmt.Errorf("retro: verify %s: %w", k, perr)
		}
		set := ReachBits(d.Bits())
		err = forRanges(ctx, Workers(workers), ix.Size(), 1<<14, done, func(_ int, lo, hi uint64) error {
			var w childWork
			for i := range set.In(lo, hi) {
				check(&w, i, d.Value(i), parents)
			}
			return nil
		})
	case k.IsMoving() || db.Rules().Mixed || fullPlacement(f.Header(), ix):
		err = forRanges(ctx, Workers(workers), ix.Size(), 1<<14, done, func(_ int, lo, hi uint64) error {
			var w childWork
			for i := lo; i < hi; i++ {
				check(&w, i, f.Value(i), nil)
			}
			return nil
		})
	default:
		reach, rerr := reachFor(ctx, db, k, workers, nil)
		if rerr != nil {
			return nil, fmt.Errorf("retro: verify %s: %w", k, rerr)
		}
		err = forRanges(ctx, Workers(workers), ix.Size(), 1<<14, done, func(_ int, lo, hi uint64) error {
			var w childWork
			for i := lo; i < hi; i++ {
				got := f.Value(i)
				if reach.Has(i) {
					check(&w, i, got, nil)
				} else if got != layers.Unused {
					pos, _ := ix.Position(i)
					pos.Game = game
					report(Mismatch{Key: k, Index: i, Position: pos, Stored: got, Want: layers.Unused})
				}
			}
			return nil
		})
	}
	// The pass read the layer's mapped body from end to end; its pages
	// leave this process's resident memory, so that a solve verifying
	// layer after layer does not hold them all.
	layers.DropPages(f.Body())
	if err != nil {
		return nil, err
	}
	if c := n.Load(); c > int64(len(out)) {
		return out, fmt.Errorf("retro: layer %s: %d mismatches, first %d listed", k, c, len(out))
	}
	return out, nil
}

// parentCheck tells whether a position of a placement layer has a parent
// that a game reaches: a position one placement earlier, stored in its
// layer, from which one placement (with or without a removal) leads to
// it. The parents lie in at most two layers; their reachable slots are
// read once (knownReach). In the first placement layer the one position
// allowed is the empty board.
type parentCheck struct {
	stones  int
	start   muehle.Position // the empty board, for the first layer
	first   bool
	parents []parentLayer
}

// parentLayer is a layer that parents of a layer's positions lie in.
type parentLayer struct {
	key  layers.Key
	ix   *layers.LayerIndex
	bits ReachBits
}

// newParentCheck reads the reachable slots of the layers one placement
// before the placement layer k that lead to it.
func newParentCheck(db *layers.DB, k layers.Key) (*parentCheck, error) {
	stones := db.Stones()
	pc := &parentCheck{stones: stones, start: db.Variant().NewPosition()}
	ply := PlyOf(stones, k)
	if ply == 0 {
		pc.first = true
		return pc, nil
	}
	for _, pk := range PlyLayers(stones, ply-1) {
		rm, ok := pk.RemovalLayer()
		if pk.Partner() != k && (!ok || rm != k) {
			continue
		}
		b, err := knownReach(db, pk)
		if err != nil {
			return nil, fmt.Errorf("the parents' layer %s: %w", pk, err)
		}
		pc.parents = append(pc.parents, parentLayer{key: pk, ix: db.Indexer().Layer(pk), bits: b})
	}
	return pc, nil
}

// found reports whether pos, a representative of a slot of the layer
// (the mover in Stones[White]), has a parent stored one placement earlier,
// or is the empty board in the first layer.
func (pc *parentCheck) found(w *childWork, pos muehle.Position) bool {
	if pc.first {
		return pos == pc.start
	}
	// The representative's colours as a game has them: White places
	// first, so the side to move is Black when it holds one stone more.
	if pos.Hand[muehle.White] != pos.Hand[muehle.Black] {
		pos = pos.SwapColors()
	}
	// Placements without a removal first: most positions have such a
	// parent, and they are the cheaper ones to find; then those with a
	// removal undone.
	if pc.anyStored(pos, pos.AppendUnplacements(w.unmoves[:0])) {
		return true
	}
	ms := pos.AppendUnmoves(w.unmoves[:0])
	n := 0
	for _, m := range ms {
		if m.From == muehle.NoPoint && m.Remove != muehle.NoPoint {
			ms[n] = m
			n++
		}
	}
	return pc.anyStored(pos, ms[:n])
}

// anyStored reports whether one of the un-moves ms of pos leads to a
// parent stored in the parents' layers.
func (pc *parentCheck) anyStored(pos muehle.Position, ms []muehle.Move) bool {
	for _, m := range ms {
		// AppendUnmoves gives parents whose hands fit and whose side that
		// has just moved has three stones; a game of fewer than 9 stones
		// drops those with too many.
		q := pos.Unplay(m)
		if q.Total(muehle.White) > pc.stones || q.Total(muehle.Black) > pc.stones {
			continue
		}
		kq := layers.KeyOf(q)
		for _, p := range pc.parents {
			if p.key == kq && p.bits.Has(p.ix.Index(q)) {
				return true
			}
		}
	}
	return false
}

// reason says what a position without a found parent lacks.
func (pc *parentCheck) reason() string {
	if pc.first {
		return reasonNotStart
	}
	return reasonNoParent
}
