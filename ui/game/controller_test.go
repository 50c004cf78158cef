package game

import (
	"strings"
	"testing"
	"time"

	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// newTestController returns a controller of a new game between two people
// whose UI thread is q, stopped when the test ends.
func newTestController(t *testing.T, q *gametest.Queue) *Controller {
	t.Helper()
	c := NewController(q.Do)
	t.Cleanup(c.Close)
	return c
}

// tapMove plays m on c by taps, as a person would.
func tapMove(c *Controller, m muehle.Move) { gametest.TapMove(c.Tap, m) }

// mustMove parses a move or fails the test.
func mustMove(t *testing.T, s string) muehle.Move { return gametest.MustMove(t, s) }

func TestWholeGameByTaps(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.SetSpeed(100 * time.Millisecond)
	g := c.Game()
	chooser := muehle.NewSeededRandom(7)
	for ply := 0; ply < 1000; ply++ {
		if r, _ := g.Result(); r != muehle.Ongoing {
			break
		}
		m, err := chooser.Move(t.Context(), g)
		if err != nil {
			t.Fatal(err)
		}
		tapMove(c, m)
		h := g.History()
		if len(h) != ply+1 || h[ply] != m {
			t.Fatalf("ply %d: after tapping %s the game has %d moves (last %v), want %d ending with %s; status %q",
				ply, m, len(h), h[len(h)-1:], ply+1, m, c.Status())
		}
		if got := c.View().Pos; got != g.Position() {
			t.Fatalf("ply %d: view shows %v, game is at %v", ply, got, g.Position())
		}
	}
	r, why := g.Result()
	if r == muehle.Ongoing {
		t.Fatalf("game still running after %d plies", g.Ply())
	}
	t.Logf("game of %d plies: %s, %s", g.Ply(), r, why)
	if got, want := c.Status(), why; !strings.Contains(got, want) {
		t.Errorf("status: got %q, want it to contain %q", got, want)
	}
	// A tap after the end changes nothing and says why.
	before := g.Ply()
	c.Tap(0)
	if g.Ply() != before || !strings.Contains(c.Status(), "game is over") {
		t.Errorf("tap after the end: %d plies (want %d), status %q", g.Ply(), before, c.Status())
	}
}

func TestRemovalAfterMill(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	g := c.Game()
	for _, s := range []string{"a7", "b6", "d7", "d6"} {
		tapMove(c, mustMove(t, s))
	}
	c.Tap(2) // g7 closes the mill a7-d7-g7
	if g.Ply() != 4 {
		t.Fatalf("after closing the mill: got %d plies, want 4 (the move waits for its removal)", g.Ply())
	}
	v := c.View()
	if !v.Removing || !v.Pos.Stones[muehle.White].Has(2) {
		t.Fatalf("board while removing: Removing %v, stone on g7 %v; want both", v.Removing, v.Pos.Stones[muehle.White].Has(2))
	}
	if want := muehle.Bitboard(1<<3 | 1<<4); v.Targets != want {
		t.Errorf("removal targets: got %v, want b6 and d6 (%v)", v.Targets.Points(), want.Points())
	}
	// Illegal taps while removing: own stone, empty point. Each explains itself.
	for _, tc := range []struct {
		p    muehle.Point
		want string
	}{
		{0, "tap a Black stone to remove it"},
		{12, "tap a Black stone to remove it"},
	} {
		c.Tap(tc.p)
		if g.Ply() != 4 || !strings.Contains(c.Status(), tc.want) {
			t.Errorf("tap %s while removing: %d plies, status %q; want 4 plies and %q", tc.p, g.Ply(), c.Status(), tc.want)
		}
	}
	c.Tap(3) // remove b6
	h := g.History()
	if want := mustMove(t, "g7xb6"); len(h) != 5 || h[4] != want {
		t.Fatalf("history: got %v, want it to end with %s", h, want)
	}
	p := g.Position()
	if p.Stones[muehle.Black] != 1<<4 || p.Turn != muehle.Black {
		t.Errorf("after the removal: Black stones %v, turn %s; want only d6 and Black to move", p.Stones[muehle.Black].Points(), p.Turn)
	}
	if got := c.View().Last; got != h[4] {
		t.Errorf("last move marked: got %s, want %s", got, h[4])
	}
}

func TestMillInMillNotRemovable(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	g := c.Game()
	// Black builds the mill b6-d6-f6 (taking c3) and has a loose stone on a1;
	// White closes a7-d7-g7 and may not take a stone of Black's mill.
	for _, s := range []string{"a7", "b6", "d7", "d6", "c3", "f6xc3", "e3", "a1"} {
		tapMove(c, mustMove(t, s))
	}
	if g.Ply() != 8 {
		t.Fatalf("setup: got %d plies, want 8; status %q", g.Ply(), c.Status())
	}
	c.Tap(2)
	c.Tap(4) // d6 is in a mill
	if g.Ply() != 8 || !strings.Contains(c.Status(), "is in a mill") {
		t.Errorf("removing from a mill: %d plies, status %q; want 8 and an explanation", g.Ply(), c.Status())
	}
	c.Tap(21) // a1 is free
	if g.Ply() != 9 || g.Position().Stones[muehle.Black].Has(21) {
		t.Errorf("removing a1: %d plies, a1 still there %v", g.Ply(), g.Position().Stones[muehle.Black].Has(21))
	}
}

func TestIllegalTapsExplained(t *testing.T) {
	// A moving-phase position: White a7 d7 b6 f6, Black g7 d6 c5 e5, White to move.
	p, err := muehle.ParsePosition("WWB" + "WBW" + "BB." + "......" + "..." + "..." + "..." + " w 0 0")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		taps []muehle.Point
		want string
	}{
		{"opponent stone", []muehle.Point{2}, "is a Black stone"},
		{"empty before picking up", []muehle.Point{9}, "First pick up"},
		{"not adjacent", []muehle.Point{0, 14}, "is not next to a7"},
		{"stone that cannot move", []muehle.Point{1}, "cannot move"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := gametest.NewQueue()
			c := newTestController(t, q)
			g, err := muehle.NewGameFrom(p, muehle.StonesPerSide)
			if err != nil {
				t.Fatal(err)
			}
			c.SetGame(g)
			for _, pt := range tt.taps {
				c.Tap(pt)
			}
			if g.Ply() != 0 || !strings.Contains(c.Status(), tt.want) {
				t.Errorf("taps %v: %d plies, status %q; want no move and %q", tt.taps, g.Ply(), c.Status(), tt.want)
			}
		})
	}
}

