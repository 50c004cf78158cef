package retro

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
)

// TestCompressForms solves the complete game of 4 stones (every phase, the
// placement layers dense) and keeps three more folders of it: compressed
// in form 1 (every value as it is), form 1 converted to form 2 by
// Compress, and the flat layers compressed straight to form 2 (the won
// slots without their depth), which the conversion gives byte for byte. Every canonical slot of every layer probes
// the same in all four, every layer read in full (DB.Layer: form 2's won
// depths found by one ply) is the flat body byte for byte, and the
// verifier, re-deriving every value from its children, passes every layer
// of form 2.
func TestCompressForms(t *testing.T) {
	testenv.SlowUnderRace(t, "solves the complete 4-stone game and compresses it three times")
	v := muehle.Standard.With(4)
	root := t.TempDir()
	flatDir := filepath.Join(root, "flat")
	flat, err := layers.OpenDB(flatDir, v)
	if err != nil {
		t.Fatal(err)
	}
	defer flat.Close()
	if err := Solve(context.Background(), flat, SolveOptions{Placement: true}); err != nil {
		t.Fatal(err)
	}
	keys := layers.OrderIn(v, true)
	copyFolder := func(name string) *layers.DB {
		dir := filepath.Join(root, name)
		if err := os.CopyFS(dir, os.DirFS(flatDir)); err != nil {
			t.Fatal(err)
		}
		db, err := layers.OpenDB(dir, v)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	compressAll := func(db *layers.DB, form int) {
		t.Helper()
		defer layers.SetCompressForm(layers.SetCompressForm(form))
		for _, k := range keys {
			if !db.Has(k) {
				continue
			}
			if _, _, _, err := db.Compress(k); err != nil {
				t.Fatalf("compressing %v in form %d: %v", k, form, err)
			}
		}
	}
	form1 := copyFolder("form1")
	compressAll(form1, 1)
	form12 := copyFolder("form12")
	compressAll(form12, 1)
	compressAll(form12, 2)
	form2 := copyFolder("form2")
	compressAll(form2, 2)
	forms := map[string]*layers.DB{"form 1": form1, "form 1 converted to 2": form12, "form 2": form2}
	step := uint64(1)
	if !testenv.Full() {
		step = 3 // every third slot probed
	}
	n2, slots := 0, 0
	for _, k := range keys {
		if !flat.Has(k) {
			continue
		}
		if got := form2.Form(k); got == 2 {
			n2++
		}
		a, err1 := os.ReadFile(form12.Path(k))
		b, err2 := os.ReadFile(form2.Path(k))
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("layer %v: converted from form 1 (form %d), not the file compressed from flat (form %d)", k, form12.Form(k), form2.Form(k))
		}
		ff, err := flat.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		l := flat.Indexer().Layer(k)
		for i := uint64(0); i < l.Size(); i += step {
			p, ok := l.Position(i)
			if !ok {
				continue
			}
			p.Game = v.Game
			want, err := flat.Probe(p)
			if err != nil {
				t.Fatal(err)
			}
			if want == layers.Unused {
				continue
			}
			slots++
			for name, db := range forms {
				if got, err := db.Probe(p); err != nil || got != want {
					t.Fatalf("%s: layer %v slot %d: Probe %v, %v; flat %v", name, k, i, got, err, want)
				}
			}
		}
		for name, db := range forms {
			f, err := db.Layer(k)
			if err != nil {
				t.Fatalf("%s: layer %v: %v", name, k, err)
			}
			if string(f.Body()) != string(ff.Body()) {
				t.Errorf("%s: layer %v read in full is not the flat body", name, k)
			}
		}
	}
	if n2 < 10 {
		t.Errorf("%d layers in form 2, want most of the game's", n2)
	}
	// Solved with Compress, each layer compressed as soon as it is
	// verified (DB.CompressDerived: the won depths not found again, the
	// body held decoded): the files of form 2 byte for byte, read in full
	// the flat bodies, through the solving DB and through one opened
	// afresh.
	solvedDir := filepath.Join(root, "solved")
	solved, err := layers.OpenDB(solvedDir, v)
	if err != nil {
		t.Fatal(err)
	}
	defer solved.Close()
	if err := Solve(context.Background(), solved, SolveOptions{Placement: true, Compress: true}); err != nil {
		t.Fatal(err)
	}
	fresh, err := layers.OpenDB(solvedDir, v)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	for _, k := range keys {
		if !flat.Has(k) {
			continue
		}
		a, err1 := os.ReadFile(solved.Path(k))
		b, err2 := os.ReadFile(form2.Path(k))
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("layer %v: solved with Compress (form %d), not the file compressed from flat (form %d)", k, solved.Form(k), form2.Form(k))
		}
		ff, err := flat.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		for name, db := range map[string]*layers.DB{"solving DB": solved, "DB opened afresh": fresh} {
			if st, err := db.Check(k); st != layers.StatusVerified {
				t.Errorf("%s: layer %v: %v, %v; want verified", name, k, st, err)
			}
			f, err := db.Layer(k)
			if err != nil {
				t.Fatalf("%s: layer %v: %v", name, k, err)
			}
			if string(f.Body()) != string(ff.Body()) {
				t.Errorf("%s: layer %v read in full is not the flat body", name, k)
			}
		}
	}
	t.Logf("%d values of %d layers (%d in form 2) the same in the four folders", slots, len(keys), n2)
	for _, k := range keys {
		if !form2.Has(k) {
			continue
		}
		bad, err := VerifyLayer(context.Background(), form2, k, 2, 10, nil)
		if err != nil || len(bad) != 0 {
			t.Errorf("verifying %v of form 2: %v, %d mismatches: %v", k, err, len(bad), bad)
		}
	}
}

