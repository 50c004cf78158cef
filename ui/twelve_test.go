package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

// TestTwelvePerfectPlayer: on a database holding layer 3-3 of Twelve
// Men's Morris, the marks and the perfect player read it (the jump that
// closes the diagonal mill wins), as do the hint and the review; the state
// number names its layer, and the Database tab's text says which database
// the game reads; in a layer
// it lacks the player plays alpha-beta and the status says so, and the
// marks say what computes it.
func TestTwelvePerfectPlayer(t *testing.T) {
	e := solvedTwelve33.engines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	// White a7, b6, g4; Black d2, e3, a1: White jumps g4-c5 into the mill
	// a7-b6-c5 and takes a stone, leaving Black two.
	start := "W..W..........W..B.BB... w 0 0 twelve"
	p, err := muehle.ParsePosition(start)
	if err != nil {
		t.Fatal(err)
	}
	g, err := muehle.NewGameFrom(p, 12)
	if err != nil {
		t.Fatal(err)
	}
	u.ctrl.SetGame(g)
	if got, want := e.Variant(), muehle.Twelve.With(12); got != want {
		t.Fatalf("engines' variant after a game of Twelve: got %v, want %v", got, want)
	}
	marks := shownMarks(t, u, q)
	if got, want := len(marks), len(p.Moves()); got != want {
		t.Errorf("marks: got %d, want one for each of the %d legal moves", got, want)
	}
	if m := marks[0]; m.Value != layers.WinIn(1) || m.Move.From != 14 || m.Move.To != 6 {
		t.Errorf("best mark: got %s %s, want g4-c5 (closing a7-b6-c5) winning in 1", m.Move, m.Value)
	}
	if want := "State number: layer 3-3, index"; !strings.HasPrefix(u.side.state.Text, want) {
		t.Errorf("state number: got %q, want it to start with %q", u.side.state.Text, want)
	}
	for _, want := range []string{"The game on the board is Twelve Men's Morris.", "1 of 100 moving layers",
		"muehlectl solve --game twelve --stones 12 --all-phases --db " + e.Dir()} {
		if s := e.Summary(); !strings.Contains(s, want) {
			t.Errorf("Database tab: got %q, want it to contain %q", s, want)
		}
	}

	// A hint shows the winning jump; Review Game marks a move that gives
	// the win away, with the jump as the best move.
	u.hint()
	q.Drain(t, 10*time.Second, func() bool { return u.board.View().Best.To != muehle.NoPoint })
	if b := u.board.View().Best; b.From != 14 || b.To != 6 {
		t.Errorf("hint: got %s, want g4-c5 and a removal", b)
	}
	bad := marks[len(marks)-1].Move
	reviewed := g.Clone()
	if err := reviewed.Play(bad); err != nil {
		t.Fatal(err)
	}
	u.ctrl.SetGame(reviewed)
	menuItem(t, u.Window().MainMenu(), "Analysis", "Review Game").Action()
	q.Drain(t, 10*time.Second, func() bool { return u.verdicts() != nil })
	if rows := strings.Split(u.side.moves.Text(), "\n"); len(rows) != 2 || !strings.Contains(rows[1], "?  best g4-c5x") {
		t.Errorf("move list after the review: got %q, want %s marked with the best move g4-c5x…", rows, bad)
	}
	u.ctrl.SetGame(g)

	db, _, err := e.gameDatabase()
	if err != nil {
		t.Fatal(err)
	}
	u.setSpeed(100 * time.Millisecond)
	u.setPlayer(muehle.White, game.PlayerSpec{Kind: game.PerfectPlayer})
	q.Drain(t, 10*time.Second, func() bool { return g.Ply() == 1 })
	checkBestReply(t, db, g, "perfect")

	// Four White stones: layer 4-3 is not in the folder.
	u.setPlayer(muehle.White, game.PlayerSpec{Kind: game.Human})
	p, err = muehle.ParsePosition("W..W.........WW..B.BB... w 0 0 twelve")
	if err != nil {
		t.Fatal(err)
	}
	if g, err = muehle.NewGameFrom(p, 12); err != nil {
		t.Fatal(err)
	}
	u.ctrl.SetGame(g)
	q.Drain(t, 10*time.Second, func() bool { _, err := u.ctrl.Marks(); return err != nil })
	if want := "the endgame of 4 against 3 stones, or one it leads to, is not in the database of Twelve Men's Morris yet (muehlectl solve --game twelve"; !strings.Contains(u.side.value.Text, want) {
		t.Errorf("marks outside the layers: side panel says %q, want %q", u.side.value.Text, want)
	}
	u.setPlayer(muehle.White, game.PlayerSpec{Kind: game.PerfectPlayer})
	q.Drain(t, 20*time.Second, func() bool { return g.Ply() == 1 })
	for _, want := range []string{"White (Perfect) played its last move outside the database", "so it played alpha-beta"} {
		if !strings.Contains(u.status.Text, want) {
			t.Errorf("status after the perfect player's move outside the layers: got %q, want it to contain %q", u.status.Text, want)
		}
	}
	if m := g.History()[0]; !slices.Contains(p.Moves(), m) {
		t.Errorf("the fallback's move %s is not legal in %v", m, p)
	}
}
