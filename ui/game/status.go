package game

import (
	"fmt"

	"muehle/layers"
	"muehle/muehle"
)

// View returns what the board should show now.
func (c *Controller) View() View {
	g := c.current()
	pos := g.Position()
	v := EmptyView(pos)
	if h := g.History(); len(h) > 0 {
		v.Last = h[len(h)-1]
	}
	v.Selected = c.sel
	v.Hand = c.hand
	v.Players = [2]string{c.playerName(muehle.White), c.playerName(muehle.Black)}
	v.Stones = g.Stones()
	over := false
	if r, _ := g.Result(); r != muehle.Ongoing {
		over = true
	}
	human := !over && (c.Reviewing() || !c.isComputer(pos.Turn))
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
		v.Mill = millsThrough(pos.Board(), v.Pos.Stones[pos.Turn], c.pending.To)
		key = func(m muehle.Move) muehle.Point {
			if m.From == c.pending.From && m.To == c.pending.To {
				return m.Remove
			}
			return muehle.NoPoint
		}
	case c.sel != muehle.NoPoint:
		key = func(m muehle.Move) muehle.Point {
			if m.From == c.sel {
				return m.To
			}
			return muehle.NoPoint
		}
	case c.hand:
		key = func(m muehle.Move) muehle.Point {
			if m.From == muehle.NoPoint {
				return m.To
			}
			return muehle.NoPoint
		}
	default:
		// A placement by its point, a move by its stone: in a game whose
		// phases mix, a side with stones in hand has both.
		key = func(m muehle.Move) muehle.Point {
			if m.From == muehle.NoPoint {
				return m.To
			}
			return m.From
		}
	}
	if c.pending.To == muehle.NoPoint && v.Last.IsRemoval() {
		v.Mill = millsThrough(pos.Board(), pos.Stones[pos.Turn.Other()], v.Last.To)
	}
	if human {
		for _, m := range moves {
			// Every empty point takes a placement: marking them all would
			// say nothing.
			if m.From == muehle.NoPoint && c.pending.To == muehle.NoPoint {
				continue
			}
			if k := key(m); k != muehle.NoPoint {
				v.Targets |= k.Bit()
			}
		}
	}
	if c.showPerfect && len(c.marks) > 0 {
		v.Marks = map[muehle.Point]layers.Value{}
		v.Chances = map[muehle.Point]float64{}
		for _, mm := range c.marks {
			k := key(mm.Move)
			if k == muehle.NoPoint {
				continue
			}
			old, ok := v.Marks[k]
			if !ok || mm.Value.Better(old) {
				v.Marks[k] = mm.Value
				delete(v.Chances, k)
			}
			if mm.Value == v.Marks[k] && mm.Value.Outcome() == layers.Draw {
				v.Chances[k] = max(v.Chances[k], mm.Chance)
			}
			if mm.Pick {
				v.Picks |= k.Bit()
			}
		}
	}
	return v
}

// playerName returns the name of side col's player, "Human" for a person.
func (c *Controller) playerName(col muehle.Color) string {
	if p := c.players[col]; p != nil {
		return p.Name()
	}
	return "Human"
}

// millsThrough returns the stones of the complete mills of own through p
// on board b.
func millsThrough(b *muehle.Board, own muehle.Bitboard, p muehle.Point) muehle.Bitboard {
	var mill muehle.Bitboard
	for _, m := range b.Mills() {
		if m.Has(p) && own&m == m {
			mill |= m
		}
	}
	return mill
}

// Headline returns the short state of the game above the side panel:
// "White to move · placing", "White to move · placing or moving" (Lasker
// Morris), "White removes a stone", "Game over: …", and whether the
// computer is paused or an earlier position is shown.
func (c *Controller) Headline() string {
	g := c.current()
	pos := g.Position()
	var s string
	switch r, _ := g.Result(); {
	case r != muehle.Ongoing:
		s = "Game over: " + r.String()
	case c.pending.To != muehle.NoPoint:
		s = fmt.Sprintf("%s removes a stone", pos.Turn)
	default:
		s = fmt.Sprintf("%s to move · %s", pos.Turn, phaseWords(&pos))
	}
	switch {
	case c.Reviewing():
		s = fmt.Sprintf("Reviewing ply %d of %d · ", c.review, c.game.Ply()) + s
	case c.paused:
		s = "Paused · " + s
	}
	return s
}

