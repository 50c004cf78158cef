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

	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// fakeDB is a Database whose computations report one progress and then
// wait until they are cancelled or released.
type fakeDB struct {
	dir  string
	est  DBEstimate
	prog DBProgress // what a computation reports first

	mu         sync.Mutex
	calls      []bool // the small flag of every Compute
	release    chan struct{}
	returned   chan error // what each Compute returned
	speed      float64
	cache      int64  // SetCacheBytes
	old        DBOld  // the layers of the older format; Convert converts them all
	converts   int    // the Convert calls
	flat       DBFlat // the layers lying flat; Compress compresses them all
	compresses int    // the Compress calls
	game       muehle.Variant
}

func newFakeDB(dir string) *fakeDB {
	return &fakeDB{dir: dir, release: make(chan struct{}), returned: make(chan error, 10),
		est: DBEstimate{Units: 27, Positions: 7.6e9, Bytes: 7.6e9, TempBytes: 8.4e9, Time: 7 * time.Hour, Cores: 2},
		prog: DBProgress{Unit: "4-8 + 8-4", Phase: "finding wins and losses", Step: 12, Steps: 27, Fraction: 0.5,
			Part: 0.4, Overall: 0.3, Elapsed: time.Hour, PartElapsed: 4 * time.Minute, Left: 5 * time.Hour}}
}

func (f *fakeDB) Game() muehle.Variant {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.game.Check() != nil {
		return muehle.NineMensMorris
	}
	return f.game
}
func (f *fakeDB) SetGame(v muehle.Variant)                { f.mu.Lock(); defer f.mu.Unlock(); f.game = v }
func (f *fakeDB) Dir() string                             { return f.dir }
func (f *fakeDB) SetDir(dir string) error                 { f.dir = dir; return nil }
func (f *fakeDB) Summary() string                         { return "layers of " + f.dir }
func (f *fakeDB) Empty() bool                             { return false }
func (f *fakeDB) SmallDescription() string                { return "3-3, 3-4 and 4-3" }
func (f *fakeDB) Damaged() string                         { return "" }
func (f *fakeDB) Estimate(small bool) (DBEstimate, error) { return f.est, nil }
func (f *fakeDB) Speed() float64                          { f.mu.Lock(); defer f.mu.Unlock(); return f.speed }
func (f *fakeDB) SetSpeed(s float64)                      { f.mu.Lock(); defer f.mu.Unlock(); f.speed = s }
func (f *fakeDB) CacheBytes() int64                       { f.mu.Lock(); defer f.mu.Unlock(); return f.cache }
func (f *fakeDB) SetCacheBytes(n int64)                   { f.mu.Lock(); defer f.mu.Unlock(); f.cache = n }
func (f *fakeDB) Repair(ctx context.Context, progress func(DBProgress)) error {
	return nil
}
func (f *fakeDB) Old() DBOld        { f.mu.Lock(); defer f.mu.Unlock(); return f.old }
func (f *fakeDB) convertCalls() int { f.mu.Lock(); defer f.mu.Unlock(); return f.converts }
func (f *fakeDB) Convert(ctx context.Context, progress func(DBProgress)) error {
	f.mu.Lock()
	f.converts++
	f.old = DBOld{}
	f.mu.Unlock()
	return nil
}

func (f *fakeDB) Flat() DBFlat       { f.mu.Lock(); defer f.mu.Unlock(); return f.flat }
func (f *fakeDB) compressCalls() int { f.mu.Lock(); defer f.mu.Unlock(); return f.compresses }
func (f *fakeDB) Compress(ctx context.Context, progress func(DBProgress)) error {
	f.mu.Lock()
	f.compresses++
	f.flat = DBFlat{}
	f.mu.Unlock()
	return nil
}

func (f *fakeDB) Compute(ctx context.Context, small bool, progress func(DBProgress)) error {
	f.mu.Lock()
	f.calls = append(f.calls, small)
	f.mu.Unlock()
	progress(f.prog)
	var err error
	select {
	case <-ctx.Done():
		err = ctx.Err()
	case <-f.release:
	}
	f.returned <- err
	return err
}

