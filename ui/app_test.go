package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// menuItem finds the item labelled label in the menu named menu, looking
// one level into child menus.
func menuItem(t *testing.T, m *fyne.MainMenu, menu, label string) *fyne.MenuItem {
	t.Helper()
	for _, mm := range m.Items {
		if mm.Label != menu {
			continue
		}
		for _, it := range mm.Items {
			if it.Label == label {
				return it
			}
			if it.ChildMenu != nil {
				for _, c := range it.ChildMenu.Items {
					if it.Label+" ▸ "+c.Label == label {
						return c
					}
				}
			}
		}
	}
	t.Fatalf("no item %q in menu %q", label, menu)
	return nil
}

func TestMenusAndSettingsPersist(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.Do})
	m := u.Window().MainMenu()
	for _, name := range []string{"New Game…", "Undo", "Redo", "Set Up Position…", "Copy Position", "Paste Position or Game",
		"Open Game…", "Save Game…", "Hint: Show the Best Move", "Quit"} {
		menuItem(t, m, "Game", name)
	}
	for _, name := range []string{"Show Perfect Moves", "Show State Number", "Review Game", "Search Tree…", "Training…"} {
		menuItem(t, m, "Analysis", name)
	}
	for _, name := range []string{"Rules of the Game", "Keyboard Shortcuts", "About Mühle"} {
		menuItem(t, m, "Help", name)
	}
	menuItem(t, m, "View", "Flip Board")
	// Without engines, alpha-beta and perfect are offered but disabled.
	if it := menuItem(t, m, "White", "Alpha-beta ▸ Depth 3"); !it.Disabled {
		t.Errorf("alpha-beta enabled without engines")
	}
	if it := menuItem(t, m, "Black", "Perfect"); !it.Disabled {
		t.Errorf("perfect enabled without engines")
	}
	menuItem(t, m, "Black", "Random").Action()
	menuItem(t, m, "Speed", "3 s").Action()
	if got := u.ctrl.Player(muehle.Black); got == nil || got.Name() != "Random" {
		t.Fatalf("Black after choosing Random: %v", got)
	}
	if !menuItem(t, m, "Black", "Random").Checked || menuItem(t, m, "Black", "Human").Checked {
		t.Errorf("Black menu checks do not follow the choice")
	}
	u.ctrl.Close()

	// A second window on the same preferences starts with those settings.
	u2 := New(a, Options{Do: q.Do})
	defer u2.ctrl.Close()
	if got := u2.ctrl.Player(muehle.Black); got == nil || got.Name() != "Random" {
		t.Errorf("Black after restart: got %v, want Random", got)
	}
	if got := u2.ctrl.Speed(); got != 3*time.Second {
		t.Errorf("speed after restart: got %v, want 3s", got)
	}
	if u2.ctrl.Player(muehle.White) != nil {
		t.Errorf("White after restart: got a computer, want a person")
	}
}

// TestWindowFollowsGame checks the wiring between the board, the game flow
// and the rest of the window (the flow itself is tested in ui/game): taps
// on the board play moves, and after every change the board shows the
// controller's view, the status line its status, and the Undo and Redo
// menu items what the game allows.
func TestWindowFollowsGame(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	g := u.ctrl.Game()
	check := func(when string, canUndo, canRedo bool) {
		t.Helper()
		if got, want := u.Board().View().Pos, g.Position(); got != want {
			t.Errorf("%s: board shows %v, game is at %v", when, got, want)
		}
		if got, want := u.status.Text, u.ctrl.Status(); got != want {
			t.Errorf("%s: status line %q, want %q", when, got, want)
		}
		if u.menu.undo.Disabled == canUndo || u.menu.redo.Disabled == canRedo {
			t.Errorf("%s: undo disabled %v, redo disabled %v; want %v and %v", when, u.menu.undo.Disabled, u.menu.redo.Disabled, !canUndo, !canRedo)
		}
	}
	check("start", false, false)
	for _, s := range []string{"a7", "b6", "d7", "d6", "g7xb6"} {
		gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, s))
	}
	if g.Ply() != 5 {
		t.Fatalf("after tapping five moves: got %d plies, want 5; status %q", g.Ply(), u.status.Text)
	}
	check("after five moves", true, false)
	u.ctrl.Undo()
	u.ctrl.Undo()
	check("after two undos", true, true)
	u.ctrl.Redo()
	u.ctrl.Redo()
	check("after two redos", true, false)
	u.Board().TapPoint(4) // d6 holds a Black stone: no placement there
	if g.Ply() != 5 || !strings.Contains(u.status.Text, "d6 is occupied") {
		t.Errorf("tap on an occupied point: %d plies, status %q", g.Ply(), u.status.Text)
	}
	check("after a refused tap", true, false)
}

