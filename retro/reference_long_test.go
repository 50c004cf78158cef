//go:build long

package retro

import "testing"

// TestReferenceFourStones compares the whole game of four stones a side,
// moving (78 million raw positions) and placement, with the reference.
// It is slow: one run took more than 45 minutes of processor time and 6.4 GB
// of memory. Run it with -tags long -timeout 120m.
func TestReferenceFourStones(t *testing.T) {
	compareWithReference(t, 4)
	comparePlacement(t, 4)
}
