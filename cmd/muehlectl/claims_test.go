package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

// TestSolveBlockedKeepsFinishedUnit lets a solve finish unit m3-3 and then
// find the next unit claimed by another (live) solver: it stops with exit
// 1 naming the other solver, but reports m3-3 as done, not as
// interrupted, and writes its line to the solve record (issue 28).
func TestSolveBlockedKeepsFinishedUnit(t *testing.T) {
	dir := t.TempDir()
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	units := retro.Units(muehle.Standard.With(3), retro.SolveOptions{Placement: true})
	if len(units) < 2 || units[0].Name != "m3-3" {
		t.Fatalf("units of k=3: got %v, want m3-3 first and more", units)
	}
	claim, err := db.Claim(context.Background(), string(units[1].Name), false)
	if err != nil {
		t.Fatal(err)
	}
	defer claim.Release()
	code, out, stderr := muehlectl("solve", "--db", dir, "--stones", "3", "--all-phases")
	if code != 1 || !strings.Contains(stderr, "another solver") {
		t.Fatalf("solve: got exit %d, %q %q; want exit 1: another solver", code, out, stderr)
	}
	if strings.Contains(stderr, "interrupted") || !strings.Contains(stderr, "unit 1 of") {
		t.Errorf("solve: stderr %q; want unit 3-3's line and no \"interrupted\"", stderr)
	}
	rec, err := os.ReadFile(db.RecordPath())
	if err != nil || !strings.Contains(string(rec), "\tm3-3\t") {
		t.Errorf("solve record: got %q, %v; want the line of unit 3-3", rec, err)
	}
}