// computeCalls returns the small flags of the Compute calls so far.
func (f *fakeDB) computeCalls() []bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]bool(nil), f.calls...)
}

// newDBTestApp returns the main window on a, with the fake database and
// free bytes of free disk space.
func newDBTestApp(t *testing.T, a fyne.App, q *gametest.Queue, f *fakeDB, free uint64) *App {
	t.Helper()
	u := New(a, Options{Do: q.Do, Database: f})
	t.Cleanup(u.ctrl.Close)
	u.db.free = func(dir string) (uint64, error) {
		if dir != f.dir {
			t.Errorf("free space asked of %s, want the database folder %s", dir, f.dir)
		}
		return free, nil
	}
	return u
}

// openDialog reports whether a dialog is open.
func openDialog(u *App) bool { return u.Window().Canvas().Overlays().Top() != nil }

func TestCompleteRefusedWhenDiskTooSmall(t *testing.T) {
	q := gametest.NewQueue()
	f := newFakeDB("/data/muehle")
	u := newDBTestApp(t, test.NewTempApp(t), q, f, 15.9e9) // 16.0 GB needed
	test.Tap(u.db.all)
	q.Drain(t, 5*time.Second, func() bool { return openDialog(u) })
	text := dialogText(u)
	for _, want := range []string{"Not enough disk space in\n/data/muehle\n", "needs about 16.0 GB (7.6 GB for the layers and up to 8.4 GB",
		"and 15.9 GB are free"} {
		if !strings.Contains(text, want) {
			t.Errorf("refusal lacks %q:\n%s", want, text)
		}
	}
	if calls := f.computeCalls(); len(calls) != 0 {
		t.Errorf("computed with too little disk: %v", calls)
	}
	if got := u.db.progress.Text; got != "Not enough disk space: nothing was computed." {
		t.Errorf("progress line: got %q", got)
	}
}

// TestCompletePauseResume asks for the complete database, agrees, pauses
// in the middle and resumes: the panel says what resuming redoes and the
// preferences remember the computation until it finishes.
func TestCompletePauseResume(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	f := newFakeDB(t.TempDir())
	u := newDBTestApp(t, a, q, f, 16e9+1)
	prefs := a.Preferences()

	test.Tap(u.db.all)
	q.Drain(t, 5*time.Second, func() bool { return openDialog(u) })
	text := dialogText(u)
	for _, want := range []string{"Compute the complete database of Nine Men's Morris\n(every layer still missing: the moving phase,\nthen the opening's positions that a game can reach) in\n" + f.dir + "?",
		"27 parts to compute", "Free there: 16.0 GB.", "Pause (or closing the program)\nstops at once"} {
		if !strings.Contains(text, want) {
			t.Errorf("confirmation lacks %q:\n%s", want, text)
		}
	}
	tapDialogButton(t, u, "Yes")
	q.Drain(t, 5*time.Second, func() bool { return strings.HasPrefix(u.db.progress.Text, "Part 12 of 27") })
	if got := prefs.String(prefDBRun); got != runComplete || prefs.String(prefDBRunDir) != f.dir {
		t.Errorf("running: got preferences %q in %q, want %q in %q", got, prefs.String(prefDBRunDir), runComplete, f.dir)
	}
	if u.db.pause.Disabled() || !u.db.resume.Disabled() || !u.db.all.Disabled() {
		t.Errorf("while computing: want Pause enabled, Resume and Complete disabled")
	}
	redo := "keeping 11 finished parts and computing 4-8 + 8-4 again from its start (4:00 min of work lost)."
	if got := u.db.note.Text; got != "Pause stops at once; Resume continues, "+redo {
		t.Errorf("note while computing: got %q", got)
	}
	if u.db.overall.Value != 0.3 || u.db.bar.Value != 0.4 {
		t.Errorf("bars: got %v overall, %v part, want 0.3, 0.4", u.db.overall.Value, u.db.bar.Value)
	}

	test.Tap(u.db.pause)
	if got := u.db.progress.Text; got != "Pausing: the solver stops at its next check…" || !u.db.pause.Disabled() {
		t.Errorf("pausing: got %q, pause enabled %v; want the pause said and the button disabled", got, !u.db.pause.Disabled())
	}
	q.Drain(t, 5*time.Second, func() bool { return u.db.stop == nil })
	if got := u.db.progress.Text; got != "Paused. The finished parts are kept." {
		t.Errorf("after pausing: got %q", got)
	}
	if got, want := u.db.note.Text, "The computation of the complete database here was interrupted. Resume continues, "+redo; got != want {
		t.Errorf("note after pausing:\ngot  %q\nwant %q", got, want)
	}
	if prefs.String(prefDBRun) != runComplete || prefs.String(prefDBRedo) != redo {
		t.Errorf("after pausing: got preferences %q, %q, want the computation remembered", prefs.String(prefDBRun), prefs.String(prefDBRedo))
	}
	if u.db.resume.Disabled() || !u.db.pause.Disabled() {
		t.Errorf("after pausing: want Resume enabled and Pause disabled")
	}

	test.Tap(u.db.resume)
	q.Drain(t, 5*time.Second, func() bool { return len(f.computeCalls()) == 2 && u.db.stop != nil })
	if calls := f.computeCalls(); calls[1] {
		t.Errorf("Resume computed the small endgames, want the complete database")
	}
	close(f.release)
	q.Drain(t, 5*time.Second, func() bool { return u.db.stop == nil })
	if u.db.progress.Text != "Done." || prefs.String(prefDBRun) != "" || prefs.String(prefDBRedo) != "" || !u.db.resume.Disabled() {
		t.Errorf("after finishing: got %q, preferences %q %q, want Done and nothing remembered", u.db.progress.Text, prefs.String(prefDBRun), prefs.String(prefDBRedo))
	}
}

