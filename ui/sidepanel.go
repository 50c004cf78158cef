package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/retro/teach"
	"muehle/ui/game"
)

// sidePanel shows the state of the game: whose turn, the players and
// their stones, the state number of the position on the board, the result,
// the move list (which is also the way to review the game) and the
// database's verdict of the position with every move's value.
type sidePanel struct {
	turn    *widget.Label
	sides   [2]*widget.Label
	state   *widget.Label
	result  *widget.Label
	value   *widget.Label
	perfect *widget.Label
	legend  *widget.Label
	moves   *moveList
	// verdicts are the database's verdicts on the moves of the game, nil
	// when it has not been reviewed.
	verdicts []teach.Verdict
	// refutation says what the move just shown gave up, when a review
	// found that it did, and how the opponent wins.
	refutation *widget.Label
	// refuteWalk opens the refutation on the board, to step through.
	refuteWalk *widget.Button
	busy       *widget.ProgressBarInfinite // runs while the computer thinks
	// hidden hides what the database says about the position (training,
	// before the answer): the marks' table, the value, the value in the
	// state number.
	hidden bool
	box    fyne.CanvasObject

	// onReview is called with the ply whose position a click on the move
	// list asks for.
	onReview func(ply int)
}

func newSidePanel() *sidePanel {
	s := &sidePanel{
		turn:       widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		state:      widget.NewLabel(""),
		result:     widget.NewLabel(""),
		refutation: widget.NewLabel(""),
		value:      widget.NewLabel(""),
		perfect:    widget.NewLabel(""),
		legend:     widget.NewLabel(legendText),
	}
	s.state.Truncation = fyne.TextTruncateEllipsis
	s.turn.Truncation = fyne.TextTruncateEllipsis
	s.result.Wrapping = fyne.TextWrapWord
	s.refutation.Wrapping = fyne.TextWrapWord
	s.refutation.Importance = widget.DangerImportance
	s.refutation.Hide()
	s.refuteWalk = widget.NewButton("Step Through the Refutation on the Board (R)", nil)
	s.refuteWalk.Hide()
	s.value.Wrapping = fyne.TextWrapWord
	s.legend.Wrapping = fyne.TextWrapWord
	s.perfect.TextStyle.Monospace = true
	for i := range s.sides {
		s.sides[i] = widget.NewLabel("")
		s.sides[i].Truncation = fyne.TextTruncateEllipsis
	}
	s.moves = newMoveList(func(ply int) {
		if s.onReview != nil {
			s.onReview(ply)
		}
	})
	// The busy bar keeps its place when hidden, so that nothing below it
	// moves when the computer starts or stops thinking.
	s.busy = widget.NewProgressBarInfinite()
	s.busy.Stop()
	s.busy.Hide()
	spacer := canvas.NewRectangle(transparent)
	spacer.SetMinSize(s.busy.MinSize())
	movesHelp := widget.NewLabel("Moves (click one, or the arrow keys, Home, End)")
	movesHelp.TextStyle.Bold = true
	movesHelp.Truncation = fyne.TextTruncateEllipsis
	// At least three rows of moves and two lines of the analysis however
	// small the window; both scroll.
	row := newMoveRow(0, nil)
	row.SetText("Start")
	s.moves.scroll.SetMinSize(fyne.NewSize(0, 3*row.MinSize().Height))
	movesBox := container.NewBorder(movesHelp, nil, nil, nil, s.moves.view)
	// Scrolling both ways, the analysis asks for no width of its own: at
	// small window sizes the board gets the space.
	analysis := container.NewScroll(container.NewVBox(s.refutation, s.refuteWalk, s.result, s.value, s.perfect, s.legend))
	analysis.SetMinSize(fyne.NewSize(0, 2*row.MinSize().Height))
	lists := container.NewVSplit(movesBox, analysis)
	lists.Offset = 0.45 // the analysis is the longer
	s.box = container.NewBorder(
		// The busy bar beside the headline, not on a line of its own:
		// the move list and the table get its height.
		container.NewVBox(container.NewBorder(nil, nil, nil,
			container.NewGridWrap(fyne.NewSize(80, spacer.MinSize().Height), container.NewStack(spacer, s.busy)), s.turn),
			s.sides[0], s.sides[1], s.state, widget.NewSeparator()),
		nil, nil, nil, lists)
	return s
}

