package ui

import (
	"strings"
	"testing"

	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// TestRemovalPendingPanel: while a mill waits for its removal, the table
// lists only the removals of that move, and the state number is the one
// of the position before the move, the same as Show State Number says.
func TestRemovalPendingPanel(t *testing.T) {
	e := solvedEngines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	// White's b6 jumps to g7 and closes a7-d7-g7.
	g := gametest.MustGame(t, "WW."+"W.."+"..."+"....B."+"B.."+"..B"+"..."+" w 0 0", 9)
	p := g.Position()
	u.ctrl.SetGame(g)
	shownMarks(t, u, q)
	mill := muehle.Move{From: gametest.MustMove(t, "b6").To, To: gametest.MustMove(t, "g7").To, Remove: muehle.NoPoint}
	u.board.TapPoint(mill.From)
	u.board.TapPoint(mill.To)
	if u.ctrl.Pending().To != mill.To {
		t.Fatalf("after tapping %s and %s: got no removal pending", mill.From, mill.To)
	}
	want := stateText(e, p)
	if u.side.state.Text != want {
		t.Errorf("state number while removing: got %q, want the position before the move's %q", u.side.state.Text, want)
	}
	u.stateNumber()
	if got := u.ctrl.Status(); got != want+"." {
		t.Errorf("Ctrl+I while removing: got %q, want %q", got, want+".")
	}
	table := u.side.perfect.Text
	prefix := mill.From.String() + "-" + mill.To.String() + "x"
	rows := 0
	for _, line := range strings.Split(table, "\n")[3:] {
		f := strings.Fields(strings.TrimPrefix(line, "*"))
		if len(f) == 0 {
			continue
		}
		rows++
		if !strings.HasPrefix(f[0], prefix) {
			t.Errorf("table while removing: row %q is not a removal of %s", line, prefix)
		}
	}
	if rows == 0 || !strings.HasPrefix(table, "The stone to remove after "+mill.From.String()+"-"+mill.To.String()) {
		t.Errorf("table while removing: got %q, want the removals of %s", table, prefix)
	}
}
