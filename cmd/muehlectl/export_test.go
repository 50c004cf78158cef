package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/layers/pack"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro/retrotest"
)

// folderFiles returns every file under root by its relative path.
func folderFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		m[rel], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameFiles compares two folders file by file, byte for byte.
func sameFiles(t *testing.T, what, a, b string) {
	t.Helper()
	fa, fb := folderFiles(t, a), folderFiles(t, b)
	for name, x := range fa {
		if y, ok := fb[name]; !ok {
			t.Errorf("%s: %s missing after the import", what, name)
		} else if !bytes.Equal(x, y) {
			t.Errorf("%s: %s differs: got %d bytes, want the %d exported", what, name, len(y), len(x))
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			t.Errorf("%s: %s after the import was not exported", what, name)
		}
	}
}

// TestExportImport solves the whole game with 3 stones (and with 4, unless
// -short), exports it as one file and as parts (its placement layers
// dense in the package, as solved), imports each into a fresh folder,
// compares every file with the exported folder byte for byte (layers,
// block files, verification records, solve record) and runs verify on the
// copy; importing again installs nothing.
func TestExportImport(t *testing.T) {
	stones := []string{"3"}
	if testenv.Full() {
		stones = append(stones, "4")
	}
	for _, k := range stones {
		src := t.TempDir()
		if code, _, stderr := muehlectl("solve", "--db", src, "--stones", k, "--all-phases"); code != 0 {
			t.Fatalf("solve k=%s: exit %d: %s", k, code, stderr)
		}
		for _, parts := range []string{"", "64K"} {
			what := "k=" + k + " parts " + parts
			out := filepath.Join(t.TempDir(), "k"+k+".mpk")
			args := []string{"export", "--db", src, "--stones", k, "--out", out}
			if parts != "" {
				args = append(args, "--part-size", parts)
			}
			code, stdout, stderr := muehlectl(args...)
			if code != 0 || !strings.Contains(stdout, "wrote "+out) {
				t.Fatalf("%s: export: exit %d: %s %s", what, code, stdout, stderr)
			}
			if parts != "" {
				if names, _ := filepath.Glob(filepath.Join(out, "part-*.mpk")); len(names) < 2 && k == "4" {
					t.Errorf("%s: got %d parts, want several", what, len(names))
				}
			}
			p, err := pack.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			dense := 0
			for i := range p.Manifest.Layers {
				if l := &p.Manifest.Layers[i]; l.Dense() {
					dense++
				} else if !p.Manifest.Key(i).IsMoving() {
					t.Errorf("%s: placement layer %s in the package: not dense", what, l.Key)
				}
			}
			p.Close()
			if want := len(layers.PlacementLayers(p.Manifest.Variant().Stones)); dense != want {
				t.Errorf("%s: %d dense layers in the package, want the %d placement layers", what, dense, want)
			}
			dst := filepath.Join(t.TempDir(), "db")
			code, stdout, stderr = muehlectl("import", out, "--db", dst)
			if code != 0 || !strings.Contains(stdout, "0 already there") {
				t.Fatalf("%s: import: exit %d: %s %s", what, code, stdout, stderr)
			}
			sameFiles(t, what, src, dst)
			code, stdout, stderr = muehlectl("import", "--db", dst, out)
			if code != 0 || !strings.Contains(stdout, ": 0 layers installed") {
				t.Errorf("%s: importing again: exit %d: %s %s; want 0 layers installed", what, code, stdout, stderr)
			}
			sameFiles(t, what+" again", src, dst)
			code, stdout, stderr = muehlectl("verify", "--db", dst, "--stones", k, "--all-phases")
			if code != 0 || !strings.Contains(stdout, "layers verified") {
				t.Errorf("%s: verify of the copy: exit %d: %s %s", what, code, stdout, stderr)
			}
		}
	}
}

