package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro/retrotest"
)

// TestUnreachableRefused checks that query, play, train --answer, tree and
// review refuse a position that passes Validate but that no game reaches,
// with exit 1 and the reason, and that --unreachable lets query go on
// with a note (issue 28).
func TestUnreachableRefused(t *testing.T) {
	dir := t.TempDir()
	retrotest.CopyIn(t, dir, 3).Close()
	// White has placed one stone and lost it: Black, with one placed,
	// cannot have closed a mill.
	const lostOne = ".B...................... w 2 2"
	// White, to move with two stones, has lost, but Black has no mill.
	const noMill = "WW......BBB............. w 0 0"
	// Black has just closed a mill, but White has all three stones.
	const millNoRemoval = "BBB......WWW............ w 0 0"
	rec := filepath.Join(dir, "game.txt")
	if err := os.WriteFile(rec, []byte("[Stones \"3\"]\n[Position \""+millNoRemoval+"\"]\n*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"query", "--db", dir, "--stones", "3", "--position", lostOne},
		{"query", "--db", dir, "--stones", "3", "--position", noMill},
		{"play", "--stones", "3", "--position", lostOne},
		{"train", "--db", dir, "--stones", "3", "--position", noMill, "--answer", "a7-d7"},
		{"tree", "--db", dir, "--stones", "3", "--position", lostOne},
		{"review", "--db", dir, rec},
	} {
		code, _, stderr := muehlectl(args...)
		if code != 1 || !strings.Contains(stderr, "cannot arise in a game") || !strings.Contains(stderr, "--unreachable") {
			t.Errorf("%s: got exit %d, stderr %q; want exit 1, the reason and --unreachable", strings.Join(args, " "), code, stderr)
		}
	}
	code, out, stderr := muehlectl("query", "--db", dir, "--stones", "3", "--unreachable", "--position", noMill)
	if code != 0 || !strings.Contains(out, "note     Position cannot arise in a game") || !strings.Contains(out, "value    lost in 0") {
		t.Errorf("query --unreachable: got exit %d, %q (%s); want exit 0, the note and the value", code, out, stderr)
	}
}

// TestQueryUnreachableByReachData checks that query refuses a placement
// position that passes CheckReachable (its reason lies two moves back) but
// whose class the solver left unstored as unreachable: Black has lost a
// stone to a white mill that is no longer on the board, although White,
// with one stone lost before, had only three stones for it (issue 28).
func TestQueryUnreachableByReachData(t *testing.T) {
	testenv.Long(t, "solves the game of four stones")
	db := solvedCopy(t, 4)
	const pos = "WBW...WB................ b 0 1"
	p, err := muehle.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckReachable(4); err != nil {
		t.Fatalf("CheckReachable(4) of %s: got %v, want nil (the case is for the reach data)", pos, err)
	}
	if v, err := db.Probe(p); err != nil || v != layers.Unused {
		t.Fatalf("probe %s: got %v, %v; want an unused slot", pos, v, err)
	}
	code, out, stderr := muehlectl("query", "--db", db.Dir(), "--stones", "4", "--book", "", "--position", pos)
	if code != 1 || !strings.Contains(stderr, "reach data") {
		t.Errorf("query %s: got exit %d, %q %s; want exit 1 naming the reach data", pos, code, out, stderr)
	}
	code, out, stderr = muehlectl("query", "--db", db.Dir(), "--stones", "4", "--book", "", "--unreachable", "--position", pos)
	if code != 0 || !strings.Contains(out, "(placement search") {
		t.Errorf("query --unreachable %s: got exit %d, %q %s; want the placement search's value", pos, code, out, stderr)
	}
}
