package retro

import (
	"context"
	"testing"

	"muehle/layers"
	"muehle/layers/layerstest"
)

// TestVerifyLeavesNoPagesResident expects a verified layer's mapped pages
// to leave the process's resident memory: a solve verifies layer after
// layer in one process, and in the standard game's run the bodies it had
// read held 1.3 GB more than the largest unit needs (its peak rose from
// 5.2 to 6.5 GiB at 8-9 + 9-8).
func TestVerifyLeavesNoPagesResident(t *testing.T) {
	db := openDB(t, t.TempDir(), 3)
	solve(t, db, SolveOptions{SkipVerify: true})
	k := layers.Moving(3, 3) // 183,512 slots: 45 pages
	bad, err := VerifyLayer(context.Background(), db, k, 0, 10, nil)
	if err != nil || len(bad) > 0 {
		t.Fatalf("verify %s: %v %v", k, bad, err)
	}
	if kb, _ := layerstest.Resident(t, db.Path(k)); kb > 8 {
		t.Errorf("after verifying %s: %d KiB of its file resident, want at most 8 (the header's page)", k, kb)
	}
}
