package retro

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"muehle/layers"
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
	if kb := residentKB(t, db.Path(k)); kb > 8 {
		t.Errorf("after verifying %s: %d KiB of its file resident, want at most 8 (the header's page)", k, kb)
	}
}

// residentKB returns the resident memory of this process's mappings of
// the file at path, from /proc/self/smaps.
func residentKB(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in, kb := false, 0
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = len(fields) >= 6 && fields[len(fields)-1] == path
			continue
		}
		if rest, ok := strings.CutPrefix(line, "Rss:"); ok && in {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("smaps: %q: %v", line, err)
			}
			kb += n
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return kb
}
