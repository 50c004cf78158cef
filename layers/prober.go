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

// KeptProber is a database that gives a position's value without the work
// of finding a won position's depth where the store does not keep it
// (compressed form 2 finds it by a ply of probes): alpha-beta
// (retro/search) reads a won position's depth only where its window needs
// it.
type KeptProber interface {
	// ProbeKept returns p's value as Probe does, and kept true, where the
	// store keeps it; for a position won for its side to move whose depth
	// the store does not keep, kept false and a value whose outcome is
	// Win but whose depth is not p's.
	ProbeKept(p muehle.Position) (v Value, kept bool, err error)
}

var _ KeptProber = (*DB)(nil)
