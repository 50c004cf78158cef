package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

// findInDialog returns the first object of type T on the top overlay (the
// open dialog) for which ok holds, or nil.
func findInDialog[T fyne.CanvasObject](u *App, ok func(T) bool) T {
	var zero T
	top := u.Window().Canvas().Overlays().Top()
	if top == nil {
		return zero
	}
	var found T
	var walk func(o fyne.CanvasObject) bool
	walk = func(o fyne.CanvasObject) bool {
		if t, is := o.(T); is && ok(t) {
			found = t
			return true
		}
		var kids []fyne.CanvasObject
		switch c := o.(type) {
		case *fyne.Container:
			kids = c.Objects
		case fyne.Widget:
			kids = test.WidgetRenderer(c).Objects()
		}
		for _, k := range kids {
			if walk(k) {
				return true
			}
		}
		return false
	}
	walk(top)
	return found
}

// tapDialogButton taps the button labelled label in the open dialog.
func tapDialogButton(t *testing.T, u *App, label string) {
	t.Helper()
	b := findInDialog(u, func(b *widget.Button) bool { return b.Text == label })
	if b == nil {
		t.Fatalf("no button %q in the open dialog", label)
	}
	test.Tap(b)
}

// dialogText returns the texts of the labels in the open dialog.
func dialogText(u *App) string {
	var texts []string
	findInDialog(u, func(l *widget.Label) bool { texts = append(texts, l.Text); return false })
	return strings.Join(texts, "\n")
}

func TestAskBeforeDiscarding(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	for _, s := range []string{"d6", "d2"} {
		gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, s))
	}
	u.app.Clipboard().SetContent("1. a7 a1\n*")
	u.paste()
	if !strings.Contains(dialogText(u), "not finished") {
		t.Fatalf("paste over an unfinished game: dialog says %q, want a question", dialogText(u))
	}
	tapDialogButton(t, u, "Keep Playing")
	if h := u.ctrl.Game().History(); len(h) != 2 || h[0] != gametest.MustMove(t, "d6") {
		t.Fatalf("after Keep Playing: got moves %v, want d6 d2", h)
	}
	u.paste()
	tapDialogButton(t, u, "Replace It")
	if h := u.ctrl.Game().History(); len(h) != 2 || h[0] != gametest.MustMove(t, "a7") {
		t.Fatalf("after Replace It: got moves %v, want a7 a1", h)
	}
	// A game without moves goes without a question.
	u.ctrl.NewGame(muehle.NineMensMorris)
	u.paste()
	if u.Window().Canvas().Overlays().Top() != nil || u.ctrl.Game().Ply() != 2 {
		t.Errorf("paste over an empty game: a dialog %v, %d plies; want no question and 2 plies",
			u.Window().Canvas().Overlays().Top() != nil, u.ctrl.Game().Ply())
	}
}

func TestNewGameDialog(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, "d6"))
	u.newGame()
	text := dialogText(u)
	if !strings.Contains(text, "not finished") {
		t.Errorf("New Game over an unfinished game: dialog says %q, want a warning", text)
	}
	// Between two people, the dialog offers a computer for Black; without
	// engines that is the random player.
	sel := findInDialog(u, func(s *widget.Select) bool { return true })
	if sel == nil {
		t.Fatal("no player choice in the New Game dialog")
	}
	tapDialogButton(t, u, "Start")
	if got := u.ctrl.Player(muehle.Black); got == nil || got.Name() != "Random" {
		t.Errorf("Black after New Game with the defaults: got %v, want Random", got)
	}
	if u.ctrl.Player(muehle.White) != nil || u.ctrl.Game().Ply() != 0 {
		t.Errorf("after New Game: White %v, %d plies; want a person and a new game", u.ctrl.Player(muehle.White), u.ctrl.Game().Ply())
	}
	if got := u.Board().View().Players; got != [2]string{"Human", "Random"} {
		t.Errorf("players on the board: got %v, want Human and Random", got)
	}
}

func TestDefaultOpponent(t *testing.T) {
	q := gametest.NewQueue()
	dir := t.TempDir()
	e := NewEngines(dir)
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.Do, Engines: e, Database: e})
	t.Cleanup(u.ctrl.Close)
	if got, want := u.defaultOpponent(), (play.Spec{Kind: play.KindAlphaBeta}); got != want {
		t.Errorf("opponent without a database: got %v, want %v", got, want)
	}
	if err := e.SetDir(solvedEngines(t).Dir()); err != nil {
		t.Fatal(err)
	}
	if got, want := u.defaultOpponent(), (play.DefaultPerfect); got != want {
		t.Errorf("opponent with a database: got %v, want %v", got, want)
	}
}

