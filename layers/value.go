package layers

import (
	"fmt"

	"muehle/muehle"
)

// Value is the one-byte database entry of a position, from the view of the
// side to move:
//
//	0        Unused: a slot that is not the canonical index of any position
//	1        Drawn (during solving also: not yet decided)
//	2 + d    decided at depth d plies: won when d is odd, lost when d is even
//
// Depths run from 0 (lost: blocked or too few stones) to 253.
type Value uint8

// The special values.
const (
	Unused Value = 0
	Drawn  Value = 1
)

// MaxDepth is the largest depth a Value can hold.
const MaxDepth = 253

// Outcome is won, lost or drawn for the side to move.
type Outcome int8

// The outcomes, ordered from the mover's view: Loss < Draw < Win.
const (
	Loss      Outcome = -1
	Draw      Outcome = 0
	Win       Outcome = 1
	NoOutcome Outcome = 2 // an unused slot
)

// String returns "won", "lost", "drawn" or "unknown".
func (o Outcome) String() string {
	switch o {
	case Win:
		return "won"
	case Loss:
		return "lost"
	case Draw:
		return "drawn"
	}
	return "unknown"
}

// Decided returns the value of a position decided at depth d: won for odd d,
// lost for even d.
func Decided(d int) Value { return Value(d + 2) }

// WinIn returns the value of a position won in d plies (d odd).
func WinIn(d int) Value { return Decided(d) }

// LossIn returns the value of a position lost in d plies (d even).
func LossIn(d int) Value { return Decided(d) }

// Outcome returns whether the side to move has won, lost or drawn.
func (v Value) Outcome() Outcome {
	switch {
	case v == Unused:
		return NoOutcome
	case v == Drawn:
		return Draw
	case (v-2)&1 == 1:
		return Win
	}
	return Loss
}

// Depth returns the plies to the end of the game; 0 for drawn and unused.
func (v Value) Depth() int {
	if v < 2 {
		return 0
	}
	return int(v) - 2
}

// IsDecided reports whether v is a win or a loss.
func (v Value) IsDecided() bool { return v >= 2 }

// Parent returns the value, for the side that moved, of a move leading to a
// position with value v: a loss in d becomes a win in d+1, a win in d a loss
// in d+1, a draw stays a draw.
func (v Value) Parent() Value {
	if v < 2 {
		return v
	}
	return v + 1
}

// Better reports whether, for the side to move, v is strictly preferable to
// w: a win beats a draw beats a loss; a faster win and a slower loss are better.
func (v Value) Better(w Value) bool { return scores[v] > scores[w] }

// scores holds the score of every value, for Better, which solvers call
// for every child.
var scores = func() (s [256]int16) {
	for v := range s {
		s[v] = int16(Value(v).score())
	}
	return s
}()

// score orders values for the side to move.
func (v Value) score() int {
	switch v.Outcome() {
	case Win:
		return 1000 - v.Depth()
	case Loss:
		return -1000 + v.Depth()
	case Draw:
		return 0
	}
	return -2000
}

// String returns e.g. "won in 7", "lost in 0", "drawn" or "unused".
func (v Value) String() string {
	switch v.Outcome() {
	case Win:
		return fmt.Sprintf("won in %d", v.Depth())
	case Loss:
		return fmt.Sprintf("lost in %d", v.Depth())
	case Draw:
		return "drawn"
	}
	return "unused"
}

// NoMoves returns the value of position p whose side to move has no legal
// move: drawn when the rules draw it (a full board in Twelve Men's Morris:
// muehle.Position.IsDrawn), lost at depth 0 otherwise.
func NoMoves(p *muehle.Position) Value {
	if p.IsDrawn() {
		return Drawn
	}
	return LossIn(0)
}
