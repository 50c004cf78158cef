//go:build long

package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestMatchWithDatabase solves the game of 3 stones and checks the blunder
// counts: the perfect player makes none, and every move is judged.
func TestMatchWithDatabase(t *testing.T) {
	dir := t.TempDir()
	solveAllIn(t, dir, 3).Close()
	out, errs, code := runCmd(t, "match", "--white", "perfect", "--black", "random", "--games", "20", "--stones", "3", "--db", dir)
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	var b, n int
	var rate float64
	for _, line := range strings.Split(out, "\n") {
		if c, _ := fmt.Sscanf(line, "perfect blunders: %d of %d moves in known positions (%f %%)", &b, &n, &rate); c == 3 {
			break
		}
	}
	if b != 0 || n == 0 {
		t.Errorf("perfect: got %d blunders of %d moves, want 0 of many, in\n%s", b, n, out)
	}
	if _, _, l := matchCounts(t, out, "perfect"); l != 0 {
		t.Errorf("perfect lost %d games:\n%s", l, out)
	}
}
