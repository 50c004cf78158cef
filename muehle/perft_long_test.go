//go:build long

package muehle

import "testing"

// TestPerft7 checks perft 7 from the empty board against docs/rules.md. It
// takes several seconds; run it with go test -tags long.
func TestPerft7(t *testing.T) {
	checkPerft(t, NewPosition(StonesPerSide), 7, perftStart[7])
}
