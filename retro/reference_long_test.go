//go:build long

package retro

import "testing"

// TestReferenceFourStones compares the whole game of four stones a side,
// moving (78 million raw positions) and placement, with the reference.
// It takes minutes and about 2 GB; run it with -tags long.
func TestReferenceFourStones(t *testing.T) {
	compareWithReference(t, 4)
	comparePlacement(t, 4)
}
