package game

import (
	"fmt"

	"muehle/muehle"
)

// Tap handles a tap on point p by the person to move: place, pick up a
// stone, move it, or remove an opponent stone after a mill. In a game
// whose phases mix (Lasker Morris) a side with stones in hand places on
// the empty point tapped, unless it picked up a stone of the board first,
// which then moves there. An illegal tap changes nothing and explains
// itself in the status line.
func (c *Controller) Tap(p muehle.Point) {
	g := c.current()
	if !c.mayTap(g) {
		return
	}
	pos := g.Position()
	me, opp := pos.Turn, pos.Turn.Other()
	name := pos.Board().PointName
	moves := pos.Moves()
	if c.pending.To != muehle.NoPoint {
		c.tapRemoval(pos, moves, p)
		return
	}
	inHand := pos.Hand[me] > 0
	switch {
	case pos.Phase() == muehle.Placing && !pos.Rules().Mixed:
		if !pos.Empty().Has(p) {
			c.Say("%s is occupied: place your stone on an empty point.", name(p))
			return
		}
		c.choose(me, filter(moves, muehle.NoPoint, p))
	case pos.Stones[me].Has(p):
		if len(filter(moves, p, muehle.NoPoint)) == 0 {
			if inHand {
				c.Say("The stone on %s cannot move: no empty point next to it. Tap an empty point to place a stone instead.", name(p))
				return
			}
			c.Say("The stone on %s cannot move: no empty point next to it.", name(p))
			return
		}
		if c.sel == p {
			c.sel = muehle.NoPoint
		} else {
			c.sel = p
		}
		c.hand = false
		c.status = ""
		c.notify(Event{Move: muehle.NoMove})
	case pos.Stones[opp].Has(p) && inHand:
		c.Say("%s is a %s stone: place a stone on an empty point, or pick up one of your own (%s) to move it.", name(p), opp, me)
	case pos.Stones[opp].Has(p):
		c.Say("%s is a %s stone: pick up one of your own (%s).", name(p), opp, me)
	case inHand && c.sel == muehle.NoPoint:
		// A game whose phases mix: the stone in hand, chosen or not.
		c.choose(me, placements(moves, p))
	case c.sel == muehle.NoPoint:
		c.Say("First pick up one of your stones, then tap where it goes.")
	default:
		ms := filter(moves, c.sel, p)
		if len(ms) == 0 && inHand {
			c.Say("%s is not next to %s: a stone slides along a line to a neighbouring point (%s). To place a stone there instead, tap the stone on %s again to put it down.", name(p), name(c.sel), jumpRule(pos.Rules()), name(c.sel))
			return
		}
		if len(ms) == 0 {
			c.Say("%s is not next to %s: a stone slides along a line to a neighbouring point (%s).", name(p), name(c.sel), jumpRule(pos.Rules()))
			return
		}
		c.choose(me, ms)
	}
}

// TapHand handles a tap on the stones in hand of side col. In a game whose
// phases mix the side to move chooses with it to place a stone rather than
// move one: the next tap on an empty point places it, and a second tap on
// the hand takes the choice back. In the other games a side with stones in
// hand can only place, and the tap changes nothing.
func (c *Controller) TapHand(col muehle.Color) {
	g := c.current()
	if pos := g.Position(); !pos.Rules().Mixed || !c.mayTap(g) {
		return
	}
	pos := g.Position()
	me := pos.Turn
	switch {
	case c.pending.To != muehle.NoPoint:
		c.Say("Your mill is closed: tap a %s stone to remove it (tap your stone on %s to take the move back).", me.Other(), pos.Board().PointName(c.pending.To))
	case col != me:
		c.Say("Those are %s's stones in hand; it is %s's turn.", col, me)
	case pos.Hand[me] == 0:
		c.Say("%s has no stones in hand: pick up a stone on the board to move it.", me)
	default:
		c.hand = !c.hand
		c.sel = muehle.NoPoint
		c.status = ""
		c.notify(Event{Move: muehle.NoMove})
	}
}

