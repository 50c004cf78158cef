package game

import (
	"strings"
	"testing"
	"time"

	"muehle/muehle"
	"muehle/ui/game/gametest"
)

func TestPauseAndStep(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.SetSpeed(0)
	bp := gametest.NewBlockingPlayer()
	c.SetPlayer(muehle.White, bp)
	<-bp.Started
	c.SetPaused(true)
	select {
	case <-bp.Cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("pausing did not cancel the thinking player")
	}
	if c.Thinking() || !c.Paused() {
		t.Fatalf("after pausing: thinking %v, paused %v; want false, true", c.Thinking(), c.Paused())
	}
	if got := c.Status(); !strings.Contains(got, "Paused") {
		t.Errorf("status while paused: got %q, want it to say Paused", got)
	}
	if got, want := c.Headline(), "Paused · White to move · placing"; got != want {
		t.Errorf("headline while paused: got %q, want %q", got, want)
	}
	close(bp.Release) // from now on the player moves at once when asked
	// Paused, nothing moves.
	time.Sleep(50 * time.Millisecond)
	q.Drain(t, time.Second, func() bool { return true })
	if c.Game().Ply() != 0 {
		t.Fatalf("paused computer moved: %d plies", c.Game().Ply())
	}
	// Step: exactly one move, then paused again.
	if !c.CanStep() {
		t.Fatal("cannot step while paused with the computer to move")
	}
	c.Step()
	q.Drain(t, 5*time.Second, func() bool { return c.Game().Ply() == 1 })
	// Black is a person: no step possible, and no further computer move.
	if c.CanStep() {
		t.Errorf("can step with a person to move")
	}
	tapMove(c, mustMove(t, "d2"))
	time.Sleep(50 * time.Millisecond)
	q.Drain(t, time.Second, func() bool { return true })
	if got := c.Game().Ply(); got != 2 {
		t.Fatalf("paused after a step and a person's move: got %d plies, want 2", got)
	}
	c.Step()
	q.Drain(t, 5*time.Second, func() bool { return c.Game().Ply() == 3 })
	// Resume: the computer moves again by itself.
	tapMove(c, mustMove(t, "b4"))
	c.SetPaused(false)
	q.Drain(t, 5*time.Second, func() bool { return c.Game().Ply() == 5 })
}

func TestReview(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	moves := []string{"d6", "d2", "b4", "f4", "d7"}
	for _, s := range moves {
		tapMove(c, mustMove(t, s))
	}
	positions := c.Game().Positions()
	steps := []struct {
		name string
		do   func()
		want int // the ply shown
	}{
		{"back", c.ReviewBack, 4},
		{"back", c.ReviewBack, 3},
		{"start", c.ReviewStart, 0},
		{"back at the start", c.ReviewBack, 0},
		{"forward", c.ReviewForward, 1},
		{"to 3", func() { c.ReviewTo(3) }, 3},
		{"end", c.ReviewEnd, 5},
		{"forward at the end", c.ReviewForward, 5},
	}
	for _, s := range steps {
		s.do()
		if got := c.Shown(); got != s.want {
			t.Fatalf("%s: got ply %d shown, want %d", s.name, got, s.want)
		}
		if got, want := c.View().Pos, positions[s.want]; got != want {
			t.Errorf("%s: board shows %v, want %v", s.name, got, want)
		}
		if got, want := c.Reviewing(), s.want < 5; got != want {
			t.Errorf("%s: reviewing %v, want %v", s.name, got, want)
		}
		if c.Game().Ply() != 5 {
			t.Fatalf("%s: reviewing changed the game to %d plies", s.name, c.Game().Ply())
		}
	}
	c.ReviewTo(2)
	if v := c.View(); v.Last != mustMove(t, "d2") {
		t.Errorf("last move shown at ply 2: got %v, want d2", v.Last)
	}
	if got := c.Headline(); !strings.HasPrefix(got, "Reviewing ply 2 of 5") {
		t.Errorf("headline while reviewing: got %q", got)
	}

	// A move on a reviewed position asks first; refusing keeps the game.
	var asked int
	var play func()
	c.OnBranch = func(m muehle.Move, later int, p func()) { asked, play = later, p }
	tapMove(c, mustMove(t, "a1"))
	if asked != 3 || c.Game().Ply() != 5 {
		t.Fatalf("move on ply 2 of 5: asked about %d later moves, game has %d plies; want 3 and 5", asked, c.Game().Ply())
	}
	// Agreeing drops the later moves and plays the new one.
	play()
	h := c.Game().History()
	if len(h) != 3 || h[2] != mustMove(t, "a1") || c.Reviewing() {
		t.Errorf("after the new line: moves %v, reviewing %v; want d6 d2 a1 and not reviewing", h, c.Reviewing())
	}
	// An answer that comes after the game changed does nothing.
	c.ReviewTo(1)
	tapMove(c, mustMove(t, "g7"))
	c.ReviewEnd()
	tapMove(c, mustMove(t, "g1"))
	play()
	if got := c.Game().Ply(); got != 4 {
		t.Errorf("a stale answer to the question changed the game: %d plies, want 4", got)
	}
}

