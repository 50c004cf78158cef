package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/ui/game"
)

// sidePanel shows the state of the game: whose turn, the phase, the stones
// of both sides, the result, the move list and, when perfect moves are
// shown, the position's value and every move's value.
type sidePanel struct {
	turn    *widget.Label
	sides   [2]*widget.Label
	result  *widget.Label
	value   *widget.Label
	perfect *widget.Label
	moves   *widget.Label
	scroll  *container.Scroll
	busy    *widget.ProgressBarInfinite // runs while the computer thinks
	box     fyne.CanvasObject
}

func newSidePanel() *sidePanel {
	s := &sidePanel{
		turn:    widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		result:  widget.NewLabel(""),
		value:   widget.NewLabel(""),
		perfect: widget.NewLabel(""),
		moves:   widget.NewLabel(""),
	}
	s.result.Wrapping = fyne.TextWrapWord
	s.value.Wrapping = fyne.TextWrapWord
	s.perfect.TextStyle.Monospace = true
	s.moves.TextStyle.Monospace = true
	for i := range s.sides {
		s.sides[i] = widget.NewLabel("")
	}
	s.busy = widget.NewProgressBarInfinite()
	s.busy.Stop()
	s.busy.Hide()
	s.scroll = container.NewVScroll(container.NewVBox(
		widget.NewLabelWithStyle("Moves", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		s.moves,
	))
	lists := container.NewVSplit(s.scroll, container.NewVScroll(container.NewVBox(s.value, s.perfect)))
	lists.Offset = 0.45
	s.box = container.NewBorder(
		container.NewVBox(s.turn, s.sides[0], s.sides[1], s.busy, s.result, widget.NewSeparator()),
		nil, nil, nil, lists)
	return s
}

// update shows the state of c.
func (s *sidePanel) update(c *game.Controller) {
	g := c.Game()
	pos := g.Position()
	r, why := g.Result()
	if r == muehle.Ongoing {
		s.turn.SetText(fmt.Sprintf("%s to move · %s", pos.Turn, pos.Phase()))
	} else {
		s.turn.SetText("Game over")
	}
	for col := muehle.White; col <= muehle.Black; col++ {
		name := "Human"
		if p := c.Player(col); p != nil {
			name = p.Name()
		}
		s.sides[col].SetText(fmt.Sprintf("%s (%s): %d on the board, %d in hand",
			col, name, pos.Stones[col].Count(), pos.Hand[col]))
	}
	switch {
	case r != muehle.Ongoing:
		s.result.SetText(fmt.Sprintf("%s: %s.", r, why))
	case g.NoRemovalLimit > 0:
		s.result.SetText(fmt.Sprintf("This game is drawn after %d moves without a removal. "+
			"The database does not know that rule, so the perfect player and the marks may misjudge near the limit.",
			g.NoRemovalLimit))
	default:
		s.result.SetText("")
	}
	if c.Thinking() {
		s.busy.Show()
		s.busy.Start()
	} else {
		s.busy.Stop()
		s.busy.Hide()
	}
	if text := moveList(g); text != s.moves.Text {
		s.moves.SetText(text)
		s.scroll.ScrollToBottom()
	}
	s.updatePerfect(c, pos)
}

// updatePerfect shows the position's value and the table of moves.
func (s *sidePanel) updatePerfect(c *game.Controller, pos muehle.Position) {
	if !c.ShowPerfect() {
		s.value.SetText("")
		s.perfect.SetText("")
		return
	}
	marks, err := c.Marks()
	switch {
	case err != nil:
		s.value.SetText("Perfect moves: " + err.Error())
		s.perfect.SetText("")
		return
	case len(marks) == 0:
		if c.Evaluating() {
			s.value.SetText("Perfect moves: evaluating…")
		} else {
			s.value.SetText("")
		}
		s.perfect.SetText("")
		return
	}
	s.value.SetText(fmt.Sprintf("Position: %s for %s (database, perfect play). "+
		"Replies counted as won/drawn/lost for %s.", marks[0].Value, pos.Turn, pos.Turn.Other()))
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s %-11s %s\n", "move", "value", "replies W/D/L")
	for _, m := range marks {
		fmt.Fprintf(&b, "%-10s %-11s %d/%d/%d\n", m.Move, m.Value, m.Replies[0], m.Replies[1], m.Replies[2])
	}
	s.perfect.SetText(strings.TrimRight(b.String(), "\n"))
}

// moveList returns the moves of g numbered in pairs, one pair a line.
func moveList(g *muehle.Game) string {
	h := g.History()
	if len(h) == 0 {
		return "(none yet)"
	}
	var b strings.Builder
	n := 1
	i := 0
	if g.Start().Turn == muehle.Black {
		fmt.Fprintf(&b, "%3d. %-9s %s\n", n, "…", h[0])
		n, i = 2, 1
	}
	for ; i < len(h); i += 2 {
		fmt.Fprintf(&b, "%3d. %-9s", n, h[i])
		if i+1 < len(h) {
			fmt.Fprintf(&b, " %s", h[i+1])
		}
		b.WriteByte('\n')
		n++
	}
	return strings.TrimRight(b.String(), "\n")
}