func TestUndoRedo(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	g := c.Game()
	moves := []string{"d6", "d2", "b4"}
	var positions []muehle.Position
	for _, s := range moves {
		positions = append(positions, g.Position())
		tapMove(c, mustMove(t, s))
	}
	end := g.Position()
	c.Undo()
	c.Undo()
	if got := g.Position(); got != positions[1] || c.View().Pos != got {
		t.Fatalf("after two undos: game %v, view %v; want %v", got, c.View().Pos, positions[1])
	}
	if !g.CanUndo() || !g.CanRedo() {
		t.Errorf("after two undos: can undo %v, can redo %v; want both", g.CanUndo(), g.CanRedo())
	}
	c.Redo()
	c.Redo()
	if got := g.Position(); got != end {
		t.Fatalf("after two redos: got %v, want %v", got, end)
	}
	if g.CanRedo() {
		t.Errorf("after two redos: can redo, with nothing to redo")
	}
	c.Redo()
	if !strings.Contains(c.Status(), "no move to redo") {
		t.Errorf("redo with nothing to redo: status %q", c.Status())
	}
	// A new move after an undo clears the redo list.
	c.Undo()
	tapMove(c, mustMove(t, "f4"))
	if g.CanRedo() {
		t.Errorf("redo still possible after a new move")
	}
}

