package game

import (
	"context"
	"strings"
	"testing"
	"time"

	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// fallingPlayer plays the first legal move; its first move says it fell
// back, the later ones come "from the database".
type fallingPlayer struct{ moves int }

func (p *fallingPlayer) Name() string { return "Falling" }

func (p *fallingPlayer) Move(_ context.Context, g *muehle.Game) (muehle.Move, error) {
	p.moves++
	pos := g.Position()
	return pos.Moves()[0], nil
}

func (p *fallingPlayer) FallbackReason() string {
	if p.moves == 1 {
		return "the placement search ran out of time"
	}
	return ""
}

// TestFallbackReasonOnlyAfterItsMove: the status gives a computer's
// fallback reason after that move only; once the game has gone on, the
// reason is stale and gone, even when the player's later moves do not
// report (the person's move in between).
func TestFallbackReasonOnlyAfterItsMove(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.SetSpeed(time.Millisecond)
	p := &fallingPlayer{}
	c.SetPlayer(muehle.Black, p)
	tapMove(c, mustMove(t, "d6"))
	q.Drain(t, 5*time.Second, func() bool { return c.Game().Ply() == 2 })
	if got := c.Status(); !strings.Contains(got, "ran out of time") {
		t.Errorf("after Black's fallback move: status %q, want its reason", got)
	}
	// The person moves: while Black thinks, White's move is the last one,
	// and Black's old reason is not shown.
	pos := c.Game().Position()
	m := pos.Moves()[0]
	tapMove(c, m)
	if got := c.Status(); strings.Contains(got, "ran out of time") {
		t.Errorf("after White's next move %s: status %q, want no stale reason", m, got)
	}
	// A new game starts with the players moving, not paused.
	c.SetPaused(true)
	c.NewGame(muehle.NineMensMorris)
	if c.Paused() {
		t.Errorf("new game: got paused, want the players moving")
	}
	q.Drain(t, 5*time.Second, func() bool { return true })
}