// phaseWords returns what the side to move of pos may do, in the words of
// the headline: its phase ("placing", "moving", "flying"), or in a game
// whose phases mix, when it has stones in hand and a stone on the board
// that can move, "placing or moving" ("placing or flying" when it jumps).
func phaseWords(pos *muehle.Position) string {
	if pos.Rules().Mixed && pos.Hand[pos.Turn] > 0 && mayMove(pos) {
		if flies(pos) {
			return "placing or flying"
		}
		return "placing or moving"
	}
	return pos.Phase().String()
}

// Status returns the line that tells the person what to do or why a tap
// was refused.
func (c *Controller) Status() string {
	if c.status != "" {
		return c.status
	}
	g := c.current()
	if c.Reviewing() && c.pending.To == muehle.NoPoint && c.sel == muehle.NoPoint && !c.hand {
		return fmt.Sprintf("Reviewing the position after ply %d of %d: the arrow keys step, Home and End jump, "+
			"a click on a move shows it; a move played here starts a new line from this position.", c.review, c.game.Ply())
	}
	if r, why := g.Result(); r != muehle.Ongoing {
		return fmt.Sprintf("%s: %s.", r, why)
	}
	pos := g.Position()
	me, opp := pos.Turn, pos.Turn.Other()
	if p := c.players[me]; p != nil && c.paused && !c.stepping && !c.Reviewing() {
		return fmt.Sprintf("Paused: %s (%s) is to move. Game ▸ Resume Computer goes on, Step plays one move.", me, p.Name())
	}
	if p := c.players[me]; p != nil && !c.Reviewing() {
		s := fmt.Sprintf("%s (%s) is thinking…", me, p.Name())
		if why := c.fellBackNote(opp); why != "" {
			s += " " + why + "."
		}
		return s
	}
	prefix := ""
	if why := c.fellBackNote(opp); why != "" {
		prefix = why + ". "
	}
	switch {
	case c.pending.To != muehle.NoPoint:
		return prefix + fmt.Sprintf("%s closed a mill and removes a stone: tap a %s stone (ringed in red).", me, opp)
	case c.hand:
		return prefix + fmt.Sprintf("%s to move: tap an empty point to place a stone (%d in hand); tap the stones in hand again to move a stone on the board instead.", me, pos.Hand[me])
	case c.sel != muehle.NoPoint && pos.Hand[me] > 0 && flies(&pos):
		return prefix + fmt.Sprintf("%s to move: tap any empty point for the stone on %s to jump to, or tap it again to place a stone instead.", me, c.game.Rules().Board.PointName(c.sel))
	case c.sel != muehle.NoPoint && pos.Hand[me] > 0:
		return prefix + fmt.Sprintf("%s to move: tap a marked point for the stone on %s, or tap it again to place a stone instead.", me, c.game.Rules().Board.PointName(c.sel))
	case pos.Hand[me] > 0 && pos.Rules().Mixed && mayMove(&pos) && flies(&pos):
		return prefix + fmt.Sprintf("%s to move: tap an empty point to place a stone (%d in hand), or pick up a stone on the board: with %d stones left it may jump.", me, pos.Hand[me], pos.Rules().FlyAt)
	case pos.Hand[me] > 0 && pos.Rules().Mixed && mayMove(&pos):
		return prefix + fmt.Sprintf("%s to move: tap an empty point to place a stone (%d in hand), or pick up a stone to slide it.", me, pos.Hand[me])
	case pos.Phase() == muehle.Placing:
		return prefix + fmt.Sprintf("%s to move: tap an empty point to place a stone (%d in hand).", me, pos.Hand[me])
	case c.sel != muehle.NoPoint && pos.Phase() == muehle.Flying:
		return prefix + fmt.Sprintf("%s to move: tap any empty point for the stone on %s to jump to.", me, c.game.Rules().Board.PointName(c.sel))
	case c.sel != muehle.NoPoint:
		return prefix + fmt.Sprintf("%s to move: tap a marked point for the stone on %s.", me, c.game.Rules().Board.PointName(c.sel))
	case pos.Phase() == muehle.Flying:
		return prefix + fmt.Sprintf("%s to move: %d stones left, they may jump. Pick one up.", me, pos.Total(me))
	}
	return prefix + fmt.Sprintf("%s to move: pick up a stone to slide it.", me)
}
