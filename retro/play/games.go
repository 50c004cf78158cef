package play

import (
	"fmt"
	"strings"

	"muehle/layers"
	"muehle/muehle"
)

// Supported returns nil when the players and the database of this program
// know the game with rule set r, and otherwise an error that says so in
// words. Package muehle defines more games than the database holds: the
// players play the games whose layers the database can hold
// (layers.CheckVariant: Nine and Twelve Men's Morris and Lasker Morris,
// each with any number of stones from 3 up), and every place where a
// position or a game record comes in from outside asks this first.
func Supported(r *muehle.Rules) error {
	if r == nil {
		return fmt.Errorf("%w: a position of no game", muehle.ErrPosition)
	}
	if err := layers.CheckVariant(r.Game().With(r.Stones)); err != nil {
		return fmt.Errorf("%w: a position of %s; this program plays and solves %s so far (%v)", muehle.ErrPosition, r.Name, supportedNames(), err)
	}
	return nil
}

// supportedNames lists the games Supported accepts: "Nine Men's Morris,
// Twelve Men's Morris and Lasker Morris".
func supportedNames() string {
	var names []string
	for _, r := range muehle.Games {
		if layers.CheckVariant(r.Game().With(r.Stones)) == nil {
			names = append(names, r.Name)
		}
	}
	if n := len(names); n > 1 {
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return strings.Join(names, "")
}
