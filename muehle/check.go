package muehle

import (
	"fmt"
	"strconv"
)

// CheckMove returns nil when m is one of the legal moves of p, and otherwise
// an error wrapping ErrIllegalMove that says, in words for a player, why it
// is not: the game is over, the phase asks for another kind of move, a point
// is occupied or empty, the points are not adjacent, a mill needs a removal
// or a removal has no mill, or the stone to remove is protected by a mill.
// Points are named on p's board.
func (p *Position) CheckMove(m Move) error {
	c := p.Turn
	o := c.Other()
	own, opp := p.Stones[c], p.Stones[o]
	r := p.Rules()
	b := r.Board
	name := b.PointName
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w %s: %s", ErrIllegalMove, b.MoveString(m), fmt.Sprintf(format, args...))
	}
	onBoard := func(q Point) bool { return q >= 0 && int(q) < b.n }
	flying := r.Flies(p.Total(c))
	switch {
	case r.Lost(p.Total(c)):
		return bad("%s has fewer than %s stones and has lost", c, numberWord(r.LoseBelow))
	case p.IsDrawn():
		return bad("the board is full and the game is drawn")
	case p.Hand[c] == 0 && p.Blocked():
		return bad("%s cannot move and has lost", c)
	case !onBoard(m.To) || (m.From != NoPoint && !onBoard(m.From)) || (m.Remove != NoPoint && !onBoard(m.Remove)):
		return bad("a point is not on the board")
	case p.Hand[c] > 0 && m.From != NoPoint && !r.Mixed:
		return bad("%s has %d stones in hand and must place one (e.g. %s)", c, p.Hand[c], name(p.Empty().First()))
	case p.Hand[c] == 0 && m.From == NoPoint:
		e := b.edges[0]
		if b.n == NumPoints {
			e = [2]Point{4, 7}
		}
		return bad("%s has no stones in hand and must move a stone (from-to, e.g. %s-%s)", c, name(e[0]), name(e[1]))
	case m.From != NoPoint && !own.Has(m.From):
		return bad("there is no %s stone on %s", c, name(m.From))
	case !p.Empty().Has(m.To):
		return bad("%s is not empty", name(m.To))
	case m.From != NoPoint && !flying && !b.neighbors[m.From].Has(m.To):
		if r.FlyAt == 0 {
			return bad("%s and %s are not adjacent (in %s no side may jump)", name(m.From), name(m.To), r.Name)
		}
		return bad("%s and %s are not adjacent (only a side with %s stones may jump)", name(m.From), name(m.To), numberWord(r.FlyAt))
	}
	rest := own
	if m.From != NoPoint {
		rest &^= m.From.Bit()
	}
	mill := b.ClosesMill(rest, m.To)
	switch {
	case mill && opp != 0 && m.Remove == NoPoint:
		return bad("%s closes a mill; name a %s stone to remove (e.g. %sx%s)", name(m.To), o, b.MoveString(m.withoutRemoval()), name(b.Removable(opp).First()))
	case !mill && m.Remove != NoPoint:
		return bad("%s does not close a mill, so no stone is removed", name(m.To))
	case mill && m.Remove != NoPoint && !opp.Has(m.Remove):
		return bad("there is no %s stone on %s to remove", o, name(m.Remove))
	case mill && m.Remove != NoPoint && !b.Removable(opp).Has(m.Remove):
		return bad("the %s stone on %s is in a mill and %s has stones outside mills", o, name(m.Remove), o)
	}
	if !p.IsLegal(m) { // the cases above are meant to be complete; this is the proof
		return bad("not a legal move here")
	}
	return nil
}

// withoutRemoval returns m without its removal, for messages.
func (m Move) withoutRemoval() Move { m.Remove = NoPoint; return m }

// numberWord returns n as a word for the sentences of this package
// ("three"), or in digits from thirteen up.
func numberWord(n int) string {
	words := [...]string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}
