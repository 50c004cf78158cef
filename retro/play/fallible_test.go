package play

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"muehle/muehle"
)

// firstMove plays the first legal move.
type firstMove struct{}

func (firstMove) Name() string { return "First" }

func (firstMove) Move(_ context.Context, g *muehle.Game) (muehle.Move, error) {
	return g.LegalMoves()[0], nil
}

func TestFallible(t *testing.T) {
	g := muehle.NewGame(9)
	first := g.LegalMoves()[0]
	for _, tc := range []struct {
		rate   float64
		lo, hi int // bounds on the moves of 1000 that differ from the inner player's
	}{
		{0, 0, 0},
		{1, 900, 1000}, // a random move is the first one in 1 of 24
		{0.1, 50, 150},
	} {
		f := NewFallible(firstMove{}, tc.rate, rand.NewPCG(1, 2))
		other := 0
		for range 1000 {
			m, err := f.Move(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(g.LegalMoves(), m) {
				t.Fatalf("rate %v: got illegal move %s", tc.rate, m)
			}
			if m != first {
				other++
			}
		}
		if other < tc.lo || other > tc.hi {
			t.Errorf("rate %v: got %d of 1000 moves other than the inner player's, want %d to %d", tc.rate, other, tc.lo, tc.hi)
		}
	}
}