// TestReviewHoldsComputer checks that the computer waits while an earlier
// position is shown and moves again at the end.
func TestReviewHoldsComputer(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.SetSpeed(0)
	tapMove(c, mustMove(t, "d6"))
	tapMove(c, mustMove(t, "d2"))
	c.ReviewTo(1)
	c.SetPlayer(muehle.White, muehle.NewSeededRandom(3))
	time.Sleep(50 * time.Millisecond)
	q.Drain(t, time.Second, func() bool { return true })
	if c.Thinking() || c.Game().Ply() != 2 {
		t.Fatalf("while reviewing: thinking %v, %d plies; want no computer move", c.Thinking(), c.Game().Ply())
	}
	c.ReviewEnd()
	q.Drain(t, 5*time.Second, func() bool { return c.Game().Ply() == 3 })
}

func TestRemovalHeadlineAndMill(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	for _, s := range []string{"a7", "b6", "d7", "d6"} {
		tapMove(c, mustMove(t, s))
	}
	c.Tap(2) // g7 closes a7-d7-g7
	mill := muehle.Point(0).Bit() | muehle.Point(1).Bit() | muehle.Point(2).Bit()
	if got, want := c.Headline(), "White removes a stone"; got != want {
		t.Errorf("headline while removing: got %q, want %q", got, want)
	}
	if got := c.View().Mill; got != mill {
		t.Errorf("mill while removing: got %v, want %v", got.Points(), mill.Points())
	}
	c.Tap(3) // remove b6
	v := c.View()
	if got := v.Mill; got != mill {
		t.Errorf("mill after the removal: got %v, want %v", got.Points(), mill.Points())
	}
	if got, want := c.Headline(), "Black to move · placing"; got != want {
		t.Errorf("headline after the removal: got %q, want %q", got, want)
	}
	tapMove(c, mustMove(t, "b6"))
	if got := c.View().Mill; got != 0 {
		t.Errorf("mill after a move without one: got %v, want none", got.Points())
	}
	if got := c.View().Players; got != [2]string{"Human", "Human"} {
		t.Errorf("players in the view: got %v", got)
	}
}

func TestNoRemovalLimitKeptForNewGames(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.SetNoRemovalLimit(50)
	c.NewGame(muehle.NineMensMorris)
	if got := c.Game().NoRemovalLimit; got != 50 {
		t.Errorf("limit in a new game: got %d, want 50", got)
	}
	c.SetNoRemovalLimit(0)
	c.NewGame(muehle.NineMensMorris)
	if got := c.Game().NoRemovalLimit; got != 0 {
		t.Errorf("limit after switching it off: got %d, want 0", got)
	}
}
