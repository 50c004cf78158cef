package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/teach"
	"muehle/ui/game"
)

// This file shows a line of moves on the board one move at a time (a
// game.Walk): the refutation of a move the review marked, and of a wrong
// answer in training. While a line is open the board shows it instead of
// the game, the arrow keys, Home and End step through it, Escape closes
// it, and the buttons above the side panel step and close.

// learnBars holds training mode and the open line of moves, and the bars
// above the side panel that show them.
type learnBars struct {
	walk      *game.Walk // the line of moves on the board; nil when the board shows the game
	train     *training  // training mode; nil when off
	trainGen  int        // counts trainings started, to drop a stale draw
	trainSeed uint64     // the seed of the last training
	walkBar   *walkPanel
	trainBar  *trainingPanel
	box       *fyne.Container
	column    *fyne.Container // the bars above the tabs (panelColumn)
	height    float32         // the bars' height when the column was last laid out
}

func newLearnBars(u *App) learnBars {
	l := learnBars{walkBar: newWalkPanel(u), trainBar: newTrainingPanel(u)}
	l.box = container.NewVBox(l.trainBar.box, l.walkBar.box)
	return l
}

// update shows training mode and the open line, or hides their bars.
func (l *learnBars) update() {
	opened := l.walk != nil && !l.walkBar.box.Visible()
	l.trainBar.update(l.train)
	l.walkBar.update(l.walk)
	// The column lays the bars out anew when they need another height:
	// they scroll, so a change of their size does not reach it by itself.
	if h := l.box.MinSize().Height; h != l.height && l.column != nil {
		l.height = h
		l.column.Refresh()
	}
	// A line just opened below the training bar is scrolled into view:
	// in a small window the bars scroll, and its buttons were below.
	if bars, ok := l.barsScroll(); ok && opened {
		bars.ScrollToBottom()
	}
}

// barsScroll returns the scroll that holds the bars, when the column is
// built.
func (l *learnBars) barsScroll() (*container.Scroll, bool) {
	if l.column == nil {
		return nil, false
	}
	s, ok := l.column.Objects[0].(*container.Scroll)
	return s, ok
}

// walkPanel is the bar above the side panel while a line is open.
type walkPanel struct {
	text                 *widget.Label
	back, forward, close *widget.Button
	box                  *fyne.Container
}

func newWalkPanel(u *App) *walkPanel {
	p := &walkPanel{text: widget.NewLabel("")}
	p.text.Wrapping = fyne.TextWrapWord
	p.text.TextStyle.Bold = true
	p.back = widget.NewButton("◀ Back", func() {
		if u.learn.walk != nil && u.learn.walk.Back() {
			u.changed(eventNone)
		}
	})
	p.forward = widget.NewButton("Forward ▶", u.walkForward)
	p.close = widget.NewButton("Close Line", u.closeWalk)
	p.box = container.NewVBox(p.text, container.NewHBox(p.back, p.forward, p.close), widget.NewSeparator())
	p.box.Hide()
	return p
}

// update shows the state of w, or hides the bar when w is nil.
func (p *walkPanel) update(w *game.Walk) {
	if w == nil {
		if p.box.Visible() {
			p.box.Hide()
		}
		return
	}
	p.text.SetText(w.Text() + " (Arrow keys, Home and End step; Escape closes.)")
	setEnabled(p.back, w.At() > 0)
	setEnabled(p.forward, w.At() < w.Len())
	if !p.box.Visible() {
		p.box.Show()
	}
}

