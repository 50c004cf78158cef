package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/ui/game/gametest"
)

// flatFolder returns a copy of solved43's folder: 3-3, 3-4 and 4-3 of
// Nine Men's Morris, verified, lying flat.
func flatFolder(t *testing.T) (string, []layers.Key) {
	t.Helper()
	src, err := solved43.engines(t).database()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sub := filepath.Join(dir, filepath.Base(src.GameDir()))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(src.GameDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src.GameDir(), e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, []layers.Key{layers.Moving(3, 3), layers.Moving(3, 4), layers.Moving(4, 3)}
}

// TestCompressLayers opens a folder of three verified layers lying flat:
// the tab offers Compress layers; the dialog says how many, that values
// and verification are kept and about how long; paused in the second
// layer, it finishes that layer and keeps both compressed and verified;
// compressing again compresses the third, the button goes, and the
// perfect-move marks read the compressed layers.
func TestCompressLayers(t *testing.T) {
	dir, keys := flatFolder(t)
	e := NewEngines(dir)
	g := &gatedDB{DBEngines: e, at: 2}
	q := gametest.NewQueue()
	u := New(test.NewTempApp(t), Options{Do: q.Do, Engines: e, Database: g})
	t.Cleanup(u.ctrl.Close)
	u.db.free = func(string) (uint64, error) { return 1e12, nil }
	p := u.db

	if f := e.Flat(); f.Layers != 3 || !p.compress.Visible() || p.compress.Disabled() {
		t.Fatalf("a folder of flat layers: %+v, Compress layers shown %v, enabled %v; want 3 layers, shown and enabled", f, p.compress.Visible(), !p.compress.Disabled())
	}
	test.Tap(p.compress)
	if !openDialog(u) {
		t.Fatal("Compress layers asks nothing")
	}
	if got, want := dialogText(u), dir+"\nholds 3 layers lying flat ("; !strings.Contains(got, want) || !strings.Contains(got, "same values, verified as they were: nothing is computed again.") {
		t.Errorf("the dialog:\n%s\nwant it to contain %q and that values and verification are kept", got, want)
	}
	tapDialogButton(t, u, "Compress")
	q.Drain(t, 20*time.Second, func() bool { return strings.HasPrefix(p.progress.Text, "Compressing layer 2 of 3: ") })
	if p.bar.Visible() || !p.overall.Visible() || p.note.Text != compressNote || !p.change.Disabled() || !p.compress.Disabled() {
		t.Errorf("while compressing: part bar shown %v, whole %v, note %q, Change folder enabled %v, Compress enabled %v",
			p.bar.Visible(), p.overall.Visible(), p.note.Text, !p.change.Disabled(), !p.compress.Disabled())
	}
	if got := p.overall.TextFormatter(); !strings.HasPrefix(got, "Whole compression: ") {
		t.Errorf("the bar says %q", got)
	}
	if !strings.Contains(p.summary.Text, "* compressing") {
		t.Errorf("summary while compressing lacks the layer being compressed:\n%s", p.summary.Text)
	}
	test.Tap(p.pause)
	if got := p.progress.Text; got != "Pausing: the layer being compressed is finished first…" {
		t.Errorf("pausing: got %q", got)
	}
	q.Drain(t, 20*time.Second, func() bool { return p.stop == nil })
	if got, want := p.progress.Text, "Paused. 2 layers of 3 compressed, kept; Compress layers does the rest."; got != want {
		t.Errorf("paused:\ngot  %q\nwant %q", got, want)
	}
	db, _ := e.database()
	for i, k := range keys {
		if st, err := db.Check(k); st != layers.StatusVerified || db.Compressed(k) != (i < 2) {
			t.Errorf("layer %s after the pause: %v, %v, compressed %v; want verified, compressed %v", k, st, err, db.Compressed(k), i < 2)
		}
	}
	if p.compress.Disabled() || !p.compress.Visible() {
		t.Errorf("after the pause: Compress layers enabled %v, shown %v", !p.compress.Disabled(), p.compress.Visible())
	}

	g.at = 0
	test.Tap(p.compress)
	tapDialogButton(t, u, "Compress")
	q.Drain(t, 20*time.Second, func() bool { return p.stop == nil && strings.HasPrefix(p.progress.Text, "Done") })
	if got := p.progress.Text; got != "Done: 1 layer compressed, values and verification kept." {
		t.Errorf("compressing the rest: got %q", got)
	}
	for _, k := range keys {
		if st, err := db.Check(k); st != layers.StatusVerified || !db.Compressed(k) {
			t.Errorf("layer %s after compressing: %v, %v, compressed %v; want verified and compressed", k, st, err, db.Compressed(k))
		}
	}
	if p.compress.Visible() {
		t.Errorf("after compressing: Compress layers still shown")
	}
	pos, _ := endgame33(t)
	ev, err := e.Evaluator()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Evaluate(context.Background(), pos); err != nil {
		t.Errorf("marks after compressing: %v", err)
	}
}

// TestCompressRefusedWhenDiskTooSmall: compressing writes each layer's
// compressed file beside it, so the largest layer must fit.
func TestCompressRefusedWhenDiskTooSmall(t *testing.T) {
	q := gametest.NewQueue()
	f := newFakeDB("/data/muehle")
	f.flat = DBFlat{Layers: 3, Bytes: 2e9, Largest: 1e9}
	u := newDBTestApp(t, test.NewTempApp(t), q, f, 0.9e9)
	test.Tap(u.db.compress)
	tapDialogButton(t, u, "Compress")
	q.Drain(t, 5*time.Second, func() bool { return openDialog(u) && strings.Contains(dialogText(u), "Not enough") })
	if got, want := dialogText(u), "the largest may need 1.0 GB, and 900.0 MB are free."; !strings.Contains(got, want) {
		t.Errorf("refusal:\ngot  %q\nwant it to contain %q", got, want)
	}
	if f.compressCalls() != 0 || u.db.progress.Text != "Not enough disk space: nothing was compressed." {
		t.Errorf("compressed %d times with too little disk; progress %q", f.compressCalls(), u.db.progress.Text)
	}
}
