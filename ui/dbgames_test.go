package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// startGame puts a new game of variant v on the board.
func startGame(t *testing.T, u *App, v muehle.Variant) {
	t.Helper()
	g, err := muehle.NewGameFrom(v.NewPosition(), v.Stones)
	if err != nil {
		t.Fatal(err)
	}
	u.ctrl.SetGame(g)
	if got := u.variant; got != v {
		t.Fatalf("the window's game after a new game: got %v, want %v", got, v)
	}
}

// TestDatabaseTabPerGame computes the complete databases of Twelve Men's
// Morris and Lasker Morris with three stones a side from the Database tab
// (about a second each): the tab lists the game's layers as missing, asks
// naming the game, computes them into the game's folder, where they are
// verified, and shows them complete; a new game of another variant
// switches the lines.
func TestDatabaseTabPerGame(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	a.Preferences().SetBool(prefChosen, true)
	dir := t.TempDir()
	e := NewEngines(dir)
	u := New(a, Options{Do: q.Do, Engines: e, Database: e})
	t.Cleanup(u.ctrl.Close)
	u.db.free = func(string) (uint64, error) { return 1e12, nil }

	for _, tt := range []struct {
		v       muehle.Variant
		heading string
		folder  string
		missing []string // in the summary before computing
		done    []string // after
	}{
		{muehle.Twelve.With(3), "Layers of Twelve Men's Morris with 3 stones", filepath.Join(dir, "twelve", "k3"),
			[]string{"      3\n  3   ·\n", "Placement phase (opening):\n0 of 6 layers complete"},
			[]string{"      3\n  3   #\n", "Placement phase (opening):\n6 of 6 layers complete", "- Opening: stored"}},
		{muehle.Lasker.With(3), "Layers of Lasker Morris with 3 stones", filepath.Join(dir, "lasker", "k3"),
			[]string{"      3\n  3   ·\n", "      0 1 2 3\n  0     · · ·\n", "0 of 15 layers with stones in hand complete"},
			[]string{"      3\n  3   #\n", "  0     # # #\n  1   # # # #\n", "15 of 15 layers with stones in hand complete",
				"- Stones in hand: complete"}},
	} {
		startGame(t, u, tt.v)
		if got := u.db.heading.Text; got != tt.heading {
			t.Errorf("heading: got %q, want %q", got, tt.heading)
		}
		if e.Game() != tt.v {
			t.Errorf("the tab's game: got %v, want %v", e.Game(), tt.v)
		}
		sum := u.db.summary.Text
		for _, want := range append([]string{"In " + tt.folder + "\n"}, tt.missing...) {
			if !strings.Contains(sum, want) {
				t.Errorf("%s before computing: got\n%s\nwant it to contain %q", tt.v.Name(), sum, want)
			}
		}
		if got, want := e.SmallDescription(), "3-3"; got != want {
			t.Errorf("small endgames of %s: got %q, want %q", tt.v.Name(), got, want)
		}
		if u.db.convert.Visible() {
			t.Errorf("%s: Convert older layers shown, want it hidden", tt.v.Name())
		}

		test.Tap(u.db.all)
		q.Drain(t, 10*time.Second, func() bool { return openDialog(u) })
		if got, want := dialogText(u), "Compute the complete database of "+tt.v.Name()+"\n"; !strings.Contains(got, want) {
			t.Errorf("confirmation: got\n%s\nwant it to contain %q", got, want)
		}
		tapDialogButton(t, u, "Yes")
		q.Drain(t, 60*time.Second, func() bool { return u.db.stop == nil && u.db.progress.Text != "Starting…" })
		if got := u.db.progress.Text; got != "Done." {
			t.Fatalf("%s: got %q, want Done.", tt.v.Name(), got)
		}
		db, err := layers.OpenDB(dir, tt.v)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range layers.OrderIn(tt.v, true) {
			if !db.Verified(k) {
				t.Errorf("%s: layer %s not verified in %s", tt.v.Name(), k, db.GameDir())
			}
			if got := filepath.Dir(db.Path(k)); got != tt.folder {
				t.Errorf("%s: layer %s in %s, want %s", tt.v.Name(), k, got, tt.folder)
			}
		}
		db.Close()
		sum = u.db.summary.Text
		for _, want := range tt.done {
			if !strings.Contains(sum, want) {
				t.Errorf("%s after computing: got\n%s\nwant it to contain %q", tt.v.Name(), sum, want)
			}
		}
	}

	// Back to the standard game: its lines, none computed.
	startGame(t, u, muehle.NineMensMorris)
	if got, want := u.db.heading.Text, "Layers of Nine Men's Morris"; got != want {
		t.Errorf("heading: got %q, want %q", got, want)
	}
	if sum := u.db.summary.Text; !strings.Contains(sum, "In "+filepath.Join(dir, "k9")+"\n") || !strings.Contains(sum, "0 of 497 layers complete") {
		t.Errorf("Nine Men's Morris: got\n%s\nwant its folder and no layer", sum)
	}
	if got, want := e.SmallDescription(), "3-3, 3-4 and 4-3"; got != want {
		t.Errorf("small endgames of Nine Men's Morris: got %q, want %q", got, want)
	}
	// And to Lasker Morris again: its layers are there.
	startGame(t, u, muehle.Lasker.With(3))
	if sum := u.db.summary.Text; !strings.Contains(sum, "15 of 15 layers with stones in hand complete") {
		t.Errorf("Lasker Morris again: got\n%s\nwant its layers complete", sum)
	}
}

