package retro

import (
	"context"
	"fmt"
	"math/rand/v2"
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
	return verifyLayer(ctx, db, k, workers, limit, defaultMemBytes(), nil, done)
}

// verifyLayer is VerifyLayer with the children's layers copied into
// memory when they fit in memBytes, or read in the copies filled holds
// (newChildTables; filled may be nil).
func verifyLayer(ctx context.Context, db *layers.DB, k layers.Key, workers, limit int, memBytes int64, filled *filledCopies, done *atomic.Uint64) ([]Mismatch, error) {
	return verifyLayerAs(ctx, db, k, workers, limit, memBytes, true, filled, done)
}

// verifyLayerAs is verifyLayer, with stored (newChildTables) or not.
func verifyLayerAs(ctx context.Context, db *layers.DB, k layers.Key, workers, limit int, memBytes int64, stored bool, filled *filledCopies, done *atomic.Uint64) ([]Mismatch, error) {
	lc, err := newLayerCheck(db, k, limit, memBytes, stored, filled)
	if err != nil {
		return nil, err
	}
	defer lc.release()
	f, size := lc.f, lc.ix.Size()
	// Where the children's layers are held as stored, the positions found
	// lost wait for their won children's depths (pending) and are checked
	// after them.
	if lc.c.holdsStored() {
		lc.pending = make([]uint64, (size+63)/64)
	}
	switch {
	case f.MarksStored():
		err = forRanges(ctx, Workers(workers), size, 1<<14, done, func(_ int, lo, hi uint64) error {
			var w bestWork
			for i, v := range f.StoredIn(lo, hi) {
				lc.add(&w, i, v)
			}
			return nil
		})
	case lc.holes:
		reach, rerr := reachFor(ctx, db, k, workers, nil, passWatch{})
		if rerr != nil {
			return nil, fmt.Errorf("retro: verify %s: %w", k, rerr)
		}
		err = forRanges(ctx, Workers(workers), size, 1<<14, done, func(_ int, lo, hi uint64) error {
			var w bestWork
			for i := lo; i < hi; i++ {
				got := f.Value(i)
				if reach.Has(i) {
					lc.add(&w, i, got)
				} else if got != layers.Unused {
					pos, _ := lc.ix.Position(i)
					pos.Game = lc.game
					lc.bad.add(Mismatch{Key: k, Index: i, Position: pos, Stored: got, Want: layers.Unused})
				}
			}
			return nil
		})
	default:
		// Every slot: the canonical ones in order with their positions
		// (Positions), the others between them, which must be unused.
		err = forRanges(ctx, Workers(workers), size, 1<<14, done, func(_ int, lo, hi uint64) error {
			var w bestWork
			next := lo
			for i, pos := range lc.ix.Positions(lo, hi) {
				for ; next < i; next++ {
					lc.notCanonical(next, f.Value(next))
				}
				lc.addPosition(&w, i, pos, f.Value(i))
				next = i + 1
			}
			for ; next < hi; next++ {
				lc.notCanonical(next, f.Value(next))
			}
			return nil
		})
	}
	if err == nil && lc.pending != nil {
		err = lc.checkPending(ctx, db, workers)
	}
	// The pass read the layer's mapped body from end to end; its pages
	// leave this process's resident memory, so that a solve verifying
	// layer after layer does not hold them all.
	f.DropPages()
	if err != nil {
		return nil, err
	}
	return lc.bad.result(k)
}

