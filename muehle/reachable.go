package muehle

import (
	"errors"
	"fmt"
)

// ErrUnreachable marks a position that passes Validate but that no game
// from the empty board can reach (CheckReachable).
var ErrUnreachable = errors.New("muehle: position cannot arise in a game")

// CheckReachable returns nil when p may arise in a game of k stones per
// side played from the empty board, the legal input of docs/rules.md
// ("Which positions are legal input"). Otherwise it returns Validate's
// error, or an error wrapping ErrUnreachable that says why in words for
// a player:
//
//   - counting: during the placement phase a side has lost more stones
//     than the other side can have removed, one for each of its
//     placements from its third on; in a Mixed game, where slides close
//     mills too, a side has lost a stone though the other side has placed
//     fewer than three;
//   - the last move: p is the start, or some legal move of the side that
//     is not to move leads to p from a position that passes Validate(k)
//     and the counting test (AppendUnmoves). So a side with fewer than
//     three stones is to move and the other side shows the mill that
//     took its stone.
//
// Both are necessary conditions: a position that passes may still be
// unreachable when the reason lies more than one move back. The check
// costs one generation of un-moves and does not allocate.
func (p *Position) CheckReachable(k int) error {
	if err := p.Validate(k); err != nil {
		return err
	}
	if err := removalsPossible(p, k); err != nil {
		return err
	}
	if *p == p.Rules().NewPosition(k) {
		return nil
	}
	var buf [MaxUnmoves]Move
	for _, m := range p.AppendUnmoves(buf[:0]) {
		q := p.Unplay(m)
		if q.Validate(k) == nil && removalsPossible(&q, k) == nil {
			return nil
		}
	}
	mover := p.Turn.Other()
	if t := p.Total(p.Turn); p.Rules().Lost(t) && p.Board().InMill(p.Stones[mover]) == 0 {
		return fmt.Errorf("%w: %s has only %d stones, so %s has just closed a mill, but %s has no mill on the board",
			ErrUnreachable, p.Turn, t, mover, mover)
	}
	return fmt.Errorf("%w: no legal move of %s leads to it from a position of a game of %d stones", ErrUnreachable, mover, k)
}

// removalsPossible checks the counting condition of CheckReachable: while
// stones are in hand, each side can have removed at most one stone for
// each of its placements from the third on. In a Mixed game a side can
// close a mill by a slide too, so only this holds: a side that has removed
// a stone has placed at least three.
func removalsPossible(p *Position, k int) error {
	if p.Rules().Mixed {
		for c := White; c <= Black; c++ {
			o := c.Other()
			lost := k - int(p.Hand[c]) - p.Stones[c].Count()
			if placed := k - int(p.Hand[o]); lost > 0 && placed < 3 {
				return fmt.Errorf("%w: %s has lost %d of its stones, but %s, with %d placed, cannot have closed a mill",
					ErrUnreachable, c, lost, o, placed)
			}
		}
		return nil
	}
	if p.Hand[White] == 0 && p.Hand[Black] == 0 {
		return nil // the moving phase: any number of removals may have happened
	}
	for c := White; c <= Black; c++ {
		o := c.Other()
		lost := k - int(p.Hand[c]) - p.Stones[c].Count()
		placed := k - int(p.Hand[o])
		if most := max(0, placed-2); lost > most {
			return fmt.Errorf("%w: %s has lost %d of its stones, but %s, with %d placed, can have removed at most %d",
				ErrUnreachable, c, lost, o, placed, most)
		}
	}
	return nil
}
