package ui

import (
	"context"
	"fmt"
	"math/rand/v2"

	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game"
)

// This file holds Game ▸ Hint: the perfect player's move in the position
// on the board, chosen in the background and shown once as the green arrow
// (until the position changes), without turning on the marks. The game
// record notes the hint: Save Game and Copy Game write a comment after the
// move played from the position where it was taken.

// hintNote is the record comment after a move played from a position
// where a hint was taken.
const hintNote = "hint taken before this move"

// hints are the hints taken in one game, and the one on the board.
type hints struct {
	game   *muehle.Game       // the game they belong to; another game forgets them
	before map[int]bool       // the plies (0: the first move) played after a hint
	move   muehle.Move        // the hint shown; To == NoPoint for none
	pos    muehle.Position    // the position it was chosen for
	ply    int                // the ply of that position
	cancel context.CancelFunc // stops the hint being chosen
	gen    int                // counts hints asked for, to drop a stale one
}

// forGame returns the hints of g, forgetting those of another game.
func (h *hints) forGame(g *muehle.Game) *hints {
	if h.game != g {
		h.game, h.before, h.move = g, map[int]bool{}, muehle.NoMove
	}
	return h
}

// hintShown returns the hint to draw on the board: the one chosen for the
// position on the board, else none.
func (u *App) hintShown() muehle.Move {
	h := u.hinted.forGame(u.ctrl.Game())
	if h.move.To == muehle.NoPoint || u.trainingHides() || h.pos != u.ctrl.Position() || h.ply != u.ctrl.Shown() {
		return muehle.NoMove
	}
	return h.move
}

// hint asks the perfect player for its move in the position on the board.
func (u *App) hint() {
	g := u.ctrl.Game()
	pos, ply := u.ctrl.Position(), u.ctrl.Shown()
	switch r, _ := u.ctrl.Current().Result(); {
	case u.engines == nil:
		u.ctrl.Say("Hints need the perfect player, which this build does not have.")
		return
	case u.trainingHides():
		u.ctrl.Say("No hints in training: the position is the question. Play your answer on the board.")
		return
	case u.learn.walk != nil:
		u.ctrl.Say("Close the line of moves on the board first (Escape).")
		return
	case r != muehle.Ongoing:
		u.ctrl.Say("The game is over: there is no move to hint at.")
		return
	case u.ctrl.Player(pos.Turn) != nil && !u.ctrl.Reviewing():
		u.ctrl.Say("%s is a computer player: hints are for a person to move.", pos.Turn)
		return
	}
	p, err := game.NewPlayer(play.DefaultPerfect, u.engines, rand.NewPCG(u.seeds.Uint64(), u.seeds.Uint64()))
	if err != nil {
		u.ctrl.Say("Hint: %v", err)
		return
	}
	h := u.hinted.forGame(g)
	if h.cancel != nil {
		h.cancel()
	}
	h.gen++
	gen := h.gen
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	u.ctrl.Say("Hint: the perfect player is choosing its move…")
	clone := u.ctrl.Current().Clone()
	go func() {
		m, err := p.Move(ctx, clone)
		why := game.FallbackReason(p)
		cancel()
		u.do(func() {
			if h != u.hinted.forGame(u.ctrl.Game()) || gen != h.gen || u.ctrl.Position() != pos || u.ctrl.Shown() != ply {
				return // another game or position by now
			}
			if err != nil {
				u.ctrl.Say("Hint: %v", err)
				return
			}
			h.move, h.pos, h.ply = m, pos, ply
			h.before[ply] = true
			// The board draws a placement as a ring on its point, a
			// move as an arrow.
			shown := "the green arrow"
			if m.From == muehle.NoPoint {
				shown = "the green ring"
			}
			if m.Remove != muehle.NoPoint {
				shown += ", the stone it takes ringed in red"
			}
			name := pos.Board().MoveString(m)
			msg := fmt.Sprintf("Hint: %s, the perfect player's move (%s). A saved game notes the hint.", name, shown)
			if why != "" {
				msg = fmt.Sprintf("Hint: %s (%s), from the perfect player's fallback: %s. A saved game notes the hint.", name, shown, why)
			}
			u.ctrl.Say("%s", msg)
		})
	}()
}

// hintComments returns the record comments of the hints taken in g, one a
// move ("" for none), nil when no hint was taken.
func (u *App) hintComments(g *muehle.Game) []string {
	h := u.hinted.forGame(g)
	var cs []string
	for ply := range g.Ply() {
		if h.before[ply] {
			if cs == nil {
				cs = make([]string, g.Ply())
			}
			cs[ply] = hintNote
		}
	}
	return cs
}

// stopHint stops a hint being chosen; on closing the window.
func (u *App) stopHint() {
	if u.hinted.cancel != nil {
		u.hinted.cancel()
	}
}
