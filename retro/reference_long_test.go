package retro

import (
	"testing"

	"muehle/muehle"
)

// TestReferenceFourStones compares the whole game of four stones a side,
// moving (78 million raw positions) and placement, with the reference.
// It is too slow as written: a run on a loaded 2-core machine was still in
// the reference's rounds after 60 minutes (6.4 GB of memory) and timed out.
// It is long (skipped with -short): run it with -timeout 180m; making the
// reference visit only positions whose children changed in the last round
// is the next step.
func TestReferenceFourStones(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the reference solver on four stones takes over an hour; skipped with -short")
	}
	compareWithReference(t, muehle.Standard.With(4))
	comparePlacement(t, muehle.Standard.With(4))
}
