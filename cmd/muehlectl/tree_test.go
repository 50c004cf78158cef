package main

import (
	"strings"
	"testing"
)

// TestTreeStart checks the tree command on the empty board at depth 2
// (the tree retro/play's TestTreeStartPosition checks by hand) and its
// flags.
func TestTreeStart(t *testing.T) {
	dir := t.TempDir() // no database: no values beside the search's
	code, out, stderr := muehlectl("tree", "--db", dir, "--depth", "2")
	for _, want := range []string{
		"root [-∞, +∞] = 0\n",
		"\n  1. d6 (best before) [-∞, +∞] = 0\n",
		"\n  2. a7 (history 0) [-∞, 0] ≥ +3\n    1. d7 (history 0) [0, +∞] = -3 eval -3\n    2. g7 (history 0) cut\n",
		"minimax, depth 2: best d6, value 0; 577 nodes",
		"database values for 0 of 74 searched nodes recorded; 0 disagree",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("tree: got exit %d, stderr %q, output\n%s\nwant it to contain %q", code, stderr, out, want)
		}
	}
	code, out, _ = muehlectl("tree", "--db", dir, "--depth", "2", "--minimax", "--limit", "30")
	if code != 0 || strings.Contains(out, " cut") || !strings.Contains(out, "(recording stopped at 30 nodes: --limit)") || strings.Count(out, "\n  ") != 29 {
		t.Errorf("tree --minimax --limit 30: got exit %d, output\n%s\nwant 30 nodes, no cuts", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--depth", "9"}, "--depth 9: want 1 to 5"},
		{[]string{"--limit", "0"}, "--limit 0: want 1 to"},
		{[]string{"--position", "nonsense"}, "want 4 fields"},
		{[]string{"--search-db"}, "--search-db: no database in"},
	} {
		code, _, stderr := muehlectl(append([]string{"tree", "--db", dir + "/none"}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("tree %v: got exit %d, stderr %q; want an error with %q", c.args, code, stderr, c.want)
		}
	}
}

// TestTreeDatabase checks the database values beside the search's on the
// solved game of 3 stones: White closes a mill at once and wins.
func TestTreeDatabase(t *testing.T) {
	dir := t.TempDir()
	solveAllIn(t, dir, 3)
	code, out, stderr := muehlectl("tree", "--db", dir, "--stones", "3", "--depth", "2", "--position", "WW.B.....W....B.......B. w 0 0")
	for _, want := range []string{
		"root [-∞, +∞] = won in 1 db won in 1\n",
		// After d7-d6 Black, to move, wins; the evaluation says -20.
		"\n  20. d7-d6 (history 0) [-∞, lost in 0] = -20 eval -20 db won in 11 ≠db\n",
		"database values for 59 of 59 searched nodes recorded; 28 disagree with the search",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("tree: got exit %d, stderr %q, output\n%s\nwant it to contain %q", code, stderr, out, want)
		}
	}
}
