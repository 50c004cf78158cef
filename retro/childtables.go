package retro

import (
	"fmt"
	"slices"

	"muehle/layers"
	"muehle/muehle"
)

// childTables looks up the values of the children of one layer's
// positions in memory. The children of a layer k lie in two layers at
// most: those of moves without removal in k.Partner(), those of removals
// in k.RemovalLayer(), or the removal ends the game. Both layers are
// copied into memory once (layers.File.Copy), so that the look-ups of a
// whole layer cost no page faults and no layer-cache traffic; for each
// position the children's slots are computed together (IndexAll) and
// their values loaded together, so that the cache misses overlap.
//
// It serves the moving verifier, the placement sweep and the placement
// verifier alike: best is BestChild without the probes.
type childTables struct {
	part, rm         *layers.LayerIndex
	partBody, rmBody *layers.Copy // rmBody nil: a removal wins (the opponent keeps two stones)
}

// newChildTables copies the layers the children of layer k's positions
// lie in into memory, when their files' bodies together take at most
// memBytes, and reads the mapped files otherwise; release frees the
// copies.
func newChildTables(db *layers.DB, k layers.Key, memBytes int64) (*childTables, error) {
	c := &childTables{}
	var files []*layers.File
	var size int64
	for _, x := range k.Successors() {
		f, err := db.Layer(x)
		if err != nil {
			return nil, fmt.Errorf("retro: %s needs %s: %w", k, x, err)
		}
		files = append(files, f)
		size += int64(len(f.Body()))
	}
	load := func(x layers.Key) (*layers.Copy, error) {
		for _, f := range files {
			if f.Header().Key != x {
				continue
			}
			if size > memBytes {
				return f.View(), nil
			}
			return f.Copy()
		}
		return nil, fmt.Errorf("retro: %s: its children's layer %s is not among its successors", k, x)
	}
	p := k.Partner()
	c.part = db.Indexer().Layer(p)
	var err error
	if c.partBody, err = load(p); err != nil {
		return nil, err
	}
	if rm, ok := k.RemovalLayer(); ok && slices.Contains(k.Successors(), rm) {
		c.rm = db.Indexer().Layer(rm)
		if c.rmBody, err = load(rm); err != nil {
			c.release()
			return nil, err
		}
	}
	return c, nil
}

// release frees the copies.
func (c *childTables) release() {
	if c.partBody != nil {
		c.partBody.Release()
	}
	if c.rmBody != nil {
		c.rmBody.Release()
	}
}

// best returns BestChild(db, pos) for a position of the tables' layer,
// with the mover in Stones[White]: the best of the children's values seen
// from pos, layers.NoMoves without moves, WinIn(1) when a removal leaves the
// opponent fewer than three stones. missing is true when some child's
// slot holds no value (a dense layer that does not store it): the layer
// below lacks a position that a game reaches, and the value is not to be
// trusted.
func (c *childTables) best(w *childWork, pos muehle.Position) (v layers.Value, missing bool) {
	ms := pos.AppendMoves(w.moves[:0])
	if len(ms) == 0 {
		return layers.NoMoves(&pos), false
	}
	ns, nr := 0, 0
	for _, m := range ms {
		if !m.IsRemoval() {
			w.slide[ns] = pos.Play(m)
			ns++
			continue
		}
		if c.rmBody == nil {
			return layers.WinIn(1), false
		}
		w.removal[nr] = pos.Play(m)
		nr++
	}
	c.part.IndexAll(w.slide[:ns], w.slideIx[:ns])
	if nr > 0 {
		c.rm.IndexAll(w.removal[:nr], w.rmIx[:nr])
	}
	best := layers.Unused
	for _, i := range w.rmIx[:nr] {
		cv := c.rmBody.Value(i)
		missing = missing || cv == layers.Unused
		if pv := cv.Parent(); pv.Better(best) {
			best = pv
		}
	}
	for _, i := range w.slideIx[:ns] {
		cv := c.partBody.Value(i)
		missing = missing || cv == layers.Unused
		if pv := cv.Parent(); pv.Better(best) {
			best = pv
		}
	}
	return best, missing
}