func TestLastGameRestored(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.Do})
	for _, s := range []string{"d6", "d2", "b4"} {
		gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, s))
	}
	u.setNoRemovalRule(true)
	u.ctrl.Close()
	u2 := New(a, Options{Do: q.Do})
	defer u2.ctrl.Close()
	if got, want := u2.ctrl.Game().Record(), u.ctrl.Game().Record(); got != want {
		t.Errorf("game after a restart:\n%s\nwant\n%s", got, want)
	}
	if got := u2.ctrl.Game().NoRemovalLimit; got != noRemovalMoves {
		t.Errorf("no-removal rule after a restart: got %d, want %d", got, noRemovalMoves)
	}
}

func TestMoveListReview(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	for _, s := range []string{"d6", "d2", "b4"} {
		gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, s))
	}
	if got, want := u.side.moves.Text(), "    Start\n  1. d6\n  1… d2\n  2. b4"; got != want {
		t.Fatalf("move list:\n%s\nwant\n%s", got, want)
	}
	positions := u.ctrl.Game().Positions()
	test.Tap(u.side.moves.rows[1])
	if got := u.Board().View().Pos; got != positions[1] || !u.ctrl.Reviewing() {
		t.Fatalf("after a click on move 1: board %v, reviewing %v; want %v", got, u.ctrl.Reviewing(), positions[1])
	}
	if u.side.moves.rows[1].Importance != widget.HighImportance || u.side.moves.rows[3].Importance == widget.HighImportance {
		t.Errorf("the row of the shown position is not the highlighted one")
	}
	keys := []struct {
		key  fyne.KeyName
		want int
	}{
		{fyne.KeyRight, 2}, {fyne.KeyLeft, 1}, {fyne.KeyHome, 0}, {fyne.KeyEnd, 3}, {fyne.KeyUp, 2}, {fyne.KeyDown, 3},
	}
	for _, k := range keys {
		u.Window().Canvas().OnTypedKey()(&fyne.KeyEvent{Name: k.key})
		if got := u.ctrl.Shown(); got != k.want {
			t.Errorf("key %s: got ply %d shown, want %d", k.key, got, k.want)
		}
		if got := u.Board().View().Pos; got != positions[k.want] {
			t.Errorf("key %s: board shows %v, want %v", k.key, got, positions[k.want])
		}
	}
	// A move on an earlier position asks before it drops the later moves.
	test.Tap(u.side.moves.rows[1])
	u.Board().TapPoint(21) // a1
	if !strings.Contains(dialogText(u), "2 later moves") {
		t.Fatalf("move on an earlier position: dialog says %q", dialogText(u))
	}
	tapDialogButton(t, u, "Play a1")
	if h := u.ctrl.Game().History(); len(h) != 2 || h[1] != gametest.MustMove(t, "a1") {
		t.Errorf("after the new line: got moves %v, want d6 a1", h)
	}
}

func TestHandsAndRemovalHeadline(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	for _, s := range []string{"a7", "b6", "d7", "d6"} {
		gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, s))
	}
	u.Board().TapPoint(2) // g7 closes a mill
	if got, want := u.side.turn.Text, "White removes a stone"; got != want {
		t.Errorf("headline while removing: got %q, want %q", got, want)
	}
	r := test.WidgetRenderer(u.Board()).(*boardRenderer)
	for col, want := range [2]int{6, 7} { // White has placed 3, Black 2
		n := 0
		for _, s := range r.hand[col] {
			if s.Visible() {
				n++
			}
		}
		if n != want {
			t.Errorf("%s stones drawn in hand: got %d, want %d", muehle.Color(col), n, want)
		}
	}
	shown := 0
	for _, l := range r.millLines {
		if l.Visible() {
			shown++
		}
	}
	if shown != 2 {
		t.Errorf("mill edges highlighted: got %d, want 2 (a7-d7, d7-g7)", shown)
	}
}

func TestThemeChoice(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	menuItem(t, u.Window().MainMenu(), "View", "Dark Theme").Action()
	want := theme.DefaultTheme().Color(theme.ColorNameBackground, theme.VariantDark)
	if got := u.app.Settings().Theme().Color(theme.ColorNameBackground, theme.VariantLight); got != want {
		t.Errorf("dark theme asked for its light background: got %v, want the dark %v", got, want)
	}
	if !menuItem(t, u.Window().MainMenu(), "View", "Dark Theme").Checked {
		t.Errorf("Dark Theme not checked after choosing it")
	}
	if got := u.app.Preferences().String(prefTheme); got != "dark" {
		t.Errorf("saved theme: got %q, want dark", got)
	}
}