// legendText explains the marks and the table in plain words. The
// percentage of a drawing move is the perfect player's sector score
// (retro/play/sector.go, game.MoveMark.Chance).
var legendText = "How to read this: a ply is one move of either side. " +
	"On the board, W13 on a point means that move wins in 13 plies, L8 that it loses in 8 plies " +
	"(the longest resistance), D that it draws, always with perfect play by both sides; " +
	"green, grey and red say the same. " +
	"D 33% means the move draws and has a sector score of 33 %: if both sides keep the draw, " +
	"33 of 100 positions are won for the side moving now in the layer (the stone counts) the game reaches " +
	"at the next removal, looked for up to " + strconv.Itoa(play.SectorPlies) + " plies ahead with the opponent " +
	"choosing the lowest share. D 0% is such a share too, measured and zero: no position of that layer is won for " +
	"the side moving (common early in a game of few stones, where nearly every position is drawn); a share below 1 % shows as 1%. " +
	"The perfect player plays the drawing move with the highest score, " +
	"steering into layers rich in wins where a mistake of the opponent costs it the game. " +
	"A yellow frame marks the move the perfect player would play (* in the table). " +
	"The replies column counts the opponent's answers to the move: how many win, draw or lose for the opponent."

// update shows the state of c; e, if set, gives the state number.
func (s *sidePanel) update(c *game.Controller, e game.Engines) {
	g := c.Game()
	pos := c.View().Pos
	r, why := g.Result()
	head := c.Headline()
	if v := c.Variant(); v != muehle.NineMensMorris {
		head = v.Name() + " · " + head
	}
	s.turn.SetText(head)
	for col := muehle.White; col <= muehle.Black; col++ {
		s.sides[col].SetText(fmt.Sprintf("%s · %s: %d on the board, %d in hand",
			col, c.View().Players[col], pos.Stones[col].Count(), pos.Hand[col]))
	}
	// The state number is the position's whose moves the table lists: with
	// a removal pending, the one before the move that closed the mill, as
	// Show State Number (Ctrl+I) says.
	if s.hidden {
		s.state.SetText(hiddenStateText(e, c.Position()))
	} else {
		s.state.SetText(stateText(e, c.Position()))
	}
	switch {
	case r != muehle.Ongoing && c.Reviewing():
		s.result.SetText(fmt.Sprintf("The game ended later: %s, %s.", r, why))
	case r != muehle.Ongoing:
		s.result.SetText(fmt.Sprintf("%s: %s.", r, why))
	case g.NoRemovalLimit > 0:
		s.result.SetText(fmt.Sprintf("This game is drawn after %d plies without a removal. "+
			"The database does not know that rule, so the perfect player and the marks may misjudge near the limit.",
			g.NoRemovalLimit))
	default:
		s.result.SetText("")
	}
	showIf(s.result, s.result.Text != "") // an empty line would push the table down
	if c.Thinking() {
		s.busy.Show()
		s.busy.Start()
	} else {
		s.busy.Stop()
		s.busy.Hide()
	}
	s.moves.update(g, c.Shown(), s.verdicts)
	s.updatePerfect(c, pos)
	showIf(s.perfect, s.perfect.Text != "")
}

// showIf shows o when on is set, else hides it.
func showIf(o fyne.CanvasObject, on bool) {
	if on == o.Visible() {
		return
	}
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}

// stateText returns the state number line of pos.
func stateText(e game.Engines, pos muehle.Position) string {
	if e == nil {
		return "State number: needs the database engines"
	}
	st, err := e.StateNumber(pos)
	if err != nil {
		return "State number: none (" + err.Error() + ")"
	}
	return "State number: " + st
}

