package game

import (
	"context"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// fixedEvaluator returns the same marks for every position, in the order
// given.
type fixedEvaluator []MoveMark

func (e fixedEvaluator) Evaluate(ctx context.Context, pos muehle.Position) ([]MoveMark, error) {
	return append([]MoveMark(nil), e...), ctx.Err()
}

// TestPerfectMarks checks that the controller sorts the evaluated moves
// best first and shows, on each target point, the best value of the moves
// that choose it; and that switching the marks off clears them.
func TestPerfectMarks(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	// Placements on a7, d7 and g7 (the start: every move is a placement,
	// keyed by its target), given worst first.
	e := fixedEvaluator{
		{Move: muehle.Place(2), Value: layers.LossIn(4)},
		{Move: muehle.Place(0), Value: layers.Drawn},
		{Move: muehle.Place(1), Value: layers.WinIn(7)},
	}
	c.SetPerfect(e, true)
	q.Drain(t, 5*time.Second, func() bool { return !c.Evaluating() })
	marks, err := c.Marks()
	if err != nil {
		t.Fatal(err)
	}
	var got []muehle.Point
	for _, m := range marks {
		got = append(got, m.Move.To)
	}
	if len(got) != 3 || got[0] != 1 || got[1] != 0 || got[2] != 2 {
		t.Errorf("marks: got targets %v, want d7 a7 g7 (win, draw, loss)", got)
	}
	v := c.View()
	want := map[muehle.Point]layers.Value{0: layers.Drawn, 1: layers.WinIn(7), 2: layers.LossIn(4)}
	if len(v.Marks) != len(want) {
		t.Fatalf("view marks: got %v, want %v", v.Marks, want)
	}
	for p, w := range want {
		if v.Marks[p] != w {
			t.Errorf("view mark on %s: got %s, want %s", p, v.Marks[p], w)
		}
	}
	c.SetPerfect(nil, false)
	if c.ShowPerfect() || len(c.View().Marks) != 0 {
		t.Errorf("after switching off: ShowPerfect %v, %d marks in the view", c.ShowPerfect(), len(c.View().Marks))
	}
}

// TestMarksWhy checks the win chances and picks of the view: on each
// target the largest chance of the drawing moves of the mark's value, and
// the targets of the moves the perfect player would pick.
func TestMarksWhy(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	// A moving position (White to move): marks are keyed by the stone moved.
	c.SetGame(gametest.MustGame(t, "WWB"+"W.."+"..."+"....B."+"B.."+"..."+"..."+" w 0 0", 9))
	a7, d7, b6 := muehle.Point(0), muehle.Point(1), muehle.Point(3)
	e := fixedEvaluator{
		{Move: muehle.Slide(a7, 9), Value: layers.Drawn, Chance: 0.25},
		{Move: muehle.Slide(a7, 21), Value: layers.Drawn, Chance: 0.5, Pick: true},
		{Move: muehle.Slide(d7, 4), Value: layers.Drawn, Chance: 0.125},
		{Move: muehle.Slide(d7, 2), Value: layers.LossIn(6)},
		{Move: muehle.Slide(b6, 6), Value: layers.LossIn(4)},
		{Move: muehle.Slide(b6, 5), Value: layers.WinIn(5), Pick: true},
	}
	c.SetPerfect(e, true)
	q.Drain(t, 5*time.Second, func() bool { return !c.Evaluating() })
	v := c.View()
	wantChances := map[muehle.Point]float64{a7: 0.5, d7: 0.125}
	if len(v.Chances) != len(wantChances) {
		t.Errorf("chances: got %v, want %v", v.Chances, wantChances)
	}
	for pt, w := range wantChances {
		if got, ok := v.Chances[pt]; !ok || got != w {
			t.Errorf("chance on %s: got %v (present: %v), want %v", pt, got, ok, w)
		}
	}
	if want := a7.Bit() | b6.Bit(); v.Picks != want {
		t.Errorf("picks: got %v, want %v", v.Picks.Points(), want.Points())
	}
	if v.Marks[b6] != layers.WinIn(5) {
		t.Errorf("mark on %s: got %s, want %s", b6, v.Marks[b6], layers.WinIn(5))
	}
	// Picking up a7 narrows the marks to its targets: the pick's target.
	c.Tap(a7)
	v = c.View()
	if want := muehle.Point(21).Bit(); v.Picks != want || v.Chances[21] != 0.5 || v.Chances[9] != 0.25 {
		t.Errorf("after picking up %s: picks %v, chances %v; want the pick on %s with 0.5, 0.25 on %s", a7, v.Picks.Points(), v.Chances, muehle.Point(21), muehle.Point(9))
	}
}