// TestLayoutKeepsTheBoard checks that at a small window size the board
// gets the width its height lets it use (and the panels the rest), and
// that the board keeps its size when the status line grows or the busy bar
// appears.
func TestLayoutKeepsTheBoard(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	for _, size := range []fyne.Size{fyne.NewSize(700, 500), fyne.NewSize(1024, 700), fyne.NewSize(800, 600)} {
		u.Window().Resize(size)
		b := u.Board().Size()
		if w := b.Height * 8 / (8 + 2*handStrip); b.Width < w {
			t.Errorf("board at a %v window: got %v wide, want at least the %v its height of %v lets it use", size, b.Width, w, b.Height)
		}
		if side := u.side.box.Size().Width; side < 0.3*size.Width {
			t.Errorf("side panel at a %v window: got %v wide, want at least 30%% of the width", size, side)
		}
	}
	u.Window().Resize(fyne.NewSize(700, 500))
	before := u.Board().Size()
	u.ctrl.Say("%s", strings.Repeat("A long explanation that wraps over several lines. ", 8))
	u.side.busy.Show()
	u.Window().Content().Refresh()
	if got := u.Board().Size(); got != before {
		t.Errorf("board after a long status line and the busy bar: got %v, want %v unchanged", got, before)
	}
}

// TestComputerGameSavedSparingly checks that a game between computers is
// saved in the preferences at most every two seconds, and in full when the
// window closes.
func TestComputerGameSavedSparingly(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.Do})
	u.setSpeed(100 * time.Millisecond)
	u.setPlayer(muehle.White, play.Spec{Kind: play.KindRandom})
	u.setPlayer(muehle.Black, play.Spec{Kind: play.KindRandom})
	start := time.Now()
	q.Drain(t, 10*time.Second, func() bool { return u.ctrl.Game().Ply() >= 6 })
	if time.Since(start) > 1500*time.Millisecond {
		t.Logf("six moves took %v: a save two seconds after the first may have come, not checked", time.Since(start))
	} else if got := a.Preferences().String(prefGame); got == u.ctrl.Game().Record() {
		t.Errorf("a computer game of %d moves was saved after every move", u.ctrl.Game().Ply())
	}
	u.Window().Close()
	if got, want := a.Preferences().String(prefGame), u.ctrl.Game().Record(); got != want {
		t.Errorf("game saved on close:\n%s\nwant\n%s", got, want)
	}
}

// TestNewGameNamesAndEscape: the New Game dialog's choices are wide
// enough for the longest name (none cut, "Nine Men's Mor…"), and Escape
// closes the dialog as Cancel does.
func TestNewGameNamesAndEscape(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	f := u.newGameForm(false)
	for _, s := range append([]*widget.Select{f.game}, f.sides[:]...) {
		for _, name := range s.Options {
			if w := widget.NewLabel(name).MinSize().Width; s.MinSize().Width < w {
				t.Errorf("the choice of %q is %v wide, the name %v", name, s.MinSize().Width, w)
			}
		}
	}
	u.newGame()
	if u.Window().Canvas().Overlays().Top() == nil || u.escDialog == nil {
		t.Fatal("New Game: no dialog")
	}
	u.typedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if u.Window().Canvas().Overlays().Top() != nil || u.escDialog != nil {
		t.Errorf("Escape: the New Game dialog is still shown")
	}
}

// TestSavedGameGivenUpWithoutAsking: a game saved since its last move is
// not "unfinished" for Open or New Game; a move after the save makes it so
// again.
func TestSavedGameGivenUpWithoutAsking(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, "d6"))
	if !u.unfinished() {
		t.Fatal("a game of one move: want it unfinished")
	}
	var b strings.Builder
	if err := u.saveTo(&b); err != nil || !strings.Contains(b.String(), "d6") {
		t.Fatalf("save: %v, %q", err, b.String())
	}
	if u.unfinished() {
		t.Errorf("just saved: want Open to replace it without asking")
	}
	gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, "d2"))
	if !u.unfinished() {
		t.Errorf("a move after the save: want it unfinished again")
	}
}

// TestPlayerListsAreOffered: the New Game dialog's players and the White
// and Black menus' are the one list, play.Offered, after Human; the
// dialog's select shows each by its title.
func TestPlayerListsAreOffered(t *testing.T) {
	want := append([]play.Spec{game.Human}, play.Offered()...)
	u := newTestApp(t, gametest.NewQueue(), NewEngines(t.TempDir()))
	if got := u.offeredSpecs(); !slices.Equal(got, want) {
		t.Errorf("New Game offers %v, want %v", got, want)
	}
	f := u.newGameForm(false)
	for i, sp := range want {
		if got := f.sides[muehle.White].Options; i >= len(got) || got[i] != game.Title(sp) {
			t.Fatalf("New Game's White players: got %q, want the titles of %v", got, want)
		}
	}
	for col := range u.menu.players {
		var got []play.Spec
		for _, pi := range u.menu.players[col] {
			got = append(got, pi.spec)
		}
		if !slices.Equal(got, want) {
			t.Errorf("the %s menu offers %v, want %v", muehle.Color(col), got, want)
		}
	}
	// Without engines, New Game offers people and the random player.
	u2 := newTestApp(t, gametest.NewQueue(), nil)
	if got := u2.offeredSpecs(); !slices.Equal(got, want[:2]) {
		t.Errorf("New Game without engines offers %v, want %v", got, want[:2])
	}
}
