package retro

import (
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// TestRemovalsCounter checks the successor counter against the rules: a
// position is lost only when every move loses, so after all its children
// inside the pair are won for the opponent (n count-downs) and the seed, if
// it counts down, has arrived, the counter must reach zero exactly when no
// removal leads to a lost or drawn position.
func TestRemovalsCounter(t *testing.T) {
	for _, c := range []struct {
		name    string
		r       removals
		n       int
		seed    int
		canLose bool
	}{
		{"no removals", removals{minLoss: -1, maxWin: -1, draw: false}, 3, -1, true},
		{"removals all won for the opponent", removals{minLoss: -1, maxWin: 5, draw: false}, 2, 5, true},
		{"a removal into a draw", removals{minLoss: -1, maxWin: 5, draw: true}, 2, -1, false},
		// The case found by verifying layer 7-5: two children inside the
		// pair won in 3 for the opponent, removals into positions it loses
		// in 6 and 12. The position is won in 7, never lost in 4.
		{"a removal into a loss, pair children won sooner", removals{minLoss: 6, maxWin: -1, draw: false}, 2, 6, false},
		{"a removal into a loss and one into a win", removals{minLoss: 6, maxWin: 9, draw: false}, 2, 6, false},
		{"only removals, all into losses", removals{minLoss: 4, maxWin: -1, draw: false}, 0, 4, false},
	} {
		count, seed := c.r.counter(c.n)
		if seed != c.seed {
			t.Errorf("%s: got seed %d, want %d", c.name, seed, c.seed)
		}
		left := count - c.n // after every child inside the pair is won for the opponent
		if seed >= 0 && seed%2 == 1 {
			left-- // the seed of the removals won for the opponent counts down too
		}
		if lost := left == 0; lost != c.canLose {
			t.Errorf("%s: counter %d reaches zero: %v, want %v", c.name, count, lost, c.canLose)
		}
	}
}

// TestFullBoardDrawn: in Twelve Men's Morris a full board (the position
// after the last placement when it closed no mill) is drawn, not lost for
// the blocked side to move: the count phase leaves it drawn for good, the
// verifier's rule (BestChild) agrees, and a full board of the standard
// rules stays lost.
func TestFullBoardDrawn(t *testing.T) {
	var full muehle.Position
	for p := range muehle.Point(muehle.NumPoints) {
		full.Stones[p%2] |= p.Bit()
	}
	full.Game = muehle.Twelve
	if ms := full.Moves(); len(ms) != 0 || !full.IsDrawn() {
		t.Fatalf("a full board of twelve: %d moves, drawn %v; want none, drawn", len(ms), full.IsDrawn())
	}
	var c counter
	state, list, seed, err := c.count(full)
	if err != nil || state != uint32(layers.Drawn)|1<<counterShift || list != -1 || seed {
		t.Errorf("count(full board of twelve) = %#x, %d, %v, %v; want %#x, -1, false, nil", state, list, seed, err, uint32(layers.Drawn)|1<<counterShift)
	}
	if v, err := BestChild(nil, full); v != layers.Drawn || err != nil {
		t.Errorf("BestChild(full board of twelve) = %v, %v; want drawn", v, err)
	}
	full.Game = muehle.Standard
	state, list, _, err = c.count(full)
	if err != nil || state != uint32(layers.LossIn(0)) || list != 0 {
		t.Errorf("count(full board of the standard game) = %#x, %d, %v; want lost in 0 on list 0", state, list, err)
	}
	if v, _ := BestChild(nil, full); v != layers.LossIn(0) {
		t.Errorf("BestChild(full board of the standard game) = %v, want lost in 0", v)
	}
}
