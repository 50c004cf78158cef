package ui

import (
	"fmt"

	"muehle/muehle"
	"muehle/retro/play"
)

// supported returns nil when the window plays the game with rule set r,
// and otherwise an error that says so in words. The window draws the
// standard board only so far: a position or record of another game that
// the players know (play.Supported) is refused with a pointer to
// muehlectl, which plays it.
func supported(r *muehle.Rules) error {
	if err := play.Supported(r); err != nil {
		return err
	}
	if r.Game() != muehle.Standard {
		return fmt.Errorf("%w: a position of %s; the window plays %s only so far (muehlectl play --game %s plays it)",
			muehle.ErrPosition, r.Name, muehle.Games[muehle.Standard].Name, r.ID)
	}
	return nil
}
