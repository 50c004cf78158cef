package muehle

import (
	"errors"
	"fmt"
	"strconv"
)

// Color is a side: White or Black.
type Color uint8

// The two sides. White moves first.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

// String returns "White" or "Black" ("Color(n)" for other values).
func (c Color) String() string {
	switch c {
	case White:
		return "White"
	case Black:
		return "Black"
	}
	return "Color(" + strconv.Itoa(int(c)) + ")"
}

// StonesPerSide is the number of stones each side starts with in the
// standard game. Smaller games (3 to 9 stones) use the same rules; Rules.Stones
// gives each game's.
const StonesPerSide = 9

// Position is a complete game state: the stones of both sides, the stones
// each side still has in hand, the side to move and the rule set. It is a
// small value (12 bytes); copy it freely.
//
//	Stones[White], Stones[Black]: bit i set = a stone of that colour on point i
//	Hand[White], Hand[Black]:     stones not yet placed
//	Turn:                         the side to move
//	Game:                         the rule set (Game.Rules()); 0 is the standard game
type Position struct {
	Stones [2]Bitboard
	Hand   [2]uint8
	Turn   Color
	Game   GameID
}

// NewPosition returns the empty board of the standard game with k stones in
// hand for each side and White to move (Rules.NewPosition for the others).
func NewPosition(k int) Position {
	return Position{Hand: [2]uint8{uint8(k), uint8(k)}}
}

// Rules returns the rule set of p, nil when p.Game names none (Validate
// refuses such a position; no other method accepts it).
func (p *Position) Rules() *Rules { return engines[p.Game].rules }

// Board returns the board of p.
func (p *Position) Board() *Board { return engines[p.Game].rules.Board }

// Empty returns the empty points.
func (p *Position) Empty() Bitboard {
	return engines[p.Game].all &^ (p.Stones[0] | p.Stones[1])
}

// Mover returns the stones of the side to move.
func (p *Position) Mover() Bitboard { return p.Stones[p.Turn] }

// Opponent returns the stones of the side not to move.
func (p *Position) Opponent() Bitboard { return p.Stones[p.Turn^1] }

// Total returns the stones of c on the board plus in hand.
func (p *Position) Total(c Color) int { return p.Stones[c].Count() + int(p.Hand[c]) }

// Phase is the kind of move the side to move makes.
type Phase uint8

// The three phases, from the view of the side to move.
const (
	Placing Phase = iota // stones in hand: place one (in a Mixed game, or move a stone)
	Moving               // slide a stone to an adjacent empty point
	Flying               // no stones in hand and at most the rules' FlyAt on the board: jump anywhere
)

// String returns the phase name in lower case.
func (ph Phase) String() string {
	switch ph {
	case Placing:
		return "placing"
	case Moving:
		return "moving"
	case Flying:
		return "flying"
	}
	return "Phase(" + strconv.Itoa(int(ph)) + ")"
}

// Phase returns the phase of the side to move. In a Mixed game a side
// with stones in hand is Placing, though it may also move (and, with three
// stones on the board and in hand together, jump).
func (p *Position) Phase() Phase {
	if p.Hand[p.Turn] > 0 {
		return Placing
	}
	if p.Stones[p.Turn].Count() <= engines[p.Game].flyAt {
		return Flying
	}
	return Moving
}

// SwapColors returns the position with the colours exchanged, the side to
// move included. Its value for the side to move is the same.
func (p Position) SwapColors() Position {
	return Position{
		Stones: [2]Bitboard{p.Stones[1], p.Stones[0]},
		Hand:   [2]uint8{p.Hand[1], p.Hand[0]},
		Turn:   p.Turn ^ 1,
		Game:   p.Game,
	}
}

// Normalize returns the position with the side to move as White. Positions
// that differ only by swapping colours and the side to move are equivalent.
func (p Position) Normalize() Position {
	if p.Turn == Black {
		return p.SwapColors()
	}
	return p
}

// ErrPosition is wrapped by every error that describes an impossible position.
var ErrPosition = errors.New("muehle: impossible position")

// Validate reports why p cannot occur in a game of k stones per side under
// its rules, or nil. It is the one check of a position's possibility; every
// program part that accepts a position from outside (text, set-up, file)
// uses it. It checks that
//
//   - p.Game names a rule set, and k is from 3 to its Stones;
//   - the stone sets are inside the board and disjoint, and a side is to move;
//   - no side has more than k stones on the board and in hand together (the
//     rest were removed, and removed stones never come back);
//   - the hands fit the side to move (Rules.HandsFit): with separate phases
//     White places first, so while stones are in hand both sides have
//     placed equally many with White to move, and White one more with
//     Black to move;
//   - the side that has just moved still has at least LoseBelow stones
//     (three; else the game ended before this position).
func (p *Position) Validate(k int) error {
	r := p.Rules()
	if r == nil {
		return fmt.Errorf("%w: game number %d names no game", ErrPosition, p.Game)
	}
	if k < MinStones || k > r.Stones {
		return fmt.Errorf("%w: %d stones per side (want %d to %d)", ErrPosition, k, MinStones, r.Stones)
	}
	if (p.Stones[0]|p.Stones[1])&^r.Board.all != 0 {
		return fmt.Errorf("%w: stones outside the board", ErrPosition)
	}
	if p.Stones[0]&p.Stones[1] != 0 {
		return fmt.Errorf("%w: two stones on %s", ErrPosition, r.Board.PointName((p.Stones[0] & p.Stones[1]).First()))
	}
	if p.Turn > Black {
		return fmt.Errorf("%w: no side to move", ErrPosition)
	}
	for c := White; c <= Black; c++ {
		if t := p.Total(c); t > k {
			return fmt.Errorf("%w: %s has %d stones on the board and in hand (at most %d)", ErrPosition, c, t, k)
		}
	}
	if !r.HandsFit(p.Hand, p.Turn, k) {
		if r.Mixed {
			return fmt.Errorf("%w: with %s to move, %d and %d stones in hand out of %d cannot be (White moves first, and a side holding all its stones has not moved yet)",
				ErrPosition, p.Turn, p.Hand[White], p.Hand[Black], k)
		}
		placed := [2]int{k - int(p.Hand[White]), k - int(p.Hand[Black])}
		want := placed[Black]
		if p.Turn == Black {
			want++
		}
		return fmt.Errorf("%w: with %s to move White must have placed %d stones, but %d in hand means %d placed (White places first)",
			ErrPosition, p.Turn, want, p.Hand[White], placed[White])
	}
	if t := p.Total(p.Turn.Other()); r.Lost(t) {
		return fmt.Errorf("%w: %s has only %d stones but has just moved", ErrPosition, p.Turn.Other(), t)
	}
	return nil
}

// HandsFit reports whether stones in hand hand (by colour) fit turn as the
// side to move in a game with separate phases (the standard game, Twelve
// and Six Men's Morris): with no stone in hand either side may be to move;
// else White places first, so with White to move both hands are equal and
// with Black to move Black holds one stone more. It does not depend on the
// number of stones per side. Rules.HandsFit covers the Mixed games too.
func HandsFit(hand [2]uint8, turn Color) bool {
	switch {
	case hand[White] == 0 && hand[Black] == 0:
		return true
	case turn == White:
		return hand[White] == hand[Black]
	default:
		return int(hand[Black]) == int(hand[White])+1
	}
}
