package layers

import "testing"

// TestBetterOrder checks Better on every pair of values against the order
// written out here: Unused below everything, then losses (the slower the
// better), draws, wins (the faster the better).
func TestBetterOrder(t *testing.T) {
	rank := func(v Value) (class, tie int) {
		switch {
		case v == Unused:
			return 0, 0
		case v == Drawn:
			return 2, 0
		case (int(v)-2)%2 == 1: // won in an odd depth
			return 3, -(int(v) - 2)
		}
		return 1, int(v) - 2 // lost
	}
	for a := range 256 {
		for b := range 256 {
			ca, ta := rank(Value(a))
			cb, tb := rank(Value(b))
			want := ca > cb || ca == cb && ta > tb
			if got := Value(a).Better(Value(b)); got != want {
				t.Fatalf("%v.Better(%v) = %v, want %v", Value(a), Value(b), got, want)
			}
		}
	}
}
