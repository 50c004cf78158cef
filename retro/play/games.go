package play

import (
	"fmt"

	"muehle/muehle"
)

// Supported returns nil when the players, the database and the window of
// this program know the game with rule set r, and otherwise an error that
// says so in words. Package muehle defines other games (Twelve Men's
// Morris, Lasker Morris, Six Men's Morris) and reads their positions and
// records, but the index of the database, the solver and the players know
// the standard game only, with any number of stones from 3 to 9: every
// place where a position or a game record comes in from outside asks this
// first.
func Supported(r *muehle.Rules) error {
	if r == muehle.Games[muehle.Standard] {
		return nil
	}
	return fmt.Errorf("%w: a position of %s; this program plays and solves only %s so far", muehle.ErrPosition, r.Name, muehle.Games[muehle.Standard].Name)
}
