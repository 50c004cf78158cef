package retro

import (
	"context"
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
	// split is true when the moves are of two kinds, one without a
	// removal (plain) and the same with one (plain+1), both leading into
	// layers the tables hold, and no removal ends the game: a moving
	// layer's or a placement layer's, in a game whose phases do not mix.
	// best then ranks all the moves at once (IndexMovesSplit).
	split bool
	plain int
	// bodies[0] is the removals' layer, bodies[1] the plain moves'.
	bodies [2]*layers.Copy
	// files end the borrowing of the layers' files (layers.DB.Borrow).
	files []func()
}

// kindTable is the layer the moves of one kind lead to.
type kindTable struct {
	ix   *layers.LayerIndex // nil: the layer's positions make no such move
	body *layers.Copy
	ends bool // such a move ends the game: its removal leaves the opponent two stones
	// marks is nil when body holds every value. Otherwise body is a copy
	// of the layer as compressed form 2 stores it (layers.DB.BorrowStored),
	// every won slot "won" without its depth, and marks has a bit for
	// each slot: the won children whose depths the verifier needs
	// (markStored), found by fillStored.
	marks []uint64
	// stored is true when body is such a copy, its own (not one of
	// filledCopies): handOver may give it away.
	stored bool
}

// filledCopies are copies in memory of finished layers as compressed
// form 2 stores them, won slots without their depths but for those
// layers.DB.FillWon has found since: the count phase of a pair makes them
// (solvePair), as does the computing of a placement layer (solvePlacement,
// childTables.handOver), and the verifier of the unit reads them (newChildTables)
// instead of copying those layers again and finding most of the same
// depths once more. Each is checked against its file before it is read
// (layers.File.StoredCopy). One unit's; the zero value holds none, and a
// nil *filledCopies too.
type filledCopies struct {
	bodies map[layers.Key][]byte
	frees  []func()
}

// add takes over b, a copy of layer k, and free, which frees it.
func (fc *filledCopies) add(k layers.Key, b []byte, free func()) {
	if fc.bodies == nil {
		fc.bodies = map[layers.Key][]byte{}
	}
	fc.bodies[k] = b
	fc.frees = append(fc.frees, free)
}

// body returns the copy of layer k, if there is one.
func (fc *filledCopies) body(k layers.Key) ([]byte, bool) {
	if fc == nil {
		return nil, false
	}
	b, ok := fc.bodies[k]
	return b, ok
}

// free frees the copies; fc holds none afterwards.
func (fc *filledCopies) free() {
	if fc == nil {
		return
	}
	for _, f := range fc.frees {
		f()
	}
	*fc = filledCopies{}
}

