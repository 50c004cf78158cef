package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// TestRulesFromData: every game of muehle.Games gets rules for players
// from its entry: its stones, its board's points and mills, flying only
// where it flies, the full board only where it is drawn, placing or moving
// at once only in a mixed game, the no-removal rule named as the menu
// names it; pictures whose stones stand on the board and whose captions
// name its points; and none of the developers' words.
func TestRulesFromData(t *testing.T) {
	for _, r := range muehle.Games {
		ss := rulesSections(r)
		text := rulesMarkdown(ss)
		b := r.Board
		for _, want := range []string{
			"# " + r.Name,
			fmt.Sprintf("each have %d stones", r.Stones),
			fmt.Sprintf("has %d points", b.NumPoints()),
			fmt.Sprintf("%d such rows", len(b.Mills())),
			fmt.Sprintf("Draw After %d Plies Without a Removal", noRemovalMoves),
			fmt.Sprintf("fewer than %d stones", loseBelow(r)),
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the rules lack %q:\n%s", r.ID, want, text)
			}
		}
		for _, c := range []struct {
			rule bool
			text string
		}{
			{flyAt(r) > 0, "## Flying"},
			{r.FullBoardDraw, "fills every point"},
			{r.Mixed, "There is no separate placing phase"},
			{!r.Mixed, "## Placing\n"},
		} {
			if strings.Contains(text, c.text) != c.rule {
				t.Errorf("%s: %q in the rules is %t, want %t", r.ID, c.text, !c.rule, c.rule)
			}
		}
		if gameNotes[r.ID] == "" {
			t.Errorf("%s: no paragraph about the game in gameNotes", r.ID)
		}
		for _, bad := range []string{"`", ".go", "rules id", "perft", "Test", " layer", "package", "muehlectl", "Moves Without"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s: the rules for players say %q", r.ID, bad)
			}
		}
		pictures := 0
		for _, s := range ss {
			p := s.picture
			if p == nil {
				continue
			}
			pictures++
			if p.board != b || (p.white|p.black|p.targets|p.remove)&^b.All() != 0 || p.white&p.black != 0 {
				t.Errorf("%s: picture %q has stones or rings off the board or on each other", r.ID, p.caption)
			}
			if p.targets&(p.white|p.black) != 0 {
				t.Errorf("%s: picture %q rings a taken point as a target", r.ID, p.caption)
			}
			if (p.white|p.black).Count() > 0 && !strings.Contains(p.caption, b.PointName((p.white|p.black).First())) &&
				!strings.Contains(p.caption, b.PointName(p.white.First())) {
				t.Errorf("%s: caption %q names none of the picture's points", r.ID, p.caption)
			}
		}
		if pictures < 3 {
			t.Errorf("%s: %d pictures, want the board, a move and a mill at least", r.ID, pictures)
		}
	}
}

// TestRulesDialog: Help ▸ Rules of the Game in a window of 800×600 shows
// the rules of the game on the board, fits the window (no text cut at the
// right edge), scrolls with the mouse wheel over a picture, and shows
// every game's rules when it is chosen; Escape closes it.
func TestRulesDialog(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.Window().Resize(fyne.NewSize(800, 600))
	u.ctrl.SetGame(muehle.Lasker.Rules().NewGame(10))
	menuItem(t, u.Window().MainMenu(), "Help", "Rules of the Game").Action()
	top := u.Window().Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Rules of the Game: no dialog shown")
	}
	var choice *widget.Select
	var scroll *container.Scroll
	var find func(o fyne.CanvasObject)
	find = func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Select:
			choice = w
		case *container.Scroll:
			if scroll == nil {
				scroll = w
			}
		case *fyne.Container:
			for _, c := range w.Objects {
				find(c)
			}
		}
		if w, ok := o.(fyne.Widget); ok {
			if _, isScroll := o.(*container.Scroll); isScroll {
				return
			}
			for _, c := range test.WidgetRenderer(w).Objects() {
				find(c)
			}
		}
	}
	find(top)
	if choice == nil || scroll == nil {
		t.Fatalf("the rules dialog: select %v, scroll %v; want both", choice, scroll)
	}
	if choice.Selected != "Lasker Morris" || !strings.Contains(objectText(scroll.Content), "# Lasker Morris") &&
		!strings.Contains(objectText(scroll.Content), "Lasker Morris") {
		t.Errorf("the rules dialog: got %q chosen, want the game on the board, Lasker Morris", choice.Selected)
	}
	win := u.Window().Canvas().Size()
	if s := scroll.Size(); s.Width > win.Width || s.Height > win.Height || s.Width < 400 {
		t.Errorf("the rules scroll is %v in a window of %v", s, win)
	}
	if w, sw := scroll.Content.MinSize().Width, scroll.Size().Width; w > sw {
		t.Errorf("the rules ask for %v pixels in a scroll %v wide: text cut at the right edge", w, sw)
	}
	for _, r := range muehle.Games {
		choice.SetSelected(r.Name)
		if got := objectText(scroll.Content); !strings.Contains(got, r.Name) || !strings.Contains(got, "Mills") {
			t.Errorf("%s chosen: got %q", r.Name, got)
		}
		if scroll.Content.MinSize().Height <= scroll.Size().Height {
			t.Errorf("%s: the rules fit without scrolling at 800×600? %v in %v", r.Name, scroll.Content.MinSize(), scroll.Size())
		}
	}
	// The wheel over the first picture scrolls the text.
	choice.SetSelected(muehle.Standard.Rules().Name)
	pic := fyne.CurrentApp().Driver().AbsolutePositionForObject(scroll)
	pos := fyne.NewPos(pic.X+rulesPictureSide/2, pic.Y+scroll.Size().Height/2)
	test.Scroll(u.Window().Canvas(), pos, 0, -120)
	if scroll.Offset.Y <= 0 {
		t.Errorf("the mouse wheel over the rules at %v: offset %v, want it scrolled", pos, scroll.Offset)
	}
	u.typedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if u.escDialog != nil {
		t.Errorf("Escape: the rules are still shown")
	}
}
