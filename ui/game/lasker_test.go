package game

import (
	"strings"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// bits returns the bitboard of points ps.
func bits(ps ...muehle.Point) muehle.Bitboard {
	var b muehle.Bitboard
	for _, p := range ps {
		b |= p.Bit()
	}
	return b
}

// TestLaskerByTaps plays Lasker Morris by taps: a tap on an empty point
// places a stone; a stone of the board picked up slides while its side
// still holds stones in hand; a tap on the hand chooses placing, a second
// one takes it back; a second tap on a picked-up stone puts it down; a
// slide closes a mill and asks for a removal. The headline and the status
// say what the side may do.
func TestLaskerByTaps(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.NewGame(muehle.Lasker.With(10))
	g := c.Game()
	if got, want := g.Position().String(), "........................ w 10 10 lasker"; got != want {
		t.Fatalf("new game: got %q, want %q", got, want)
	}
	if got, want := c.Headline(), "White to move · placing"; got != want {
		t.Errorf("headline of the empty board: got %q, want %q", got, want)
	}
	if got, want := c.View().Targets, muehle.Bitboard(0); got != want {
		t.Errorf("targets of the empty board: got %v, want none", got.Points())
	}

	// White places on d6 by a tap on the empty point, Black on g1.
	c.Tap(4)
	c.Tap(23)
	if got, want := g.Position().String(), "....W..................B w 9 9 lasker"; got != want {
		t.Fatalf("after d6 g1: got %q, want %q", got, want)
	}
	if got, want := c.Headline(), "White to move · placing or moving"; got != want {
		t.Errorf("headline with stones in hand and on the board: got %q, want %q", got, want)
	}
	if want := "tap an empty point to place a stone (9 in hand), or pick up a stone to slide it"; !strings.Contains(c.Status(), want) {
		t.Errorf("status: got %q, want it to contain %q", c.Status(), want)
	}
	if got, want := c.View().Targets, bits(4); got != want {
		t.Errorf("targets with nothing chosen: got %v, want the stone that can move, d6", got.Points())
	}

	// A tap on a Black stone explains both choices.
	c.Tap(23)
	if want := "g1 is a Black stone: place a stone on an empty point, or pick up one of your own (White)"; !strings.Contains(c.Status(), want) {
		t.Errorf("tap on g1: status got %q, want it to contain %q", c.Status(), want)
	}

	// White picks up d6, puts it down with a second tap, picks it up
	// again; a point out of reach explains how to place there instead.
	c.Tap(4)
	if v := c.View(); v.Selected != 4 || v.Targets != bits(1, 3, 5, 7) {
		t.Errorf("d6 picked up: got selected %v, targets %v; want d6 and d7 b6 f6 d5", v.Selected, v.Targets.Points())
	}
	c.Tap(4)
	if v := c.View(); v.Selected != muehle.NoPoint || v.Targets != bits(4) {
		t.Errorf("d6 tapped again: got selected %v, targets %v; want nothing selected, target d6", v.Selected, v.Targets.Points())
	}
	c.Tap(4)
	c.Tap(14) // g4
	if got, want := g.Ply(), 2; got != want {
		t.Errorf("after a tap on g4 with d6 picked up: got %d plies, want %d", got, want)
	}
	if want := "To place a stone there instead, tap the stone on d6 again"; !strings.Contains(c.Status(), want) {
		t.Errorf("g4 out of d6's reach: status got %q, want it to contain %q", c.Status(), want)
	}
	c.Tap(1) // d6-d7, with nine stones still in hand
	if got, want := g.History()[2], (muehle.Move{From: 4, To: 1, Remove: muehle.NoPoint}); got != want {
		t.Fatalf("White's slide: got %s, want %s", got, want)
	}
	if got, want := g.Position().Hand, [2]uint8{9, 9}; got != want {
		t.Errorf("hands after the slide: got %v, want %v", got, want)
	}

	// Black: a tap on the other side's hand, then its own hand chosen,
	// taken back, chosen again and placed on a1.
	c.TapHand(muehle.White)
	if want := "Those are White's stones in hand; it is Black's turn."; c.Status() != want {
		t.Errorf("tap on White's hand: status got %q, want %q", c.Status(), want)
	}
	c.TapHand(muehle.Black)
	if v := c.View(); !v.Hand || v.Targets != 0 {
		t.Errorf("Black's hand tapped: got hand %v, targets %v; want the hand chosen and no targets", v.Hand, v.Targets.Points())
	}
	if want := "Black to move: tap an empty point to place a stone (9 in hand)"; !strings.HasPrefix(c.Status(), want) {
		t.Errorf("hand chosen: status got %q, want it to start with %q", c.Status(), want)
	}
	c.TapHand(muehle.Black)
	if v := c.View(); v.Hand || v.Targets != bits(23) {
		t.Errorf("Black's hand tapped again: got hand %v, targets %v; want no hand and the stone on g1", v.Hand, v.Targets.Points())
	}
	c.TapHand(muehle.Black)
	c.Tap(23) // a stone of the board chosen instead of the hand
	if v := c.View(); v.Hand || v.Selected != 23 {
		t.Errorf("g1 tapped with the hand chosen: got hand %v, selected %v; want the stone on g1 instead", v.Hand, v.Selected)
	}
	c.TapHand(muehle.Black)
	if v := c.View(); !v.Hand || v.Selected != muehle.NoPoint {
		t.Errorf("hand tapped with g1 picked up: got hand %v, selected %v; want the hand instead", v.Hand, v.Selected)
	}
	c.Tap(21) // a1
	if got, want := g.History()[3], (muehle.Move{From: muehle.NoPoint, To: 21, Remove: muehle.NoPoint}); got != want {
		t.Fatalf("Black's placement from the hand: got %s, want %s", got, want)
	}
	if c.View().Hand {
		t.Errorf("the hand is still chosen after the placement")
	}

	// White places a7 and g4 and slides g4-g7, closing a7-d7-g7 with
	// stones still in hand; the removal waits for a tap on a Black stone.
	for _, m := range []string{"a7", "b2", "g4", "f2"} {
		tapMove(c, mustMove(t, m))
	}
	c.Tap(14)
	c.Tap(2)
	v := c.View()
	if !v.Removing || v.Mill != bits(0, 1, 2) || v.Targets != bits(18, 20, 21, 23) {
		t.Fatalf("after g4-g7: got removing %v, mill %v, targets %v; want a removal, the mill a7 d7 g7 and the four Black stones; status %q",
			v.Removing, v.Mill.Points(), v.Targets.Points(), c.Status())
	}
	if got, want := c.Headline(), "White removes a stone"; got != want {
		t.Errorf("headline after g4-g7: got %q, want %q", got, want)
	}
	c.Tap(23) // g1
	if got, want := g.Position().String(), "WWW...............B.BB.. b 7 6 lasker"; got != want {
		t.Errorf("after g4-g7xg1: got %q, want %q", got, want)
	}
	if got, want := g.History()[8], (muehle.Move{From: 14, To: 2, Remove: 23}); got != want {
		t.Errorf("the slide that closed the mill: got %s, want %s", got, want)
	}
}

// TestLaskerGameByTaps plays a whole game of Lasker Morris of random
// moves, placements and moves mixed, by taps, to its end.
func TestLaskerGameByTaps(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.NewGame(muehle.Lasker.With(10))
	g := c.Game()
	chooser := muehle.NewSeededRandom(10)
	moved := 0 // moves of a stone on the board while its side held stones in hand
	for ply := 0; ply < 2000; ply++ {
		if r, _ := g.Result(); r != muehle.Ongoing {
			break
		}
		m, err := chooser.Move(t.Context(), g)
		if err != nil {
			t.Fatal(err)
		}
		if pos := g.Position(); m.From != muehle.NoPoint && pos.Hand[pos.Turn] > 0 {
			moved++
		}
		tapMove(c, m)
		if got, want := g.Ply(), ply+1; got != want || g.History()[ply] != m {
			t.Fatalf("ply %d: after tapping %s: got %d plies, want %d ending with %s; status %q", ply, m, got, want, m, c.Status())
		}
	}
	r, why := g.Result()
	if r == muehle.Ongoing {
		t.Fatalf("game still running after %d plies", g.Ply())
	}
	if moved == 0 {
		t.Errorf("no stone of the board moved while its side held stones in hand in %d plies", g.Ply())
	}
	t.Logf("Lasker Morris of %d plies (%d moves with stones in hand): %s, %s", g.Ply(), moved, r, why)
}

// TestLaskerMarks checks the perfect-move marks of a Lasker position whose
// side to move may place or move: with nothing chosen a placement's mark
// is on its point and a move's on its stone; with the hand chosen only the
// placements are marked, with a stone picked up only its targets.
func TestLaskerMarks(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	// White d6 and 9 in hand, Black g1 and 9 in hand, White to move.
	c.SetGame(gametest.MustGame(t, "....W..................B w 9 9 lasker", 10))
	d7, d6, d5, a7 := muehle.Point(1), muehle.Point(4), muehle.Point(7), muehle.Point(0)
	e := fixedEvaluator{
		{Move: muehle.Place(a7), Value: layers.LossIn(8)},
		{Move: muehle.Place(d7), Value: layers.Drawn},
		{Move: muehle.Slide(d6, d7), Value: layers.WinIn(9)},
		{Move: muehle.Slide(d6, d5), Value: layers.LossIn(6)},
	}
	c.SetPerfect(e, true)
	q.Drain(t, 5*time.Second, func() bool { return !c.Evaluating() })
	check := func(when string, want map[muehle.Point]layers.Value) {
		t.Helper()
		got := c.View().Marks
		if len(got) != len(want) {
			t.Errorf("%s: got marks %v, want %v", when, got, want)
			return
		}
		for p, w := range want {
			if got[p] != w {
				t.Errorf("%s: mark on %s got %s, want %s", when, p, got[p], w)
			}
		}
	}
	check("nothing chosen", map[muehle.Point]layers.Value{a7: layers.LossIn(8), d7: layers.Drawn, d6: layers.WinIn(9)})
	c.TapHand(muehle.White)
	check("the hand chosen", map[muehle.Point]layers.Value{a7: layers.LossIn(8), d7: layers.Drawn})
	c.Tap(d6)
	check("d6 picked up", map[muehle.Point]layers.Value{d7: layers.WinIn(9), d5: layers.LossIn(6)})
}
