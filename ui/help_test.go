package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/play"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

// TestHelpMenu: the rules of the game on the board open; the shortcuts
// list every menu shortcut and P; About names the database folder.
func TestHelpMenu(t *testing.T) {
	e := solvedEngines(t)
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.Do, Engines: e, Database: e})
	t.Cleanup(u.ctrl.Close)
	u.Window().Resize(fyne.NewSize(1000, 700))
	m := u.Window().MainMenu()

	menuItem(t, m, "Help", "Rules of the Game").Action()
	top := u.Window().Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Rules of the Game: no dialog shown")
	}
	text := objectText(top)
	if !strings.Contains(text, "Nine Men's Morris") || !strings.Contains(text, "## Mills") && !strings.Contains(text, "Mills") {
		t.Errorf("rules dialog: got text %q, want the rules of Nine Men's Morris", text)
	}
	u.typedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if top := u.Window().Canvas().Overlays().Top(); top != nil || u.escDialog != nil {
		t.Errorf("Escape: the rules are still shown")
	}

	keys := u.keyHelp()
	for _, want := range []string{"Ctrl+Space", "Ctrl+H", "Ctrl+F", "Ctrl+Z", "Game ▸ Hint: Show the Best Move", "View ▸ Flip Board", "  P "} {
		if !strings.Contains(keys, want) {
			t.Errorf("keyboard shortcuts: %q missing in\n%s", want, keys)
		}
	}
	about, state := u.aboutText()
	for _, r := range playedGames() {
		if !strings.Contains(about, r.Name) {
			t.Errorf("About: %q does not name %s, a game the window plays", about, r.Name)
		}
	}
	if !strings.Contains(about, "Database folder: "+e.Dir()) || !strings.Contains(about, "Commit: ") || !strings.Contains(about, "Version: ") {
		t.Errorf("About: got\n%s\nwant the version, the commit and the folder %s", about, e.Dir())
	}
	if state != e.Summary() {
		t.Errorf("About: got the state\n%s\nwant the database's summary\n%s", state, e.Summary())
	}
}

// TestFlipBoard: a flipped board draws g1 where a7 was and still plays
// the point tapped; the choice is kept for the next start.
func TestFlipBoard(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.Do})
	t.Cleanup(u.ctrl.Close)
	u.Window().Resize(fyne.NewSize(1000, 700))
	a7, g1 := gametest.MustMove(t, "a7").To, gametest.MustMove(t, "g1").To
	before := u.board.geometry().center(a7)
	menuItem(t, u.Window().MainMenu(), "View", "Flip Board").Action()
	if !u.board.Flipped() || !menuItem(t, u.Window().MainMenu(), "View", "Flip Board").Checked {
		t.Fatalf("Flip Board: got flipped %t, want the board turned and the item checked", u.board.Flipped())
	}
	if got := u.board.geometry().center(g1); got != before {
		t.Errorf("flipped: g1 at %v, want where a7 was, %v", got, before)
	}
	u.board.TapPoint(a7)
	if h := u.ctrl.Game().History(); len(h) != 1 || h[0].To != a7 {
		t.Errorf("a tap on a7 of the flipped board: got moves %v, want a7", h)
	}
	u.ctrl.Close()
	u2 := New(a, Options{Do: q.Do})
	t.Cleanup(u2.ctrl.Close)
	if !u2.board.Flipped() {
		t.Errorf("after a restart: the board is not flipped, want it as it was left")
	}
}

// TestHint: Hint shows the perfect player's move as the arrow on the board,
// without the marks; the saved record notes the hint after the move played.
func TestHint(t *testing.T) {
	e := solvedEngines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	p, g := endgame33(t)
	u.ctrl.SetGame(g)
	menuItem(t, u.Window().MainMenu(), "Game", "Hint: Show the Best Move").Action()
	q.Drain(t, 10*time.Second, func() bool { return u.board.View().Best.To != muehle.NoPoint })
	hint := u.board.View().Best
	if u.ctrl.ShowPerfect() || len(u.board.View().Marks) != 0 {
		t.Errorf("hint: got marks on, want only the arrow")
	}
	db, _ := e.database()
	best, err := retro.BestChild(db, p)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := db.Probe(p.Play(hint)); err != nil || v.Parent() != best {
		t.Errorf("hint %s: value %v (%v), want the best %s", hint, v.Parent(), err, best)
	}
	if !strings.Contains(u.ctrl.Status(), "Hint: "+hint.String()) {
		t.Errorf("status: got %q, want the hint %s", u.ctrl.Status(), hint)
	}
	gametest.TapMove(u.board.TapPoint, hint)
	if u.board.View().Best.To != muehle.NoPoint {
		t.Errorf("after the move: the hint %v is still drawn, want it once", u.board.View().Best)
	}
	rec := u.recordText()
	if want := hint.String() + " {" + hintNote + "}"; !strings.Contains(rec, want) {
		t.Errorf("record: got\n%s\nwant %q", rec, want)
	}
}