// TestResumeAfterRestart closes the program during a computation and
// starts it again on the same preferences: it offers to resume, saying
// what resuming redoes, and resumes when the person agrees. A program on
// another folder does not offer it.
func TestResumeAfterRestart(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	a.Preferences().SetBool(prefChosen, true)
	f := newFakeDB(t.TempDir())
	f.prog.Verifying, f.prog.Phase = true, "checking 8-4"
	u := newDBTestApp(t, a, q, f, 1e12)
	u.db.compute(false)
	q.Drain(t, 5*time.Second, func() bool { return strings.HasPrefix(u.db.progress.Text, "Part 12 of 27") })
	u.shutdown()
	q.Drain(t, 5*time.Second, func() bool { return u.db.stop == nil })

	other := newDBTestApp(t, a, q, newFakeDB(t.TempDir()), 1e12)
	other.Start()
	if openDialog(other) {
		t.Errorf("a program on another folder offers: %q", dialogText(other))
	}

	f2 := newFakeDB(f.dir)
	again := newDBTestApp(t, a, q, f2, 1e12)
	again.Start()
	if !openDialog(again) {
		t.Fatal("the restarted program does not offer to resume")
	}
	want := "The computation of the complete database in\n" + f.dir + "\nwas interrupted (paused, or the program was closed).\n" +
		"Resume it now?\nIt continues, keeping 11 finished parts and the layers of 4-8 + 8-4, which are written: only their check is redone."
	if got := dialogText(again); !strings.Contains(got, want) {
		t.Errorf("offer:\ngot  %q\nwant %q", got, want)
	}
	if again.db.resume.Disabled() {
		t.Errorf("Resume is disabled in the restarted program")
	}
	tapDialogButton(t, again, "Yes")
	q.Drain(t, 5*time.Second, func() bool { return len(f2.computeCalls()) == 1 && again.db.stop != nil })
	if f2.computeCalls()[0] {
		t.Errorf("resumed the small endgames, want the complete database")
	}
	close(f2.release)
	q.Drain(t, 5*time.Second, func() bool { return again.db.stop == nil })
}