// VerifySample re-derives a sample of the layer k's stored values from
// their children by VerifyLayer's rule: up to n stored slots drawn
// uniformly at random without repeats (seeded by seed and the layer, so
// that the same flags draw the same slots), each checked as VerifyLayer
// checks it, a dense placement layer's parent included. It returns the
// slots checked (fewer than n only when the draw found no more in its
// tries: a layer of few stored slots) and up to limit mismatches. The
// children are read from the mapped files, not copied: a sample is
// cheap however large the layers. Unlike VerifyLayer it does not prove
// which slots a layer stores, only the values of those it draws; it is
// the cross-check of a layer computed elsewhere, or by another process.
func VerifySample(ctx context.Context, db *layers.DB, k layers.Key, n int, seed uint64, limit int) (int, []Mismatch, error) {
	lc, err := newLayerCheck(db, k, limit, 0, false, nil)
	if err != nil {
		return 0, nil, err
	}
	defer lc.release()
	rng := rand.New(rand.NewPCG(seed, uint64(k.W)<<24|uint64(k.B)<<16|uint64(k.WH)<<8|uint64(k.BH)))
	size, seen := lc.ix.Size(), make(map[uint64]bool, n)
	var w bestWork
	for try := 0; len(seen) < n && try < sampleTries*n; try++ {
		if try%1024 == 0 && ctx.Err() != nil {
			return len(seen), nil, ctx.Err()
		}
		i := rng.Uint64N(size)
		got, ok := lc.f.Stored(i)
		if !ok || seen[i] {
			continue
		}
		seen[i] = true
		lc.add(&w, i, got)
	}
	bad, err := lc.bad.result(k)
	return len(seen), bad, err
}

// sampleTries bounds VerifySample's draws: this many per slot asked for.
// The densest layers store every canonical slot; a dense placement layer
// stores a few per cent of its slots at the least.
const sampleTries = 1000

// layerCheck is the rule of the verifier for one layer: the children's
// tables, the parents' check of a dense placement layer, and the
// mismatches found. add is safe for concurrent use with a bestWork per
// goroutine.
type layerCheck struct {
	k       layers.Key
	f       *layers.File
	file    func() // gives f back (layers.DB.Borrow)
	ix      *layers.LayerIndex
	game    muehle.GameID
	c       *childTables
	parents *parentCheck // a dense placement layer's, else nil
	holes   bool         // a placement layer of one byte per slot with holes: its reach file says which are stored
	bad     *mismatchList
	// pending marks the slots found lost while the children's tables
	// held layers as stored (childTables.holdsStored): checked by
	// checkPending once their won children's depths are found.
	pending []uint64
}

// newLayerCheck prepares the check of layer k, copying the children's
// layers into memory when they fit in memBytes (with stored, as stored,
// or read in the copies of filled: newChildTables); it keeps up to limit
// mismatches.
func newLayerCheck(db *layers.DB, k layers.Key, limit int, memBytes int64, stored bool, filled *filledCopies) (*layerCheck, error) {
	f, release, err := db.Borrow(k)
	if err != nil {
		return nil, err
	}
	lc := &layerCheck{k: k, f: f, file: release, ix: db.Indexer().Layer(k), game: db.Variant().Game, bad: &mismatchList{limit: limit}}
	switch {
	case f.MarksStored():
		if lc.parents, err = newParentCheck(db, k); err != nil {
			release()
			return nil, fmt.Errorf("retro: verify %s: %w", k, err)
		}
	case !k.IsMoving() && !db.Rules().Mixed && !fullPlacement(f.Header(), lc.ix):
		lc.holes = true
	}
	if lc.c, err = newChildTables(db, k, memBytes, stored, filled); err != nil {
		release()
		return nil, err
	}
	return lc, nil
}

// release frees the children's tables and gives the layer's file back.
func (lc *layerCheck) release() {
	lc.c.release()
	lc.file()
}

// add checks the stored slot i, canonical or not, whose value is got.
func (lc *layerCheck) add(w *bestWork, i uint64, got layers.Value) {
	pos, ok := lc.ix.Position(i)
	if !ok {
		lc.notCanonical(i, got)
		return
	}
	lc.addPosition(w, i, pos, got)
}

// notCanonical checks the slot i, which is no position's index, whose
// value is got: it must be unused.
func (lc *layerCheck) notCanonical(i uint64, got layers.Value) {
	if got != layers.Unused {
		lc.bad.add(Mismatch{Key: lc.k, Index: i, Stored: got, Reason: reasonNotCanonical})
	}
}

