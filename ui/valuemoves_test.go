package ui

import (
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// keepAndLose splits the moves of p, by probing db, into those that keep
// its value for the side to move (a win stays a win, a draw a draw) and
// those that give it up, and returns one of each: the last that keeps it
// and the last that gives it up, a move without a removal where there is
// one (its refutation is longer). It fails the test when p has no move of
// either kind, or a move that is better than p's value.
func keepAndLose(t *testing.T, db layers.Prober, p muehle.Position) (keep, lose muehle.Move) {
	t.Helper()
	before, err := db.Probe(p)
	if err != nil {
		t.Fatal(err)
	}
	keep, lose = muehle.NoMove, muehle.NoMove
	for _, m := range p.Moves() {
		c := p.Play(m)
		v := layers.LossIn(0)
		if !c.IsOver() {
			if v, err = db.Probe(c); err != nil {
				t.Fatal(err)
			}
		}
		switch after := v.Parent().Outcome(); {
		case after == before.Outcome():
			keep = m
		case after > before.Outcome():
			t.Fatalf("%s (%s): %s leads to %s, better than the position", p, before, m, v.Parent())
		case lose == muehle.NoMove || lose.IsRemoval() || !m.IsRemoval():
			lose = m
		}
	}
	if keep == muehle.NoMove || lose == muehle.NoMove {
		t.Fatalf("%s (%s): want a move that keeps the value and one that gives it up", p, before)
	}
	return keep, lose
}