func TestCopyPaste(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	for _, s := range []string{"d6", "d2", "b4", "f4"} {
		gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, s))
	}
	pos := u.ctrl.Game().Position()
	u.copyPosition()
	clip := u.app.Clipboard().Content()
	if clip != pos.String() {
		t.Fatalf("copied position: got %q, want %q", clip, pos.String())
	}
	u.ctrl.NewGame(muehle.NineMensMorris)
	u.paste()
	if got := u.ctrl.Game().Position(); got != pos || u.ctrl.Game().Ply() != 0 {
		t.Errorf("pasted position: got %v after %d plies, want %v as the start", got, u.ctrl.Game().Ply(), pos)
	}

	// A game record brings the moves back.
	u.ctrl.NewGame(muehle.NineMensMorris)
	for _, s := range []string{"d6", "d2", "b4"} {
		gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, s))
	}
	u.copyGame()
	u.ctrl.NewGame(muehle.NineMensMorris)
	u.paste()
	if h := u.ctrl.Game().History(); len(h) != 3 || h[2] != gametest.MustMove(t, "b4") {
		t.Errorf("pasted game: got moves %v, want d6 d2 b4", h)
	}

	// Nonsense and impossible positions are refused with a reason.
	for _, tc := range []struct{ clip, want string }{
		{"", "clipboard is empty"},
		{"WWWW.................... w 9 9", "13 stones"},
		{"1. d6 d6", "d6"},
	} {
		u.ctrl.NewGame(muehle.NineMensMorris)
		u.app.Clipboard().SetContent(tc.clip)
		u.paste()
		if u.ctrl.Game().Ply() != 0 || u.ctrl.Game().Start() != muehle.NewPosition(9) || !strings.Contains(u.status.Text, tc.want) {
			t.Errorf("paste %q: status %q, want the game unchanged and %q", tc.clip, u.status.Text, tc.want)
		}
	}
}

func TestOpenFile(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	path := filepath.Join(t.TempDir(), "game.txt")
	if err := os.WriteFile(path, []byte("1. d6 d2\n2. b4 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := u.OpenFile(path); err != nil {
		t.Fatal(err)
	}
	if got := u.ctrl.Game().Ply(); got != 3 {
		t.Errorf("opened game: got %d plies, want 3", got)
	}
	if !strings.Contains(u.side.moves.Text(), "b4") {
		t.Errorf("move list: %q", u.side.moves.Text())
	}
	if strings.Contains(u.side.result.Text, "without a removal") {
		t.Errorf("side panel warns of a no-removal limit the game does not have: %q", u.side.result.Text)
	}
	if err := os.WriteFile(path, []byte("[NoRemovalLimit \"50\"]\n1. d6 d2\n*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := u.OpenFile(path); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(u.side.result.Text, "drawn after 50 plies without a removal") {
		t.Errorf("side panel with a no-removal limit: got %q, want the rule named", u.side.result.Text)
	}
	if err := os.WriteFile(path, []byte("1. d6 d6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := u.OpenFile(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("opening an illegal game: got %v, want an error naming the file", err)
	}
}

func TestStateNumber(t *testing.T) {
	e := NewEngines(t.TempDir())
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	p, g := endgame33(t)
	u.ctrl.SetGame(g)
	u.stateNumber()
	db, _ := e.database()
	i := db.Indexer().Layer(layersKeyOf(p)).Index(p)
	want := "layer 3-3, index " + itoa(i)
	if !strings.Contains(u.status.Text, want) || !strings.Contains(u.status.Text, "not computed") {
		t.Errorf("state number: got %q, want %q and that the layer is not computed", u.status.Text, want)
	}
}
