package game

import (
	"muehle/muehle"
)

// Tap handles a tap on point p by the person to move: place, pick up a
// stone, move it, or remove an opponent stone after a mill. An illegal tap
// changes nothing and explains itself in the status line.
func (c *Controller) Tap(p muehle.Point) {
	g := c.current()
	if r, why := g.Result(); r != muehle.Ongoing {
		c.Say("The game is over: %s, %s. Game ▸ New Game starts another.", r, why)
		return
	}
	pos := g.Position()
	me, opp := pos.Turn, pos.Turn.Other()
	if c.isComputer(me) && !c.Reviewing() {
		c.Say("It is %s's turn (%s); please wait.", me, c.players[me].Name())
		return
	}
	moves := pos.Moves()
	if c.pending.To != muehle.NoPoint {
		c.tapRemoval(pos, moves, p)
		return
	}
	switch {
	case pos.Phase() == muehle.Placing:
		if !pos.Empty().Has(p) {
			c.Say("%s is occupied: place your stone on an empty point.", p)
			return
		}
		c.choose(me, filter(moves, muehle.NoPoint, p))
	case pos.Stones[me].Has(p):
		if len(filter(moves, p, muehle.NoPoint)) == 0 {
			c.Say("The stone on %s cannot move: no empty point next to it.", p)
			return
		}
		if c.sel == p {
			c.sel = muehle.NoPoint
		} else {
			c.sel = p
		}
		c.status = ""
		c.notify(Event{Move: muehle.NoMove})
	case pos.Stones[opp].Has(p):
		c.Say("%s is a %s stone: pick up one of your own (%s).", p, opp, me)
	case c.sel == muehle.NoPoint:
		c.Say("First pick up one of your stones, then tap where it goes.")
	default:
		ms := filter(moves, c.sel, p)
		if len(ms) == 0 {
			c.Say("%s is not next to %s: a stone slides along a line to a neighbouring point (it may jump only when its side has three stones left).", p, c.sel)
			return
		}
		c.choose(me, ms)
	}
}

// tapRemoval handles a tap while a move waits for the stone it removes.
func (c *Controller) tapRemoval(pos muehle.Position, moves []muehle.Move, p muehle.Point) {
	me, opp := pos.Turn, pos.Turn.Other()
	for _, m := range moves {
		if m.From == c.pending.From && m.To == c.pending.To && m.Remove == p {
			c.play(me, m)
			return
		}
	}
	switch {
	case p == c.pending.To || p == c.pending.From:
		c.pending, c.sel, c.status = muehle.NoMove, muehle.NoPoint, ""
		c.notify(Event{Move: muehle.NoMove})
	case pos.Stones[opp].Has(p):
		c.Say("The %s stone on %s is in a mill: remove one that is not (stones in a mill may be taken only when all are).", opp, p)
	default:
		c.Say("Your mill is closed: tap a %s stone to remove it (tap your stone on %s to take the move back).", opp, c.pending.To)
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
		c.sel = muehle.NoPoint
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
