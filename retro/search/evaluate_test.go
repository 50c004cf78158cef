package search

import (
	"testing"

	"muehle/muehle"
)

// TestEvaluateFlyingByRules checks that the evaluation treats a side with
// three stones as flying only in a game whose rules let it fly (FlyAt):
// in Six Men's Morris without flying such a side slides, so its blocked
// stones cost and it closes a mill only by a slide.
func TestEvaluateFlyingByRules(t *testing.T) {
	// White a5 e5 a1, each blocked by Black's c5 a3 e3 c1.
	const blocked = "WBW...B..B...WB. w 0 0 "
	// White a5 c5 (the mill a5 c5 e5 open at e5) and c2, which cannot
	// reach e5 by a slide.
	const open = "WW.B.B....BWB... w 0 0 "
	e5, _ := muehle.SixBoard.ParsePoint("e5")
	for _, tc := range []struct {
		game        string
		side        int32           // evalSide of White in blocked
		targets     muehle.Bitboard // millTargets of White in open
		description string
	}{
		{"six", 3*evalStone - 3*evalBlocked - evalNoMove, 0, "slides: three blocked stones and no move"},
		{"six-flying", 3 * evalStone, e5.Bit(), "flies: no mobility terms, e5 reachable"},
	} {
		p, err := muehle.ParsePosition(blocked + tc.game)
		if err != nil {
			t.Fatal(err)
		}
		if got := evalSide(&p, muehle.White); got != tc.side {
			t.Errorf("%s (%s): evalSide of %q = %d, want %d", tc.game, tc.description, p, got, tc.side)
		}
		if p, err = muehle.ParsePosition(open + tc.game); err != nil {
			t.Fatal(err)
		}
		if got := millTargets(&p, muehle.White); got != tc.targets {
			t.Errorf("%s (%s): millTargets of %q = %#x, want %#x", tc.game, tc.description, p, got, tc.targets)
		}
	}
}