func TestUndoAgainstComputer(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.SetSpeed(100 * time.Millisecond)
	c.SetPlayer(muehle.Black, muehle.NewSeededRandom(1))
	g := c.Game()
	tapMove(c, mustMove(t, "d6"))
	q.Drain(t, 5*time.Second, func() bool { return g.Ply() == 2 })
	if c.Thinking() {
		t.Errorf("still thinking after the computer moved")
	}
	c.Undo()
	if g.Ply() != 0 || g.Position().Turn != muehle.White {
		t.Errorf("undo against the computer: %d plies, %s to move; want 0 and White", g.Ply(), g.Position().Turn)
	}
}

func TestComputerCancelledAndStaleDropped(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.SetSpeed(100 * time.Millisecond)
	bp := gametest.NewBlockingPlayer()
	c.SetPlayer(muehle.White, bp)
	<-bp.Started
	if !c.Thinking() {
		t.Fatal("not thinking while the computer is to move")
	}
	// The window keeps working while the computer thinks: a tap is answered.
	c.Tap(4)
	if !strings.Contains(c.Status(), "please wait") {
		t.Errorf("tap while the computer thinks: status %q", c.Status())
	}
	// A new game cancels the thinking player.
	c.NewGame(muehle.NineMensMorris)
	select {
	case <-bp.Cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the thinking player was not cancelled by New")
	}
	// The player is asked again for the new game; a result for an old
	// generation is dropped.
	<-bp.Started
	gen := c.gen
	c.computerMoved(gen-1, muehle.White, mustMove(t, "a7"), "", nil)
	if c.Game().Ply() != 0 {
		t.Errorf("a stale result was played")
	}
	close(bp.Release)
	q.Drain(t, 5*time.Second, func() bool { return c.Game().Ply() == 1 })
	c.SetPlayer(muehle.White, nil)
}

// TestTwelveByTaps plays Twelve Men's Morris by taps: the new game is one of
// Twelve with twelve stones a side, a diagonal mill closes and is shown as
// the mill, and a whole game of random moves plays to its end.
func TestTwelveByTaps(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.NewGame(muehle.Twelve.With(12))
	if got, want := c.Variant(), muehle.Twelve.With(12); got != want {
		t.Fatalf("variant after NewGame: got %v, want %v", got, want)
	}
	if got, want := c.View().Pos.Hand, [2]uint8{12, 12}; got != want {
		t.Errorf("stones in hand: got %v, want %v", got, want)
	}
	// a7, b6 and c5 are a mill on the diagonal board only.
	for _, s := range []string{"a7", "g1", "b6", "f2"} {
		tapMove(c, mustMove(t, s))
	}
	c.Tap(6) // c5
	v := c.View()
	mill := muehle.Point(0).Bit() | muehle.Point(3).Bit() | muehle.Point(6).Bit()
	if !v.Removing || v.Mill != mill {
		t.Fatalf("after c5: Removing %v, mill %v; want true and the diagonal a7-b6-c5 (%v); status %q", v.Removing, v.Mill.Points(), mill.Points(), c.Status())
	}
	c.Tap(23) // g1
	if got, want := c.Game().Position().String(), "W..W..W.............B... b 9 10 twelve"; got != want {
		t.Errorf("after a7 g1 b6 f2 c5xg1: got %q, want %q", got, want)
	}

	g := c.Game()
	chooser := muehle.NewSeededRandom(12)
	for ply := g.Ply(); ply < 1000; ply++ {
		if r, _ := g.Result(); r != muehle.Ongoing {
			break
		}
		m, err := chooser.Move(t.Context(), g)
		if err != nil {
			t.Fatal(err)
		}
		tapMove(c, m)
		if got, want := g.Ply(), ply+1; got != want || g.History()[ply] != m {
			t.Fatalf("ply %d: after tapping %s: got %d plies, want %d ending with %s; status %q", ply, m, got, want, m, c.Status())
		}
	}
	if r, why := g.Result(); r == muehle.Ongoing {
		t.Errorf("game still running after %d plies", g.Ply())
	} else {
		t.Logf("Twelve Men's Morris of %d plies: %s, %s", g.Ply(), r, why)
	}
	if got := g.Position().Game; got != muehle.Twelve {
		t.Errorf("the game's positions: got game %v, want twelve", got)
	}
}