// newChildTables copies the layers the children of layer k's positions
// lie in into memory when the copies fit in memBytes, what the caller
// leaves of the memory budget, beside the layers the DB's cache holds
// (copiesFit), and reads the layers where they lie otherwise (mapped, or
// decoded in the cache); release frees the copies and gives the files
// back. With stored, a layer of compressed form 2 copied into memory is
// copied as stored, its won slots without their depths (kindTable.marks):
// for the verifier, which finds the few it needs. Only the layers out of
// k's pair are read so (a removal's, a placement's), whose won depths
// never depend on k's values; k's partner comes complete, its won depths
// found in full and checked against its header's checksum, which a depth
// of k's made wrong would fail. A layer read as stored of which filled
// holds a copy that checks against its file is read there, not copied
// again (filled may be nil).
func newChildTables(db *layers.DB, k layers.Key, memBytes int64, stored bool, filled *filledCopies) (*childTables, error) {
	c := &childTables{}
	v := db.Variant()
	succ := layers.SuccessorsIn(v, k)
	pair, _ := k.Child(false, false) // where a slide leads: the partner, in k's pair
	if stored {
		var most uint64 // one byte per slot at the most
		for _, x := range succ {
			most += db.Indexer().Layer(x).Size()
		}
		stored = copiesFit(memBytes, 0, most)
	}
	var files []*layers.File
	var kept []bool
	var size int64
	for _, x := range succ {
		var f *layers.File
		var st bool
		var release func()
		var err error
		if stored && x != k && x != pair {
			f, st, release, err = db.BorrowStored(x)
		} else {
			f, release, err = db.Borrow(x)
		}
		if err != nil {
			c.release()
			return nil, fmt.Errorf("retro: %s needs %s: %w", k, x, err)
		}
		c.files = append(c.files, release)
		files = append(files, f)
		kept = append(kept, st)
		if st {
			size += int64(len(f.Body())) // CopyStored copies the body as stored
		} else {
			size += f.CopyBytes()
		}
	}
	// The layers borrowed, decoded in the DB's cache, are held beside
	// the copies, as are the layers the cache holds for later units.
	copies := copiesFit(memBytes, uint64(db.CacheBytes()), uint64(size))
	for kind, kl := range kindLayers(v, k) {
		t := &c.t[kind]
		t.ends = kl.ends
		if !kl.made {
			continue
		}
		i := slices.Index(succ, kl.key)
		t.ix = db.Indexer().Layer(kl.key)
		var err error
		switch {
		case kept[i]:
			var ok bool
			if b, has := filled.body(kl.key); has {
				t.body, ok = files[i].StoredCopy(b)
			}
			if !ok {
				if t.body, err = files[i].CopyStored(); err != nil {
					c.release()
					return nil, err
				}
				t.stored = true
			}
			t.marks = make([]uint64, (t.ix.Size()+63)/64)
		case !copies:
			t.body = files[i].View()
		default:
			if t.body, err = files[i].Copy(); err != nil {
				c.release()
				return nil, err
			}
		}
	}
	for _, kinds := range [][]int{{kindSlide, kindSlideRemove}, {kindPlace, kindPlaceRemove}} {
		var other bool
		for kind := range c.t {
			if kind != kinds[0] && kind != kinds[1] && (c.t[kind].ix != nil || c.t[kind].ends) {
				other = true
			}
		}
		p, r := &c.t[kinds[0]], &c.t[kinds[1]]
		if !other && p.ix != nil && r.ix != nil && !r.ends && !p.ends {
			c.split, c.plain = true, kinds[0]
			c.bodies = [2]*layers.Copy{r.body, p.body}
		}
	}
	return c, nil
}

// release frees the copies and gives the layers' files back.
func (c *childTables) release() {
	for i := range c.t {
		if c.t[i].body != nil {
			c.t[i].body.Release()
		}
	}
	for _, release := range c.files {
		release()
	}
	c.files = nil
}

// handOver gives the copies of layers read as stored that the tables made
// themselves (kindTable.stored) to fc, once their won depths needed are
// found (fillStored): the verifier of the same layer, whose marks are the
// same, reads them (newChildTables). release then leaves them to fc.
func (c *childTables) handOver(fc *filledCopies) {
	for kind := range c.t {
		t := &c.t[kind]
		if !t.stored {
			continue
		}
		if _, has := fc.body(t.ix.Key()); !has {
			fc.add(t.ix.Key(), t.body.Flat(), t.body.Release)
			t.body, t.stored = nil, false
		}
	}
}

// best returns BestChild(db, pos) for a position of the tables' layer,
// with the mover in Stones[White]: the best of the children's values seen
// from pos, layers.NoMoves without moves, WinIn(1) when a removal leaves the
// opponent fewer than three stones. missing is true when some child's
// slot holds no value (a dense layer that does not store it): the layer
// below lacks a position that a game reaches, and the value is not to be
// trusted.
//
// The children's slots are computed from the position and the moves
// (LayerIndex.IndexMovesSplit, or IndexMoves by the kind of move: the
// children are never made) and their values loaded together, so that
// their cache misses overlap; the best is kept by parentKey or
// parentOrder, one table look-up per child.
func (c *childTables) best(w *bestWork, pos *muehle.Position) (v layers.Value, missing bool) {
	ms := pos.AppendMoves(w.moves[:0])
	// What markStored reads: the moves, and their children once found.
	// Without moves, or a move that ends the game, there are none to
	// mark; the previous position's must not be.
	w.nm, w.n = len(ms), [moveKinds]int{}
	if len(ms) == 0 {
		return layers.NoMoves(pos), false
	}
	if c.split {
		ix := w.kidIx[0][:len(ms)]
		c.t[c.plain].ix.IndexMovesSplit(*pos, ms, ix, c.t[c.plain+1].ix)
		best, missing := parentKey[layers.Unused], false
		for j, x := range ix {
			cv := c.bodies[uint8(ms[j].Remove)>>7].Value(x)
			if cv == layers.Unused {
				missing = true
			}
			best = max(best, parentKey[cv])
		}
		return layers.Value(best), missing
	}
	var n [moveKinds]int
	for _, m := range ms {
		kind := moveKind(m)
		if c.t[kind].ends {
			return layers.WinIn(1), false
		}
		w.kms[kind][n[kind]] = m
		n[kind]++
	}
	w.n = n
	best, order, missing := layers.Unused, parentOrder[layers.Unused], false
	for kind, t := range &c.t {
		nk := n[kind]
		if nk == 0 {
			continue
		}
		if t.ix == nil {
			return layers.Unused, true // a move the layer's successors do not provide for
		}
		ix := w.kidIx[kind][:nk]
		t.ix.IndexMoves(*pos, w.kms[kind][:nk], ix)
		for _, x := range ix {
			cv := t.body.Value(x)
			missing = missing || cv == layers.Unused
			if o := parentOrder[cv]; o > order {
				best, order = cv, o
			}
		}
	}
	return best.Parent(), missing
}

