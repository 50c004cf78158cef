package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"muehle/layers"
	"muehle/layers/pack"
	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// examplePackage is the package of the whole 3-stone game that
// layers/pack's tests read.
const examplePackage = "../layers/pack/testdata/k3.mpk"

// importApp returns a window on a database in a new folder, and the
// folder.
func importApp(t *testing.T, q *gametest.Queue) (*App, string) {
	dir := t.TempDir()
	e := NewEngines(dir)
	u := New(test.NewTempApp(t), Options{Do: q.Do, Engines: e, Database: e})
	t.Cleanup(u.ctrl.Close)
	return u, dir
}

// TestImportPauseResume imports the example package through the import
// window, pauses it after the first layer (the installed layer is kept),
// resumes with the Resume button and checks that every layer is installed
// and verified, and that the menu offers Database ▸ Import….
func TestImportPauseResume(t *testing.T) {
	q := gametest.NewQueue()
	u, dir := importApp(t, q)
	found := false
	for _, it := range menuItems(u.Window().MainMenu()) {
		found = found || it.Label == "Import…"
	}
	if !found {
		t.Errorf("no menu item Import…")
	}
	u.imp = newDBImport(u)
	paused := false
	u.imp.testProgress = func(p pack.Progress) {
		if p.Phase == "install" && !paused {
			paused = true
			u.imp.mu.Lock()
			u.imp.cancel()
			u.imp.mu.Unlock()
		}
	}
	u.startImport(examplePackage, dir, false)
	q.Drain(t, 20*time.Second, func() bool { return u.imp.finished })
	if got := u.imp.status.Text; !strings.HasPrefix(got, "Paused; 1 layers installed") || u.imp.resume.Disabled() {
		t.Fatalf("after the pause: got %q (Resume enabled: %v), want Paused; 1 layers installed and Resume enabled", got, !u.imp.resume.Disabled())
	}
	if _, err := os.Stat(filepath.Join(dir, "k3", "m3-3.layer")); err != nil {
		t.Errorf("the layer installed before the pause is gone: %v", err)
	}
	test.Tap(u.imp.resume)
	q.Drain(t, 20*time.Second, func() bool { return u.imp.finished })
	if got, want := u.imp.status.Text, "Done: 6 layers installed, 1 were there already."; got != want {
		t.Errorf("after Resume: got %q, want %q", got, want)
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, k := range layers.Order(3, true) {
		if st, err := db.Check(k); st != layers.StatusVerified {
			t.Errorf("layer %s: %v (%v), want verified", k, st, err)
		}
	}
}

// TestImportOldPackage imports a package of format 1 (layer files of the
// format before) through the import window: its layers are installed and
// then converted; a pause during the conversion keeps the layers
// converted, and Resume converts the rest instead of importing again. At
// the end every layer is of this format and verified, the placement
// layers dense, and their reach files gone.
func TestImportOldPackage(t *testing.T) {
	q := gametest.NewQueue()
	u, dir := importApp(t, q)
	u.imp = newDBImport(u)
	paused := false
	u.imp.testConvert = func(k layers.Key, i int) {
		if i == 0 && !paused {
			paused = true
			u.imp.mu.Lock()
			u.imp.cancel()
			u.imp.mu.Unlock()
		}
	}
	u.startImport("../layers/pack/testdata/k3-v1.mpk", dir, false)
	q.Drain(t, 20*time.Second, func() bool { return u.imp.finished })
	if got := u.imp.status.Text; !strings.HasPrefix(got, "Paused while converting") || u.imp.resume.Disabled() {
		t.Fatalf("after the pause: got %q (Resume enabled: %v), want Paused while converting and Resume enabled", got, !u.imp.resume.Disabled())
	}
	test.Tap(u.imp.resume)
	q.Drain(t, 20*time.Second, func() bool { return u.imp.finished })
	if got, want := u.imp.status.Text, "Done; 6 layers of the format before converted."; got != want {
		t.Errorf("after Resume: got %q, want %q", got, want)
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, k := range layers.Order(3, true) {
		if st, err := db.Check(k); st != layers.StatusVerified {
			t.Errorf("layer %s: %v (%v), want verified", k, st, err)
		}
		if h, err := db.Header(k); err != nil || h.Dense() == k.IsMoving() {
			t.Errorf("layer %s: %+v, %v; want dense for a placement layer only", k, h, err)
		}
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "k3", "*.reach")); len(names) > 0 {
		t.Errorf("reach files left: %v", names)
	}
}

// TestImportRefusesDamage checks that a damaged package is reported in
// the window and installs nothing.
func TestImportRefusesDamage(t *testing.T) {
	q := gametest.NewQueue()
	u, dir := importApp(t, q)
	b, err := os.ReadFile(examplePackage)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-200] ^= 4
	bad := filepath.Join(t.TempDir(), "bad.mpk")
	os.WriteFile(bad, b, 0o644)
	u.startImport(bad, dir, false)
	q.Drain(t, 20*time.Second, func() bool { return u.imp.finished })
	if got := u.imp.status.Text; !strings.Contains(got, "Stopped") || !strings.Contains(got, "checksum") {
		t.Errorf("got %q, want Stopped and the checksum that failed", got)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "k3", "*")); len(names) > 0 {
		t.Errorf("a damaged package installed %v", names)
	}
}

