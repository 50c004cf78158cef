package muehle

import (
	"fmt"
	"strconv"
)

// MinStones is the fewest stones per side a game may start with: three,
// a mill's worth (MillPoints), and in every entry of Games its LoseBelow.
const MinStones = 3

// MaxStones bounds the stones per side of every entry of Games (Twelve
// Men's Morris has the most), so that tables indexed by stone counts have
// a fixed size.
const MaxStones = 12

// Variant is one game as a database holds it: a rule set and the number
// of stones each side starts with, from 3 up to the rule set's own. The
// zero value names no variant; NineMensMorris, Standard.With(9), is the
// default.
type Variant struct {
	Game   GameID
	Stones int
}

// NineMensMorris is the default game, Standard.With(StonesPerSide): the
// one the program starts with, the folder k9 of a database. Write it so,
// not spelled out.
var NineMensMorris = Standard.With(StonesPerSide)

// With returns the variant of game g with k stones per side.
func (g GameID) With(k int) Variant { return Variant{Game: g, Stones: k} }

// Rules returns the variant's rule set, nil when its Game names none.
func (v Variant) Rules() *Rules { return v.Game.Rules() }

// Check returns nil when v names a game and a stone count it allows, and
// otherwise an error wrapping ErrPosition that says what is wrong.
func (v Variant) Check() error {
	r := v.Rules()
	if r == nil {
		return fmt.Errorf("%w: game number %d names no game (want one of %s)", ErrPosition, v.Game, GameIDs())
	}
	if v.Stones < MinStones || v.Stones > r.Stones {
		return fmt.Errorf("%w: %s with %d stones per side (want %d to %d)", ErrPosition, r.Name, v.Stones, MinStones, r.Stones)
	}
	return nil
}

// NewPosition returns the variant's empty board, White to move.
func (v Variant) NewPosition() Position { return v.Rules().NewPosition(v.Stones) }

// String returns the game's ID and the stones, "standard k9", "twelve k5":
// the form of messages and of the database folders' names.
func (v Variant) String() string {
	return v.Game.String() + " k" + strconv.Itoa(v.Stones)
}

// Name returns the variant for a person: "Nine Men's Morris" for the game
// with its own stone count, "Twelve Men's Morris with 5 stones" otherwise.
func (v Variant) Name() string {
	r := v.Rules()
	if r == nil {
		return v.String()
	}
	if v.Stones == r.Stones {
		return r.Name
	}
	return fmt.Sprintf("%s with %d stones", r.Name, v.Stones)
}