// TestAppStoppedStopsComputation stops the program without closing its
// window (as SIGTERM does): the computation is cancelled, remembered for
// the next start, and nothing more is sent to the widgets (the driver,
// stopped, would run it on the solver's goroutine).
func TestAppStoppedStopsComputation(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	f := newFakeDB(t.TempDir())
	u := newDBTestApp(t, a, q, f, 1e12)
	u.db.compute(false)
	q.Drain(t, 5*time.Second, func() bool { return strings.HasPrefix(u.db.progress.Text, "Part 12 of 27") })
	u.db.appStopped()
	select {
	case err := <-f.returned:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the computation returned %v, want it cancelled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("stopping the program did not cancel the computation")
	}
	time.Sleep(200 * time.Millisecond)                   // for anything sent after it returned
	q.Drain(t, time.Second, func() bool { return true }) // run what was sent
	if u.db.stop == nil || !strings.HasPrefix(u.db.progress.Text, "Part 12 of 27") {
		t.Errorf("after the program stopped, the panel was told: %q", u.db.progress.Text)
	}
	if got := a.Preferences().String(prefDBRun); got != runComplete {
		t.Errorf("after the program stopped: got preference %q, want the computation remembered", got)
	}
}

// TestResumeWhenNothingIsLeft resumes a computation that another program
// finished meanwhile: nothing is computed, and it is forgotten.
func TestResumeWhenNothingIsLeft(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	f := newFakeDB(t.TempDir())
	f.est = DBEstimate{}
	prefs := a.Preferences()
	prefs.SetString(prefDBRun, runComplete)
	prefs.SetString(prefDBRunDir, f.dir)
	prefs.SetString(prefDBRedo, "computing 8-9 + 9-8 again from its start (1:02 h of work lost).")
	u := newDBTestApp(t, a, q, f, 1e12)
	if u.db.resume.Disabled() {
		t.Fatal("Resume is disabled with a computation remembered for this folder")
	}
	test.Tap(u.db.resume)
	q.Drain(t, 5*time.Second, func() bool { return u.db.progress.Text == "Every layer asked for is already computed." })
	if calls := f.computeCalls(); len(calls) != 0 {
		t.Errorf("computed with nothing left: %v", calls)
	}
	if prefs.String(prefDBRun) != "" || prefs.String(prefDBRedo) != "" || !u.db.resume.Disabled() {
		t.Errorf("the finished computation is still remembered: %q, %q, Resume enabled %v", prefs.String(prefDBRun), prefs.String(prefDBRedo), !u.db.resume.Disabled())
	}
}