// TestSolveHoldsDecoded solves the 4-stone game, all phases, compressed,
// in a DB whose bound of layers held decoded is 1 MiB: while a moving unit
// runs the bound is what the unit leaves of the memory budget (unitBound),
// with the Go runtime's memory limit at the budget where that is more than
// a quarter of it and unchanged where it is not; while the placement units
// run placementBound with the limit at the budget (hold.go), so that the
// layers one unit decoded are there for the next; afterwards the bound is
// 1 MiB and the limit as it was. The budget is chosen so that some moving
// units leave more than a quarter of it and some do not.
func TestSolveHoldsDecoded(t *testing.T) {
	testenv.SlowUnderRace(t, "solves the complete 4-stone game compressed")
	db, err := layers.OpenDB(t.TempDir(), muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const players = 1 << 20
	ix := db.Indexer()
	var least, most int64 = math.MaxInt64, 0
	for _, u := range Units(db.Variant(), SolveOptions{Placement: true}) {
		if !u.Placement {
			own := int64(unitCost(ix, u, 0, 0).MemBytes)
			least, most = min(least, own), max(most, own)
		}
	}
	budget := 2 * (least + most) // a quarter of it between the least and the most
	db.SetCacheBytes(players)
	limit := debug.SetMemoryLimit(-1)
	type seen struct{ bound, limit int64 }
	var mu sync.Mutex
	during := map[UnitName]seen{}
	var placement, memLimit atomic.Int64
	opts := SolveOptions{Placement: true, MemBytes: budget, Compress: true}
	opts.Progress = func(p Progress) {
		if p.Task.Unit.Placement {
			placement.Store(db.CacheLimit())
			memLimit.Store(debug.SetMemoryLimit(-1))
			return
		}
		mu.Lock()
		during[p.Task.Unit.Name] = seen{db.CacheLimit(), debug.SetMemoryLimit(-1)}
		mu.Unlock()
	}
	if err := Solve(context.Background(), db, opts); err != nil {
		t.Fatal(err)
	}
	var above, floor int
	for _, u := range Units(db.Variant(), opts) {
		got, ok := during[u.Name]
		if u.Placement || !ok {
			continue
		}
		want := seen{max(unitBound(unitCost(ix, u, 0, 0).MemBytes, opts), players), limit}
		if want.bound > budget/4 {
			want.limit = budget
			above++
		} else {
			floor++
		}
		if got != want {
			t.Errorf("during %s: bound %d, memory limit %d; want %d and %d", u.Name, got.bound, got.limit, want.bound, want.limit)
		}
	}
	if above == 0 || floor == 0 {
		t.Errorf("moving units above a quarter of the budget: %d, at it: %d; want some of each", above, floor)
	}
	want := placementBound(ix, db.Variant(), opts)
	if got := placement.Load(); got != want || want <= budget/4 {
		t.Errorf("during the placement units the bound was %d, want %d, more than a quarter of the budget", got, want)
	}
	if got := memLimit.Load(); got != budget {
		t.Errorf("during the placement units the memory limit was %d, want the budget, %d", got, budget)
	}
	if got := db.CacheLimit(); got != players {
		t.Errorf("after the solve the bound is %d, want %d again", got, players)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("after the solve the memory limit is %d, want %d again", got, limit)
	}
}
