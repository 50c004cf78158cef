package game

import (
	"fmt"

	"muehle/layers"
	"muehle/muehle"
)

// View returns what the board should show now.
func (c *Controller) View() View {
	pos := c.game.Position()
	v := EmptyView(pos)
	if h := c.game.History(); len(h) > 0 {
		v.Last = h[len(h)-1]
	}
	v.Selected = c.sel
	over := false
	if r, _ := c.game.Result(); r != muehle.Ongoing {
		over = true
	}
	human := !over && !c.isComputer(pos.Turn)
	moves := pos.Moves()
	if over {
		moves = nil
	}
	// key returns the target of a move under the current half-made move,
	// or NoPoint when the move does not fit it.
	var key func(m muehle.Move) muehle.Point
	switch {
	case c.pending.To != muehle.NoPoint:
		v.Pos = pos.Play(c.pending)
		v.Pos.Turn = pos.Turn
		v.Removing = true
		key = func(m muehle.Move) muehle.Point {
			if m.From == c.pending.From && m.To == c.pending.To {
				return m.Remove
			}
			return muehle.NoPoint
		}
	case pos.Phase() == muehle.Placing:
		key = func(m muehle.Move) muehle.Point { return m.To }
	case c.sel != muehle.NoPoint:
		key = func(m muehle.Move) muehle.Point {
			if m.From == c.sel {
				return m.To
			}
			return muehle.NoPoint
		}
	default:
		key = func(m muehle.Move) muehle.Point { return m.From }
	}
	// Every empty point takes a placement: marking them all would say nothing.
	placing := c.pending.To == muehle.NoPoint && pos.Phase() == muehle.Placing
	if human && !placing {
		for _, m := range moves {
			if k := key(m); k != muehle.NoPoint {
				v.Targets |= k.Bit()
			}
		}
	}
	if c.showPerfect && len(c.marks) > 0 {
		v.Marks = map[muehle.Point]layers.Value{}
		for _, mm := range c.marks {
			k := key(mm.Move)
			if k == muehle.NoPoint {
				continue
			}
			if old, ok := v.Marks[k]; !ok || mm.Value.Better(old) {
				v.Marks[k] = mm.Value
			}
		}
	}
	return v
}

// Status returns the line that tells the person what to do or why a tap
// was refused.
func (c *Controller) Status() string {
	if c.status != "" {
		return c.status
	}
	if r, why := c.game.Result(); r != muehle.Ongoing {
		return fmt.Sprintf("%s: %s.", r, why)
	}
	pos := c.game.Position()
	me, opp := pos.Turn, pos.Turn.Other()
	if p := c.players[me]; p != nil {
		s := fmt.Sprintf("%s (%s) is thinking…", me, p.Name())
		if c.fellBack[me] != "" {
			s += " " + c.fellBack[me] + "."
		}
		return s
	}
	prefix := ""
	if c.fellBack[opp] != "" {
		prefix = c.fellBack[opp] + ". "
	}
	switch {
	case c.pending.To != muehle.NoPoint:
		return prefix + fmt.Sprintf("%s closed a mill: tap a %s stone to remove it.", me, opp)
	case pos.Phase() == muehle.Placing:
		return prefix + fmt.Sprintf("%s to move: tap an empty point to place a stone (%d in hand).", me, pos.Hand[me])
	case c.sel != muehle.NoPoint && pos.Phase() == muehle.Flying:
		return prefix + fmt.Sprintf("%s to move: tap any empty point for the stone on %s to jump to.", me, c.sel)
	case c.sel != muehle.NoPoint:
		return prefix + fmt.Sprintf("%s to move: tap a marked point for the stone on %s.", me, c.sel)
	case pos.Phase() == muehle.Flying:
		return prefix + fmt.Sprintf("%s to move: three stones left, they may jump. Pick one up.", me)
	}
	return prefix + fmt.Sprintf("%s to move: pick up a stone to slide it.", me)
}
