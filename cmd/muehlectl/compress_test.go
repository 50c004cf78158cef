package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro/retrotest"
)

// copyTree copies the folder from into the new folder to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// TestCompressCommand compresses a copy of the complete 4-stone game (with
// the temporary file of a killed run in it, which goes) and compares
// every position of every layer with the folder as solved, runs verify on
// the compressed folder, and compresses again (nothing left to do).
func TestCompressCommand(t *testing.T) {
	testenv.SlowUnderRace(t, "solves and compresses the complete 4-stone game")
	flat := retrotest.Solved(t, 4)
	dir := t.TempDir()
	copyTree(t, flat.Dir(), dir)
	// A run killed while writing a layer left its temporary file.
	stale := filepath.Join(dir, "k4", "m3-4.layer.z.tmp")
	if err := os.WriteFile(stale, []byte("MUEHLEDZ torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCmd(t, "compress", "--db", dir, "--stones", "4", "--sample", "200")
	if code != 0 || !strings.Contains(out, "layers compressed") {
		t.Fatalf("compress: status %d, output %q, stderr %q", code, out, errs)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there (%v)", err)
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	compareAll(t, flat, db)
	if out, errs, code := runCmd(t, "verify", "--db", dir, "--stones", "4"); code != 0 {
		t.Errorf("verify: status %d, output %q, stderr %q", code, out, errs)
	}
	out, _, code = runCmd(t, "compress", "--db", dir, "--stones", "4")
	if code != 0 || !strings.Contains(out, "\n0 layers compressed") {
		t.Errorf("compress again: status %d, output %q; want nothing compressed", code, out)
	}
}

// TestSolveCompressed solves the complete 4-stone game with --compress
// and compares every position of every layer with the game solved
// without it; then runs solve --compress on a copy of the folder solved
// flat (a run that compressed nothing yet), which compresses it.
func TestSolveCompressed(t *testing.T) {
	testenv.SlowUnderRace(t, "solves the complete 4-stone game twice")
	flat := retrotest.Solved(t, 4)
	dir := t.TempDir()
	out, errs, code := runCmd(t, "solve", "--stones", "4", "--all-phases", "--compress", "--db", dir)
	if code != 0 {
		t.Fatalf("solve --compress: status %d, output %q, stderr %q", code, out, errs)
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	compareAll(t, flat, db)

	again := t.TempDir()
	copyTree(t, flat.Dir(), again)
	if out, errs, code := runCmd(t, "solve", "--stones", "4", "--all-phases", "--compress", "--db", again); code != 0 {
		t.Fatalf("solve --compress of a solved folder: status %d, output %q, stderr %q", code, out, errs)
	}
	db2, err := layers.OpenDB(again, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	compareAll(t, flat, db2)
}

// compareAll compares every position of every layer of flat with db and
// returns how many layers of db are compressed.
func compareAll(t *testing.T, flat, db *layers.DB) int {
	t.Helper()
	compressed := 0
	for _, k := range layers.OrderIn(db.Variant(), true) {
		if !flat.Has(k) {
			continue
		}
		f, err := db.Layer(k)
		if err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		if f.Compressed() {
			compressed++
		}
		l := db.Indexer().Layer(k)
		for i := range l.Size() {
			p, ok := l.Position(i)
			if !ok {
				continue
			}
			p.Game = db.Variant().Game
			want, werr := flat.Probe(p)
			got, err := db.Probe(p)
			if got != want || (err == nil) != (werr == nil) {
				t.Fatalf("%v slot %d: compressed %v (%v), flat %v (%v)", k, i, got, err, want, werr)
			}
		}
	}
	if compressed == 0 {
		t.Fatal("no layer compressed")
	}
	return compressed
}

// TestCompressGames compresses Twelve Men's Morris, Lasker Morris and Six
// Men's Morris (a board of its own index) of 3 stones (4 without -short)
// and compares every position of every layer with the folder as solved;
// verify passes on the compressed folder.
func TestCompressGames(t *testing.T) {
	testenv.SlowUnderRace(t, "solves and compresses three games")
	stones := "3"
	if testenv.Full() {
		stones = "4"
	}
	for _, game := range []string{"twelve", "lasker", "six"} {
		flatDir, dir := t.TempDir(), t.TempDir()
		if out, errs, code := runCmd(t, "solve", "--game", game, "--stones", stones, "--all-phases", "--db", flatDir); code != 0 {
			t.Fatalf("%s: solve: status %d, output %q, stderr %q", game, code, out, errs)
		}
		copyTree(t, flatDir, dir)
		if out, errs, code := runCmd(t, "compress", "--game", game, "--stones", stones, "--db", dir); code != 0 || !strings.Contains(out, "layers compressed") {
			t.Fatalf("%s: compress: status %d, output %q, stderr %q", game, code, out, errs)
		}
		v, err := variantFlags(game, int(stones[0]-'0'))
		if err != nil {
			t.Fatal(err)
		}
		flat, err := layers.OpenDB(flatDir, v)
		if err != nil {
			t.Fatal(err)
		}
		db, err := layers.OpenDB(dir, v)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d layers compressed", game, compareAll(t, flat, db))
		flat.Close()
		db.Close()
		if out, errs, code := runCmd(t, "verify", "--game", game, "--stones", stones, "--db", dir); code != 0 {
			t.Errorf("%s: verify: status %d, output %q, stderr %q", game, code, out, errs)
		}
	}
}
