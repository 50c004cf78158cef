package retro

import (
	"context"
	"slices"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// TestKeepsFlatForPlacementParent solves Lasker Morris of 3 stones with
// --compress and looks at the folder after each unit: a verified layer
// whose side to move has at least as many stones as the other and whose
// placement parent is not verified yet lies flat, its won depths in it;
// once the parent is verified it is compressed; and when the solve ends
// every verified layer is (but for those too small to shrink).
func TestKeepsFlatForPlacementParent(t *testing.T) {
	v := muehle.Lasker.With(3)
	db := openVariant(t, t.TempDir(), v)
	valid := func(k layers.Key) bool { return layers.ValidIn(v, k) }
	kept := map[layers.Key]bool{} // seen flat, verified, for their parents
	late := map[layers.Key]bool{} // seen flat with the parent verified
	opts := SolveOptions{Placement: true, Compress: true, Workers: 2}
	opts.Progress = func(p Progress) {
		if p.Phase != PhaseDone {
			return
		}
		for _, k := range layers.OrderIn(v, true) {
			if k.IsMoving() || !db.Verified(k) || db.Form(k) != 0 {
				continue
			}
			parent, ok := placementParent(k, valid)
			switch {
			case ok && !db.Verified(parent) && int(k.W)+int(k.WH) >= int(k.B)+int(k.BH):
				kept[k] = true
			default:
				late[k] = true
			}
		}
	}
	solve(t, db, opts)
	shrunk := 0 // of the layers kept flat, those compressed in the end (not too small to shrink)
	for k := range kept {
		if db.Form(k) != 0 {
			shrunk++
		}
	}
	if shrunk == 0 {
		t.Fatal("no layer was kept flat for its placement parent")
	}
	for _, k := range layers.OrderIn(v, true) {
		if !db.Verified(k) {
			t.Errorf("%s not verified", k)
			continue
		}
		if db.Form(k) != 0 {
			continue
		}
		// Left flat at the end: only a layer that does not shrink.
		if _, _, done, err := db.Compress(k); err != nil || done {
			t.Errorf("%s lies flat after the solve (compressing it now: done %v, %v)", k, done, err)
		}
	}
	for k := range late {
		if db.Form(k) != 0 {
			t.Errorf("%s lay flat after a unit though its placement parent was verified or it is behind", k)
		}
	}
}

// TestKeepsFlatOnlyWithRoom: a layer is not kept flat when the disk would
// then lack room for the largest unit, and makeRoom compresses the
// verified layers lying flat.
func TestKeepsFlatOnlyWithRoom(t *testing.T) {
	v := muehle.Lasker.With(3)
	db := openVariant(t, t.TempDir(), v)
	opts := SolveOptions{Placement: true, Compress: true, Workers: 2}
	// Room for the largest unit, and not a slot more.
	plan := newSolver(db, opts)
	plan.plan = Plan(db, opts)
	room := plan.flatRoom(Task{})
	if room == 0 {
		t.Fatal("the plan's largest unit needs no disk")
	}
	t.Cleanup(func() { freeBytes = layers.FreeBytes })
	freeBytes = func(string) (uint64, error) { return diskReserve + room + 1, nil }
	seen := map[layers.Key]bool{} // flat and verified after a unit, the placement parent not verified
	opts.Progress = func(p Progress) {
		if p.Phase != PhaseDone {
			return
		}
		for _, k := range layers.OrderIn(v, true) {
			parent, ok := placementParent(k, func(k layers.Key) bool { return layers.ValidIn(v, k) })
			if !k.IsMoving() && ok && !db.Verified(parent) && db.Verified(k) && db.Form(k) == 0 {
				seen[k] = true
			}
		}
	}
	solve(t, db, opts)
	for k := range seen {
		if db.Form(k) != 0 { // compressed in the end: not too small to shrink
			t.Errorf("%s was kept flat without room beside it", k)
		}
	}

	// A folder solved flat: makeRoom compresses what shrinks.
	freeBytes = layers.FreeBytes
	flat := openVariant(t, t.TempDir(), v)
	solve(t, flat, SolveOptions{Placement: true, Workers: 2})
	s := newSolver(flat, SolveOptions{Placement: true, Compress: true, Workers: 2})
	made, err := s.makeRoom(context.Background())
	if err != nil || !made {
		t.Fatalf("makeRoom: %v, %v; want true, nil", made, err)
	}
	compressed := 0
	for _, k := range layers.OrderIn(v, true) {
		if flat.Form(k) != 0 {
			compressed++
		}
	}
	if compressed == 0 {
		t.Error("makeRoom compressed no layer")
	}
}

// TestSolveMakesRoom: when the disk is short for the next unit, the solver
// compresses the verified layers lying flat and looks again, rather than
// stop.
func TestSolveMakesRoom(t *testing.T) {
	v := muehle.Lasker.With(3)
	db := openVariant(t, t.TempDir(), v)
	solve(t, db, SolveOptions{Placement: true, Workers: 2}) // every layer flat
	order := layers.OrderIn(v, true)
	last, big := order[len(order)-1], layers.Key{W: 2, WH: 1, B: 3}
	if err := db.Remove(last); err != nil {
		t.Fatal(err)
	}
	if db.Form(big) != 0 {
		t.Fatalf("%s is not flat", big)
	}
	t.Cleanup(func() { freeBytes = layers.FreeBytes })
	freeBytes = func(string) (uint64, error) {
		if db.Form(big) == 0 {
			return 0, nil // full, until the flat layers are compressed
		}
		return 1 << 40, nil
	}
	solve(t, db, SolveOptions{Placement: true, Compress: true, Workers: 2})
	if !db.Verified(last) || db.Form(big) == 0 {
		t.Errorf("after the solve: %s verified %v, %s form %d; want verified, compressed", last, db.Verified(last), big, db.Form(big))
	}
}

// TestKeptFlatPeak replays the plan of Lasker Morris of 3 stones and
// compares what KeptFlatPeak says with what a solve that compresses keeps
// flat after each unit, the layers whose placement parent is not verified
// yet, at the bytes each takes beyond compressed: the same most, after the
// same unit. A game whose phases do not mix keeps nothing flat.
func TestKeptFlatPeak(t *testing.T) {
	v := muehle.Lasker.With(3)
	db := openVariant(t, t.TempDir(), v)
	ix := db.Indexer()
	opts := SolveOptions{Placement: true, Compress: true, Workers: 2}
	var units []Unit
	for _, task := range Plan(db, opts) {
		units = append(units, task.Unit)
	}
	want, wantAt := KeptFlatPeak(ix, units, func(Unit) bool { return false })
	if want == 0 {
		t.Fatal("KeptFlatPeak: nothing kept flat")
	}
	var peak uint64
	var at UnitName
	opts.Progress = func(p Progress) {
		if p.Phase != PhaseDone {
			return
		}
		var cur uint64
		for _, k := range layers.OrderIn(v, true) {
			parent, ok := flatCandidate(v, k)
			if ok && db.Verified(k) && !db.Verified(parent) && db.Form(k) == 0 {
				cur += uint64(float64(ix.Layer(k).Size()) * (1 - CompressedShare))
			}
		}
		if cur > peak {
			peak, at = cur, p.Unit
		}
	}
	solve(t, db, opts)
	if peak != want || at != wantAt {
		t.Errorf("the solve kept %d bytes flat at most, after %s; KeptFlatPeak says %d after %s", peak, at, want, wantAt)
	}
	// With the units done up to the peak's, the replay starts after it.
	i := slices.IndexFunc(units, func(u Unit) bool { return u.Name == wantAt })
	doneUpTo := func(u Unit) bool { return slices.IndexFunc(units, func(w Unit) bool { return w.Name == u.Name }) <= i }
	if rest, _ := KeptFlatPeak(ix, units, doneUpTo); rest >= want {
		t.Errorf("the units left after %s keep %d bytes flat at most; want less than %d", wantAt, rest, want)
	}
	sv := muehle.Standard.With(4)
	sdb := openVariant(t, t.TempDir(), sv)
	if got, _ := KeptFlatPeak(sdb.Indexer(), Units(sv, opts), func(Unit) bool { return false }); got != 0 {
		t.Errorf("the standard game keeps %d bytes flat; want 0", got)
	}
}
