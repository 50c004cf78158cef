package analysis

import (
	"errors"
	"fmt"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
)

// Answer is the database's answer for one position.
type Answer struct {
	Variant  muehle.Variant
	Position muehle.Position
	// Layer is the layer of Position, the one that answered its value.
	Layer layers.Key
	// Value is the position's value for the side to move: the game's
	// result when it is over, else the stored value.
	Value layers.Value
	// Over reports that the side to move has no move (or too few stones).
	Over bool
	// Moves are the legal moves, best first (play.Perfect.Evaluate).
	Moves []play.MoveValue
	// Picks is how many of the first Moves the perfect player picks
	// among (play.BestCount); 0 for an answer without the tie-break
	// (ValuesOf).
	Picks int
	// Ties reports that the moves of equal value are ordered by the
	// perfect player's tie-break (Of), not left in generation order
	// (ValuesOf).
	Ties bool
}

// ErrNotStored is wrapped by the error of Of for a position whose layer,
// or a layer its moves lead to, the database does not hold (it also wraps
// layers.ErrMissing), and for a placement position the solver did not
// store because no game from the empty board reaches it (ErrNotReached).
var ErrNotStored = errors.New("analysis: not in the database")

// ErrNotReached is wrapped, beside ErrNotStored, by the error of Of for a
// position whose layer the database holds but which it does not store: a
// placement position that the solver's reach data finds no game from the
// empty board reaching.
var ErrNotReached = errors.New("analysis: not reached from the empty board")

// Options choose what Ask answers beyond the values.
type Options struct {
	// Values leaves out the perfect player's tie-break: the moves by
	// value only, equal values in generation order, no picks (ValuesOf).
	Values bool
	// Unreachable answers a position that no game of the database's
	// stones reaches (muehle.ErrUnreachable) instead of refusing it, for
	// muehlectl query --unreachable; a position that is no position at
	// all (muehle.ErrPosition) is refused all the same.
	Unreachable bool
}

// Of returns the answer for pos from db, reading it with a new default
// perfect player (play.NewPerfect: it is not safe for concurrent use, db
// is). pos must be of db's game; Of checks that it can arise in a game of
// db's stones (muehle.Position.CheckReachable: the error wraps
// muehle.ErrPosition or muehle.ErrUnreachable). A layer that is missing
// gives an error wrapping ErrNotStored and layers.ErrMissing; a damaged
// one layers' damage error. Of never presents a guess as a value.
//
// On an error the Answer holds what was found before it: Value is
// layers.Unused when the position's own value could not be read, and
// the position's value without Moves when a layer its moves lead to
// failed.
func Of(db *layers.DB, pos muehle.Position) (Answer, error) {
	return Ask(db, pos, Options{})
}

// ValuesOf is Of without the perfect player's tie-break: the moves by
// value only (equal values in generation order), no picks. It costs a
// small part of Of's time where many moves draw (the tie-break among
// drawing moves looks several plies deep), for clients that want the
// values alone.
func ValuesOf(db *layers.DB, pos muehle.Position) (Answer, error) {
	return Ask(db, pos, Options{Values: true})
}

// Ask is Of with options: Of is Ask with none, ValuesOf with Values.
// Every front end answers a position through it.
func Ask(db *layers.DB, pos muehle.Position, o Options) (Answer, error) {
	ties := !o.Values
	a := Answer{Variant: db.Variant(), Position: pos, Ties: ties}
	if pos.Game != db.Variant().Game {
		return a, fmt.Errorf("%w: a position of %s in the database of %s", muehle.ErrPosition, pos.Game, db.Variant().Name())
	}
	if err := pos.CheckReachable(db.Stones()); err != nil && !(o.Unreachable && errors.Is(err, muehle.ErrUnreachable)) {
		return a, err
	}
	a.Layer = layers.KeyOf(pos)
	if pos.IsOver() {
		a.Over, a.Value = true, layers.NoMoves(&pos)
		return a, nil
	}
	v, err := db.Probe(pos)
	if err != nil {
		return a, notStored(err)
	}
	if v == layers.Unused {
		return a, fmt.Errorf("%w: position %s is not stored in layer %s (the solver stores the placement positions a game from the empty board reaches): %w: %w",
			ErrNotStored, pos, a.Layer, ErrNotReached, layers.ErrMissing)
	}
	a.Value = v
	p := play.NewPerfect(db, nil, nil)
	if !ties {
		p.Lookahead, p.Draws = 0, play.DrawTrap // no tie-break scores
	}
	mvs, err := p.Evaluate(pos)
	if err != nil {
		return a, notStored(err)
	}
	a.Moves = mvs
	if ties {
		a.Picks = play.BestCount(mvs)
	}
	return a, nil
}

// notStored wraps a missing layer's error with ErrNotStored; other errors
// (a damaged layer) pass unchanged.
func notStored(err error) error {
	if errors.Is(err, layers.ErrMissing) {
		if _, damaged := layers.Damaged(err); !damaged {
			return fmt.Errorf("%w: %w", ErrNotStored, err)
		}
	}
	return err
}
