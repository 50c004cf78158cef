package main

import (
	"regexp"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/retrotest"
)

// The commands that run the placement search (query, placement) on small
// solved games; the search itself is checked in retro/play.

// solvedCopy returns the complete game of k stones (all phases, the
// placement layers holding the classes reachable from the empty board) in
// a new folder of the test's own, which commands may write into: a copy
// of the one solved once for the test binary (retrotest.CopyIn), closed
// when the test ends.
func solvedCopy(t *testing.T, k int) *layers.DB { return retrotest.CopyIn(t, t.TempDir(), k) }

// TestQueryUnreachable: a placement position the database does not store
// (unreachable from the empty board) is answered by the search, with the
// value the full sweep gives it.
func TestQueryUnreachable(t *testing.T) {
	full := retrotest.SolvedAll(t, 3)
	db := solvedCopy(t, 3)
	var pos muehle.Position
	found := false
	for _, k := range layers.PlacementLayers(3) {
		ix := db.Indexer().Layer(k)
		for i := range ix.Size() {
			p, ok := ix.Position(i)
			if v, err := db.Probe(p); ok && err == nil && v == layers.Unused {
				pos, found = gameOrientation(p), true
				break
			}
		}
		if found {
			break
		}
	}
	if !found {
		t.Fatal("k=3: no placement class left unstored, want the unreachable ones")
	}
	want, err := full.Probe(pos)
	if err != nil {
		t.Fatal(err)
	}
	// Refused without --unreachable (issue 28), answered with it.
	code, out, stderr := muehlectl("query", "--db", db.Dir(), "--stones", "3", "--book", "", "--position", pos.String())
	if code != 1 || !strings.Contains(stderr, "cannot arise in a game") {
		t.Errorf("query %s: exit %d, %q %s; want exit 1: cannot arise in a game", pos, code, out, stderr)
	}
	code, out, stderr = muehlectl("query", "--db", db.Dir(), "--stones", "3", "--book", "", "--unreachable", "--position", pos.String())
	if code != 0 || !strings.Contains(out, "value    "+want.String()+" (placement search") {
		t.Errorf("query --unreachable %s: exit %d, %q %s; want %v from the placement search", pos, code, out, stderr, want)
	}
}

// queryMoves returns the move lines of query's output: move and value.
func queryMoves(out string) map[string]string {
	re := regexp.MustCompile(`(?m)^  (\S+)\s+(won in \d+|lost in \d+|drawn)`)
	m := map[string]string{}
	for _, g := range re.FindAllStringSubmatch(out, -1) {
		m[g[1]] = g[2]
	}
	return m
}

func TestQueryPlacementSearch(t *testing.T) {
	db := solvedCopy(t, 3)
	dir := db.Dir()
	empty := "........................ w 3 3"
	code, stored, stderr := muehlectl("query", "--db", dir, "--stones", "3", "--position", empty)
	if code != 0 || !strings.Contains(stored, "value    won in 23 (") {
		t.Fatalf("query from the stored layers: exit %d, %q %s; want won in 23", code, stored, stderr)
	}
	code, searched, stderr := muehlectl("query", "--db", dir, "--stones", "3", "--search", "--position", empty)
	if code != 0 || !strings.Contains(searched, "value    won in 23 (placement search") {
		t.Fatalf("query --search: exit %d, %q %s; want won in 23 from the search", code, searched, stderr)
	}
	want, got := queryMoves(stored), queryMoves(searched)
	if len(want) != 24 || len(got) != 24 {
		t.Fatalf("got %d and %d first placements, want 24: %q %q", len(want), len(got), stored, searched)
	}
	for m, v := range want {
		if got[m] != v {
			t.Errorf("first placement %s: got %q from the search, want the stored %q", m, got[m], v)
		}
	}
	// The search filled the book: a second query answers from it.
	if !strings.Contains(searched, "book     ") {
		t.Errorf("query --search: no book line in %q", searched)
	}
	_, again, _ := muehlectl("query", "--db", dir, "--stones", "3", "--search", "--position", empty)
	if !strings.Contains(again, "value    won in 23 (placement search: ") || !strings.Contains(again, "s, 0 nodes)") {
		t.Errorf("second query --search: got %q, want the value from the book in 0 nodes", again)
	}
}

func TestPlacementCommandChecks(t *testing.T) {
	db := solvedCopy(t, 3)
	code, out, stderr := muehlectl("placement", "--db", db.Dir(), "--stones", "3", "--check", "--positions", "50")
	if code != 0 || !strings.Contains(out, "k=3: 50 positions searched") || !strings.Contains(out, "0 mismatches") {
		t.Errorf("placement --check: got exit %d, %q %s; want 50 positions, 0 mismatches", code, out, stderr)
	}
	if code, _, stderr := muehlectl("placement", "--db", db.Dir(), "--stones", "3", "--positions", "0"); code == 0 || !strings.Contains(stderr, "--positions 0: want 1 to") {
		t.Errorf("placement --positions 0: got exit %d, %q; want an error", code, stderr)
	}
}

func TestPlacementCommandTimesPlayer(t *testing.T) {
	db := solvedCopy(t, 3)
	code, out, stderr := muehlectl("placement", "--db", db.Dir(), "--stones", "3", "--player", "perfect", "--positions", "50")
	if code != 0 || !strings.Contains(out, "k=3, perfect: 50 positions, time per move: median ") ||
		!strings.Contains(out, "; 0 moves that give up value, 0 fallbacks, 0 positions the database does not hold") {
		t.Errorf("placement --player perfect: got exit %d, %q %s; want 50 moves, none giving up value", code, out, stderr)
	}
	code, out, stderr = muehlectl("placement", "--db", db.Dir(), "--stones", "3", "--player", "perfect", "--positions", "20", "--warm")
	if code != 0 || strings.Count(out, "k=3, perfect") != 2 || !strings.Contains(out, "k=3, perfect again, the layers open: 20 positions") {
		t.Errorf("placement --player perfect --warm: got exit %d, %q %s; want two passes", code, out, stderr)
	}
	// Random moves give up value in many positions: the check must see it.
	code, out, _ = muehlectl("placement", "--db", db.Dir(), "--stones", "3", "--player", "random", "--positions", "50")
	if code == 0 || !strings.Contains(out, "BLUNDER") {
		t.Errorf("placement --player random: got exit %d, %q; want blunders found and exit 1", code, out)
	}
	if code, _, stderr := muehlectl("placement", "--db", db.Dir(), "--stones", "3", "--player", "perfect", "--check"); code == 0 || !strings.Contains(stderr, "choose one") {
		t.Errorf("placement --player --check: got exit %d, %q; want an error", code, stderr)
	}
}