// roughSeconds returns d in whole seconds: "3 s".
func roughSeconds(d time.Duration) string {
	return fmt.Sprintf("%d s", int(d.Round(time.Second).Seconds()))
}

// hiddenStateText returns the state number line of pos without the
// position's value: "State number: layer 3-3, index 42".
func hiddenStateText(e game.Engines, pos muehle.Position) string {
	s := stateText(e, pos)
	if i := strings.Index(s, " ("); i >= 0 && strings.HasPrefix(s, "State number: layer") {
		return s[:i]
	}
	return s
}

// updatePerfect shows the database's verdict of the position on the board
// and the table of its moves.
func (s *sidePanel) updatePerfect(c *game.Controller, pos muehle.Position) {
	if s.hidden {
		s.value.SetText(hiddenText)
		s.perfect.SetText("")
		return
	}
	marks, err := c.Marks()
	switch {
	case err != nil:
		msg := "Database: " + err.Error() + "."
		if cur := c.Position(); cur.Phase() == muehle.Placing && !cur.Rules().Mixed {
			// In Lasker Morris the search meets the layers with stones
			// in hand of the other side too: the player falls back, and
			// says so in the status line.
			msg += fmt.Sprintf(" The perfect player plays on without it: in the opening it searches the placements "+
				"itself (up to %s a move, alpha-beta where the search does not finish); "+
				"the marks show only what the database holds.", roughSeconds(play.PlacementTime))
		}
		s.value.SetText(msg)
		s.perfect.SetText("")
		return
	case len(marks) == 0:
		switch {
		case c.Evaluating():
			s.value.SetText("Database: looking up this position…")
		case !c.ShowPerfect() && !c.Reviewing():
			s.value.SetText("Analysis ▸ Show Perfect Moves (Ctrl+P) shows what the database says about every move.")
		default:
			s.value.SetText("")
		}
		s.perfect.SetText("")
		return
	}
	s.value.SetText(verdict(pos.Turn, marks[0].Value))
	if p := c.Pending(); p.To != muehle.NoPoint {
		// The mill is closed: the moves left are its removals.
		var rm []game.MoveMark
		for _, m := range marks {
			if m.Move.From == p.From && m.Move.To == p.To {
				rm = append(rm, m)
			}
		}
		s.perfect.SetText(fmt.Sprintf("The stone to remove after %s:\n", pos.Board().MoveString(p)) + movesTable(pos.Board(), pos.Turn, rm))
		return
	}
	s.perfect.SetText(movesTable(pos.Board(), pos.Turn, marks))
}

// verdict says in words what the database says about a position whose
// best move has value v for turn, the side to move.
func verdict(turn muehle.Color, v layers.Value) string {
	switch v.Outcome() {
	case layers.Win:
		return fmt.Sprintf("Database: %s wins in %s with perfect play.", turn, game.Plies(v.Depth()))
	case layers.Loss:
		return fmt.Sprintf("Database: %s loses in %s with perfect play by %s.", turn, game.Plies(v.Depth()), turn.Other())
	}
	return "Database: a draw with perfect play by both sides."
}

// movesTable returns the table of the moves of turn, best first, with
// labelled columns: a drawing move's win chance after its result, the
// perfect player's picks starred; the moves named on board b.
func movesTable(board *muehle.Board, turn muehle.Color, marks []game.MoveMark) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %-10s %-17s %s's replies\n", "Move", "Result for "+turn.String(), turn.Other())
	fmt.Fprintf(&b, "  %-10s %-17s %s\n", "", "", "win / draw / lose")
	for _, m := range marks {
		star, result := " ", game.OutcomeWords(m.Value)
		if m.Pick {
			star = "*"
		}
		if m.Value.Outcome() == layers.Draw {
			result += ", " + percent(m.Chance)
		}
		fmt.Fprintf(&b, "%s %-10s %-17s %d / %d / %d\n", star, board.MoveString(m.Move), result, m.Replies[0], m.Replies[1], m.Replies[2])
	}
	return strings.TrimRight(b.String(), "\n")
}
