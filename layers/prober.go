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