// TestExportImportDerived installs the checked-in package of format 4
// (layers/pack/testdata/k4-moving.mpk: the 4-stone game's moving layers,
// 4-3 left out), computing 4-3 from 3-4 and 3-3 (retro.DeriveLayer), and
// verifies the copy. Exported again, with --derive-bits 0 the package
// leaves out 4-3 and is smaller than the one of --derive=false; at the
// default bits it stores 4-3, whose values take little. The first,
// imported into a fresh folder, gives every file of the folder exported.
func TestExportImportDerived(t *testing.T) {
	testenv.SlowUnderRace(t, "imports, derives and exports the 4-stone game three times")
	src := t.TempDir()
	code, stdout, stderr := muehlectl("import", filepath.Join("..", "..", "layers", "pack", "testdata", "k4-moving.mpk"), "--db", src, "--verify")
	if code != 0 || !strings.Contains(stdout, "4 layers installed") || !strings.Contains(stdout, "layers verified") {
		t.Fatalf("import --verify of the example: exit %d: %s %s", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "k4.mpk")
	code, stdout, stderr = muehlectl("export", "--db", src, "--stones", "4", "--out", out, "--derive-bits", "0")
	if code != 0 || !strings.Contains(stdout, "1 layer of them left out, to be computed on import from the layers before them: 4-3\n") {
		t.Fatalf("export: exit %d: %s %s; want 4-3 left out", code, stdout, stderr)
	}
	code, stdout, stderr = muehlectl("export", "--db", src, "--stones", "4", "--out", filepath.Join(t.TempDir(), "k4.mpk"))
	if code != 0 || strings.Contains(stdout, "left out") {
		t.Fatalf("export at the default bits: exit %d: %s %s; want no layer left out (4-3 takes under 1 bit per slot stored)", code, stdout, stderr)
	}
	all := filepath.Join(t.TempDir(), "all.mpk")
	code, stdout, stderr = muehlectl("export", "--db", src, "--stones", "4", "--out", all, "--derive=false")
	if code != 0 || strings.Contains(stdout, "left out") {
		t.Fatalf("export --derive=false: exit %d: %s %s; want no layer left out", code, stdout, stderr)
	}
	small, _ := os.Stat(out)
	large, _ := os.Stat(all)
	if small == nil || large == nil || small.Size() >= large.Size() {
		t.Errorf("the package leaving out 4-3 is not smaller than the one storing it: %v, %v", small, large)
	}
	dst := filepath.Join(t.TempDir(), "db")
	code, stdout, stderr = muehlectl("import", out, "--db", dst)
	if code != 0 || !strings.Contains(stdout, "4 layers installed") {
		t.Fatalf("import: exit %d: %s %s", code, stdout, stderr)
	}
	sameFiles(t, "k=4 derived", src, dst)
}

// oldLayers rewrites every layer of the game of stones in the folder dir
// as the program before the layer format 2 wrote it (layers.DB.WriteOld:
// the slots in the order before, one byte per slot, the placement layers'
// unreachable classes Unused), verified.
func oldLayers(t *testing.T, dir string, stones int) {
	t.Helper()
	db, err := layers.OpenDB(dir, muehle.Standard.With(stones))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, k := range layers.Order(stones, true) {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		flat := make([]byte, f.Header().Slots)
		for i := range flat {
			flat[i] = byte(f.Value(uint64(i)))
		}
		if err := db.WriteOld(k, flat); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkVerifiedOld(k); err != nil {
			t.Fatal(err)
		}
	}
}

// layerFiles returns the layer and block files under root by their
// relative paths.
func layerFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	m := folderFiles(t, root)
	for name := range m {
		if !strings.HasSuffix(name, ".layer") && !strings.HasSuffix(name, ".blocks") {
			delete(m, name)
		}
	}
	return m
}