// buttonIn returns the button labelled label in the dialog open on w, nil
// when there is none.
func buttonIn(w fyne.Window, label string) *widget.Button {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	var walk func(o fyne.CanvasObject) *widget.Button
	walk = func(o fyne.CanvasObject) *widget.Button {
		if b, ok := o.(*widget.Button); ok && b.Text == label {
			return b
		}
		var kids []fyne.CanvasObject
		switch c := o.(type) {
		case *fyne.Container:
			kids = c.Objects
		case fyne.Widget:
			kids = test.WidgetRenderer(c).Objects()
		}
		for _, k := range kids {
			if b := walk(k); b != nil {
				return b
			}
		}
		return nil
	}
	return walk(top)
}

// TestImportAsksBeforeReplacingVerified imports the example package into
// a folder whose layer 3-3 is verified and different: nothing is
// installed until the person agrees, then the package's 3-3 replaces it.
func TestImportAsksBeforeReplacingVerified(t *testing.T) {
	q := gametest.NewQueue()
	u, dir := importApp(t, q)
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	k := layers.Moving(3, 3)
	if err := db.Write(k, make([]byte, db.Indexer().Layer(k).Size())); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkVerified(k); err != nil {
		t.Fatal(err)
	}
	db.Close()
	u.startImport(examplePackage, dir, false)
	q.Drain(t, 20*time.Second, func() bool { return u.imp.finished })
	if got := u.imp.status.Text; !strings.HasPrefix(got, "Not imported") {
		t.Errorf("got %q, want Not imported", got)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "k3", "*.layer")); len(names) != 1 {
		t.Errorf("before the answer: layer files %v, want only the old 3-3", names)
	}
	yes := buttonIn(u.imp.win, "Yes")
	if yes == nil {
		t.Fatal("no question whether to replace the verified layer")
	}
	test.Tap(yes)
	q.Drain(t, 20*time.Second, func() bool { return u.imp.finished })
	if got, want := u.imp.status.Text, "Done: 7 layers installed, 0 were there already."; got != want {
		t.Errorf("after Yes: got %q, want %q", got, want)
	}
	db, err = layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if h, err := db.Header(k); err != nil || h.Won != 140621 {
		t.Errorf("3-3 after the import: %+v, %v; want the package's (140621 won)", h, err)
	}
}

// TestImportLasker: Database ▸ Import… installs a package of Lasker Morris
// into that game's folder, every layer byte for byte the exported one; the
// window needs nothing of its own for another game (the package names it).
func TestImportLasker(t *testing.T) {
	src := solvedLasker3.engines(t).Dir()
	v := muehle.Lasker.With(3)
	from, err := layers.OpenDB(src, v)
	if err != nil {
		t.Fatal(err)
	}
	defer from.Close()
	pkg := filepath.Join(t.TempDir(), "lasker.mpk")
	if _, err := pack.Export(context.Background(), from, layers.OrderIn(v, true), pack.ExportOptions{Out: pkg}); err != nil {
		t.Fatal(err)
	}
	q := gametest.NewQueue()
	u, dir := importApp(t, q)
	u.imp = newDBImport(u)
	u.startImport(pkg, dir, false)
	q.Drain(t, 20*time.Second, func() bool { return u.imp.finished })
	if got, want := u.imp.status.Text, "Done: 16 layers installed, 0 were there already."; got != want {
		t.Errorf("after the import: got %q, want %q", got, want)
	}
	db, err := layers.OpenDB(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, k := range layers.OrderIn(v, true) {
		want, err := os.ReadFile(from.Path(k))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(db.Path(k)); err != nil || string(got) != string(want) {
			t.Errorf("layer %s in %s: not the exported file (%v)", k, db.GameDir(), err)
		}
	}
}

// TestImportDerived: Database ▸ Import… installs the package of format 4
// that layers/pack's tests read (the 4-stone game's moving layers, 4-3
// left out), computing 4-3 from 3-4 and 3-3; import checks it against the
// manifest, and it is verified afterwards.
func TestImportDerived(t *testing.T) {
	q := gametest.NewQueue()
	u, dir := importApp(t, q)
	u.imp = newDBImport(u)
	u.startImport("../layers/pack/testdata/k4-moving.mpk", dir, false)
	q.Drain(t, 20*time.Second, func() bool { return u.imp.finished })
	if got, want := u.imp.status.Text, "Done: 4 layers installed, 0 were there already."; got != want {
		t.Errorf("after the import: got %q, want %q", got, want)
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if st, err := db.Check(layers.Moving(4, 3)); st != layers.StatusVerified {
		t.Errorf("4-3 after the import: %v (%v), want verified", st, err)
	}
}
