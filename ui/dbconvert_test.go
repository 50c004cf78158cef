package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// TestConvertOffered starts the program on a folder of the 9-stone game
// in the older format: it offers the conversion, saying how many layers,
// that their values are kept and about how long it takes; the tab says
// the same beside Convert older layers, with computing and repairing
// disabled; agreeing converts, and the tab is as before.
func TestConvertOffered(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	a.Preferences().SetBool(prefChosen, true)
	f := newFakeDB(t.TempDir())
	f.old = DBOld{Layers: 62, Bytes: 26.8e9, Largest: 594e6}
	u := newDBTestApp(t, a, q, f, 1e12)
	u.Start()
	if !openDialog(u) {
		t.Fatal("no offer to convert the older layers")
	}
	want := f.dir + "\nholds 62 layers in the older file format (26.8 GB),\nwhich this version of the program does not read:\n" +
		"the players treat them as missing.\n\nConverting rewrites them in the new format with the same\n" +
		"values, verified as they were: nothing is computed again.\nIt reads and writes each layer once: about 11 min.\n"
	if got := dialogText(u); !strings.Contains(got, want) {
		t.Errorf("offer:\ngot  %q\nwant %q", got, want)
	}
	p := u.db
	if got, want := p.note.Text, "This folder holds 62 layers in the older file format, which this version does not read: "+
		"the players treat them as missing. Converting keeps their values and verification, computes nothing again "+
		"and takes about 11 min (it reads and writes their 26.8 GB once). Computing and repairing wait until then."; got != want {
		t.Errorf("the tab's note:\ngot  %q\nwant %q", got, want)
	}
	if p.progress.Text != "" {
		t.Errorf("with older layers, the progress line says %q, want nothing (the note says why computing waits)", p.progress.Text)
	}
	if !p.convert.Visible() || p.convert.Disabled() || !p.small.Disabled() || !p.all.Disabled() || !p.resume.Disabled() || p.change.Disabled() {
		t.Errorf("with older layers: want Convert shown and enabled, Small, Complete and Resume disabled, Change folder enabled")
	}
	// Computing asked for anyway (a dialog accepted earlier) is refused.
	p.compute(true)
	if calls := f.computeCalls(); len(calls) != 0 || p.progress.Text != "Convert the older layers first (Convert older layers)." {
		t.Errorf("computing with older layers: got %d calls, %q", len(calls), p.progress.Text)
	}

	// Not now, and the offer is not made again for the folder; the
	// button stays.
	tapDialogButton(t, u, "Not now")
	p.offerFolder()
	if openDialog(u) {
		t.Errorf("a second offer: %q", dialogText(u))
	}
	test.Tap(p.convert)
	q.Drain(t, 5*time.Second, func() bool { return f.convertCalls() == 1 && p.stop == nil })
	if got := p.progress.Text; got != "Done: 62 layers converted, values and verification kept." {
		t.Errorf("after converting: got %q", got)
	}
	if p.convert.Visible() || p.small.Disabled() || p.all.Disabled() || p.note.Visible() {
		t.Errorf("after converting: want Convert hidden, Small and Complete enabled, no note")
	}
}

// TestConvertRefusedWhenDiskTooSmall: converting writes each layer beside
// the old file, so the largest must fit.
func TestConvertRefusedWhenDiskTooSmall(t *testing.T) {
	q := gametest.NewQueue()
	f := newFakeDB("/data/muehle")
	f.old = DBOld{Layers: 3, Bytes: 2e9, Largest: 1e9}
	u := newDBTestApp(t, test.NewTempApp(t), q, f, 0.9e9)
	test.Tap(u.db.convert)
	q.Drain(t, 5*time.Second, func() bool { return openDialog(u) })
	if got, want := dialogText(u), "the largest needs 1.0 GB, and 900.0 MB are free."; !strings.Contains(got, want) {
		t.Errorf("refusal:\ngot  %q\nwant it to contain %q", got, want)
	}
	if f.convertCalls() != 0 || u.db.progress.Text != "Not enough disk space: nothing was converted." {
		t.Errorf("converted %d times with too little disk; progress %q", f.converts, u.db.progress.Text)
	}
}

