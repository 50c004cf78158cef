package teach

import (
	"fmt"
)

// TrainingRun is one sitting of training: a set of drawn positions, the
// one on the board, and the answer given to each. The window keeps one
// while in training mode; it checks answers with CheckAnswer (in the
// background) and records them here. The first answer to a position
// counts; later ones are not recorded.
type TrainingRun struct {
	Options   TrainingOptions
	exercises []Exercise
	answers   []*Answer
	i         int
}

// NewTrainingRun returns a run through exercises, at the first.
func NewTrainingRun(opt TrainingOptions, exercises []Exercise) *TrainingRun {
	return &TrainingRun{Options: opt, exercises: exercises, answers: make([]*Answer, len(exercises))}
}

// Len returns the number of positions.
func (r *TrainingRun) Len() int { return len(r.exercises) }

// Index returns the number of the position on the board, from 0.
func (r *TrainingRun) Index() int { return r.i }

// Current returns the position on the board.
func (r *TrainingRun) Current() Exercise { return r.exercises[r.i] }

// Go moves to position i (clamped to the run); false when it is already there.
func (r *TrainingRun) Go(i int) bool {
	i = min(max(i, 0), len(r.exercises)-1)
	if i == r.i {
		return false
	}
	r.i = i
	return true
}

// Record keeps a as the answer to the position on the board, unless it has
// one; it reports whether a was kept.
func (r *TrainingRun) Record(a Answer) bool {
	if r.answers[r.i] != nil {
		return false
	}
	r.answers[r.i] = &a
	return true
}

// Answer returns the answer recorded for the position on the board.
func (r *TrainingRun) Answer() (Answer, bool) {
	if a := r.answers[r.i]; a != nil {
		return *a, true
	}
	return Answer{}, false
}

// Score returns how many positions were answered right and wrong.
func (r *TrainingRun) Score() (right, wrong int) {
	for _, a := range r.answers {
		switch {
		case a == nil:
		case a.Right:
			right++
		default:
			wrong++
		}
	}
	return right, wrong
}

// Task says what the position on the board asks: "Position 3 of 10
// (medium, 9 plies): White to move, find the win (won in 9; one move keeps
// it)."
func (r *TrainingRun) Task() string {
	e := r.Current()
	what := "find the win"
	if e.Goal == HoldDraw {
		what = "find the only drawing move"
		if len(e.Answers) > 1 {
			what = "find a drawing move"
		}
	}
	n := "one move keeps it"
	if len(e.Answers) > 1 {
		n = fmt.Sprintf("%d of %d moves keep it", len(e.Answers), e.Moves)
	}
	return fmt.Sprintf("Position %d of %d (%s, %d plies): %s to move, %s (%s; %s).",
		r.i+1, len(r.exercises), e.Band(), e.Difficulty, e.Pos.Turn, what, e.Value, n)
}

// Verdict says what the recorded answer was worth, "" when there is none.
func (r *TrainingRun) Verdict() string {
	a, ok := r.Answer()
	if !ok {
		return ""
	}
	pos := r.Current().Pos
	name := pos.Board().MoveString // the moves on the game's own board
	if a.Right {
		return fmt.Sprintf("Right: %s keeps the value (%s).", name(a.Move), a.After)
	}
	s := fmt.Sprintf("Wrong: %s gives up the value: %s for %s after it. The best move was %s (%s).",
		name(a.Move), a.After, a.Mover, name(a.Best), a.BestValue)
	if len(a.Refutation) > 0 {
		s += fmt.Sprintf(" %s's refutation, %d moves, is on the board: step through it.", a.Mover.Other(), len(a.Refutation))
	}
	return s
}