// TestComputationKeepsItsGame starts a computation for Twelve Men's Morris
// with three stones and then a game of Nine Men's Morris: the tab keeps
// the computing game's lines and says so, the computation stays the
// Twelve one, and pausing it follows the board again; Resume switches
// back to Twelve and resumes it.
func TestComputationKeepsItsGame(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	f := newFakeDB(t.TempDir())
	u := newDBTestApp(t, a, q, f, 1e12)
	twelve := muehle.Twelve.With(3)
	startGame(t, u, twelve)
	u.db.compute(false)
	q.Drain(t, 5*time.Second, func() bool { return strings.HasPrefix(u.db.progress.Text, "Part 12 of 27") })
	prefs := a.Preferences()
	if got, n := prefs.String(prefDBRunGame), prefs.Int(prefDBRunStones); got != "twelve" || n != 3 {
		t.Errorf("the run remembered: got game %q with %d stones, want twelve with 3", got, n)
	}

	startGame(t, u, muehle.NineMensMorris)
	if got, want := u.db.heading.Text, "Layers of "+twelve.Name(); got != want {
		t.Errorf("heading while Twelve is computed and Nine is on the board: got %q, want %q", got, want)
	}
	if got := f.Game(); got != twelve {
		t.Errorf("the tab's game while computing: got %v, want %v", got, twelve)
	}
	want := "These are Twelve Men's Morris with 3 stones's layers, being computed; the game on the board is Nine Men's Morris."
	if got := u.db.other.Text; !u.db.other.Visible() || !strings.HasPrefix(got, want) {
		t.Errorf("note on the other game: got %q (shown %v), want it shown, starting %q", got, u.db.other.Visible(), want)
	}

	test.Tap(u.db.pause)
	q.Drain(t, 5*time.Second, func() bool { return u.db.stop == nil })
	if got, want := u.db.progress.Text, "Paused (Twelve Men's Morris with 3 stones). The finished parts are kept."; got != want {
		t.Errorf("after pausing: got %q, want %q", got, want)
	}
	if got, want := u.db.heading.Text, "Layers of Nine Men's Morris"; got != want || u.db.other.Visible() {
		t.Errorf("after pausing: got heading %q, other note shown %v, want %q and no note", got, u.db.other.Visible(), want)
	}
	if got, want := u.db.note.Text, "The computation of the complete database of Twelve Men's Morris with 3 stones here was interrupted."; !strings.HasPrefix(got, want) {
		t.Errorf("note after pausing: got %q, want it to start %q", got, want)
	}

	test.Tap(u.db.resume)
	if got := f.Game(); got != twelve {
		t.Errorf("Resume: the tab's game got %v, want %v", got, twelve)
	}
	q.Drain(t, 5*time.Second, func() bool { return len(f.computeCalls()) == 2 && u.db.stop != nil })
	if got, want := u.db.heading.Text, "Layers of "+twelve.Name(); got != want {
		t.Errorf("heading while resumed: got %q, want %q", got, want)
	}
	close(f.release)
	q.Drain(t, 5*time.Second, func() bool { return u.db.stop == nil })
	if got, want := u.db.progress.Text, "Done (Twelve Men's Morris with 3 stones)."; got != want {
		t.Errorf("after finishing: got %q, want %q", got, want)
	}
	if got := f.Game(); got != muehle.NineMensMorris {
		t.Errorf("after finishing: the tab's game got %v, want the board's, Nine Men's Morris", got)
	}
	if prefs.String(prefDBRun) != "" || prefs.String(prefDBRunGame) != "" {
		t.Errorf("after finishing: got the run %q of %q remembered, want none", prefs.String(prefDBRun), prefs.String(prefDBRunGame))
	}
}