// TestOldLayers checks the packages of layers of the format before
// (layers.OldVersion). A folder of them is not exported: export says
// that `muehlectl convert` rewrites it first, and the folder converted
// goes through export and import byte for byte. The package of format 1
// checked in (layers/pack/testdata/k3-v1.mpk, the 3-stone game as the
// program before wrote it: layer files of the format before, placement
// layers of one byte per slot with holes, reach files) is installed and
// converted by import: its layer and block files are then those of a
// fresh solve, byte for byte, every layer verified, no reach file left,
// and verify passes; importing it again is refused, saying why.
func TestOldLayers(t *testing.T) {
	want := layerFiles(t, retrotest.Solved(t, 3).Dir()) // read, not written
	if len(want) != 14 {
		t.Fatalf("%d layer and block files solved, want 14", len(want))
	}

	old := t.TempDir()
	retrotest.CopyIn(t, old, 3).Close()
	oldLayers(t, old, 3)
	out := filepath.Join(t.TempDir(), "k3.mpk")
	code, _, stderr := muehlectl("export", "--db", old, "--stones", "3", "--out", out)
	if code != 1 || !strings.Contains(stderr, "muehlectl convert") {
		t.Errorf("export of layers of the format before: exit %d, %q; want exit 1 naming muehlectl convert", code, stderr)
	}
	if code, stdout, stderr := muehlectl("convert", "--db", old, "--stones", "3"); code != 0 || !strings.Contains(stdout, "7 layers converted") {
		t.Fatalf("convert: exit %d: %s %s", code, stdout, stderr)
	}
	if code, stdout, stderr := muehlectl("export", "--db", old, "--stones", "3", "--out", out); code != 0 {
		t.Fatalf("export after convert: exit %d: %s %s", code, stdout, stderr)
	}
	dst := filepath.Join(t.TempDir(), "db")
	if code, stdout, stderr := muehlectl("import", out, "--db", dst); code != 0 || !strings.Contains(stdout, "7 layers installed") {
		t.Fatalf("import: exit %d: %s %s", code, stdout, stderr)
	}
	sameFiles(t, "converted, exported, imported", old, dst)

	v1 := filepath.Join(t.TempDir(), "db")
	code, stdout, stderr := muehlectl("import", "../../layers/pack/testdata/k3-v1.mpk", "--db", v1)
	if code != 0 || !strings.Contains(stdout, "holds 7 layers of the format before") || !strings.Contains(stdout, "converted 7 layers") {
		t.Fatalf("import of a package of format 1: exit %d: %s %s; want 7 layers converted", code, stdout, stderr)
	}
	got := layerFiles(t, v1)
	for name, w := range want {
		if g, ok := got[name]; !ok || !bytes.Equal(g, w) {
			t.Errorf("package of format 1, imported and converted: %s differs from a fresh solve's (%d bytes, want %d)", name, len(g), len(w))
		}
	}
	if len(got) != len(want) {
		t.Errorf("package of format 1, imported and converted: %d layer and block files, want %d", len(got), len(want))
	}
	if names, _ := filepath.Glob(filepath.Join(v1, "k3", "*.reach")); len(names) > 0 {
		t.Errorf("reach files left after the conversion: %v", names)
	}
	db, err := layers.OpenDB(v1, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, k := range layers.Order(3, true) {
		if st, err := db.Check(k); st != layers.StatusVerified {
			t.Errorf("layer %s of the package of format 1, converted: %v (%v), want verified as exported", k, st, err)
		}
	}
	code, stdout, stderr = muehlectl("verify", "--db", v1, "--stones", "3", "--all-phases")
	if code != 0 || !strings.Contains(stdout, "layers verified") {
		t.Errorf("verify of the package of format 1, converted: exit %d: %s %s", code, stdout, stderr)
	}
	code, _, stderr = muehlectl("import", "../../layers/pack/testdata/k3-v1.mpk", "--db", v1)
	if code != 1 || !strings.Contains(stderr, "imported and converted before") || !strings.Contains(stderr, "--force") {
		t.Errorf("importing the package of format 1 again: exit %d, %q; want exit 1 saying its layers may be converted already, and --force", code, stderr)
	}
}

// TestImportRefuses checks the command's answers to bad packages and bad
// flags: exit 1 (2 for flags) with a sentence saying what is wrong, and
// nothing installed.
func TestImportRefuses(t *testing.T) {
	src := t.TempDir()
	retrotest.CopyIn(t, src, 3).Close()
	dir := t.TempDir()
	good := filepath.Join(dir, "k3.mpk")
	if code, _, stderr := muehlectl("export", "--db", src, "--stones", "3", "--out", good); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flipped := bytes.Clone(b)
	flipped[len(b)-100] ^= 1
	// The system's words for a missing file ("no such file or directory";
	// Windows has its own).
	_, missing := os.Stat(filepath.Join(dir, "none.mpk"))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"import", write("flipped.mpk", flipped)}, 1, "checksum"},
		{[]string{"import", write("short.mpk", b[:len(b)*2/3])}, 1, "truncated"},
		{[]string{"import", write("text.mpk", []byte("hello"))}, 1, "not a database package"},
		{[]string{"import", good, "--stones", "4"}, 1, "holds Nine Men's Morris with 3 stones, not Nine Men's Morris with 4 stones"},
		{[]string{"import", filepath.Join(dir, "none.mpk")}, 1, errors.Unwrap(missing).Error()},
		{[]string{"import"}, 2, "name the package FILE"},
		{[]string{"import", good, "--stones", "12"}, 2, "--stones 12"},
		{[]string{"import", good, "extra"}, 2, "unexpected arguments"},
		{[]string{"export", "--db", src, "--stones", "3"}, 2, "--out"},
		{[]string{"export", "--db", src, "--stones", "3", "--out", good}, 1, "exists already"},
		{[]string{"export", "--db", src, "--stones", "3", "--out", "x", "--level", "ultra"}, 2, "--level"},
		{[]string{"export", "--db", src, "--stones", "3", "--out", "x", "--part-size", "1K"}, 2, "--part-size"},
		{[]string{"export", "--db", src, "--stones", "3", "--out", "x", "--derive-bits", "-1"}, 2, "--derive-bits -1: want 0 to 8"},
		{[]string{"export", "--db", src, "--stones", "3", "--out", "x", "--layer", "4-4"}, 2, "not a layer of the 3-stone game"},
		{[]string{"export", "--db", src, "--stones", "4", "--out", filepath.Join(dir, "k4.mpk")}, 1, "no layer of Nine Men's Morris with 4 stones"},
	} {
		dst := filepath.Join(t.TempDir(), "db")
		args := tc.args
		if tc.args[0] == "import" {
			args = append(args, "--db", dst)
		}
		code, _, stderr := muehlectl(args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: got exit %d, %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dst, "k3")); err == nil {
			if names, _ := filepath.Glob(filepath.Join(dst, "k3", "*")); len(names) > 0 {
				t.Errorf("%v: a refused import left %d files", tc.args, len(names))
			}
		}
	}
}

// TestImportVerify imports the 3-stone game with --verify: every layer of
// the package re-derived and verified.
func TestImportVerify(t *testing.T) {
	src := t.TempDir()
	retrotest.CopyIn(t, src, 3).Close()
	out := filepath.Join(t.TempDir(), "k3.mpk")
	if code, _, stderr := muehlectl("export", "--db", src, "--stones", "3", "--out", out); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := muehlectl("import", out, "--db", t.TempDir(), "--verify")
	if code != 0 || !strings.Contains(stdout, "all 7 layers verified") || strings.Count(stdout, " ok ") != 7 {
		t.Errorf("import --verify: exit %d: %s %s; want 7 layers ok, all verified", code, stdout, stderr)
	}
}