// TestResumeCountsOn pauses a computation in its fourth part of 523 and
// resumes it: the solver's new run numbers its parts from 1 of 520, but
// the panel counts on (part 4 of 523, then 5), adds the time run before
// and the work done before to the whole computation's share, and says
// how many parts resuming keeps. The same holds after a restart, from the
// preferences.
func TestResumeCountsOn(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	a.Preferences().SetBool(prefChosen, true)
	f := newFakeDB(t.TempDir())
	f.prog = DBProgress{Unit: "3-7 + 7-3", Phase: "counting moves", Step: 4, Steps: 523, Fraction: 0.5, Part: 0.25,
		Elapsed: time.Hour, PartElapsed: time.Minute, Left: time.Hour, Work: 30 + 0.25*8, WorkTotal: 3000, PartWork: 8}
	u := newDBTestApp(t, a, q, f, 1e12)
	u.db.compute(false)
	q.Drain(t, 5*time.Second, func() bool { return strings.HasPrefix(u.db.progress.Text, "Part 4 of 523") })
	test.Tap(u.db.pause)
	q.Drain(t, 5*time.Second, func() bool { return u.db.stop == nil })
	prefs := a.Preferences()
	if parts, secs, work := prefs.Int(prefDBParts), prefs.Float(prefDBTime), prefs.Float(prefDBWork); parts != 3 || secs != 3600 || work != 30 {
		t.Errorf("after pausing: got %d parts, %v s, %v work remembered, want 3, 3600, 30", parts, secs, work)
	}

	// The new run: 520 parts left, the first of them the one paused.
	f.prog = DBProgress{Unit: "3-7 + 7-3", Phase: "counting moves", Step: 1, Steps: 520, Fraction: 0.1, Part: 0.05,
		Elapsed: 2 * time.Minute, PartElapsed: 2 * time.Minute, Left: time.Hour, Work: 0.05 * 8, WorkTotal: 2970, PartWork: 8}
	test.Tap(u.db.resume)
	q.Drain(t, 5*time.Second, func() bool { return len(f.computeCalls()) == 2 && strings.HasPrefix(u.db.progress.Text, "Part ") })
	if got, want := u.db.progress.Text, "Part 4 of 523: 3-7 + 7-3, counting moves (10 %)\n3 done, 520 to do · 1:02 h elapsed · about 1.0 hours left"; got != want {
		t.Errorf("after resuming:\ngot  %q\nwant %q", got, want)
	}
	if got, want := u.db.overall.Value, (30+0.05*8)/3000; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("whole computation after resuming: got %v, want %v", got, want)
	}
	if got, want := u.db.note.Text, "Pause stops at once; Resume continues, keeping 3 finished parts and computing 3-7 + 7-3 again from its start (2:00 min of work lost)."; got != want {
		t.Errorf("note after resuming:\ngot  %q\nwant %q", got, want)
	}
	// The next part of the new run is part 5: four are kept, not "the
	// finished part".
	f.prog.Step, f.prog.Unit, f.prog.PartElapsed = 2, "4-4", time.Second
	u.db.show(f.prog)
	if got := u.db.progress.Text; !strings.HasPrefix(got, "Part 5 of 523: 4-4, ") {
		t.Errorf("the next part: got %q, want part 5 of 523", got)
	}
	if got, want := u.db.note.Text, "Pause stops at once; Resume continues, keeping 4 finished parts and computing 4-4 again from its start (0:01 min of work lost)."; got != want {
		t.Errorf("note in the next part:\ngot  %q\nwant %q", got, want)
	}
	u.shutdown()
	q.Drain(t, 5*time.Second, func() bool { return u.db.stop == nil })

	// After a restart, the resumed run counts on from the preferences.
	f2 := newFakeDB(f.dir)
	f2.prog = f.prog
	f2.prog.Step, f2.prog.Steps = 1, 519
	again := newDBTestApp(t, a, q, f2, 1e12)
	again.Start()
	tapDialogButton(t, again, "Yes")
	q.Drain(t, 5*time.Second, func() bool { return strings.HasPrefix(again.db.progress.Text, "Part ") })
	if got := again.db.progress.Text; !strings.HasPrefix(got, "Part 5 of 523: 4-4, ") {
		t.Errorf("resumed after a restart: got %q, want part 5 of 523", got)
	}
	close(f2.release)
	q.Drain(t, 5*time.Second, func() bool { return again.db.stop == nil })
}

// TestBarsIdle checks that the bars show only a computation under way: a
// panel with nothing running, or after a computation has finished, shows
// none (no "100 %" beside the layers still missing); and that a long
// computation's first minutes read as a share, not "0 %".
func TestBarsIdle(t *testing.T) {
	q := gametest.NewQueue()
	f := newFakeDB(t.TempDir())
	f.prog.Work, f.prog.WorkTotal = 12, 3000 // a minute of a computation of hours
	u := newDBTestApp(t, test.NewTempApp(t), q, f, 1e12)
	if u.db.bar.Visible() || u.db.overall.Visible() {
		t.Errorf("before any computation: got bars shown (part %v, whole %v), want none", u.db.bar.Visible(), u.db.overall.Visible())
	}
	u.db.compute(false)
	q.Drain(t, 5*time.Second, func() bool { return strings.HasPrefix(u.db.progress.Text, "Part 12 of 27") })
	if !u.db.bar.Visible() || !u.db.overall.Visible() {
		t.Errorf("while computing: got bars shown part %v, whole %v, want both", u.db.bar.Visible(), u.db.overall.Visible())
	}
	if got, want := u.db.overall.TextFormatter(), "Whole computation: 0.4 %"; got != want {
		t.Errorf("whole computation after a minute: got %q, want %q", got, want)
	}
	if got, want := u.db.bar.TextFormatter(), "Current part: 40 %"; got != want {
		t.Errorf("current part: got %q, want %q", got, want)
	}
	close(f.release)
	q.Drain(t, 5*time.Second, func() bool { return u.db.stop == nil })
	if u.db.progress.Text != "Done." || u.db.bar.Visible() || u.db.overall.Visible() {
		t.Errorf("after the computation: got %q, bars shown part %v, whole %v; want Done and none", u.db.progress.Text, u.db.bar.Visible(), u.db.overall.Visible())
	}
}
