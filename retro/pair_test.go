package retro

import "testing"

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
		{"no removals", removals{-1, -1, false}, 3, -1, true},
		{"removals all won for the opponent", removals{-1, 5, false}, 2, 5, true},
		{"a removal into a draw", removals{-1, 5, true}, 2, -1, false},
		// The case found by verifying layer 7-5: two children inside the
		// pair won in 3 for the opponent, removals into positions it loses
		// in 6 and 12. The position is won in 7, never lost in 4.
		{"a removal into a loss, pair children won sooner", removals{6, -1, false}, 2, 6, false},
		{"a removal into a loss and one into a win", removals{6, 9, false}, 2, 6, false},
		{"only removals, all into losses", removals{4, -1, false}, 0, 4, false},
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
