package game

import (
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

func TestWalk(t *testing.T) {
	// White (a7 d7, c5 to come) closes a7-d7-g7 by a jump and removes b4.
	start, err := muehle.ParsePosition("WW.....W.BB.B...........  b 0 0")
	if err != nil {
		t.Fatal(err)
	}
	steps := []WalkStep{
		{muehle.Slide(12, 13), layers.LossIn(2)},             // Black e4-f4
		{muehle.Slide(7, 2).WithRemoval(9), layers.WinIn(1)}, // White d5-g7xa4
	}
	w, err := NewWalk("White's refutation of e4-f4", start, steps)
	if err != nil {
		t.Fatal(err)
	}
	if w.At() != 0 || w.Len() != 2 || w.Position() != start || w.View().Last != muehle.NoMove {
		t.Fatalf("new walk: got at %d of %d, %s, last %s; want the start", w.At(), w.Len(), w.Position(), w.View().Last)
	}
	if w.Back() {
		t.Error("Back at the start: got true, want false")
	}
	for i, tc := range []struct {
		step    func() bool
		at      int
		mention string
	}{
		{w.Forward, 1, "ply 1 of 2, Black e4-f4 (Black loses in 2 plies)"},
		{w.Forward, 2, "White d5-g7xa4 (White wins in 1 ply). The game is over: Black has lost."},
		{w.Forward, 2, "ply 2 of 2"},
		{w.Back, 1, "ply 1 of 2"},
		{func() bool { return w.Go(-5) }, 0, "2 plies. Start: Black to move."},
		{func() bool { return w.Go(99) }, 2, "ply 2 of 2"},
	} {
		moved := tc.step()
		if w.At() != tc.at || !strings.Contains(w.Text(), tc.mention) {
			t.Errorf("step %d: got at %d, %q; want at %d, mentioning %q", i, w.At(), w.Text(), tc.at, tc.mention)
		}
		if want := i != 2; moved != want {
			t.Errorf("step %d: got moved %v, want %v", i, moved, want)
		}
	}
	v := w.View()
	if v.Last != steps[1].Move || v.Mill != muehle.Bitboard(1<<0|1<<1|1<<2) || v.Pos.Stones[muehle.Black].Has(9) {
		t.Errorf("view at the end: got last %s, mill %b, %s; want d5-g7xa4, the mill a7-d7-g7, a4 removed", v.Last, v.Mill, v.Pos)
	}
	if _, err := NewWalk("bad", start, []WalkStep{{muehle.Slide(0, 1), layers.Drawn}}); err == nil {
		t.Error("NewWalk with an illegal move: got no error, want one")
	}
}
