package retro

import (
	"bytes"
	"context"
	"os"
	"slices"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
)

// storedFolder solves the layers of v that opts names (Placement: the
// placement layers too), compresses every layer in form 2 and closes the
// folder, so that a DB opened afresh reads them as stored
// (layers.DB.BorrowStored), not held complete.
func storedFolder(t *testing.T, v muehle.Variant, opts SolveOptions) (dir string) {
	t.Helper()
	dir = t.TempDir()
	db := openVariant(t, dir, v)
	opts.Compress = true
	solve(t, db, opts)
	for _, k := range layers.OrderIn(v, opts.Placement) {
		if db.Has(k) && db.Form(k) != 2 {
			if _, _, _, err := db.Compress(k); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()
	return dir
}

// TestStoredLayers solves units of the 4-stone games of Nine and of
// Lasker Morris again, in a folder whose other layers lie in form 2, read
// as stored: the count phase marks the won children whose depths it
// needs, finds them (layers.DB.FillWon) and then seeds their parents
// (seedPending), and the verifier checks the positions it finds lost once
// their won children's depths are found (checkPending; both happen in the
// units named for -short). Every layer comes out byte for byte as before;
// without -short every unit is solved again. Then the verifier of a layer
// whose children lie so finds every value made wrong
// (verifyStoredChildren; in Lasker Morris's p3+0-3+1, with positions
// waiting for their children's depths; before that, verifyFilledCopies).
// Under the race detector, where Lasker Morris's 4-stone game takes a
// minute, the standard game's units are solved again and nothing more:
// each unit's verification reads the stored children there.
func TestStoredLayers(t *testing.T) {
	if storedWon != byte(layers.WinIn(1)) {
		t.Fatalf("storedWon is %d, WinIn(1) %d", storedWon, layers.WinIn(1))
	}
	v := muehle.Standard.With(4)
	// Under the race detector the unit 3-4 + 4-3 alone is solved again:
	// it reads 3-3, and nothing reads 4-4.
	var opts SolveOptions
	if testenv.Race {
		opts.MaxStones = 7
	}
	dir := storedFolder(t, v, opts)
	t.Run("solve", func(t *testing.T) { solveOverStored(t, dir, v, false) })
	if !testenv.Race {
		t.Run("verify", func(t *testing.T) { verifyStoredChildren(t, dir, v, layers.Moving(4, 4)) })
		l := muehle.Lasker.With(4)
		dir := storedFolder(t, l, SolveOptions{Placement: true})
		t.Run("solve-lasker", func(t *testing.T) { solveOverStored(t, dir, l, true) })
		t.Run("verify-lasker", func(t *testing.T) {
			k, err := layers.ParseKey("p3+0-3+1")
			if err != nil {
				t.Fatal(err)
			}
			t.Run("filled", func(t *testing.T) { verifyFilledCopies(t, dir, l, k) })
			verifyStoredChildren(t, dir, l, k)
		})
	}
}

// solveOverStored solves units of v again in dir, a folder of
// storedFolder (TestStoredLayers).
func solveOverStored(t *testing.T, dir string, v muehle.Variant, placement bool) {
	short := map[string]bool{"3-4 + 4-3": true, "p3+0-3+1 + p3+1-3+0": true, "p2+1-3+1 + p3+1-2+1": true}
	for _, u := range Units(v, SolveOptions{Placement: placement}) {
		if !testenv.Full() && !short[u.String()] {
			continue
		}
		db := openVariant(t, dir, v)
		before := map[layers.Key][]byte{}
		for _, x := range u.Keys {
			var err error
			if before[x], err = os.ReadFile(db.Path(x)); err != nil {
				t.Fatal(err)
			}
			if err := db.Remove(x); err != nil {
				t.Fatal(err)
			}
		}
		name := u.Keys[0].String()
		if u.Keys[0].IsMoving() {
			name = "m" + name
		}
		if _, err := SolveUnit(context.Background(), db, name, SolveOptions{Compress: true}); err != nil {
			t.Fatalf("%v: unit %s: %v", v, u, err)
		}
		for _, x := range u.Keys {
			if got, err := os.ReadFile(db.Path(x)); err != nil || string(got) != string(before[x]) {
				t.Errorf("%v: unit %s: layer %s solved over stored layers is not the layer before (%v)", v, u, x, err)
			}
		}
		db.Close()
	}
}

// verifyStoredChildren verifies layer k of dir, a folder of storedFolder
// of v, after every lost value of some depth was made two plies longer
// (the other layer of its unit written flat as it was, so that its won
// depths do not follow the change), with the layers out of the pair held as stored
// (childTables.stored, checked) and held complete: the same mismatches
// either way, every changed slot among them (and some of their parents
// when k is its own partner).
func verifyStoredChildren(t *testing.T, dir string, v muehle.Variant, k layers.Key) {
	db := openVariant(t, dir, v)
	u, err := FindUnit(Units(v, SolveOptions{Placement: true}), k.String())
	if err != nil {
		t.Fatal(err)
	}
	// The unit's layers read, each complete, before any is written again
	// as it was, flat: k's with every lost value of some depth two plies
	// longer.
	type copied struct {
		body   []byte   // a one-byte layer's
		bits   []uint64 // a dense layer's stored slots and values
		values []byte
	}
	bodies := map[layers.Key]copied{}
	for _, x := range u.Keys {
		f, err := db.Layer(x)
		if err != nil {
			t.Fatal(err)
		}
		if d := f.Dense(); d != nil {
			bodies[x] = copied{bits: append([]uint64(nil), d.Bits()...), values: append([]byte(nil), d.Values()...)}
		} else {
			bodies[x] = copied{body: append([]byte(nil), f.Body()...)}
		}
	}
	changed := map[uint64]layers.Value{}
	for _, x := range u.Keys {
		c := bodies[x]
		if c.bits == nil {
			if x == k {
				for i := range c.body {
					lengthen(changed, uint64(i), &c.body[i])
				}
			}
			if err := db.Write(x, c.body); err != nil {
				t.Fatal(err)
			}
			continue
		}
		slots := db.Indexer().Layer(x).Size()
		if x == k {
			r := 0
			for i := range layers.SetBits(c.bits, 0, slots) {
				lengthen(changed, i, &c.values[r])
				r++
			}
		}
		d, err := layers.NewDense(slots, c.bits, c.values)
		if err == nil {
			err = db.WriteDense(x, d)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(changed) == 0 {
		t.Fatalf("layer %s has no lost value to change", k)
	}
	db.Close()
	found := map[bool]map[uint64]layers.Value{}
	for _, stored := range []bool{true, false} {
		db := openVariant(t, dir, v)
		lc, err := newLayerCheck(db, k, 1, 1<<30, stored, nil)
		if err != nil {
			t.Fatal(err)
		}
		if lc.c.holdsStored() != stored {
			t.Fatalf("stored %v: the children's tables held as stored: %v", stored, lc.c.holdsStored())
		}
		lc.release()
		bad, err := verifyLayerAs(context.Background(), db, k, 2, int(db.Indexer().Layer(k).Size()), 1<<30, stored, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		found[stored] = map[uint64]layers.Value{}
		for _, m := range bad {
			found[stored][m.Index] = m.Want
		}
		db.Close()
	}
	for i, w := range changed {
		if got, ok := found[true][i]; !ok || got != w {
			t.Errorf("slot %d, %v made %v: found %v (%v), want %v", i, w, layers.LossIn(w.Depth()+2), ok, got, w)
		}
	}
	if len(found[true]) != len(found[false]) {
		t.Errorf("%d mismatches with the children held as stored, %d held complete", len(found[true]), len(found[false]))
	}
	for i, w := range found[false] {
		if got, ok := found[true][i]; !ok || got != w {
			t.Errorf("slot %d: held complete, the verifier wants %v; held as stored %v (%v)", i, w, got, ok)
		}
	}
}

// lengthen makes the value *b of slot i two plies longer when it is a
// loss of some depth, noting the value before in changed.
func lengthen(changed map[uint64]layers.Value, i uint64, b *byte) {
	if x := layers.Value(*b); x.Outcome() == layers.Loss && x.Depth() > 0 {
		changed[i] = x
		*b = byte(layers.LossIn(x.Depth() + 2))
	}
}

// TestStoredPlacement solves placement layers of Five Men's Morris again
// in a folder whose other layers lie in form 2: the last placement's
// children lie in moving layers, read as stored, and in p3+1-5+0 most
// positions lose, so wait for their won children's depths
// (solvePlacement's pending). They come out the same as over layers lying
// flat, complete. Solved alone in the finished folder, p3+1-5+0 finds
// the reachable slots of the layers one placement before it in their
// dense files, read as stored (DB.DenseBits): their won depths would need
// p3+1-5+0 itself. The verifier of p3+1-5+0, its children read as
// stored, finds every lost value made longer. Without -short every
// placement unit is solved again.
func TestStoredPlacement(t *testing.T) {
	testenv.SlowUnderRace(t, "solves Five Men's Morris's placement units again over layers read as stored")
	v := muehle.Five.With(5)
	last, err := layers.ParseKey("p3+1-5+0")
	if err != nil {
		t.Fatal(err)
	}
	flat := openVariant(t, t.TempDir(), v)
	solve(t, flat, SolveOptions{Placement: true})
	dir := storedFolder(t, v, SolveOptions{Placement: true})
	t.Run("solve", func(t *testing.T) {
		db := openVariant(t, dir, v)
		for _, u := range Units(v, SolveOptions{Placement: true}) {
			k := u.Keys[0]
			if !u.Placement || !testenv.Full() && k != last {
				continue
			}
			c, err := newChildTables(db, k, 1<<30, true, nil)
			if err != nil {
				t.Fatal(err)
			}
			stored := c.holdsStored()
			c.release()
			want, err := flat.Layer(k)
			if err != nil {
				t.Fatal(err)
			}
			if k == last {
				if !stored {
					t.Fatalf("%s: no child's layer read as stored", k)
				}
				if !lostOfSomeDepth(want.Dense().Values()) {
					t.Fatalf("%s: no position whose children all win", k)
				}
			}
			if err := db.Remove(k); err != nil {
				t.Fatal(err)
			}
			if _, err := SolveUnit(context.Background(), db, string(u.Name), SolveOptions{Compress: true}); err != nil {
				t.Fatalf("unit %s: %v", u.Name, err)
			}
			got, err := db.Layer(k)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Body(), want.Body()) {
				t.Errorf("layer %s solved over stored layers is not the layer solved over flat ones", k)
			}
		}
	})
	t.Run("hand-over", func(t *testing.T) { placementHandsOver(t, dir, flat, last) })
	t.Run("verify", func(t *testing.T) { verifyStoredChildren(t, dir, v, last) })
}

// placementHandsOver computes the placement layer k of dir, a folder of
// storedFolder, again and takes the copies of the layers read as stored
// that it hands over (filledCopies): each is the layer of flat, the same
// game solved flat, but for won slots "won" without their depths, some
// of them found. The verifier of k, reading them, finds no mismatch, and
// no depth the computing did not find: its marks are the same.
func placementHandsOver(t *testing.T, dir string, flat *layers.DB, k layers.Key) {
	ctx := context.Background()
	db := openVariant(t, dir, flat.Variant())
	defer db.Close()
	reach, err := reachFor(ctx, db, k, 2, nil, passWatch{})
	if err != nil {
		t.Fatal(err)
	}
	fc := &filledCopies{}
	defer fc.free()
	if _, err := solvePlacement(ctx, db, k, reach, 2, 1<<30, fc, nil); err != nil {
		t.Fatal(err)
	}
	if len(fc.bodies) == 0 {
		t.Fatalf("%s: no copy handed over", k)
	}
	before := map[layers.Key][]byte{}
	for x, b := range fc.bodies {
		before[x] = slices.Clone(b)
		f, err := flat.Layer(x)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for i, w := range f.Body() {
			switch {
			case b[i] == w:
				if layers.Value(w).Outcome() == layers.Win && w != storedWon {
					found++
				}
			case layers.Value(w).Outcome() != layers.Win || b[i] != storedWon:
				t.Fatalf("%s handed over: slot %d holds %v, the layer %v", x, i, layers.Value(b[i]), layers.Value(w))
			}
		}
		if found == 0 {
			t.Errorf("%s handed over: no won depth found in it", x)
		}
	}
	bad, err := verifyLayer(ctx, db, k, 2, 10, 1<<30, fc, nil)
	if err != nil || len(bad) > 0 {
		t.Fatalf("verify %s: %v, %v", k, bad, err)
	}
	for x, b := range fc.bodies {
		if !bytes.Equal(b, before[x]) {
			t.Errorf("%s: the verifier found won depths the computing of %s did not", x, k)
		}
	}
}

// lostOfSomeDepth reports whether values holds a loss after some moves.
func lostOfSomeDepth(values []byte) bool {
	for _, b := range values {
		if x := layers.Value(b); x.Outcome() == layers.Loss && x.Depth() > 0 {
			return true
		}
	}
	return false
}

// verifyFilledCopies verifies layer k of dir, a folder of storedFolder
// of v, with a layer its moves out of the pair lead to handed over as a
// unit's count phase hands it (filledCopies): a copy as stored, its won
// depths found. The verifier reads that copy where it lies and finds no
// mismatch; with the copy's won depths made two plies longer it finds
// some, so it reads them. With a lost depth changed in it the copy no
// longer checks against its file (layers.File.StoredCopy), and the
// verifier copies the layer afresh: no mismatch.
func verifyFilledCopies(t *testing.T, dir string, v muehle.Variant, k layers.Key) {
	db := openVariant(t, dir, v)
	defer db.Close()
	c, err := newChildTables(db, k, 1<<30, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	kind := slices.IndexFunc(c.t[:], func(t kindTable) bool { return t.marks != nil })
	c.release()
	if kind < 0 {
		t.Fatalf("no layer of %s's children is read as stored", k)
	}
	x := c.t[kind].ix.Key()
	f, stored, release, err := db.BorrowStored(x)
	if err != nil || !stored {
		t.Fatalf("BorrowStored(%s): stored %v, %v", x, stored, err)
	}
	cp, err := f.CopyStored()
	release()
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Release()
	b := cp.Flat()
	every := make([]uint64, (len(b)+63)/64)
	for i := range every {
		every[i] = ^uint64(0)
	}
	if err := db.FillWon(x, b, every); err != nil {
		t.Fatal(err)
	}
	size := int(db.Indexer().Layer(k).Size())
	check := func(name string, wantRead, wantBad bool) {
		t.Helper()
		fc := &filledCopies{}
		fc.add(x, b, func() {})
		lc, err := newLayerCheck(db, k, 1, 1<<30, true, fc)
		if err != nil {
			t.Fatal(err)
		}
		read := &lc.c.t[kind].body.Flat()[0] == &b[0]
		lc.release()
		bad, err := verifyLayerAs(context.Background(), db, k, 2, size, 1<<30, true, fc, nil)
		if err != nil {
			t.Fatal(err)
		}
		if read != wantRead || (len(bad) > 0) != wantBad {
			t.Errorf("%s: the copy read %v, %d mismatches; want read %v, mismatches %v", name, read, len(bad), wantRead, wantBad)
		}
	}
	check("the won depths found", true, false)
	was := slices.Clone(b)
	for i, w := range b {
		if v := layers.Value(w); v.Outcome() == layers.Win && v.Depth() > 1 {
			b[i] = byte(layers.WinIn(v.Depth() + 2))
		}
	}
	check("the won depths made longer", true, true)
	copy(b, was)
	lost := slices.IndexFunc(b, func(w byte) bool { v := layers.Value(w); return v.Outcome() == layers.Loss && v.Depth() > 0 })
	if lost < 0 {
		t.Fatalf("%s has no lost slot of depth above 0", x)
	}
	b[lost] = byte(layers.LossIn(layers.Value(b[lost]).Depth() + 2))
	check("a lost depth changed", false, false)
}

// TestMarkStoredAfterNoMoves: markStored looks at the children of the
// position best looked at last. After a position without moves (lost,
// blocked) it marks nothing, though the position before had won children
// stored without their depths: it once marked those, and the verifier
// then waited for depths no position needed, reading the layers below
// them to find them (verifying 6-6 of Nine Men's Morris so needed 6-5).
func TestMarkStoredAfterNoMoves(t *testing.T) {
	testenv.SlowUnderRace(t, "solves and compresses the 4-stone game's moving layers; the check runs on one goroutine")
	v := muehle.Standard.With(4)
	db := openVariant(t, storedFolder(t, v, SolveOptions{MaxStones: 8}), v)
	k := layers.Moving(4, 4)
	c, err := newChildTables(db, k, 1<<30, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.release()
	if !c.split || c.t[c.plain+1].marks == nil {
		t.Fatal("4-4's captures do not lead to 3-4 held as stored: the test would prove nothing")
	}
	// A position with a capture, and one without moves.
	ix := db.Indexer().Layer(k)
	var capture, blocked muehle.Position
	var hasCapture, hasBlocked bool
	for i := uint64(0); i < ix.Size() && !(hasCapture && hasBlocked); i++ {
		pos, ok := ix.Position(i)
		if !ok {
			continue
		}
		pos.Game = v.Game
		ms := pos.AppendMoves(nil)
		if len(ms) == 0 && !hasBlocked {
			blocked, hasBlocked = pos, true
		}
		if len(ms) > 0 && ms[len(ms)-1].IsRemoval() && !hasCapture {
			capture, hasCapture = pos, true
		}
	}
	if !hasCapture || !hasBlocked {
		t.Fatalf("4-4: a position with a capture %v, one without moves %v; want both", hasCapture, hasBlocked)
	}
	// Its captures' children made won without their depths, as a stored
	// layer keeps them.
	var w bestWork
	c.best(&w, &capture)
	for j, x := range w.kidIx[0][:w.nm] {
		if w.moves[j].IsRemoval() {
			c.bodies[0].Flat()[x] = storedWon
		}
	}
	c.best(&w, &capture)
	if !c.markStored(&w) {
		t.Fatalf("%v, its captures' children stored won: markStored marked none", capture)
	}
	if got, _ := c.best(&w, &blocked); got != layers.NoMoves(&blocked) {
		t.Fatalf("%v: best %v, want %v", blocked, got, layers.NoMoves(&blocked))
	}
	if c.markStored(&w) {
		t.Errorf("after %v, which has no moves, markStored marked the children of %v", blocked, capture)
	}
}
