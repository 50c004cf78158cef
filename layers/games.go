package layers

import (
	"fmt"

	"muehle/muehle"
)

// The games a database holds. A layer file names its game in the header
// (RulesID) beside its stones per side, and a DB opens the folder of one
// variant (GameDir). The index (index.go) numbers the positions of the 24
// points up to the standard board's 16 symmetries, so it serves every game
// on a board with those points and symmetries: Nine, Ten, Eleven and Twelve
// Men's Morris, and Lasker Morris, whose placements and moves mix (its
// layers: Key.ValidMixed, MixedOrder). A board of at most 16 points has an
// index of its own (small.go): Three, Five and Six Men's Morris.

// RulesID returns the number that names game g in a layer file's header
// (bytes 12-15): g+1, so that the standard game is 1, as in every file
// written before the other games. A GameID is permanent (muehle.Games may
// be reordered), and so is the rules id.
func RulesID(g muehle.GameID) uint32 { return uint32(g) + 1 }

// gameOfRulesID returns the game a header's rules id names; ok is false
// for a number that names none.
func gameOfRulesID(id uint32) (g muehle.GameID, ok bool) {
	if id == 0 || id > 256 || muehle.GameID(id-1).Rules() == nil {
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
	if r.LoseBelow != LoseBelow {
		return fmt.Errorf("layers: no database for %s: the layers hold games lost below %d stones, and it is lost below %d", r.Name, LoseBelow, r.LoseBelow)
	}
	if !r.Board.SameSymmetries(muehle.StandardBoard) && !smallBoard(r.Board) {
		return fmt.Errorf("layers: no database for %s: the index numbers the positions of the 24-point board and of boards of at most %d points, and its board (%s) has %d points", r.Name, maxSmallPoints, r.Board.Name(), r.Board.NumPoints())
	}
	return nil
}

// ValidIn reports whether k is a layer of variant v (Key.Valid, or
// Key.ValidMixed in a game whose phases mix).
func ValidIn(v muehle.Variant, k Key) bool {
	if r := v.Rules(); r != nil && r.Mixed {
		return k.ValidMixed(v.Stones)
	}
	return k.Valid(v.Stones)
}

// OrderIn returns the layers of variant v in an order of computation:
// Order, or MixedOrder in a game whose phases mix.
func OrderIn(v muehle.Variant, placement bool) []Key {
	if r := v.Rules(); r != nil && r.Mixed {
		return MixedOrder(v.Stones, placement)
	}
	return Order(v.Stones, placement)
}

// SuccessorsIn returns the layers one move from layer k of variant v can
// lead to: Key.Successors, or Key.MixedSuccessors in a game whose phases
// mix.
func SuccessorsIn(v muehle.Variant, k Key) []Key {
	if r := v.Rules(); r != nil && r.Mixed {
		return k.MixedSuccessors()
	}
	return k.Successors()
}
