package game

import (
	"strings"
	"testing"

	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// TestTapsNameSmallBoardPoints checks that the status after a wrong tap in
// Six Men's Morris names the points on its own board (e5, c2, not the
// standard board's names of the same numbers) and says that its stones
// never jump.
func TestTapsNameSmallBoardPoints(t *testing.T) {
	q := gametest.NewQueue()
	c := newTestController(t, q)
	c.SetGame(gametest.MustGame(t, "WW.B.B....BWB... w 0 0 six", 6))
	b := muehle.SixBoard
	pt := func(s string) muehle.Point {
		p, err := b.ParsePoint(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	c.Tap(pt("b4"))
	if want := "b4 is a Black stone"; !strings.Contains(c.Status(), want) {
		t.Errorf("after a tap on b4: got %q, want it to contain %q", c.Status(), want)
	}
	c.Tap(pt("c2"))
	c.Tap(pt("e5"))
	if want := "e5 is not next to c2: a stone slides along a line to a neighbouring point (in Six Men's Morris a stone never jumps)."; !strings.Contains(c.Status(), want) {
		t.Errorf("after c2 to e5: got %q, want it to contain %q", c.Status(), want)
	}
}
