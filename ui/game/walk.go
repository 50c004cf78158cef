package game

import (
	"fmt"

	"muehle/layers"
	"muehle/muehle"
)

// This file holds a line of moves shown on the board one move at a time,
// apart from the game: the refutation of a move the review marked, and of
// a wrong answer in training. The window shows Walk.View instead of the
// game's view while a walk is open; the game itself does not change.

// WalkStep is one move of a line, with its value for the side making it.
type WalkStep struct {
	Move  muehle.Move
	Value layers.Value
}

// Walk steps through a line of moves from a start position.
type Walk struct {
	title     string
	positions []muehle.Position // positions[i]: after i moves of the line
	steps     []WalkStep
	at        int
}

// NewWalk returns a walk through steps from start, shown at its start.
// title says what the line is ("Black's refutation of d7-a7"). Every step
// must be legal where it is played.
func NewWalk(title string, start muehle.Position, steps []WalkStep) (*Walk, error) {
	w := &Walk{title: title, positions: []muehle.Position{start}, steps: steps}
	pos := start
	for i, s := range steps {
		if !pos.IsLegal(s.Move) {
			return nil, fmt.Errorf("game: line %q: move %d (%s) is not legal in %s", title, i+1, pos.Board().MoveString(s.Move), pos)
		}
		pos = pos.Play(s.Move)
		w.positions = append(w.positions, pos)
	}
	return w, nil
}

// Title returns what the line is.
func (w *Walk) Title() string { return w.title }

// At returns how many moves of the line the board shows played.
func (w *Walk) At() int { return w.at }

// Len returns the number of moves of the line.
func (w *Walk) Len() int { return len(w.steps) }

// Position returns the position after At moves.
func (w *Walk) Position() muehle.Position { return w.positions[w.at] }

// Forward plays the next move of the line; false at its end.
func (w *Walk) Forward() bool { return w.Go(w.at + 1) }

// Back takes the last move back; false at the start.
func (w *Walk) Back() bool { return w.Go(w.at - 1) }

// Go shows the position after i moves (clamped to the line); false when
// that is the position already shown.
func (w *Walk) Go(i int) bool {
	i = min(max(i, 0), len(w.steps))
	if i == w.at {
		return false
	}
	w.at = i
	return true
}

// View returns what the board shows: the position after At moves, the
// last move played and, after a removal, the mill that made it.
func (w *Walk) View() View {
	pos := w.Position()
	v := EmptyView(pos)
	if w.at > 0 {
		v.Last = w.steps[w.at-1].Move
		if v.Last.IsRemoval() {
			v.Mill = millsThrough(pos.Board(), pos.Stones[pos.Turn.Other()], v.Last.To)
		}
	}
	return v
}

// Text says where the walk stands: the move just played with its value for
// its side, or the start, and the end of the line when it is there.
func (w *Walk) Text() string {
	var s string
	if w.at == 0 {
		s = fmt.Sprintf("%s: %s. Start: %s to move.", w.title, Plies(len(w.steps)), w.Position().Turn)
	} else {
		st := w.steps[w.at-1]
		mover := w.positions[w.at-1].Turn
		s = fmt.Sprintf("%s: ply %d of %d, %s %s (%s %s).", w.title, w.at, len(w.steps), mover, st.Move, mover, OutcomeWords(st.Value))
	}
	if w.at == len(w.steps) {
		pos := w.Position()
		switch {
		case pos.IsOver():
			s += fmt.Sprintf(" The game is over: %s has lost.", pos.Turn)
		case w.at > 0 && w.steps[w.at-1].Move.IsRemoval():
			s += " The line ends with the removal."
		default:
			s += " The line ends here."
		}
	}
	return s
}

// OutcomeWords returns "wins in 13 plies", "loses in 8 plies", "draws", or
// "value unknown" for an unused value.
func OutcomeWords(v layers.Value) string {
	switch v.Outcome() {
	case layers.Win:
		return "wins in " + Plies(v.Depth())
	case layers.Loss:
		return "loses in " + Plies(v.Depth())
	case layers.Draw:
		return "draws"
	}
	return "value unknown"
}

// Plies returns "1 ply" or "n plies".
func Plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return fmt.Sprintf("%d plies", n)
}
