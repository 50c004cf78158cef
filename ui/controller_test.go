package ui

import (
	"strings"
	"testing"
	"time"

	"muehle/muehle"
)

// mustMove parses a move or fails the test.
func mustMove(t *testing.T, s string) muehle.Move {
	t.Helper()
	m, err := muehle.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestWholeGameByTaps(t *testing.T) {
	q := newQueue()
	u := newTestApp(t, q, nil)
	u.setSpeed(100 * time.Millisecond)
	g := u.ctrl.Game()
	chooser := muehle.NewSeededRandom(7)
	for ply := 0; ply < 1000; ply++ {
		if r, _ := g.Result(); r != muehle.Ongoing {
			break
		}
		m, err := chooser.Move(t.Context(), g)
		if err != nil {
			t.Fatal(err)
		}
		tapMove(u.Board(), m)
		h := g.History()
		if len(h) != ply+1 || h[ply] != m {
			t.Fatalf("ply %d: after tapping %s the game has %d moves (last %v), want %d ending with %s; status %q",
				ply, m, len(h), h[len(h)-1:], ply+1, m, u.ctrl.Status())
		}
		if got := u.Board().View().Pos; got != g.Position() {
			t.Fatalf("ply %d: board shows %v, game is at %v", ply, got, g.Position())
		}
	}
	r, why := g.Result()
	if r == muehle.Ongoing {
		t.Fatalf("game still running after %d plies", g.Ply())
	}
	t.Logf("game of %d plies: %s, %s", g.Ply(), r, why)
	if got, want := u.status.Text, why; !strings.Contains(got, want) {
		t.Errorf("status line: got %q, want it to contain %q", got, want)
	}
	// A tap after the end changes nothing and says why.
	before := g.Ply()
	u.Board().TapPoint(0)
	if g.Ply() != before || !strings.Contains(u.status.Text, "game is over") {
		t.Errorf("tap after the end: %d plies (want %d), status %q", g.Ply(), before, u.status.Text)
	}
}

func TestRemovalAfterMill(t *testing.T) {
	q := newQueue()
	u := newTestApp(t, q, nil)
	b, g := u.Board(), u.ctrl.Game()
	for _, s := range []string{"a7", "b6", "d7", "d6"} {
		tapMove(b, mustMove(t, s))
	}
	b.TapPoint(2) // g7 closes the mill a7-d7-g7
	if g.Ply() != 4 {
		t.Fatalf("after closing the mill: got %d plies, want 4 (the move waits for its removal)", g.Ply())
	}
	v := b.View()
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
		b.TapPoint(tc.p)
		if g.Ply() != 4 || !strings.Contains(u.status.Text, tc.want) {
			t.Errorf("tap %s while removing: %d plies, status %q; want 4 plies and %q", tc.p, g.Ply(), u.status.Text, tc.want)
		}
	}
	b.TapPoint(3) // remove b6
	h := g.History()
	if want := mustMove(t, "g7xb6"); len(h) != 5 || h[4] != want {
		t.Fatalf("history: got %v, want it to end with %s", h, want)
	}
	p := g.Position()
	if p.Stones[muehle.Black] != 1<<4 || p.Turn != muehle.Black {
		t.Errorf("after the removal: Black stones %v, turn %s; want only d6 and Black to move", p.Stones[muehle.Black].Points(), p.Turn)
	}
	if got := b.View().Last; got != h[4] {
		t.Errorf("last move marked: got %s, want %s", got, h[4])
	}
}

func TestMillInMillNotRemovable(t *testing.T) {
	q := newQueue()
	u := newTestApp(t, q, nil)
	b, g := u.Board(), u.ctrl.Game()
	// Black builds the mill b6-d6-f6 (taking c3) and has a loose stone on a1;
	// White closes a7-d7-g7 and may not take a stone of Black's mill.
	for _, s := range []string{"a7", "b6", "d7", "d6", "c3", "f6xc3", "e3", "a1"} {
		tapMove(b, mustMove(t, s))
	}
	if g.Ply() != 8 {
		t.Fatalf("setup: got %d plies, want 8; status %q", g.Ply(), u.status.Text)
	}
	b.TapPoint(2)
	b.TapPoint(4) // d6 is in a mill
	if g.Ply() != 8 || !strings.Contains(u.status.Text, "is in a mill") {
		t.Errorf("removing from a mill: %d plies, status %q; want 8 and an explanation", g.Ply(), u.status.Text)
	}
	b.TapPoint(21) // a1 is free
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
			q := newQueue()
			u := newTestApp(t, q, nil)
			g, err := muehle.NewGameFrom(p, muehle.StonesPerSide)
			if err != nil {
				t.Fatal(err)
			}
			u.ctrl.SetGame(g)
			for _, pt := range tt.taps {
				u.Board().TapPoint(pt)
			}
			if g.Ply() != 0 || !strings.Contains(u.status.Text, tt.want) {
				t.Errorf("taps %v: %d plies, status %q; want no move and %q", tt.taps, g.Ply(), u.status.Text, tt.want)
			}
		})
	}
}