// TestPauseKeysAndRestart: P pauses and resumes as Ctrl+Space does; the
// pause is kept for the next start; New Game starts unpaused.
func TestPauseKeysAndRestart(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.Do})
	t.Cleanup(u.ctrl.Close)
	u.typedKey(&fyne.KeyEvent{Name: fyne.KeyP})
	if !u.ctrl.Paused() || !strings.HasPrefix(u.menu.pause.Label, "Resume Computer") {
		t.Fatalf("P: got paused %t, item %q; want paused", u.ctrl.Paused(), u.menu.pause.Label)
	}
	u.ctrl.Close()
	u2 := New(a, Options{Do: q.Do})
	t.Cleanup(u2.ctrl.Close)
	if !u2.ctrl.Paused() {
		t.Errorf("after a restart: not paused, want paused as left")
	}
	u2.startNewGame(muehle.NineMensMorris, game.Human, play.Spec{Kind: play.KindRandom}, false)
	if u2.ctrl.Paused() {
		t.Errorf("New Game: got paused, want the new opponent to move")
	}
	u2.typedKey(&fyne.KeyEvent{Name: fyne.KeyP})
	u2.typedKey(&fyne.KeyEvent{Name: fyne.KeyP})
	if u2.ctrl.Paused() {
		t.Errorf("P twice: got paused, want resumed")
	}
}

// TestComputerGameRestoredPaused: a game between two computers restored
// at the start waits, so that it does not play behind the start's
// questions.
func TestComputerGameRestoredPaused(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	p := a.Preferences()
	p.SetString(prefWhite, "random")
	p.SetString(prefBlack, "random")
	p.SetString(prefGame, "1. d6 d2\n*\n")
	u := New(a, Options{Do: q.Do})
	t.Cleanup(u.ctrl.Close)
	if u.ctrl.Game().Ply() != 2 || !u.ctrl.Paused() || u.ctrl.Thinking() {
		t.Errorf("restored computer game: ply %d, paused %t, thinking %t; want 2 plies, paused, not thinking",
			u.ctrl.Game().Ply(), u.ctrl.Paused(), u.ctrl.Thinking())
	}
}

// objectText returns the text of the labels and rich texts in o and
// everything under it, and whether it holds a Board.
func objectText(o fyne.CanvasObject) string {
	var b strings.Builder
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.RichText:
			b.WriteString(w.String() + "\n")
			return
		case *widget.Label:
			b.WriteString(w.Text + "\n")
			return
		case *Board:
			b.WriteString("[board]\n")
			return
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
			return
		}
		if w, ok := o.(fyne.Widget); ok {
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return b.String()
}

// TestSetUpOpensAtOnce: Set Up opens the editor without asking; Use
// position asks before it replaces an unfinished game.
func TestSetUpOpensAtOnce(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	gametest.TapMove(u.board.TapPoint, gametest.MustMove(t, "d6"))
	u.setUp()
	top := u.Window().Canvas().Overlays().Top()
	if top == nil || !strings.Contains(objectText(top), "[board]") {
		t.Fatalf("Set Up with an unfinished game: got %q on top, want the editor", objectText(top))
	}
	if strings.Contains(objectText(top), "Give up") {
		t.Errorf("Set Up: asked before the editor opened")
	}
}

// TestLightThemeAtStart: with the light theme saved, the texts made at the
// start are drawn in the light theme's foreground (the move list's header
// was near white on white until a theme switch).
func TestLightThemeAtStart(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	a.Preferences().SetString(prefTheme, "light")
	u := New(a, Options{Do: q.Do})
	t.Cleanup(u.ctrl.Close)
	w := u.Window()
	w.Resize(fyne.NewSize(1000, 700))
	want := theme.DefaultTheme().Color(theme.ColorNameForeground, theme.VariantLight)
	found := false
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *canvas.Text:
			if strings.HasPrefix(x.Text, "Moves (") {
				found = true
				if x.Color != want {
					t.Errorf("the move list's header: got colour %v, want the light theme's foreground %v", x.Color, want)
				}
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
		if wd, ok := o.(fyne.Widget); ok {
			for _, c := range test.WidgetRenderer(wd).Objects() {
				walk(c)
			}
		}
	}
	walk(w.Content())
	if !found {
		t.Fatal("no move list header found")
	}
}

// TestPasteNotAGame: text that is neither a position nor a game record is
// refused in words for a person, without the packages' prefixes.
func TestPasteNotAGame(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.app.Clipboard().SetContent("hello there, this is no game")
	u.paste()
	if st := u.ctrl.Status(); !strings.HasPrefix(st, "Paste: the clipboard holds neither") || strings.Contains(st, "muehle:") {
		t.Errorf("paste of text: status %q, want the reason without package prefixes", st)
	}
}

// TestLegendSaysWhatZeroIs: the legend beside the table says that D 0% is
// a share measured as zero, not "nothing within reach" (issue 49: a small
// game showed D 0% on every point at the start).
func TestLegendSaysWhatZeroIs(t *testing.T) {
	for _, want := range []string{"D 33%", "D 0% is such a share too, measured and zero", "shows as 1%"} {
		if !strings.Contains(legendText, want) {
			t.Errorf("the legend lacks %q:\n%s", want, legendText)
		}
	}
}
