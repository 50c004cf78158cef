package retro

import (
	"muehle/layers"
	"muehle/muehle"
)

// placeWork is one worker's scratch space for the children of placement
// positions (the sweep, its verifier and the forward pass): a position's
// moves split by their kind, and the slots they lead to. The children
// themselves are never made: LayerIndex.IndexMoves ranks them from the
// parent's stones and the moves, which costs about half of making each
// child and ranking it (Position.Play, IndexAll).
type placeWork struct {
	moves   [muehle.MaxMoves]muehle.Move
	byKind  [moveKinds][muehle.MaxMoves]muehle.Move
	n       [moveKinds]int
	slots   [muehle.MaxMoves]uint64
	unmoves [muehle.MaxUnmoves]muehle.Move // the verifier's search for a parent
}

// split generates the moves of pos into w.byKind; ends is true when a
// move's kind ends the game (ends[kind]: its removal leaves the opponent
// two stones), and then the split is incomplete.
func (w *placeWork) split(pos *muehle.Position, ends *[moveKinds]bool) (moves int, endsGame bool) {
	ms := pos.AppendMoves(w.moves[:0])
	w.n = [moveKinds]int{}
	for _, m := range ms {
		kind := moveKind(m)
		if ends[kind] {
			return len(ms), true
		}
		w.byKind[kind][w.n[kind]] = m
		w.n[kind]++
	}
	return len(ms), false
}

// rank stores the slots in ix of the children of pos by the moves of kind
// in w.slots and returns them.
func (w *placeWork) rank(ix *layers.LayerIndex, pos *muehle.Position, kind int) []uint64 {
	n := w.n[kind]
	ix.IndexMoves(*pos, w.byKind[kind][:n], w.slots[:n])
	return w.slots[:n]
}

// placeBest is childTables.best for the positions of a placement layer
// (or any other): BestChild from the tables, the children ranked from
// pos and its moves (placeWork) instead of made one by one.
func (c *childTables) placeBest(w *placeWork, pos muehle.Position) (v layers.Value, missing bool) {
	var endKinds [moveKinds]bool
	for kind := range endKinds {
		endKinds[kind] = c.t[kind].ends
	}
	moves, ends := w.split(&pos, &endKinds)
	switch {
	case moves == 0:
		return layers.NoMoves(&pos), false
	case ends:
		return layers.WinIn(1), false
	}
	best := layers.Unused
	for kind := range moveKinds {
		if w.n[kind] == 0 {
			continue
		}
		t := &c.t[kind]
		if t.ix == nil {
			return layers.Unused, true // a move the layer's successors do not provide for
		}
		for _, i := range w.rank(t.ix, &pos, kind) {
			cv := t.body.Value(i)
			missing = missing || cv == layers.Unused
			if pv := cv.Parent(); pv.Better(best) {
				best = pv
			}
		}
	}
	return best, missing
}
