package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// rowVisible reports whether row i of l lies inside the scrolled view.
func rowVisible(l *moveList, i int) bool {
	r := l.rows[i]
	top, off, h := r.Position().Y, l.scroll.Offset.Y, l.scroll.Size().Height
	return top >= off-0.5 && top+r.Size().Height <= off+h+0.5
}

// TestMoveListFollowsTheGame: after Open (a new game of many plies), undo
// and redo, the move list shows the row of the position on the board.
func TestMoveListFollowsTheGame(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	g := muehle.NewGame(muehle.StonesPerSide)
	r := muehle.NewSeededRandom(3)
	for g.Ply() < 40 {
		if res, _ := g.Result(); res != muehle.Ongoing {
			break
		}
		m, err := r.Move(t.Context(), g)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	n := g.Ply()
	u.setReviewedGame(g, nil) // as Open does
	l := u.side.moves
	if l.scroll.Size().Height >= l.box.MinSize().Height {
		t.Fatalf("the list of %d rows fits its %v pixels: the test needs a smaller window", n+1, l.scroll.Size().Height)
	}
	if !rowVisible(l, n) {
		t.Errorf("after Open: row %d at %v not in view (offset %v, height %v)", n, l.rows[n].Position().Y, l.scroll.Offset.Y, l.scroll.Size().Height)
	}
	for range 30 {
		u.ctrl.Undo()
	}
	at := u.ctrl.Shown()
	if !rowVisible(l, at) {
		t.Errorf("after undo: row %d at %v not in view (offset %v)", at, l.rows[at].Position().Y, l.scroll.Offset.Y)
	}
	for range 30 {
		u.ctrl.Redo()
	}
	if at := u.ctrl.Shown(); !rowVisible(l, at) {
		t.Errorf("after redo: row %d at %v not in view (offset %v, height %v)", at, l.rows[at].Position().Y, l.scroll.Offset.Y, l.scroll.Size().Height)
	}
	// A smaller window, then a larger one: the last row stays in view.
	for _, size := range []fyne.Size{fyne.NewSize(800, 600), fyne.NewSize(1040, 700), fyne.NewSize(800, 560)} {
		u.Window().Resize(size)
		if at := u.ctrl.Shown(); !rowVisible(l, at) {
			t.Errorf("after a resize to %v: row %d at %v not in view (offset %v, height %v)",
				size, at, l.rows[at].Position().Y, l.scroll.Offset.Y, l.scroll.Size().Height)
		}
	}
}
