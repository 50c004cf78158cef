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
// mismatches. Unused slots must be exactly those that are not canonical,
// except in a placement layer that stores only the reachable classes
// (fewer values than classes): there the stored slots must be exactly the
// reachable ones (the reach files, computed first if missing), and only
// they are recomputed. Since every win and loss must be backed by a child
// one ply closer to the end, a layer that passes holds the true values of
// the game.
//
// A moving layer is checked in one pass in slot order against copies of
// the two layers its children are in (see movingVerifier); a placement
// layer probes its children through db.
func VerifyLayer(ctx context.Context, db *layers.DB, k layers.Key, workers, limit int, done *atomic.Uint64) ([]Mismatch, error) {
	f, err := db.Layer(k)
	if err != nil {
		return nil, err
	}
	ix := db.Indexer().Layer(k)
	var reach ReachBits // nil: every class is stored
	if !k.IsMoving() && !fullPlacement(f.Header(), ix) {
		if reach, err = reachFor(ctx, db, k, workers, nil); err != nil {
			return nil, fmt.Errorf("retro: verify %s: %w", k, err)
		}
	}
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
	// wantFor returns, for one worker, the function that gives a
	// position's value from its children.
	wantFor := func() func(muehle.Position) (layers.Value, error) {
		return func(pos muehle.Position) (layers.Value, error) { return BestChild(db, pos) }
	}
	if k.IsMoving() {
		v, verr := newMovingVerifier(db, k)
		if verr != nil {
			return nil, verr
		}
		defer v.release()
		wantFor = func() func(muehle.Position) (layers.Value, error) {
			var w childWork
			return func(pos muehle.Position) (layers.Value, error) { return v.best(&w, pos), nil }
		}
	}
	err = forRanges(ctx, Workers(workers), ix.Size(), 1<<14, done, func(_ int, lo, hi uint64) error {
		want := wantFor()
		for i := lo; i < hi; i++ {
			got := f.Value(i)
			if reach != nil && !reach.Has(i) {
				if got != layers.Unused {
					pos, _ := ix.Position(i)
					report(Mismatch{Key: k, Index: i, Position: pos, Stored: got, Want: layers.Unused})
				}
				continue
			}
			pos, ok := ix.Position(i)
			if !ok {
				if got != layers.Unused {
					report(Mismatch{Key: k, Index: i, Stored: got, Want: layers.Unused})
				}
				continue
			}
			w, err := want(pos)
			if err != nil {
				return fmt.Errorf("retro: verify %s slot %d: %w", k, i, err)
			}
			if got != w {
				report(Mismatch{Key: k, Index: i, Position: pos, Stored: got, Want: w})
			}
		}
		return nil
	})
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

// movingVerifier computes BestChild for the positions of a moving layer
// M(w,b) without probing: the children of moves without removal are in the
// partner M(b,w), those of removals in M(b-1,w) (or the game is over), and
// both layers' values are copied to memory once, so that the look-ups of a
// whole layer cost no page faults and no layer-cache traffic. For each
// position the children's slots are computed together (IndexAll) and
// their values loaded together, so that the cache misses overlap.
type movingVerifier struct {
	part, rm         *layers.LayerIndex
	partBody, rmBody []byte // rmBody nil: a removal wins (the opponent keeps two stones)
	release          func()
}

func newMovingVerifier(db *layers.DB, k layers.Key) (*movingVerifier, error) {
	v := &movingVerifier{}
	var releases []func()
	v.release = func() {
		for _, r := range releases {
			r()
		}
	}
	load := func(x layers.Key) ([]byte, error) {
		f, err := db.Layer(x)
		if err != nil {
			return nil, fmt.Errorf("retro: verify %s needs %s: %w", k, x, err)
		}
		b, release, err := copyLarge(f.Body())
		if err != nil {
			return nil, fmt.Errorf("retro: verify %s: reading %s: %w", k, x, err)
		}
		releases = append(releases, release)
		return b, nil
	}
	p := k.Partner()
	v.part = db.Indexer().Layer(p)
	var err error
	if v.partBody, err = load(p); err != nil {
		v.release()
		return nil, err
	}
	if rm, ok := k.RemovalLayer(); ok {
		v.rm = db.Indexer().Layer(rm)
		if v.rmBody, err = load(rm); err != nil {
			v.release()
			return nil, err
		}
	}
	return v, nil
}

// best returns BestChild(db, pos) for a position of the verifier's layer,
// with the mover in Stones[White]: the best of the children's values seen
// from pos, LossIn(0) without moves, WinIn(1) when a removal leaves the
// opponent two stones.
func (v *movingVerifier) best(w *childWork, pos muehle.Position) layers.Value {
	ms := pos.AppendMoves(w.moves[:0])
	if len(ms) == 0 {
		return layers.LossIn(0)
	}
	ns, nr := 0, 0
	for _, m := range ms {
		if !m.IsRemoval() {
			w.slide[ns] = pos.Play(m)
			ns++
			continue
		}
		if v.rmBody == nil {
			return layers.WinIn(1)
		}
		w.removal[nr] = pos.Play(m)
		nr++
	}
	v.part.IndexAll(w.slide[:ns], w.slideIx[:ns])
	if nr > 0 {
		v.rm.IndexAll(w.removal[:nr], w.rmIx[:nr])
	}
	best := layers.Unused
	for _, i := range w.rmIx[:nr] {
		if pv := layers.Value(v.rmBody[i]).Parent(); pv.Better(best) {
			best = pv
		}
	}
	for _, i := range w.slideIx[:ns] {
		if pv := layers.Value(v.partBody[i]).Parent(); pv.Better(best) {
			best = pv
		}
	}
	return best
}
