package retro

import (
	"math/rand/v2"
	"testing"
)

func TestDistinct(t *testing.T) {
	var d distinct
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 2000 {
		d.reset()
		seen := map[uint64]bool{}
		for range rng.IntN(120) {
			x := rng.Uint64N(64) << (round % 40) // many collisions in value and hash
			if got, want := d.add(x), !seen[x]; got != want {
				t.Fatalf("round %d: add(%d) = %v, want %v", round, x, got, want)
			}
			seen[x] = true
		}
	}
}
