package retro

import (
	"context"
	"errors"
	"slices"
	"testing"

	"muehle/layers"
	"muehle/muehle/testenv"
)

// TestChildTablesAreBestChild checks the fast path of the solver and the
// verifier against the definition: for every stored position of every
// layer of the solved k=4 game, moving and placement, childTables.best
// must equal BestChild, which probes each child through the database, and
// find every child stored.
func TestChildTablesAreBestChild(t *testing.T) {
	testenv.SlowUnderRace(t, "solves the k=4 game")
	db := openDB(t, t.TempDir(), 4)
	solve(t, db, SolveOptions{SkipVerify: true, Placement: true})
	total := 0
	for _, k := range layers.Order(4, true) {
		c, err := newChildTables(db, k, 1<<30, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		ix := db.Indexer().Layer(k)
		var w bestWork
		checked := 0
		for i := range ix.Size() {
			pos, ok := ix.Position(i)
			if !ok || f.Value(i) == layers.Unused {
				continue
			}
			want, err := BestChild(db, pos)
			if err != nil {
				t.Fatal(err)
			}
			if got, missing := c.best(&w, &pos); got != want || missing {
				t.Fatalf("layer %s slot %d (%v): got %v (missing %v), want %v", k, i, pos, got, missing, want)
			}
			checked++
		}
		c.release()
		total += checked
	}
	if total == 0 {
		t.Error("no stored position checked")
	}
}

// TestVerifyCancelled expects a cancelled verification to report the
// cancellation, never a clean pass.
func TestVerifyCancelled(t *testing.T) {
	db := openDB(t, t.TempDir(), 3)
	solve(t, db, SolveOptions{SkipVerify: true})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := VerifyLayer(ctx, db, layers.Moving(3, 3), 0, 10, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want an error wrapping context.Canceled", err)
	}
}

// TestVerifySample draws samples from the solved 3-stone game: a sample
// of a sound layer finds nothing, draws distinct slots (a sample asking
// for more than a layer stores checks each stored slot once), and a
// layer with wrong values is caught, the same way for the same seed.
func TestVerifySample(t *testing.T) {
	db := openDB(t, t.TempDir(), 3)
	solve(t, db, SolveOptions{Placement: true})
	ctx := context.Background()
	for _, k := range layers.Order(3, true) {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		stored := 0
		for i := range db.Indexer().Layer(k).Size() {
			if f.Value(i) != layers.Unused {
				stored++
			}
		}
		n, bad, err := VerifySample(ctx, db, k, 200, 1, 10)
		if err != nil || len(bad) > 0 {
			t.Fatalf("%s: got %v, %v; want no mismatches", k, bad, err)
		}
		if want := min(200, stored); n != want {
			t.Errorf("%s: %d slots checked, want %d (%d stored)", k, n, want, stored)
		}
	}

	// Every deeper win of 3-3 made a draw: a sample of 200 meets some.
	k := layers.Moving(3, 3)
	f, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	body := make([]byte, db.Indexer().Layer(k).Size())
	changed := map[uint64]bool{}
	for i := range body {
		v := f.Value(uint64(i))
		if v.Outcome() == layers.Win && v.Depth() > 1 {
			v, changed[uint64(i)] = layers.Drawn, true
		}
		body[i] = byte(v)
	}
	if err := db.Write(k, body); err != nil {
		t.Fatal(err)
	}
	_, bad, _ := VerifySample(ctx, db, k, 200, 1, 1000)
	if len(bad) == 0 {
		t.Fatalf("a sample of 200 of %s, %d of whose values are wrong, found none", k, len(changed))
	}
	_, again, _ := VerifySample(ctx, db, k, 200, 1, 1000)
	if len(again) != len(bad) {
		t.Errorf("the same seed found %d mismatches, then %d", len(bad), len(again))
	}
}

// TestParentOrder checks parentOrder against Value.Better on every pair of
// children's values: the higher number for the better parent, one number
// for one parent; and parentKey, which orders as parentOrder does.
func TestParentOrder(t *testing.T) {
	for a := range 256 {
		for b := range 256 {
			va, vb := layers.Value(a), layers.Value(b)
			if got, want := parentOrder[a] > parentOrder[b], va.Parent().Better(vb.Parent()); got != want {
				t.Fatalf("children %v and %v: parentOrder says %v, Better of the parents %v", va, vb, got, want)
			}
			if parentOrder[a] == parentOrder[b] && va.Parent() != vb.Parent() {
				t.Fatalf("children %v and %v: one parentOrder, parents %v and %v", va, vb, va.Parent(), vb.Parent())
			}
			if ka, kb := parentKey[a], parentKey[b]; (ka > kb) != (parentOrder[a] > parentOrder[b]) || layers.Value(ka) != va.Parent() {
				t.Fatalf("children %v and %v: parentKey %#x and %#x", va, vb, ka, kb)
			}
		}
	}
}

// TestVerifyFindsStoredNonCanonical stores a value in a slot of a moving
// layer that is no position's index, the first and the last such slot in
// turn, and expects the verifier to report that slot, and only it.
func TestVerifyFindsStoredNonCanonical(t *testing.T) {
	db := openDB(t, t.TempDir(), 3)
	solve(t, db, SolveOptions{})
	k := layers.Moving(3, 3)
	ix := db.Indexer().Layer(k)
	f, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	orig := slices.Clone(f.Body())
	var free []uint64
	for i := range ix.Size() {
		if !ix.Canonical(i) {
			free = append(free, i)
		}
	}
	if len(free) == 0 {
		t.Fatal("layer 3-3 has no slot that is no position's index")
	}
	for _, target := range []uint64{free[0], free[len(free)-1]} {
		body := slices.Clone(orig)
		body[target] = byte(layers.Drawn)
		if err := db.Write(k, body); err != nil {
			t.Fatal(err)
		}
		bad, err := VerifyLayer(context.Background(), db, k, 2, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) != 1 || bad[0].Index != target || bad[0].Reason != reasonNotCanonical {
			t.Errorf("slot %d stored though no position's: got %v, want one mismatch there: %q", target, bad, reasonNotCanonical)
		}
	}
}

// TestChildTablesCopyRule checks when newChildTables copies the dense
// layers a placement layer's children lie in: when their copies, a byte
// per slot, fit in the room the caller gives beside the DB's cache, and
// not a byte less; and that the children read where they lie give the
// same values.
func TestChildTablesCopyRule(t *testing.T) {
	testenv.SlowUnderRace(t, "solves the complete 4-stone game")
	db := openDB(t, t.TempDir(), 4)
	solve(t, db, SolveOptions{Placement: true})
	k := layers.Key{W: 1, WH: 3, B: 1, BH: 3} // its children lie in dense layers only
	var copies int64
	for _, s := range layers.SuccessorsIn(db.Variant(), k) {
		if s.IsMoving() {
			t.Fatalf("%s leads to the moving layer %s", k, s)
		}
		copies += int64(db.Indexer().Layer(s).Size())
	}
	tables := func(room int64) (copied int, vals []layers.Value) {
		c, err := newChildTables(db, k, room, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.release()
		if db.CacheBytes() != 0 {
			t.Fatalf("the DB's cache holds %d bytes; the rule's bound here assumes none", db.CacheBytes())
		}
		for _, tb := range c.t {
			if tb.ix != nil && tb.body.Flat() != nil {
				copied++
			}
		}
		ix := db.Indexer().Layer(k)
		var w bestWork
		for i := range ix.Size() {
			if pos, ok := ix.Position(i); ok {
				v, _ := c.best(&w, &pos)
				vals = append(vals, v)
			}
		}
		return copied, vals
	}
	n, want := tables(copies)
	if n == 0 {
		t.Fatalf("room for the copies (%d bytes): none copied", copies)
	}
	n, got := tables(copies - 1)
	if n != 0 {
		t.Fatalf("a byte short of the copies: %d layers copied", n)
	}
	if !slices.Equal(got, want) {
		t.Error("the children read where they lie give other values than their copies")
	}
}