// addPosition is add of the canonical slot i, whose position is pos.
func (lc *layerCheck) addPosition(w *bestWork, i uint64, pos muehle.Position, got layers.Value) {
	pos.Game = lc.game
	if lc.parents != nil && !lc.parents.found(w.unmoves[:0], pos) {
		lc.bad.add(Mismatch{Key: lc.k, Index: i, Position: pos, Stored: got, Reason: lc.parents.reason()})
		return
	}
	want, missing := lc.c.best(w, &pos)
	if lc.pending != nil && !missing && want.Outcome() == layers.Loss && lc.c.markStored(w) {
		setBit(lc.pending, i)
		return
	}
	switch {
	case missing:
		lc.bad.add(Mismatch{Key: lc.k, Index: i, Position: pos, Stored: got, Reason: reasonChildMissing})
	case got != want:
		lc.bad.add(Mismatch{Key: lc.k, Index: i, Position: pos, Stored: got, Want: want})
	}
}

// checkPending finds the depths of the won children the first pass
// marked, then checks the slots it left pending.
func (lc *layerCheck) checkPending(ctx context.Context, db *layers.DB, workers int) error {
	pending := lc.pending
	lc.pending = nil // the second look checks every slot, none waits again
	return lc.c.settlePending(ctx, db, workers, pending, lc.ix.Size(), func(w *bestWork, i uint64) error {
		pos, ok := lc.ix.Position(i)
		if !ok {
			return fmt.Errorf("retro: verify %s: slot %d pending is no position's", lc.k, i)
		}
		lc.addPosition(w, i, pos, lc.f.Value(i))
		return nil
	})
}

// mismatchList gathers the mismatches of a check from several
// goroutines, keeping the first limit and counting all.
type mismatchList struct {
	mu    sync.Mutex
	out   []Mismatch
	n     atomic.Int64
	limit int
}

// add records m.
func (l *mismatchList) add(m Mismatch) {
	if l.n.Add(1) > int64(l.limit) {
		return
	}
	l.mu.Lock()
	l.out = append(l.out, m)
	l.mu.Unlock()
}

// result returns the mismatches kept, and an error saying how many were
// found when that is more than were kept.
func (l *mismatchList) result(k layers.Key) ([]Mismatch, error) {
	if c := l.n.Load(); c > int64(len(l.out)) {
		return l.out, fmt.Errorf("retro: layer %s: %d mismatches, first %d listed", k, c, len(l.out))
	}
	return l.out, nil
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
// or is the empty board in the first layer. buf, empty with room for
// muehle.MaxUnmoves moves, is its scratch space.
func (pc *parentCheck) found(buf []muehle.Move, pos muehle.Position) bool {
	if pc.first {
		return pos == pc.start
	}
	// The representative's colours as a game has them: White places
	// first, so the side to move is Black when it holds one stone more.
	if pos.Hand[muehle.White] != pos.Hand[muehle.Black] {
		pos = pos.SwapColors()
	}
	// Placements without a removal first, one at a time: most positions
	// have such a parent, often the first tried, and they need no
	// removal undone; then those with a removal undone.
	for t := pos.UnplacementPoints(); t != 0; t &= t - 1 {
		if pc.stored(pos.Unplay(muehle.Move{From: muehle.NoPoint, To: t.First(), Remove: muehle.NoPoint})) {
			return true
		}
	}
	for _, m := range pos.AppendUnmoves(buf) {
		if m.From == muehle.NoPoint && m.Remove != muehle.NoPoint && pc.stored(pos.Unplay(m)) {
			return true
		}
	}
	return false
}

// stored reports whether q, a parent of a position of the layer found by
// an un-move, is stored in the parents' layers.
func (pc *parentCheck) stored(q muehle.Position) bool {
	// AppendUnmoves and UnplacementPoints give parents whose hands fit
	// and whose side that has just moved has three stones; a game of
	// fewer than 9 stones drops those with too many.
	if q.Total(muehle.White) > pc.stones || q.Total(muehle.Black) > pc.stones {
		return false
	}
	kq := layers.KeyOf(q)
	for _, p := range pc.parents {
		if p.key == kq && p.bits.Has(p.ix.Index(q)) {
			return true
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