// mayTap reports whether the person may play in game g (the game, or the
// reviewed one) now; when not, it says why.
func (c *Controller) mayTap(g *muehle.Game) bool {
	if r, why := g.Result(); r != muehle.Ongoing {
		c.Say("The game is over: %s, %s. Game ▸ New Game starts another.", r, why)
		return false
	}
	if me := g.Position().Turn; c.isComputer(me) && !c.Reviewing() {
		c.Say("It is %s's turn (%s); please wait.", me, c.players[me].Name())
		return false
	}
	return true
}

// tapRemoval handles a tap while a move waits for the stone it removes.
func (c *Controller) tapRemoval(pos muehle.Position, moves []muehle.Move, p muehle.Point) {
	me, opp := pos.Turn, pos.Turn.Other()
	name := pos.Board().PointName
	for _, m := range moves {
		if m.From == c.pending.From && m.To == c.pending.To && m.Remove == p {
			c.play(me, m)
			return
		}
	}
	switch {
	case p == c.pending.To || p == c.pending.From:
		c.pending, c.sel, c.hand, c.status = muehle.NoMove, muehle.NoPoint, false, ""
		c.notify(Event{Move: muehle.NoMove})
	case pos.Stones[opp].Has(p):
		c.Say("The %s stone on %s is in a mill: remove one that is not (stones in a mill may be taken only when all are).", opp, name(p))
	default:
		c.Say("Your mill is closed: tap a %s stone to remove it (tap your stone on %s to take the move back).", opp, name(c.pending.To))
	}
}

// choose plays the only candidate, or waits for the removal when the
// candidates differ only by the stone they remove.
func (c *Controller) choose(me muehle.Color, ms []muehle.Move) {
	switch {
	case len(ms) == 0:
		c.Say("That move is not legal here.")
	case len(ms) == 1 && !ms[0].IsRemoval():
		c.play(me, ms[0])
	default:
		c.pending = muehle.Move{From: ms[0].From, To: ms[0].To, Remove: muehle.NoPoint}
		c.sel, c.hand = muehle.NoPoint, false
		c.status = ""
		c.notify(Event{Move: muehle.NoMove})
	}
}

func (c *Controller) play(me muehle.Color, m muehle.Move) {
	if c.Reviewing() {
		c.branch(me, m)
		return
	}
	if err := c.game.Play(m); err != nil {
		c.Say("%v", err)
		return
	}
	c.restart(Event{Move: m, Mover: me})
}

// filter returns the moves from from (NoPoint: any origin or a placement)
// to to (NoPoint: any target).
func filter(ms []muehle.Move, from, to muehle.Point) []muehle.Move {
	var out []muehle.Move
	for _, m := range ms {
		if (from == muehle.NoPoint || m.From == from) && (to == muehle.NoPoint || m.To == to) {
			out = append(out, m)
		}
	}
	return out
}

// placements returns the placements among ms on point to.
func placements(ms []muehle.Move, to muehle.Point) []muehle.Move {
	var out []muehle.Move
	for _, m := range ms {
		if m.From == muehle.NoPoint && m.To == to {
			out = append(out, m)
		}
	}
	return out
}

// mayMove reports whether the side to move of pos has a move of a stone on
// the board (a slide or a jump), whatever it holds in hand.
func mayMove(pos *muehle.Position) bool {
	for _, m := range pos.Moves() {
		if m.From != muehle.NoPoint {
			return true
		}
	}
	return false
}

// flies reports whether the side to move of pos jumps: its stones on the
// board and in hand are at most its game's FlyAt together.
func flies(pos *muehle.Position) bool {
	return pos.Rules().Flies(pos.Total(pos.Turn))
}

// jumpRule says when a stone of game r may jump instead of sliding: "it
// may jump only when its side has 3 stones left", or that it never may.
func jumpRule(r *muehle.Rules) string {
	if r.FlyAt == 0 {
		return "in " + r.Name + " a stone never jumps"
	}
	return fmt.Sprintf("it may jump only when its side has %d stones left", r.FlyAt)
}