// oldFolder returns a folder holding the layers of solved43 (3-3, 3-4 and
// 4-3) in the older format, verified, as the program before left them.
func oldFolder(t *testing.T) (string, []layers.Key) {
	t.Helper()
	src, err := solved43.engines(t).database()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db, err := layers.OpenDB(dir, muehle.NineMensMorris)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	keys := []layers.Key{layers.Moving(3, 3), layers.Moving(3, 4), layers.Moving(4, 3)}
	for _, k := range keys {
		f, err := src.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		flat := make([]byte, db.Indexer().Layer(k).Size())
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
	return dir, keys
}

// gatedDB holds a conversion or compression at the progress of layer at
// until it is cancelled (every report of it: the layer's and the ticks'),
// and notes the layers announced.
type gatedDB struct {
	*DBEngines
	at int

	mu   sync.Mutex
	seen []string
}

func (g *gatedDB) Convert(ctx context.Context, progress func(DBProgress)) error {
	return g.DBEngines.Convert(ctx, g.gate(ctx, progress))
}

func (g *gatedDB) Compress(ctx context.Context, progress func(DBProgress)) error {
	return g.DBEngines.Compress(ctx, g.gate(ctx, progress))
}

// gate returns progress, noting each layer and holding at layer g.at.
func (g *gatedDB) gate(ctx context.Context, progress func(DBProgress)) func(DBProgress) {
	return func(pr DBProgress) {
		g.mu.Lock()
		if len(g.seen) == 0 || g.seen[len(g.seen)-1] != pr.Unit { // once a second while a layer takes
			g.seen = append(g.seen, pr.Unit)
		}
		g.mu.Unlock()
		progress(pr)
		if pr.Step == g.at {
			<-ctx.Done()
		}
	}
}

// TestConvertOldLayers opens a folder of the three small endgame layers
// in the older format: the tab marks them o (not damaged), the marks say
// to convert, and Convert older layers, paused in the second layer,
// finishes that layer and keeps both converted and verified; converting
// again converts the third, and every layer reads and is verified.
func TestConvertOldLayers(t *testing.T) {
	dir, keys := oldFolder(t)
	e := NewEngines(dir)
	g := &gatedDB{DBEngines: e, at: 2}
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.Do, Engines: e, Database: g})
	t.Cleanup(u.ctrl.Close)
	u.db.free = func(string) (uint64, error) { return 1e12, nil }
	p := u.db

	if old := e.Old(); old.Layers != 3 || e.Damaged() != "" || e.Empty() {
		t.Fatalf("a folder of older layers: got %+v, damaged %q, empty %v; want 3 older layers, none damaged, not empty", old, e.Damaged(), e.Empty())
	}
	sum := e.Summary()
	for _, want := range []string{"  3   o o", "  4   o ·", "o older format, to convert"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	pos, _ := endgame33(t)
	ev, err := e.Evaluator()
	if err != nil {
		t.Fatal(err)
	}
	if about, _ := u.aboutText(); !strings.Contains(about, "\nLayers of the older file format (used as missing until the Database tab converts them): 3") {
		t.Errorf("About does not count the older layers:\n%s", about)
	}
	if _, err := ev.Evaluate(context.Background(), pos); err == nil || !strings.Contains(err.Error(), "older file format: convert it in the Database tab") {
		t.Errorf("marks in an older layer: got %v, want the advice to convert", err)
	}
	if s, _ := e.StateNumber(pos); !strings.HasSuffix(s, "(layer of the older file format: convert it in the Database tab)") {
		t.Errorf("state number: got %q", s)
	}

	test.Tap(p.convert)
	q.Drain(t, 10*time.Second, func() bool { return strings.HasPrefix(p.progress.Text, "Converting layer 2 of 3: ") })
	if p.bar.Visible() || !p.overall.Visible() || p.note.Text != convertNote || !p.change.Disabled() {
		t.Errorf("while converting: part bar shown %v, whole %v, note %q, Change folder enabled %v",
			p.bar.Visible(), p.overall.Visible(), p.note.Text, !p.change.Disabled())
	}
	if got := p.overall.TextFormatter(); !strings.HasPrefix(got, "Whole conversion: ") {
		t.Errorf("the bar says %q", got)
	}
	if !strings.Contains(p.summary.Text, " *") || !strings.Contains(p.summary.Text, "* converting") {
		t.Errorf("summary while converting lacks the layer being converted:\n%s", p.summary.Text)
	}
	test.Tap(p.pause)
	if got := p.progress.Text; got != "Pausing: the layer being converted is finished first…" {
		t.Errorf("pausing: got %q", got)
	}
	q.Drain(t, 10*time.Second, func() bool { return p.stop == nil })
	if got, want := p.progress.Text, "Paused. 2 layers of 3 converted, kept; Convert older layers does the rest."; got != want {
		t.Errorf("paused:\ngot  %q\nwant %q", got, want)
	}
	db, _ := e.database()
	g.mu.Lock()
	seen := append([]string(nil), g.seen...)
	g.mu.Unlock()
	if len(seen) != 2 {
		t.Fatalf("layers announced before the pause: %v, want 2", seen)
	}
	for _, k := range keys {
		st, err := db.Check(k)
		converted := k.String() == seen[0] || k.String() == seen[1]
		switch {
		case converted && st != layers.StatusVerified:
			t.Errorf("layer %s converted before the pause: %v, %v; want verified", k, st, err)
		case !converted && !errors.Is(err, layers.ErrOldFormat):
			t.Errorf("layer %s not reached: %v, %v; want it still in the older format", k, st, err)
		}
	}
	if p.convert.Disabled() || !p.small.Disabled() || !strings.Contains(p.note.Text, "holds 1 layer in the older file format") {
		t.Errorf("after the pause: Convert enabled %v, Small enabled %v, note %q", !p.convert.Disabled(), !p.small.Disabled(), p.note.Text)
	}

	g.at = 0
	test.Tap(p.convert)
	q.Drain(t, 10*time.Second, func() bool { return p.stop == nil && strings.HasPrefix(p.progress.Text, "Done") })
	if got := p.progress.Text; got != "Done: 1 layer converted, values and verification kept." {
		t.Errorf("converting the rest: got %q", got)
	}
	for _, k := range keys {
		if st, err := db.Check(k); st != layers.StatusVerified {
			t.Errorf("layer %s after converting: %v, %v; want verified", k, st, err)
		}
	}
	if e.Old().Layers != 0 || p.convert.Visible() || p.small.Disabled() {
		t.Errorf("after converting: %d older layers, Convert shown %v, Small enabled %v", e.Old().Layers, p.convert.Visible(), !p.small.Disabled())
	}
	if sum := p.summary.Text; !strings.Contains(sum, "  3   # #") || strings.Contains(sum, "older") {
		t.Errorf("summary after converting:\n%s", sum)
	}
	if _, err := ev.Evaluate(context.Background(), pos); err != nil {
		t.Errorf("marks after converting: %v", err)
	}
}

