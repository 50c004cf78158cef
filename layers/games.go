package layers

import (
	"fmt"

	"muehle/muehle"
)

// The games a database holds. A layer file names its game in the header
// (RulesID) beside its stones per side, and a DB opens the folder of one
// variant (GameDir). The index (index.go) numbers the positions of the 24
// points up to the standard board's 16 symmetries, so it serves every game
// on a board with those points and symmetries: Nine and Twelve Men's
// Morris. A layer holds the positions of one phase, so a game whose
// placements and moves mix (Lasker Morris) has no layers yet.

// RulesID returns the number that names game g in a layer file's header
// (bytes 12-15): g+1, so that the standard game is 1, as in every file
// written before the other games.
func RulesID(g muehle.GameID) uint32 { return uint32(g) + 1 }

// gameOfRulesID returns the game a header's rules id names; ok is false
// for a number that names none.
func gameOfRulesID(id uint32) (g muehle.GameID, ok bool) {
	if id == 0 || id > uint32(len(muehle.Games)) {
		return 0, false
	}
	return muehle.GameID(id - 1), true
}

// CheckVariant returns nil when a database can hold the layers of v, and
// otherwise an error that says why not.
func CheckVariant(v muehle.Variant) error {
	if err := v.Check(); err != nil {
		return err
	}
	r := v.Rules()
	switch {
	case !r.Board.SameSymmetries(muehle.StandardBoard):
		return fmt.Errorf("layers: no database for %s: the index numbers the positions of the 24-point board, and its board (%s) has %d points", r.Name, r.Board.Name(), r.Board.NumPoints())
	case r.Mixed:
		return fmt.Errorf("layers: no database for %s yet: its placements and moves mix, and a layer holds the positions of one phase", r.Name)
	}
	return nil
}
