package ui

import (
	"fmt"
	"io"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"muehle/muehle"
	"muehle/ui/game"
)

// setUp opens the set-up editor on the current position at once; only
// "Use position" asks before it replaces an unfinished game.
func (u *App) setUp() { u.showSetUp() }

// showSetUp opens the set-up editor.
func (u *App) showSetUp() {
	var e *editor
	e = showEditor(u.win, u.ctrl.Game().Position(), u.ctrl.Game().Stones(), func(p muehle.Position) {
		g, err := muehle.NewGameFrom(p, e.stones) // the game and stones chosen in the dialog
		if err != nil {
			u.showError("Set up", err)
			return
		}
		u.askDiscard("The position set up", func() { u.ctrl.SetGame(g) })
	})
}

// copyPosition puts the current position's text on the clipboard.
func (u *App) copyPosition() {
	s := u.ctrl.Game().Position().String()
	u.app.Clipboard().SetContent(s)
	u.ctrl.Say("Copied the position: %s", s)
}

// copyGame puts the game record on the clipboard.
func (u *App) copyGame() {
	u.app.Clipboard().SetContent(u.recordText())
	u.ctrl.Say("Copied the game record (%s).", game.Plies(u.ctrl.Game().Ply()))
}

// paste reads a position or a game record from the clipboard.
func (u *App) paste() {
	g, what, err := parsePasted(u.app.Clipboard().Content(), u.ctrl.Variant())
	if err != nil {
		u.showError("Paste", err)
		return
	}
	u.askDiscard("Pasting "+what, func() {
		u.ctrl.SetGame(g)
		u.ctrl.Say("Pasted %s.", what)
	})
}

// parsePasted reads s as a position text, or else as a game record. A
// position of the game on the board, whose variant is cur, continues with
// its stones per side; a position of another game (" twelve" at the end)
// starts a game of that one with its own stones.
func parsePasted(s string, cur muehle.Variant) (*muehle.Game, string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, "", fmt.Errorf("the clipboard is empty")
	}
	if p, perr := muehle.ParsePosition(s); perr == nil {
		if err := supported(p.Rules()); err != nil {
			return nil, "", err
		}
		stones := cur.Stones
		if p.Game != cur.Game {
			stones = p.Rules().Stones
		}
		if err := checkSetup(p, stones); err != nil {
			return nil, "", err
		}
		g, err := muehle.NewGameFrom(p, stones)
		what := "a position"
		if p.Game != muehle.Standard {
			what += " of " + p.Rules().Name
		}
		if note := unreachableNote(p, stones); note != "" {
			what += ". " + strings.TrimSuffix(note, ".") // Say adds the period
		}
		return g, what, err
	} else if n := len(strings.Fields(s)); !strings.ContainsAny(s, "\n[") && (n == 4 || n == 5) {
		return nil, "", perr
	}
	g, err := muehle.ParseRecord(s)
	if err != nil {
		return nil, "", fmt.Errorf("the clipboard holds neither a position nor a game record (%w)", err)
	}
	if err := supported(g.Rules()); err != nil {
		return nil, "", err
	}
	what := "a game of " + game.Plies(g.Ply())
	if v := game.VariantOf(g); v != muehle.NineMensMorris {
		what = "a game of " + v.Name() + " (" + game.Plies(g.Ply()) + ")"
	}
	return g, what, nil
}

// saveGame writes the game record to a file the person chooses.
func (u *App) saveGame() {
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			u.showError("Save", err)
			return
		}
		if w == nil {
			return
		}
		defer w.Close()
		if err := u.saveTo(w); err != nil {
			u.showError("Save", fmt.Errorf("%s: %w", w.URI().Path(), err))
			return
		}
		u.ctrl.Say("Saved the game to %s.", w.URI().Path())
	}, u.win)
	d.SetFileName("game.txt")
	d.SetFilter(storage.NewExtensionFileFilter([]string{".txt"}))
	d.Show()
}

// saveTo writes the game record to w and remembers the game as saved: a
// game saved since its last move is given up without asking (askDiscard).
func (u *App) saveTo(w io.Writer) error {
	if _, err := io.WriteString(w, u.recordText()); err != nil {
		return err
	}
	u.fileSaved = u.ctrl.Game().Record()
	return nil
}

// openGame reads a game record from a file the person chooses.
func (u *App) openGame() {
	u.askDiscard("Opening a game", u.showOpen)
}

// showOpen shows the file dialog of Open Game.
func (u *App) showOpen() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			u.showError("Open", err)
			return
		}
		if r == nil {
			return
		}
		defer r.Close()
		b, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if err != nil {
			u.showError("Open", fmt.Errorf("%s: %w", r.URI().Path(), err))
			return
		}
		g, vs, err := parseReviewed(string(b))
		if err != nil {
			u.showError("Open", fmt.Errorf("%s: %w", r.URI().Path(), err))
			return
		}
		u.setReviewedGame(g, vs)
		u.ctrl.Say("Opened %s (%s).", r.URI().Path(), game.Plies(g.Ply()))
	}, u.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".txt"}))
	d.Show()
}

// OpenFile continues with the game record in the file at path.
func (u *App) OpenFile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("ui: opening game: %w", err)
	}
	g, vs, err := parseReviewed(string(b))
	if err != nil {
		return fmt.Errorf("ui: opening game %s: %w", path, err)
	}
	u.setReviewedGame(g, vs)
	return nil
}
