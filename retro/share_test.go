package retro

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"muehle/layers"
	"muehle/layers/layerstest"
	"muehle/muehle"
	"muehle/muehle/testenv"
)

// TestSolveShared solves the placement layers of the k=4 game with two
// solvers on one folder at once, each with its own DB. The first to start
// a unit holds it until the other has started one too, so they must share;
// the test checks that no unit is computed twice, none is left out, and the
// files are those of a single solver.
func TestSolveShared(t *testing.T) {
	testenv.SlowUnderRace(t, "solves the k=4 game twice")
	opts := SolveOptions{Placement: true, SkipVerify: true, Workers: 1}
	ref := openDB(t, t.TempDir(), 4)
	solve(t, ref, opts)
	dir := t.TempDir()
	db := openDB(t, dir, 4)
	for _, u := range Units(muehle.Standard.With(4), SolveOptions{}) { // the moving layers, from the reference
		for _, k := range u.Keys {
			f, err := ref.Layer(k)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Write(k, f.Body()); err != nil {
				t.Fatal(err)
			}
		}
	}
	var wg sync.WaitGroup
	did := make([]map[UnitName]bool, 2)
	errs := make([]error, 2)
	started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	var once [2]sync.Once
	var first sync.Once
	for i := range did {
		did[i] = map[UnitName]bool{}
		o := opts
		o.WaitLock = true
		var mu sync.Mutex
		o.Progress = func(p Progress) {
			mu.Lock()
			did[i][p.Unit] = true
			mu.Unlock()
			once[i].Do(func() { close(started[i]) })
			first.Do(func() { // hold this unit until the other solver has one
				select {
				case <-started[1-i]:
				case <-time.After(30 * time.Second):
					t.Errorf("solver %d: the other solver started no unit while this one held %s", i, p.Layer)
				}
			})
		}
		db := openDB(t, dir, 4)
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = Solve(context.Background(), db, o)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("solver %d: %v", i, err)
		}
	}
	for _, u := range Units(muehle.Standard.With(4), opts) {
		if n := btoi(did[0][u.Name]) + btoi(did[1][u.Name]); n != btoi(u.Placement) {
			t.Errorf("unit %s: done by %d solvers, want %d", u.Name, n, btoi(u.Placement))
		}
	}
	t.Logf("solver 0 did %d units, solver 1 did %d", len(did[0]), len(did[1]))
	for _, k := range Layers(ref, opts) {
		want, err1 := os.ReadFile(ref.Path(k))
		got, err2 := os.ReadFile(db.Path(k))
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Errorf("layer %s differs from the single solver's (%v, %v)", k, err1, err2)
		}
	}
	noLeftovers(t, dir)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSolveTakesOverDeadClaim leaves what a solver killed while writing
// layer 3-3 leaves behind (its claim, its work folder, a half-written
// layer file) and checks that the next solver takes the claim over, redoes
// the unit and ends with the files of an uninterrupted solve.
func TestSolveTakesOverDeadClaim(t *testing.T) {
	ref, _ := reference(t)
	for _, tc := range []struct {
		name string
		info func(host string) layers.LockInfo
	}{
		{"dead process on this host", func(host string) layers.LockInfo {
			return layers.LockInfo{Host: host, PID: layerstest.DeadPID(t), Start: time.Now(), Heartbeat: time.Now()}
		}},
		{"silent process on another host", func(host string) layers.LockInfo {
			old := time.Now().Add(-layers.LockStale - time.Minute)
			return layers.LockInfo{Host: host + "-other", PID: os.Getpid(), Start: old, Heartbeat: old}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := openDB(t, dir, 3)
			host, _ := os.Hostname()
			b, _ := json.Marshal(tc.info(host))
			k := layers.Moving(3, 3)
			for path, data := range map[string][]byte{
				db.ClaimPath("m3-3"): b,
				db.Path(k) + ".tmp":  []byte("half a layer"),
				filepath.Join(dir, "tmp", "pair-3-3", "state-3-3"): []byte("half a state"),
			} {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			solve(t, db, faultOpts())
			sameFiles(t, ref, db, true)
			noLeftovers(t, dir)
		})
	}
}

// TestSolveUnit computes the k=3 game unit by unit, as jobs of a batch
// system do: a unit whose dependency is missing, damaged or unverified is
// refused; a complete unit is left alone; the result is the files of one
// solve.
func TestSolveUnit(t *testing.T) {
	ref, _ := reference(t)
	dir := t.TempDir()
	opts := SolveOptions{Workers: 2}
	ctx := context.Background()
	units := Units(muehle.Standard.With(3), faultOpts())
	first := UnitName("m3-3")
	if len(units) > 1 {
		first = units[1].Name // a placement layer that reads 3-3
	}
	refuse := func(why string) {
		t.Helper()
		if first == "m3-3" {
			return // under the race detector: no unit with a dependency
		}
		db := openDB(t, dir, 3) // a new DB: the old one may hold 3-3 open
		did, err := SolveUnit(ctx, db, string(first), opts)
		if !errors.Is(err, ErrNotSolved) || !strings.Contains(err.Error(), "3-3") || !strings.Contains(err.Error(), why) || did {
			t.Errorf("SolveUnit(%s) with 3-3 %s: got %v, %v, want ErrNotSolved naming 3-3 %s", first, why, did, err, why)
		}
		if db.Has(units[1].Keys[0]) {
			t.Errorf("SolveUnit(%s) with 3-3 %s wrote its layer", first, why)
		}
	}
	refuse("missing")

	db := openDB(t, dir, 3)
	if did, err := SolveUnit(ctx, db, "3-3", opts); err != nil || !did {
		t.Fatalf("SolveUnit(3-3): got %v, %v, want done", did, err)
	}
	k := layers.Moving(3, 3)
	before, err := os.Stat(db.Path(k))
	if err != nil {
		t.Fatal(err)
	}
	if did, err := SolveUnit(ctx, db, "m3-3", opts); err != nil || did {
		t.Errorf("SolveUnit(m3-3) again: got %v, %v, want nothing done", did, err)
	}
	if after, err := os.Stat(db.Path(k)); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("SolveUnit(m3-3) again rewrote the layer (%v)", err)
	}

	record := strings.TrimSuffix(db.Path(k), ".layer") + ".verified"
	saved, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(record)
	refuse("not verified")
	if err := os.WriteFile(record, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	layer, err := os.ReadFile(db.Path(k))
	if err != nil {
		t.Fatal(err)
	}
	flip(t, db.Path(k), -1)
	refuse("damaged")
	if err := os.WriteFile(db.Path(k), layer, 0o644); err != nil {
		t.Fatal(err)
	}

	for _, u := range units {
		db := openDB(t, dir, 3)
		if did, err := SolveUnit(ctx, db, string(u.Name), opts); err != nil || did == (u.Name == "m3-3") {
			t.Errorf("SolveUnit(%s): got %v, %v, want done (m3-3: nothing to do)", u.Name, did, err)
		}
	}
	if _, err := SolveUnit(ctx, db, "m4-4", opts); err == nil {
		t.Errorf("SolveUnit(m4-4) in the k=3 game: got no error")
	}
	sameFiles(t, ref, openDB(t, dir, 3), true)
	noLeftovers(t, dir)
}
