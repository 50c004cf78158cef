package layers

import (
	"os"
	"path/filepath"
	"testing"

	"muehle/muehle"
)

// TestGameFolder: a folder named as a game's folder is one (k9 of the
// standard game, twelve/k5 of Twelve Men's Morris), but not when it holds
// that folder itself (a database folder named k9); a folder of another
// name is one when it holds layer files, named by their headers.
func TestGameFolder(t *testing.T) {
	root := t.TempDir()
	twelve := muehle.Twelve.With(5)
	for _, tc := range []struct {
		dir  string
		v    muehle.Variant
		root string
		ok   bool
	}{
		{filepath.Join(root, "k9"), muehle.NineMensMorris, root, true},
		{filepath.Join(root, "k6") + "/", muehle.Standard.With(6), root, true},
		{filepath.Join(root, "twelve", "k5"), twelve, root, true},
		{filepath.Join(root, "k2"), muehle.Variant{}, "", false},
		{filepath.Join(root, "db"), muehle.Variant{}, "", false},
		{filepath.Join(root, "x9"), muehle.Variant{}, "", false},
	} {
		v, r, ok := GameFolder(tc.dir)
		if ok != tc.ok || ok && (v != tc.v || r != tc.root) {
			t.Errorf("%s: got %v, %q, %v; want %v, %q, %v", tc.dir, v, r, ok, tc.v, tc.root, tc.ok)
		}
	}
	named := filepath.Join(root, "k9")
	os.MkdirAll(filepath.Join(named, "k9"), 0o755)
	if v, r, ok := GameFolder(named); ok {
		t.Errorf("a database folder named k9: got %v, %q, true; want no game folder", v, r)
	}
	loose := filepath.Join(root, "mine")
	db, err := OpenDB(root, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.Empty() {
		t.Errorf("Empty of a new folder: false, want true")
	}
	if err := db.Write(Moving(3, 3), make([]byte, db.Indexer().Layer(Moving(3, 3)).Size())); err != nil {
		t.Fatal(err)
	}
	if db.Empty() {
		t.Errorf("Empty with layer 3-3 written: true, want false")
	}
	os.MkdirAll(loose, 0o755)
	b, _ := os.ReadFile(db.Path(Moving(3, 3)))
	os.WriteFile(filepath.Join(loose, "m3-3.layer"), b, 0o644)
	if v, r, ok := GameFolder(loose); !ok || v != muehle.Standard.With(3) || r != "" {
		t.Errorf("layer files in a folder of another name: got %v, %q, %v; want the 3-stone game, no root", v, r, ok)
	}
	if v, r, ok := GameFolder(db.GameDir()); !ok || v != muehle.Standard.With(3) || r != root {
		t.Errorf("the folder k3 with its layer: got %v, %q, %v; want the 3-stone game in %s", v, r, ok, root)
	}
}
