package teach

import (
	"context"
	"errors"
	"fmt"

	"muehle/layers"
	"muehle/muehle"
)

// This file holds the game review: every move of a game judged by the
// database (the value before and after it from the mover's view, a mark
// when it gave up value, the best move beside it) and the refutation of a
// move, the principal line from the database that shows how the opponent
// wins. It reads the database only through layers.Prober, so the desktop
// program and the command line share it.

// Mark is the review's judgement of one move.
type Mark uint8

// The marks. A move that keeps the outcome but wins more slowly or loses
// more quickly than the best is not marked: it gives up no value.
const (
	MarkKept    Mark = iota // the move keeps the outcome of the position
	MarkWorse               // a won position given up to a draw or a loss, a drawn one to a loss
	MarkUnknown             // the database cannot judge the move (a layer missing or damaged)
)

// String returns "" for a kept value, "?" for a move that gave up value and
// "unknown".
func (m Mark) String() string {
	switch m {
	case MarkWorse:
		return "?"
	case MarkUnknown:
		return "unknown"
	}
	return ""
}

// Verdict is the database's judgement of one move of a game. Values are
// from the view of Mover; a value the database cannot give is
// layers.Unused, never a guess, and Err says why.
type Verdict struct {
	Ply    int          // the move's number in the game, 0 for the first
	Mover  muehle.Color // the side that made the move
	Move   muehle.Move
	Before layers.Value // the position's value before the move
	After  layers.Value // the move's value: what the position after it is worth to Mover
	// Best is a move of the best value (the played move when it has it,
	// else the first in generation order); muehle.NoMove when a layer of
	// one of the moves is missing.
	Best      muehle.Move
	BestValue layers.Value
	Mark      Mark
	Err       error // why a value is Unused; nil when all are known
}

// Review judges every move of g with the database db, in order. It stops
// with ctx's error when ctx is done. Positions the database lacks give
// verdicts marked MarkUnknown; they are not an error of Review.
func Review(ctx context.Context, db layers.Prober, g *muehle.Game) ([]Verdict, error) {
	moves, positions := g.History(), g.Positions()
	vs := make([]Verdict, len(moves))
	for i, m := range moves {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("teach: review at move %d: %w", i+1, err)
		}
		vs[i] = Judge(db, positions[i], m)
		vs[i].Ply = i
	}
	return vs, nil
}

// Judge returns the verdict on move m played in pos (Ply is 0). m must be
// legal in pos; an illegal move gives a verdict marked MarkUnknown.
func Judge(db layers.Prober, pos muehle.Position, m muehle.Move) Verdict {
	v := Verdict{Mover: pos.Turn, Move: m, Before: layers.Unused, After: layers.Unused,
		Best: muehle.NoMove, BestValue: layers.Unused, Mark: MarkUnknown}
	name := pos.Board().MoveString // the moves on the game's own board
	if !pos.IsLegal(m) {
		v.Err = fmt.Errorf("teach: review: %s is not a legal move in %s", name(m), pos)
		return v
	}
	var errs []error
	if b, err := probeValue(db, pos); err != nil {
		errs = append(errs, fmt.Errorf("before %s: %w", name(m), err))
	} else {
		v.Before = b
	}
	var buf [muehle.MaxMoves]muehle.Move
	best, bestValue, complete := muehle.NoMove, layers.Unused, true
	for _, c := range pos.AppendMoves(buf[:0]) {
		w, err := probeValue(db, pos.Play(c))
		if err != nil {
			if c == m {
				errs = append(errs, fmt.Errorf("after %s: %w", name(m), err))
			} else if complete {
				errs = append(errs, fmt.Errorf("after the alternative %s: %w", name(c), err))
			}
			complete = false
			continue
		}
		w = w.Parent()
		if c == m {
			v.After = w
		}
		if best == muehle.NoMove || w.Better(bestValue) || (c == m && !bestValue.Better(w)) {
			best, bestValue = c, w
		}
	}
	if complete {
		v.Best, v.BestValue = best, bestValue
		if v.Before != layers.Unused && v.Before != bestValue {
			errs = append(errs, fmt.Errorf("the database is inconsistent: %s reads %s, its best move %s", pos, v.Before, bestValue))
			v.Before, v.After, v.Best, v.BestValue = layers.Unused, layers.Unused, muehle.NoMove, layers.Unused
		}
	}
	v.Err = errors.Join(errs...)
	if v.Before != layers.Unused && v.After != layers.Unused {
		v.Mark = MarkKept
		if v.After.Outcome() < v.Before.Outcome() {
			v.Mark = MarkWorse
		}
	}
	return v
}

// probeValue returns the value of pos for its side to move: lost in 0 when
// the game is over, else the database's; an unused slot is an error.
func probeValue(db layers.Prober, pos muehle.Position) (layers.Value, error) {
	if pos.IsOver() {
		return layers.LossIn(0), nil
	}
	v, err := db.Probe(pos)
	if err != nil {
		return layers.Unused, err
	}
	if v == layers.Unused {
		return layers.Unused, fmt.Errorf("teach: position %s reads as unused", pos)
	}
	return v, nil
}

// Step is one move of a principal line with its value for the side making it.
type Step struct {
	Move  muehle.Move
	Value layers.Value
}

// Line returns the principal line from pos by the database: each side plays
// a move of its best value (the winner the fastest win, the loser the
// slowest loss, the first in generation order among equals), until a move
// that removes a stone has been played, the game is over, or max moves.
// From a won or lost position the line ends (depths shrink with every
// move); from a drawn one it may only end at max. The error wraps
// layers.ErrMissing when a layer along the line is absent; the steps up to
// there are returned with it.
func Line(db layers.Prober, pos muehle.Position, max int) ([]Step, error) {
	var line []Step
	var buf [muehle.MaxMoves]muehle.Move
	for len(line) < max && !pos.IsOver() {
		best, bestValue := muehle.NoMove, layers.Unused
		for _, c := range pos.AppendMoves(buf[:0]) {
			w, err := probeValue(db, pos.Play(c))
			if err != nil {
				return line, fmt.Errorf("teach: line after %s: %w", pos.Board().MoveString(c), err)
			}
			if w = w.Parent(); best == muehle.NoMove || w.Better(bestValue) {
				best, bestValue = c, w
			}
		}
		line = append(line, Step{best, bestValue})
		pos = pos.Play(best)
		if best.IsRemoval() {
			break
		}
	}
	return line, nil
}

// Refutation returns how the opponent punishes the move of verdict v played
// in pos: the principal line (Line) from the position after it, at most max
// moves. The line's first move is the opponent's.
func Refutation(db layers.Prober, pos muehle.Position, v Verdict, max int) ([]Step, error) {
	if !pos.IsLegal(v.Move) {
		return nil, fmt.Errorf("teach: refutation: %s is not a legal move in %s", pos.Board().MoveString(v.Move), pos)
	}
	return Line(db, pos.Play(v.Move), max)
}
