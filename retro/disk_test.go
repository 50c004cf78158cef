package retro

import (
	"context"
	"errors"
	"strings"
	"testing"

	"muehle/layers"
)

// TestSolveStopsBeforeDiskFull gives the solver a disk with room for the
// first unit (3-3) but not the second (the pair 3-4 + 4-3): it computes
// the first, stops before the second with an error wrapping ErrDiskFull
// that names the unit and the space, writes nothing of it, and, with the
// space back, resumes there.
func TestSolveStopsBeforeDiskFull(t *testing.T) {
	opts := SolveOptions{MaxStones: 7}
	db := openDB(t, t.TempDir(), 4)
	plan := Plan(db, opts)
	if len(plan) != 2 {
		t.Fatalf("plan: %d units, want 2 (3-3, then 3-4 + 4-3)", len(plan))
	}
	first, second := plan[0].Cost, plan[1].Cost
	room := first.DiskBytes + first.TempBytes + diskReserve
	if need := second.DiskBytes + second.TempBytes + diskReserve; need <= room {
		t.Fatalf("the second unit needs %d bytes, the first %d: the test needs it larger", need, room)
	}
	t.Cleanup(func() { freeBytes = layers.FreeBytes })
	freeBytes = func(string) (uint64, error) { return room, nil }

	err := Solve(context.Background(), db, opts)
	if !errors.Is(err, ErrDiskFull) {
		t.Fatalf("Solve with room for one unit: got %v, want ErrDiskFull", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "m3-4") || !strings.Contains(msg, "MiB are free") {
		t.Errorf("the error does not name the unit and the free space: %q", msg)
	}
	if !db.Has(layers.Moving(3, 3)) || db.Has(layers.Moving(3, 4)) || db.Has(layers.Moving(4, 3)) {
		t.Errorf("after the stop: 3-3 %v, 3-4 %v, 4-3 %v; want only 3-3", db.Has(layers.Moving(3, 3)), db.Has(layers.Moving(3, 4)), db.Has(layers.Moving(4, 3)))
	}

	freeBytes = func(string) (uint64, error) { return 0, layers.ErrFreeSpaceUnknown }
	solve(t, db, opts) // a system that cannot say is not refused
	if got := Plan(db, opts); len(got) != 0 {
		t.Fatalf("after resuming: left %+v", got)
	}
}
