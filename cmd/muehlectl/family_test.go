package main

import (
	"fmt"
	"strings"
	"testing"

	"muehle/muehle"
)

// TestFamilyPerft checks perft --game for the games on their own boards
// (docs/rules.md, Oracles), and for every game of muehle.Games.
func TestFamilyPerft(t *testing.T) {
	for _, c := range []struct{ game, want string }{
		{"three", "perft 1 9\nperft 2 72\nperft 3 504\nperft 4 3024\nperft 5 16560\n"},
		{"three-plain", "perft 1 9\nperft 2 72\nperft 3 504\nperft 4 3024\nperft 5 16200\n"},
		{"five", "perft 1 16\nperft 2 240\nperft 3 3360\nperft 4 43680\nperft 5 531648\n"},
	} {
		out, errs, code := runCmd(t, "perft", "--game", c.game, "--depth", "5")
		if code != 0 || out != c.want {
			t.Errorf("perft --game %s --depth 5: got status %d, output %q (stderr %q), want %q", c.game, code, out, errs, c.want)
		}
	}
	// Every game to depth 4, against muehle.Perft, which muehle's tests
	// check against the plain generator (muehle/naive_test.go) for every
	// game.
	for _, r := range muehle.Games {
		var want strings.Builder
		for d := 1; d <= 4; d++ {
			fmt.Fprintf(&want, "perft %d %d\n", d, muehle.Perft(r.NewPosition(r.Stones), d))
		}
		out, errs, code := runCmd(t, "perft", "--game", r.ID, "--depth", "4")
		if code != 0 || out != want.String() {
			t.Errorf("perft --game %s --depth 4: got status %d, output %q (stderr %q), want %q", r.ID, code, out, errs, want.String())
		}
	}
}

// TestThreeMensMorris solves Three Men's Morris with the command line and
// queries its empty board: White wins in 9 by the centre, b2, named on
// the 3×3 board; a position string of the wrong length is refused with a
// sentence saying what the game wants.
func TestThreeMensMorris(t *testing.T) {
	dir := t.TempDir()
	if out, errs, code := runCmd(t, "solve", "--db", dir, "--game", "three", "--all-phases", "--workers", "1"); code != 0 {
		t.Fatalf("solve --game three: status %d\n%s%s", code, out, errs)
	}
	out, errs, code := runCmd(t, "query", "--db", dir, "--position", "......... w 3 3 three")
	if code != 0 {
		t.Fatalf("query: status %d: %s", code, errs)
	}
	for _, want := range []string{"value    won in 9", "  b2         won in 9", "  a3         drawn", "  b3         lost in 8"} {
		if !strings.Contains(out, want) {
			t.Errorf("query of the empty board: want a line %q in\n%s", want, out)
		}
	}
	_, errs, code = runCmd(t, "query", "--db", dir, "--position", "........ w 3 3 three")
	if code == 0 || !strings.Contains(errs, "board has 8 characters, want 9 (one per point, a3 first, c1 last)") {
		t.Errorf("query of 8 points: got status %d, %q", code, errs)
	}

	// Training draws positions of Three Men's Morris, its solutions named
	// on the 3×3 board, and judges an answer given in those names.
	out, errs, code = runCmd(t, "train", "--db", dir, "--game", "three", "--count", "3", "--seed", "2", "--solutions")
	if code != 0 {
		t.Fatalf("train --game three: status %d: %s", code, errs)
	}
	var pos, solution string
	for _, line := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(line, "1. position "); ok && pos == "" {
			pos = strings.Trim(p, `"`)
		}
		if s, ok := strings.CutPrefix(line, "   solution: "); ok && solution == "" {
			solution = s
		}
	}
	if !strings.HasSuffix(pos, " three") || solution == "" {
		t.Fatalf("train --game three: got position %q, solution %q in\n%s", pos, solution, out)
	}
	if _, err := muehle.ThreeBoard.ParseMove(solution); err != nil {
		t.Errorf("train --game three: solution %q: %v", solution, err)
	}
	out, errs, code = runCmd(t, "train", "--db", dir, "--game", "three", "--position", pos, "--answer", solution)
	if code != 0 || !strings.Contains(out, "right: "+solution+" keeps the value") {
		t.Errorf("train --answer %s in %s: got status %d, %q (%s), want it right", solution, pos, code, out, errs)
	}
}
