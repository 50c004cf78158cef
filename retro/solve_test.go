package retro

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
)

func openDB(t *testing.T, dir string, k int) *layers.DB {
	t.Helper()
	return openVariant(t, dir, muehle.Standard.With(k))
}

// openVariant opens the database of variant v in dir, closed when the
// test ends.
func openVariant(t *testing.T, dir string, v muehle.Variant) *layers.DB {
	t.Helper()
	db, err := layers.OpenDB(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func solve(t *testing.T, db *layers.DB, opts SolveOptions) {
	t.Helper()
	if err := Solve(context.Background(), db, opts); err != nil {
		t.Fatalf("Solve(%+v): %v", opts, err)
	}
}

// TestPublishedStatistics solves the layers with at most seven stones and
// compares them with the statistics published by Gasser's reproductions and
// the Malom database (docs/rules.md).
func TestPublishedStatistics(t *testing.T) {
	testenv.SlowUnderRace(t, "solves 3-4 + 4-3")
	db := openDB(t, t.TempDir(), 9)
	solve(t, db, SolveOptions{MaxStones: 7})
	want := []struct {
		key               string
		won, lost, drawn  uint64
		deepWin, deepLoss int
	}{
		{"3-3", 140621, 28736, 269, 25, 26},
		{"3-4", 102281, 0, 658117, 33, 0},
		{"4-3", 75397, 3095, 681906, 1, 32},
	}
	for _, w := range want {
		k, err := layers.ParseKey(w.key)
		if err != nil {
			t.Fatal(err)
		}
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		h := f.Header()
		if h.Won != w.won || h.Lost != w.lost || h.Drawn != w.drawn {
			t.Errorf("layer %s: got won/lost/drawn %d/%d/%d, want %d/%d/%d", w.key, h.Won, h.Lost, h.Drawn, w.won, w.lost, w.drawn)
		}
		if h.DeepestWin != w.deepWin || (w.lost > 0 && h.DeepestLoss != w.deepLoss) {
			t.Errorf("layer %s: got deepest win/loss %d/%d, want %d/%d", w.key, h.DeepestWin, h.DeepestLoss, w.deepWin, w.deepLoss)
		}
	}
}

// TestReference compares every raw position of the k=3 game (layer 3-3)
// with the slow reference solver, and the raw counts with docs/rules.md.
func TestReference(t *testing.T) {
	testenv.SlowUnderRace(t, "the reference solver takes minutes there")
	counts := compareWithReference(t, muehle.Standard.With(3))
	if counts[layers.Win] != 2232160 || counts[layers.Loss] != 455648 || counts[layers.Draw] != 4112 {
		t.Errorf("raw 3-3 counts: got won %d lost %d drawn %d, want 2232160 455648 4112",
			counts[layers.Win], counts[layers.Loss], counts[layers.Draw])
	}
}

// TestReferenceTwelve compares every raw position of Twelve Men's Morris
// with three stones a side with the reference: the diagonals' moves and
// mills.
func TestReferenceTwelve(t *testing.T) {
	testenv.SlowUnderRace(t, "the reference solver takes minutes there")
	counts := compareWithReference(t, muehle.Twelve.With(3))
	t.Logf("twelve, raw 3-3: won %d lost %d drawn %d", counts[layers.Win], counts[layers.Loss], counts[layers.Draw])
}

// TestReferenceLasker compares every raw position of Lasker Morris with
// three stones a side, in every layer (with stones in hand or not), with
// the reference: placing or moving from the first turn.
func TestReferenceLasker(t *testing.T) {
	testenv.SlowUnderRace(t, "the reference solver takes minutes there")
	counts := compareWithReference(t, muehle.Lasker.With(3))
	t.Logf("lasker, raw 3-3: won %d lost %d drawn %d", counts[layers.Win], counts[layers.Loss], counts[layers.Draw])
}

// compareWithReference solves the layers of v the reference solves
// (referenceKeys) and compares every raw position with the reference; it
// returns the reference's outcomes of layer 3-3.
//
// With MUEHLE_REFERENCE_DB set it solves nothing and compares the layers
// of that database folder, of the same game with MUEHLE_REFERENCE_STONES
// stones a side (v's when unset): a layer is the same whatever the stones
// a side where its every position is (a moving layer; in a game whose
// phases mix, every layer), so the small game's reference checks those
// layers of a large game's folder position by position:
//
//	MUEHLE_REFERENCE_DB=~/.local/share/muehle MUEHLE_REFERENCE_STONES=10 \
//	  go test -run 'TestReferenceLasker$|TestReferenceFourStonesLasker' -v ./retro/
func compareWithReference(t *testing.T, v muehle.Variant) map[layers.Outcome]int {
	var db *layers.DB
	if dir := os.Getenv("MUEHLE_REFERENCE_DB"); dir != "" {
		w := v
		if s := os.Getenv("MUEHLE_REFERENCE_STONES"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("MUEHLE_REFERENCE_STONES: %v", err)
			}
			w = v.Game.With(n)
		}
		db = openVariant(t, dir, w)
		t.Logf("comparing the layers of %s (%d stones a side)", db.GameDir(), w.Stones)
	} else {
		db = openVariant(t, t.TempDir(), v)
		solve(t, db, SolveOptions{Placement: v.Rules().Mixed})
	}
	ref, n := referenceTable(v)
	t.Logf("reference: %d raw positions in %d layers", n, len(ref.keys))
	counts := map[layers.Outcome]int{}
	bad := 0
	for _, k := range ref.keys {
		forEachRawIn(v.Game, k, func(p muehle.Position) {
			want := ref.get(p)
			if k == layers.Moving(3, 3) {
				counts[want.Outcome()]++
			}
			got, err := db.Probe(p)
			if err != nil {
				t.Fatalf("probe %v: %v", p, err)
			}
			if got != want && bad < 10 {
				bad++
				t.Errorf("%v: got %v, want %v", p, got, want)
			}
		})
	}
	return counts
}

// TestResume interrupts a run after its first unit and checks that a second
// run completes the database with files identical to an uninterrupted run.
func TestResume(t *testing.T) {
	testenv.SlowUnderRace(t, "solves 3-4 + 4-3 twice")
	opts := SolveOptions{MaxStones: 7} // 3-3, then the pair 3-4 + 4-3
	whole := openDB(t, t.TempDir(), 4)
	solve(t, whole, opts)

	dir := t.TempDir()
	db := openDB(t, dir, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cut := opts
	cut.Progress = func(p Progress) {
		if p.Step == 2 {
			cancel()
		}
	}
	if err := Solve(ctx, db, cut); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: got %v, want context.Canceled", err)
	}
	if got := Plan(db, opts); len(got) != 1 || !got[0].Compute {
		t.Fatalf("interrupted run: left %+v, want the second unit to compute", got)
	}
	solve(t, db, opts)
	if got := Plan(db, opts); len(got) != 0 {
		t.Fatalf("after resuming: left %+v", got)
	}
	for _, k := range []layers.Key{layers.Moving(3, 3), layers.Moving(3, 4), layers.Moving(4, 3)} {
		a, err := os.ReadFile(whole.Path(k))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(db.Path(k))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("layer %s differs between the interrupted and the whole run", k)
		}
	}
	if _, err := os.Stat(dir + "/tmp"); !os.IsNotExist(err) {
		t.Errorf("work folder left behind: stat: %v", err)
	}
}

