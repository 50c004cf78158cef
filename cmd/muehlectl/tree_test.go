package main

import (
	"strings"
	"testing"

	"muehle/retro/retrotest"
	"muehle/retro/search"
)

// TestTreeStart checks the tree command on the empty board at depth 2
// (the tree retro/search's TestTreeStartPosition checks by hand) and its
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
	retrotest.CopyIn(t, dir, 3)
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
	// The conspiracy number player: its evaluations prove the replies
	// lost, as the database says; reading the database, every reply is
	// exact and the decision unbreakable at once.
	code, out, stderr = muehlectl("tree", "--db", dir, "--stones", "3", "--depth", "2", "--ccns", "--position", "WW.B.....W....B.......B. w 0 0")
	for _, want := range []string{
		"\nroot # won in 1 cn 1 db won in 1\n  1. d7-g7 # lost in 2 exact evals 2 target ≥ lost in 0 δ1 γ1 cn ∞ db lost in 2\n",
		"database values for 94 of 94 searched nodes recorded; 0 disagree with the search",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("tree --ccns: got exit %d, stderr %q, output\n%s\nwant it to contain %q", code, stderr, out, want)
		}
	}
	code, out, stderr = muehlectl("tree", "--db", dir, "--stones", "3", "--depth", "2", "--ccns", "--search-db", "--position", "WW.B.....W....B.......B. w 0 0")
	for _, want := range []string{
		"\nroot # won in 1 exact cn ∞ db won in 1\n",
		"conspiracy numbers, no pair completed (asked to (2,1)): best d7-a1xg4, value won in 1, safe by ∞; 59 nodes",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("tree --ccns --search-db: got exit %d, stderr %q, output\n%s\nwant it to contain %q", code, stderr, out, want)
		}
	}
}

// TestTreeCCNS checks tree --ccns on the empty board through the pair
// (2,1): the conspiracy number player's tree with each node's value,
// evaluations, target and conspiracy number, its summary beside
// alpha-beta's, the legend, the node limit and the flags.
func TestTreeCCNS(t *testing.T) {
	dir := t.TempDir() // no database: no values beside the search's
	code, out, stderr := muehlectl("tree", "--db", dir, "--depth", "2", "--ccns", "--legend")
	for _, want := range []string{
		"\n\n" + search.CCNSTreeLegend + "\n\n",
		"\nroot # -6 cn 1\n",
		// The best move must stay at most +6 for the opponent, the
		// others at least +6; its first reply has its point value.
		"\n  1. d6 # +6 evals 2 target ≤ +6 δ1 γ1 cn 1\n    1. b4 # -6 evals 2 target ≥ -6 δ0 γ1 cn 1\n",
		"\n  2. b4 # +6 evals 2 target ≥ +6 δ1 γ1 cn 1\n    1. d6 # -6 evals 2 target ≤ -6 δ0 γ1 cn 1\n    2. f4 not examined\n",
		"\nalpha-beta, depth 2: best d6, value 0; 74 nodes",
		"\nconspiracy numbers, pairs to (2,1): best d6, value -6, safe by 1; 577 nodes, 94 evaluations",
		"\ndatabase values for 0 of 71 searched nodes recorded",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("tree --ccns: got exit %d, stderr %q, output\n%s\nwant it to contain %q", code, stderr, out, want)
		}
	}
	code, out, _ = muehlectl("tree", "--db", dir, "--depth", "3", "--ccns", "--limit", "30")
	if code != 0 || !strings.Contains(out, "(recording stopped at 30 nodes: --limit)") || strings.Count(out, "\n  ") != 29 ||
		!strings.Contains(out, "evaluations (24976 positions in their searches), 30 recorded\n") {
		t.Errorf("tree --ccns --limit 30: got exit %d, output\n%s\nwant 30 nodes and the limit said", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--depth", "9"}, "--depth 9: want 1 to 8"},
		{[]string{"--minimax"}, "--minimax and --ccns: choose one"},
	} {
		code, _, stderr := muehlectl(append([]string{"tree", "--db", dir, "--ccns"}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("tree --ccns %v: got exit %d, stderr %q; want an error with %q", c.args, code, stderr, c.want)
		}
	}
}
