package muehle

import "testing"

// TestPerft7 checks perft 7 from the empty board against docs/rules.md. It
// is long (skipped with -short).
func TestPerft7(t *testing.T) {
	if testing.Short() {
		t.Skip("long: perft 7; skipped with -short")
	}
	checkPerft(t, NewPosition(StonesPerSide), 7, perftStart[7])
}