// TestConvertOfferImage draws the Database tab of a folder with layers of
// the older format: the note and the button that converts them, computing
// disabled.
func TestConvertOfferImage(t *testing.T) {
	q := gametest.NewQueue()
	f := newFakeDB("/data/muehle")
	f.old = DBOld{Layers: 546, Bytes: 25 << 30, Largest: 594e6}
	u := newDBTestApp(t, test.NewTempApp(t), q, f, 1e12)
	// Fyne's cache dates a new renderer by the clock of its last clean-up
	// (a capture): late in a long test run that date is over a minute old,
	// and the capture below would drop the panel's renderers as expired
	// and draw them unlaid out. A capture now sets the clock.
	test.NewCanvas().Capture()
	p := newDBPanel(u, f, q.Do) // a panel of its own, in a window of its own
	w := test.NewTempWindow(t, p.box)
	w.Resize(fyne.NewSize(500, 560))
	test.AssertRendersToImage(t, "dbpanel_old.png", w.Canvas())
}

// TestConvertBeforeResume: a computation interrupted in a folder that
// now holds older layers is not offered on start (the solver would refuse
// it) but named in the note, and Resume waits for the conversion.
func TestConvertBeforeResume(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	prefs := a.Preferences()
	prefs.SetBool(prefChosen, true)
	f := newFakeDB(t.TempDir())
	f.old = DBOld{Layers: 2, Bytes: 4e8, Largest: 3e8}
	prefs.SetString(prefDBRun, runComplete)
	prefs.SetString(prefDBRunDir, f.dir)
	prefs.SetString(prefDBRedo, "computing 8-9 + 9-8 again from its start (1:02 h of work lost).")
	u := newDBTestApp(t, a, q, f, 1e12)
	u.Start()
	if got := dialogText(u); !strings.Contains(got, "holds 2 layers in the older file format") {
		t.Errorf("the offer on start: got %q, want the conversion", got)
	}
	if got, want := u.db.note.Text, "The computation of the complete database here was interrupted: Resume continues it after that."; !strings.HasSuffix(got, want) || !u.db.resume.Disabled() {
		t.Errorf("note %q (want it to end %q), Resume enabled %v", got, want, !u.db.resume.Disabled())
	}
	u.db.resumeCompute()
	if calls := f.computeCalls(); len(calls) != 0 {
		t.Errorf("resumed with older layers: %v", calls)
	}
	tapDialogButton(t, u, "Convert")
	q.Drain(t, 5*time.Second, func() bool { return f.convertCalls() == 1 && u.db.stop == nil })
	if u.db.resume.Disabled() || !strings.HasPrefix(u.db.note.Text, "The computation of the complete database here was interrupted. Resume continues, ") {
		t.Errorf("after converting: Resume enabled %v, note %q", !u.db.resume.Disabled(), u.db.note.Text)
	}
}
