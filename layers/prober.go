package layers

import "muehle/muehle"

// Prober gives exact values from the database; *DB implements it. The
// error wraps ErrMissing when the position's layer is absent. It is the
// one interface both halves of the program read the database through: the
// solver (retro) for the values of children, the players (retro/search, play) for
// their moves. It lives here, below both, so that neither imports the
// other.
type Prober interface {
	Probe(p muehle.Position) (Value, error)
}

var _ Prober = (*DB)(nil)

// OutcomeProber is a database that says whether a position is won, drawn
// or lost (NoOutcome: an unused slot) more cheaply than its value with the
// depth, as a store that keeps the depth of one outcome only and finds the
// other's by a ply of moves does (compressed form 2: DB.ProbeOutcome).
// The players read the outcome where they need no depth: the perfect
// player's choice (retro/play), alpha-beta's test whether the database
// knows every child of the root (retro/search).
type OutcomeProber interface {
	ProbeOutcome(p muehle.Position) (Outcome, error)
}

var _ OutcomeProber = (*DB)(nil)
