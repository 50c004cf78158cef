package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/retro/retrotest"
)

// solvedK3 returns a new folder holding the moving layers of the 3-stone
// game, what `muehlectl solve --stones 3` computes: a copy of the ones
// retrotest solves once per test binary.
func solvedK3(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	retrotest.CopyMovingIn(t, dir, 3).Close()
	return dir
}

// muehlectl runs a command line and returns its exit status and output.
func muehlectl(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestQueryBadPositions(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		position string
		want     string
	}{
		{".....", "want 4 fields"},
		{"X....................... w 9 9", "X"},
		{"WWWWWWWWWW.............. b 0 0", "White has 10 stones"},
		{"WWW..................... w 0 0", "Black has only 0 stones"},
	} {
		code, _, stderr := muehlectl("query", "--db", dir, "--position", c.position)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("query %q: got exit %d, stderr %q; want exit 1 and %q", c.position, code, stderr, c.want)
		}
	}
}

func TestSolveStatsQuery(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := muehlectl("solve", "--db", dir, "--stones", "3", "--all-phases"); code != 0 {
		t.Fatalf("solve: exit %d: %s", code, stderr)
	}
	code, out, stderr := muehlectl("stats", "--db", dir, "--stones", "3")
	if code != 0 || out != "3-3 140621 28736 269 25 26\n" {
		t.Errorf("stats: got exit %d, %q (%s); want the 3-3 line of docs/rules.md", code, out, stderr)
	}
	code, out, _ = muehlectl("solve", "--db", dir, "--stones", "3", "--all-phases")
	if code != 0 || !strings.Contains(out, "nothing to do") {
		t.Errorf("second solve: got exit %d, %q; want nothing to do", code, out)
	}
	// A 3-3 position where White closes a mill at once: a7 d7 for White, g7 empty.
	code, out, stderr = muehlectl("query", "--db", dir, "--stones", "3", "--position", "WW.B.....W....B.......B. w 0 0")
	if code != 0 || !strings.Contains(out, "value    won in 1") {
		t.Errorf("query: got exit %d, %q (%s); want won in 1", code, out, stderr)
	}
	if !strings.Contains(out, "won in 1") || !strings.Contains(out, " moves, best first") {
		t.Errorf("query: no move list in %q", out)
	}
	// The layers of k=4 are absent from this folder.
	code, out, _ = muehlectl("query", "--db", dir, "--stones", "4", "--position", "WW.B.....W....B.......B. w 0 0")
	if code != 1 || !strings.Contains(out, "value    layer missing") {
		t.Errorf("query in a missing layer: got exit %d, %q; want exit 1, layer missing", code, out)
	}
	if code, out, _ := muehlectl("verify", "--db", dir, "--stones", "3", "--all-phases"); code != 0 || !strings.Contains(out, "all 7 layers verified") {
		t.Errorf("verify: got exit %d, %q", code, out)
	}
}

func TestVerifyRefusesCorruptLayer(t *testing.T) {
	dir := solvedK3(t)
	path := filepath.Join(dir, "k3", "m3-3.layer")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x10
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := muehlectl("verify", "--db", dir, "--stones", "3")
	if code != 1 || !strings.Contains(out+stderr, "m3-3.layer") || !strings.Contains(out+stderr, "checksum") {
		t.Errorf("verify of a corrupted layer: got exit %d, %q %q; want exit 1 naming the file and the checksum", code, out, stderr)
	}
}
