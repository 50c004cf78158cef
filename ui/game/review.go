package game

import "muehle/muehle"

// This file holds the two ways to hold a game still: pausing the computer
// players (with a step of one move at a time), and reviewing, which shows
// the position after any earlier move while the game waits at its end.

// Paused reports whether the computer players wait for Resume or Step.
func (c *Controller) Paused() bool { return c.paused }

// SetPaused stops the computer players from moving (the one thinking is
// cancelled) or lets them go on.
func (c *Controller) SetPaused(on bool) {
	if c.paused == on {
		return
	}
	c.paused, c.stepping = on, false
	c.restart(Event{Move: muehle.NoMove})
}

// CanStep reports whether Step would make a computer move: the computer
// players are paused, one of them is to move and the game is on.
func (c *Controller) CanStep() bool {
	if !c.paused || c.Reviewing() || c.stepping {
		return false
	}
	if r, _ := c.game.Result(); r != muehle.Ongoing {
		return false
	}
	return c.isComputer(c.game.Position().Turn)
}

// Step lets the computer player to move make one move while paused.
func (c *Controller) Step() {
	if !c.CanStep() {
		c.Say("Step makes one computer move while the computer players are paused and one of them is to move.")
		return
	}
	c.stepping = true
	c.restart(Event{Move: muehle.NoMove})
}

// Reviewing reports whether the board shows an earlier position of the
// game instead of its end.
func (c *Controller) Reviewing() bool { return c.review >= 0 }

// Shown returns the number of moves played up to the position on the
// board: the game's length unless reviewing.
func (c *Controller) Shown() int {
	if c.review >= 0 {
		return c.review
	}
	return c.game.Ply()
}

// ReviewTo shows the position after ply moves of the game (0: the start);
// ply at the end of the game or beyond returns to the game itself. The
// computer players wait while an earlier position is shown.
func (c *Controller) ReviewTo(ply int) {
	ply = max(0, ply)
	if ply >= c.game.Ply() {
		ply = -1
	}
	if ply == c.review {
		return
	}
	c.review, c.reviewGame = ply, nil
	if ply >= 0 {
		g := c.game.Clone()
		for g.Ply() > ply && g.Undo() {
		}
		c.reviewGame = g
	}
	c.restart(Event{Move: muehle.NoMove})
}

// ReviewBack shows the position one move earlier.
func (c *Controller) ReviewBack() { c.ReviewTo(c.Shown() - 1) }

// ReviewForward shows the position one move later.
func (c *Controller) ReviewForward() { c.ReviewTo(c.Shown() + 1) }

// ReviewStart shows the start position.
func (c *Controller) ReviewStart() { c.ReviewTo(0) }

// ReviewEnd returns to the end of the game.
func (c *Controller) ReviewEnd() { c.ReviewTo(c.game.Ply()) }

// current returns the game up to the position on the board: the game
// itself, or while reviewing a copy that ends at the reviewed move.
func (c *Controller) current() *muehle.Game {
	if c.reviewGame != nil {
		return c.reviewGame
	}
	return c.game
}

// endReview returns to the end of the game without redrawing, before a
// change of the game itself.
func (c *Controller) endReview() { c.review, c.reviewGame = -1, nil }

// branch plays m, made by me on a reviewed position: the later moves of the
// game are dropped, after OnBranch agreed, and the game goes on from m.
func (c *Controller) branch(me muehle.Color, m muehle.Move) {
	ply, later := c.review, c.game.Ply()-c.review
	c.pending, c.sel, c.hand = muehle.NoMove, muehle.NoPoint, false
	playIt := func() {
		if c.review != ply || c.game.Ply()-ply != later {
			return // the game changed while the question was open
		}
		for c.game.Ply() > ply && c.game.Undo() {
		}
		c.endReview()
		if err := c.game.Play(m); err != nil {
			c.Say("%v", err)
			return
		}
		c.restart(Event{Move: m, Mover: me})
	}
	if c.OnBranch == nil {
		playIt()
		return
	}
	c.notify(Event{Move: muehle.NoMove})
	c.OnBranch(m, later, playIt)
}
