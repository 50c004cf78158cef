package retro

import (
	"fmt"
	"slices"

	"muehle/layers"
	"muehle/muehle"
)

// childTables looks up the values of the children of one layer's
// positions in memory. The children of a layer k lie in one layer for
// each kind of move (kindChild: a slide's in k's partner, a removal's in
// the layer of one stone fewer, a placement's in the layer of one stone
// fewer in hand), or the move ends the game. These layers are copied into
// memory once (layers.File.Copy), so that the look-ups of a whole layer
// cost no page faults and no layer-cache traffic; for each position the
// children's slots are computed together (IndexAll) and their values
// loaded together, so that the cache misses overlap.
//
// It serves the moving verifier, the placement sweep and the placement
// verifier alike: best is BestChild without the probes.
type childTables struct {
	t [moveKinds]kindTable
}

// kindTable is the layer the moves of one kind lead to.
type kindTable struct {
	ix   *layers.LayerIndex // nil: the layer's positions make no such move
	body *layers.Copy
	ends bool // such a move ends the game: its removal leaves the opponent two stones
}

// newChildTables copies the layers the children of layer k's positions
// lie in into memory, when their files' bodies together take at most
// memBytes, and reads the mapped files otherwise; release frees the
// copies.
func newChildTables(db *layers.DB, k layers.Key, memBytes int64) (*childTables, error) {
	c := &childTables{}
	v := db.Variant()
	succ := layers.SuccessorsIn(v, k)
	var files []*layers.File
	var size int64
	for _, x := range succ {
		f, err := db.Layer(x)
		if err != nil {
			return nil, fmt.Errorf("retro: %s needs %s: %w", k, x, err)
		}
		files = append(files, f)
		size += int64(len(f.Body()))
	}
	for kind, kl := range kindLayers(v, k) {
		t := &c.t[kind]
		t.ends = kl.ends
		if !kl.made {
			continue
		}
		i := slices.Index(succ, kl.key)
		t.ix = db.Indexer().Layer(kl.key)
		var err error
		if size > memBytes {
			t.body = files[i].View()
		} else if t.body, err = files[i].Copy(); err != nil {
			c.release()
			return nil, err
		}
	}
	return c, nil
}

// release frees the copies.
func (c *childTables) release() {
	for i := range c.t {
		if c.t[i].body != nil {
			c.t[i].body.Release()
		}
	}
}

// best returns BestChild(db, pos) for a position of the tables' layer,
// with the mover in Stones[White]: the best of the children's values seen
// from pos, layers.NoMoves without moves, WinIn(1) when a removal leaves the
// opponent fewer than three stones. missing is true when some child's
// slot holds no value (a dense layer that does not store it): the layer
// below lacks a position that a game reaches, and the value is not to be
// trusted. It is bestBlock for one position.
func (c *childTables) best(w *blockWork, pos muehle.Position) (v layers.Value, missing bool) {
	w.ps[0] = pos
	c.bestBlock(w, 1)
	return w.out[0], w.miss[0]
}

// bestBlock computes best for the first n positions of w.ps (n at most
// blockSlots) into w.out and w.miss. The moves of all n positions are
// gathered first, by their kind, then each position's children are ranked
// (LayerIndex.IndexMoves: from the position and the moves, without
// making the children) and the values of the whole block loaded, so that
// their cache misses overlap.
func (c *childTables) bestBlock(w *blockWork, n int) {
	for kind := range w.kms {
		w.kms[kind] = w.kms[kind][:0]
	}
	for j := range n {
		pos := &w.ps[j]
		w.out[j], w.miss[j], w.fixed[j] = layers.Unused, false, true
		ms := pos.AppendMoves(w.moves[:0])
		if len(ms) == 0 {
			w.out[j] = layers.NoMoves(pos)
			w.end[j] = w.lens()
			continue
		}
		mark := w.lens()
		for _, m := range ms {
			kind := moveKind(m)
			if c.t[kind].ends {
				w.out[j], w.miss[j] = layers.WinIn(1), false
				break
			}
			if c.t[kind].ix == nil {
				w.miss[j] = true // a move the layer's successors do not provide for
			}
			w.kms[kind] = append(w.kms[kind], m)
		}
		if w.out[j] != layers.Unused || w.miss[j] {
			w.truncate(mark)
		} else {
			w.fixed[j] = false
		}
		w.end[j] = w.lens()
	}
	for kind := range w.kms {
		m := len(w.kms[kind])
		w.kidIx[kind] = slices.Grow(w.kidIx[kind][:0], m)[:m]
		w.vals[kind] = slices.Grow(w.vals[kind][:0], m)[:m]
	}
	var start [moveKinds]int32
	for j := range n {
		for kind, t := range &c.t {
			if a, b := start[kind], w.end[j][kind]; a < b {
				t.ix.IndexMoves(w.ps[j], w.kms[kind][a:b], w.kidIx[kind][a:b])
			}
		}
		start = w.end[j]
	}
	for kind, t := range &c.t {
		vs := w.vals[kind]
		for i, x := range w.kidIx[kind] {
			vs[i] = t.body.Value(x)
		}
	}
	start = [moveKinds]int32{}
	for j := range n {
		end := w.end[j]
		if w.fixed[j] {
			start = end
			continue
		}
		best, missing := layers.Unused, false
		for kind := range moveKinds {
			for _, cv := range w.vals[kind][start[kind]:end[kind]] {
				missing = missing || cv == layers.Unused
				if pv := cv.Parent(); pv.Better(best) {
					best = pv
				}
			}
		}
		w.out[j], w.miss[j] = best, missing
		start = end
	}
}