// parentOrder numbers the values by their parents' values in the order of
// layers.Value.Better: the parent of a child of higher number is better
// for the side to move (the number of values worse than it). TestParentOrder
// checks it on every pair.
var parentOrder = func() (o [256]uint8) {
	for v := range 256 {
		pv := layers.Value(v).Parent()
		for u := range 256 {
			if pv.Better(layers.Value(u)) {
				o[v]++
			}
		}
	}
	return o
}()

// parentKey[v] is parentOrder[v] above v.Parent(): the largest key of a
// position's children is its best child's, and its low byte the
// position's value, taken without a branch. Two values of one order have
// one parent (TestParentOrder).
var parentKey = func() (k [256]uint16) {
	for v := range 256 {
		k[v] = uint16(parentOrder[v])<<8 | uint16(layers.Value(v).Parent())
	}
	return k
}()

// markStored marks the won children without their depths (stored
// "won") of the position best looked at last with w, in the tables that
// hold their layers as stored, and reports whether there were any: a
// position best finds lost, whose value is the slowest of its won
// children, then waits for their depths (fillStored).
func (c *childTables) markStored(w *bestWork) bool {
	any := false
	mark := func(body *layers.Copy, marks []uint64, x uint64) {
		if marks != nil && byte(body.Value(x)) == storedWon {
			setBit(marks, x)
			any = true
		}
	}
	if c.split {
		for j, x := range w.kidIx[0][:w.nm] {
			b := int(uint8(w.moves[j].Remove) >> 7)
			mark(c.bodies[b], c.t[c.plain+1-b].marks, x) // bodies[b]'s table
		}
		return any
	}
	for kind := range c.t {
		for _, x := range w.kidIx[kind][:w.n[kind]] {
			mark(c.t[kind].body, c.t[kind].marks, x)
		}
	}
	return any
}

// fillStored finds the depths of the won children markStored marked, in
// the tables' copies (layers.DB.FillWon); best then reads every value.
func (c *childTables) fillStored(db *layers.DB) error {
	for kind := range c.t {
		t := &c.t[kind]
		if t.marks == nil {
			continue
		}
		if err := db.FillWon(t.ix.Key(), t.body.Flat(), t.marks); err != nil {
			return fmt.Errorf("retro: the won depths of %s: %w", t.ix.Key(), err)
		}
		t.marks = nil
	}
	return nil
}

// settlePending finds the depths of the won children markStored marked
// (fillStored) and then calls redo for each slot set in pending, a bit
// per slot of a layer of size slots, on workers goroutines: the positions
// that waited for those depths, computed or checked again.
func (c *childTables) settlePending(ctx context.Context, db *layers.DB, workers int, pending []uint64, size uint64, redo func(w *bestWork, i uint64) error) error {
	if err := c.fillStored(db); err != nil {
		return err
	}
	return forRanges(ctx, Workers(workers), size, 1<<14, nil, func(_ int, lo, hi uint64) error {
		var w bestWork
		for i := range layers.SetBits(pending, lo, hi) {
			if err := redo(&w, i); err != nil {
				return err
			}
		}
		return nil
	})
}

// holdsStored reports whether some table holds its layer as compressed
// form 2 stores it (kindTable.marks): best's losses are then not to be
// trusted until fillStored.
func (c *childTables) holdsStored() bool {
	for _, t := range &c.t {
		if t.marks != nil {
			return true
		}
	}
	return false
}

// copiesFit reports whether copies bytes of layers copied into memory fit
// in the memory budget beside used bytes. The solver (newChildTables) and
// the cost model (unitCost) decide by it alike.
func copiesFit(budget int64, used, copies uint64) bool {
	return used+copies <= uint64(max(budget, 0))
}
