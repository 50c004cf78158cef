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
