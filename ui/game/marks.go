package game

import (
	"context"

	"muehle/layers"
	"muehle/muehle"
)

// MoveMark is the database's verdict on one legal move: the value of the
// move for the side that makes it, how many of the opponent's replies are
// won, drawn and lost for the opponent, and why the perfect player would
// or would not play it.
type MoveMark struct {
	Move    muehle.Move
	Value   layers.Value
	Replies [3]int // the opponent's replies that win, draw, lose (for the opponent)
	// Chance is, for a drawing move of a drawn position, the measure of
	// the mover's chance to win that the default perfect player chooses
	// its drawing move by: the share of positions won for the mover in the
	// layer the game enters at the next removal, if both sides keep the
	// draw (retro/play's sector score, MoveValue.Score). 0 for other
	// moves.
	Chance float64
	// Pick says the perfect player would play this move: it is one of the
	// best moves, among which the player chooses at random.
	Pick bool
}

// Evaluator gives the perfect-move marks of a position. It is called from a
// goroutine and must return ctx.Err() promptly when ctx is cancelled.
type Evaluator interface {
	Evaluate(ctx context.Context, pos muehle.Position) ([]MoveMark, error)
}

// FallbackReason returns why p's last move did not come from the database,
// or "" when it did or p cannot say.
func FallbackReason(p muehle.Player) string {
	if f, ok := p.(interface{ FallbackReason() string }); ok {
		return f.FallbackReason()
	}
	if f, ok := p.(interface{ LastFellBack() bool }); ok && f.LastFellBack() {
		return "the position was outside the computed layers (or in a damaged one: see the Database tab), so it played alpha-beta"
	}
	return ""
}