// TestVerifyFindsWrongValue (which also runs the parallel solver on 3-3
// under the race detector in the -short suite) changes one stored value and expects the
// verifier to report exactly that slot.
func TestVerifyFindsWrongValue(t *testing.T) {
	db := openDB(t, t.TempDir(), 3)
	solve(t, db, SolveOptions{})
	k := layers.Moving(3, 3)
	if bad, err := VerifyLayer(context.Background(), db, k, 0, 10, nil); err != nil || len(bad) != 0 {
		t.Fatalf("fresh layer: got %v, %v; want no mismatches", bad, err)
	}
	f, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	ix := db.Indexer().Layer(k)
	body := make([]byte, ix.Size())
	var target uint64
	found := false
	for i := range body {
		body[i] = byte(f.Value(uint64(i)))
		if !found && f.Value(uint64(i)).Outcome() == layers.Win && f.Value(uint64(i)).Depth() > 1 {
			target, found = uint64(i), true
		}
	}
	body[target] = byte(layers.Drawn)
	if err := db.Write(k, body); err != nil {
		t.Fatal(err)
	}
	bad, err := VerifyLayer(context.Background(), db, k, 0, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The changed slot is wrong; its parents may be wrong too, through it.
	hit := false
	for _, m := range bad {
		if m.Index == target {
			hit = true
		}
	}
	if !hit {
		t.Errorf("verifier missed the changed slot %d; reported %v", target, bad)
	}
}

// TestSolveSpillsState solves with a memory budget below the state of every
// pair, so that the state lives in mapped files, and expects the same
// files as a solve in memory.
func TestSolveSpillsState(t *testing.T) {
	inMemory := openDB(t, t.TempDir(), 3)
	solve(t, inMemory, SolveOptions{})
	spilled := openDB(t, t.TempDir(), 3)
	solve(t, spilled, SolveOptions{MemBytes: 1})
	k := layers.Moving(3, 3)
	a, err := os.ReadFile(inMemory.Path(k))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(spilled.Path(k))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("layer 3-3 differs between the in-memory and the spilled solve")
	}
}

// TestReferenceThreeMensMorris solves Three Men's Morris on both 3×3
// boards, moving and placement, and compares every position with the
// reference solvers: the small-board index (layers/small.go) end to end.
func TestReferenceThreeMensMorris(t *testing.T) {
	for _, g := range []muehle.GameID{muehle.Three, muehle.ThreePlain} {
		t.Run(g.String(), func(t *testing.T) {
			v := g.With(3)
			compareWithReference(t, v)
			comparePlacement(t, v)
		})
	}
}