func TestUndoRedo(t *testing.T) {
	q := newQueue()
	u := newTestApp(t, q, nil)
	b, g := u.Board(), u.ctrl.Game()
	moves := []string{"d6", "d2", "b4"}
	var positions []muehle.Position
	for _, s := range moves {
		positions = append(positions, g.Position())
		tapMove(b, mustMove(t, s))
	}
	end := g.Position()
	u.ctrl.Undo()
	u.ctrl.Undo()
	if got := g.Position(); got != positions[1] || b.View().Pos != got {
		t.Fatalf("after two undos: game %v, board %v; want %v", got, b.View().Pos, positions[1])
	}
	if u.menu.redo.Disabled || u.menu.undo.Disabled {
		t.Errorf("menu: undo disabled %v, redo disabled %v; want both enabled", u.menu.undo.Disabled, u.menu.redo.Disabled)
	}
	u.ctrl.Redo()
	u.ctrl.Redo()
	if got := g.Position(); got != end {
		t.Fatalf("after two redos: got %v, want %v", got, end)
	}
	if !u.menu.redo.Disabled {
		t.Errorf("menu: redo enabled with nothing to redo")
	}
	u.ctrl.Redo()
	if !strings.Contains(u.status.Text, "no move to redo") {
		t.Errorf("redo with nothing to redo: status %q", u.status.Text)
	}
	// A new move after an undo clears the redo list.
	u.ctrl.Undo()
	tapMove(b, mustMove(t, "f4"))
	if g.CanRedo() {
		t.Errorf("redo still possible after a new move")
	}
}

func TestUndoAgainstComputer(t *testing.T) {
	q := newQueue()
	u := newTestApp(t, q, nil)
	u.setSpeed(100 * time.Millisecond)
	u.setPlayer(muehle.Black, PlayerSpec{Kind: RandomPlayer})
	g := u.ctrl.Game()
	tapMove(u.Board(), mustMove(t, "d6"))
	q.drain(t, 5*time.Second, func() bool { return g.Ply() == 2 })
	if u.ctrl.Thinking() {
		t.Errorf("still thinking after the computer moved")
	}
	u.ctrl.Undo()
	if g.Ply() != 0 || g.Position().Turn != muehle.White {
		t.Errorf("undo against the computer: %d plies, %s to move; want 0 and White", g.Ply(), g.Position().Turn)
	}
}

func TestComputerCancelledAndStaleDropped(t *testing.T) {
	q := newQueue()
	u := newTestApp(t, q, nil)
	u.setSpeed(100 * time.Millisecond)
	bp := newBlockingPlayer()
	u.ctrl.SetPlayer(muehle.White, bp)
	<-bp.started
	if !u.ctrl.Thinking() {
		t.Fatal("not thinking while the computer is to move")
	}
	// The window keeps working while the computer thinks: a tap is answered.
	u.Board().TapPoint(4)
	if !strings.Contains(u.status.Text, "please wait") {
		t.Errorf("tap while the computer thinks: status %q", u.status.Text)
	}
	// A new game cancels the thinking player.
	u.ctrl.NewGame()
	select {
	case <-bp.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the thinking player was not cancelled by New")
	}
	// The player is asked again for the new game; a result for an old
	// generation is dropped.
	<-bp.started
	gen := u.ctrl.gen
	u.ctrl.computerMoved(gen-1, muehle.White, mustMove(t, "a7"), "", nil)
	if u.ctrl.Game().Ply() != 0 {
		t.Errorf("a stale result was played")
	}
	close(bp.release)
	q.drain(t, 5*time.Second, func() bool { return u.ctrl.Game().Ply() == 1 })
	u.ctrl.SetPlayer(muehle.White, nil)
}
