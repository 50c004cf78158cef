package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// TestDBGameFolder: --db naming the folder of a game's layers (k3 in a
// database folder) is taken as the database folder above it, with the
// folder's stones when --stones does not name them; a solve there finds
// the layers computed and makes no k3/k3. Other stones asked for, and
// layer files in a folder not named for their game, are refused with the
// folder to give; a database folder that happens to be named k3 (it holds
// a folder k3) is a database folder.
func TestDBGameFolder(t *testing.T) {
	dir := solvedK3(t)
	game := filepath.Join(dir, "k3")
	for _, args := range [][]string{{"solve", "--db", game}, {"solve", "--db", game + "/", "--stones", "3"}} {
		code, out, errs := muehlectl(args...)
		if code != 0 || !strings.Contains(out, "database "+dir+" (k=3)") || !strings.Contains(out, "nothing to do") {
			t.Errorf("%v: exit %d, output %q, stderr %q; want the database %s, nothing to do", args, code, out, errs, dir)
		}
	}
	if _, err := os.Stat(filepath.Join(game, "k3")); !os.IsNotExist(err) {
		t.Errorf("a folder k3/k3 was made (%v)", err)
	}

	code, _, errs := muehlectl("solve", "--db", game, "--stones", "4")
	if want := "--db " + game + " is the folder of the layers of Nine Men's Morris with 3 stones, not a database folder: give the database folder that holds it, --db " + dir; code == 0 || !strings.Contains(errs, want) {
		t.Errorf("other stones: exit %d, stderr %q; want it to say %q", code, errs, want)
	}

	loose := filepath.Join(t.TempDir(), "mine")
	copyTree(t, game, loose)
	code, _, errs = muehlectl("verify", "--db", loose)
	if want := "holds the layer files of Nine Men's Morris with 3 stones itself, where a database folder holds them in a folder of its own (k3)"; code == 0 || !strings.Contains(errs, want) {
		t.Errorf("layer files in a folder of another name: exit %d, stderr %q; want it to say %q", code, errs, want)
	}

	named := filepath.Join(t.TempDir(), "k3")
	copyTree(t, dir, named)
	code, out, errs := muehlectl("solve", "--db", named, "--stones", "3")
	if code != 0 || !strings.Contains(out, "database "+named+" (k=3)") || !strings.Contains(out, "nothing to do") {
		t.Errorf("a database folder named k3: exit %d, output %q, stderr %q", code, out, errs)
	}

	// import takes --db of its own: the same.
	pkg := filepath.Join(t.TempDir(), "k3.mpk")
	if code, out, errs := muehlectl("export", "--db", dir, "--stones", "3", "--out", pkg); code != 0 {
		t.Fatalf("export: exit %d, output %q, stderr %q", code, out, errs)
	}
	other := t.TempDir()
	if code, out, errs := muehlectl("import", pkg, "--db", filepath.Join(other, "k3")); code != 0 || !strings.Contains(out, "imported into "+other+":") {
		t.Errorf("import into a folder k3: exit %d, output %q, stderr %q; want it imported into %s", code, out, errs, other)
	}
	if _, err := os.Stat(filepath.Join(other, "k3", "m3-3.layer")); err != nil {
		t.Errorf("after the import: %v", err)
	}
	if code, _, errs := muehlectl("import", pkg, "--db", filepath.Join(other, "k4")); code == 0 || !strings.Contains(errs, "give the database folder that holds it, --db "+other) {
		t.Errorf("import into a folder k4: exit %d, stderr %q", code, errs)
	}
}

// TestCacheFlag: --mem of the commands that read layers reaches the
// database they open (layers.DB.CacheLimit), 0 leaving the default; a
// negative --mem is refused; serve's --mem is one bound for all the games
// it serves, split evenly; and every reading command lists --mem.
func TestCacheFlag(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want int64
	}{
		{[]string{"--db", dir, "--stones", "3", "--mem", "3"}, 3 << 20},
		{[]string{"--db", dir, "--stones", "3"}, layers.DefaultCacheBytes},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		dbf := addDBFlags(fs).withCache()
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if err := dbf.check(); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		db, err := dbf.openVerified()
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got := db.CacheLimit(); got != c.want {
			t.Errorf("%v: cache limit %d, want %d", c.args, got, c.want)
		}
		db.Close()
	}

	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	mem := addSharedCacheFlag(fs)
	if err := fs.Parse([]string{"--mem", "10"}); err != nil {
		t.Fatal(err)
	}
	var dbs []*layers.DB
	for _, k := range []int{3, 4} {
		db, err := layers.OpenDB(dir, muehle.NineMensMorris.Game.With(k))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs = append(dbs, db)
	}
	mem.applyShared(dbs)
	for i, db := range dbs {
		if got, want := db.CacheLimit(), int64(5<<20); got != want {
			t.Errorf("serve --mem 10, database %d of 2: cache limit %d, want %d", i, got, want)
		}
	}

	for _, cmd := range []string{"query", "serve", "uci", "review", "train", "tree", "play", "match", "placement"} {
		if _, _, errs := muehlectl(cmd, "-h"); !strings.Contains(errs, "-mem MiB") {
			t.Errorf("%s -h lists no --mem MiB:\n%s", cmd, errs)
		}
	}
	code, _, errs := muehlectl("query", "--db", dir, "--position", "........................ w 3 3", "--mem", "-1")
	if code == 0 || !strings.Contains(errs, "--mem -1: want 0 or more MiB") {
		t.Errorf("query --mem -1: exit %d, stderr %q; want it refused", code, errs)
	}
}