// setEnabled enables or disables b.
func setEnabled(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// walkSteps converts a principal line of the database into a walk's steps.
func walkSteps(line []teach.Step) []game.WalkStep {
	steps := make([]game.WalkStep, len(line))
	for i, s := range line {
		steps[i] = game.WalkStep{Move: s.Move, Value: s.Value}
	}
	return steps
}

// openWalk shows the line steps from start on the board, at its start.
func (u *App) openWalk(title string, start muehle.Position, line []teach.Step) {
	w, err := game.NewWalk(title, start, walkSteps(line))
	if err != nil {
		u.ctrl.Say("%v", err)
		return
	}
	u.learn.walk = w
	u.changed(eventNone)
}

// closeWalk returns the board to the game.
func (u *App) closeWalk() {
	if u.learn.walk == nil {
		return
	}
	u.learn.walk = nil
	u.changed(eventNone)
}

// walkForward plays the next move of the open line, the stone gliding.
func (u *App) walkForward() {
	w := u.learn.walk
	if w == nil || !w.Forward() {
		return
	}
	mover := w.View().Pos.Turn.Other()
	u.redraw(game.Event{Move: w.View().Last, Mover: mover})
}

// walkView returns what the board shows of the open line: its position and
// last move, with the players' names of the game.
func (u *App) walkView(gv game.View) game.View {
	v := u.learn.walk.View()
	v.Players = gv.Players
	return v
}

// walkKey steps through the open line with the arrow keys, Home and End,
// and closes it with Escape; without a line, R opens the refutation of the
// marked move shown, if there is one. It returns false for the keys it
// leaves to the game.
func (u *App) walkKey(ev *fyne.KeyEvent) bool {
	w := u.learn.walk
	if w == nil {
		if ev.Name == fyne.KeyR && u.side.refuteWalk.Visible() {
			u.walkRefutation()
			return true
		}
		return false
	}
	switch ev.Name {
	case fyne.KeyLeft, fyne.KeyUp:
		if w.Back() {
			u.changed(eventNone)
		}
	case fyne.KeyRight, fyne.KeyDown:
		u.walkForward()
	case fyne.KeyHome:
		if w.Go(0) {
			u.changed(eventNone)
		}
	case fyne.KeyEnd:
		if w.Go(w.Len()) {
			u.changed(eventNone)
		}
	case fyne.KeyEscape:
		u.closeWalk()
	}
	return true
}

// tapped passes a tap on the board to the game, unless a line is open.
func (u *App) tapped(p muehle.Point) {
	if u.learn.walk != nil {
		u.ctrl.Say("The board shows a line of moves: step through it with the arrow keys, or Close Line (Escape) to play on.")
		return
	}
	u.ctrl.Tap(p)
}

// handTapped passes a tap on a side's stones in hand to the game (placing
// chosen in Lasker Morris), unless a line is open.
func (u *App) handTapped(col muehle.Color) {
	if u.learn.walk != nil {
		if pos := u.ctrl.Position(); !pos.Rules().Mixed {
			return // the hand means nothing in the other games
		}
		u.ctrl.Say("The board shows a line of moves: step through it with the arrow keys, or Close Line (Escape) to play on.")
		return
	}
	u.ctrl.TapHand(col)
}

// refutationTitle names the refutation of move m by mover in pos, worth
// after to mover; the move named on pos's board.
func refutationTitle(pos muehle.Position, mover muehle.Color, m muehle.Move, after layers.Value) string {
	return fmt.Sprintf("%s's answer to %s (%s for %s)", mover.Other(), pos.Board().MoveString(m), after, mover)
}

// reviewTo closes the open line and shows the game after ply moves (a
// click on the move list).
func (u *App) reviewTo(ply int) {
	u.learn.walk = nil
	u.ctrl.ReviewTo(ply)
	u.changed(eventNone)
}

// sideForWalk makes the top of the side panel describe the position of the
// open line on the board instead of the game's: the side to move, the
// stones and the state number; the game's verdict and table of moves wait
// until the line is closed.
func (u *App) sideForWalk() {
	w, s := u.learn.walk, u.side
	if w == nil {
		return
	}
	pos := w.Position()
	s.turn.SetText(fmt.Sprintf("Line, ply %d of %d · %s to move", w.At(), w.Len(), pos.Turn))
	for col := muehle.White; col <= muehle.Black; col++ {
		s.sides[col].SetText(fmt.Sprintf("%s: %d on the board, %d in hand", col, pos.Stones[col].Count(), pos.Hand[col]))
	}
	s.state.SetText(stateText(u.engines, pos))
	s.value.SetText("The board shows a line of moves; the database's view of the game returns when it is closed.")
	s.perfect.SetText("")
	showIf(s.perfect, false)
}
