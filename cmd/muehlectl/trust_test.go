package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"muehle/muehle"
	"muehle/retro/retrotest"
)

// TestUnverifiedLayer removes the verification record of the 3-stone
// game's layer 3-3 and checks what each command does with the layer
// (issue 48, item 1; docs/records.md, "Unverified layers"): query refuses
// its value (exit 1, saying why), export refuses it unless --unverified,
// and import of such a package says the layer is not verified; once
// verify has run, query answers again.
func TestUnverifiedLayer(t *testing.T) {
	dir := solvedK3(t)
	if err := os.Remove(filepath.Join(dir, "k3", "m3-3.verified")); err != nil {
		t.Fatal(err)
	}
	const pos = "WW.W............BB.B.... w 0 0"
	code, out, errOut := muehlectl("query", "--db", dir, "--stones", "3", "--position", pos)
	if code != 1 || strings.Contains(out, "won in") || !strings.Contains(out+errOut, "not verified") {
		t.Errorf("query of an unverified layer: got exit %d, %q, %q; want exit 1, no value, \"not verified\"", code, out, errOut)
	}
	pkg := filepath.Join(t.TempDir(), "k3.mpk")
	code, _, errOut = muehlectl("export", "--db", dir, "--stones", "3", "--out", pkg)
	if code != 1 || !strings.Contains(errOut, "not verified") || !strings.Contains(errOut, "--unverified") {
		t.Errorf("export of an unverified layer: got exit %d, %q; want exit 1 naming --unverified", code, errOut)
	}
	if _, err := os.Stat(pkg); err == nil {
		t.Errorf("export refused, yet %s was written", pkg)
	}
	if code, _, errOut = muehlectl("export", "--db", dir, "--stones", "3", "--out", pkg, "--unverified"); code != 0 {
		t.Fatalf("export --unverified: exit %d, %s", code, errOut)
	}
	to := t.TempDir()
	code, out, errOut = muehlectl("import", pkg, "--db", to)
	if code != 0 || !strings.Contains(out+errOut, "NOT VERIFIED") {
		t.Errorf("import of an unverified layer: got exit %d, %q, %q; want exit 0 and NOT VERIFIED", code, out, errOut)
	}
	if code, out, _ = muehlectl("query", "--db", to, "--stones", "3", "--position", pos); code != 1 || strings.Contains(out, "won in") {
		t.Errorf("query after the import: got exit %d, %q; want exit 1 and no value", code, out)
	}
	if code, _, errOut = muehlectl("verify", "--db", to, "--stones", "3"); code != 0 {
		t.Fatalf("verify: exit %d, %s", code, errOut)
	}
	if code, out, errOut = muehlectl("query", "--db", to, "--stones", "3", "--position", pos); code != 0 || !strings.Contains(out, "won in 1") {
		t.Errorf("query after verify: got exit %d, %q, %q; want won in 1", code, out, errOut)
	}
}

// TestSmallFlagFaults checks the small flag faults of issue 48, item 12:
// `CMD -h` exits 0 as `muehlectl` alone does; --derive-bits NaN is refused,
// and so is --derive-bits with --derive=false.
func TestSmallFlagFaults(t *testing.T) {
	for _, cmd := range []string{"query", "export", "import", "review", "solve"} {
		if code, _, errOut := muehlectl(cmd, "-h"); code != 0 || !strings.Contains(errOut, "usage") {
			t.Errorf("%s -h: got exit %d, %q; want 0 and the usage", cmd, code, errOut)
		}
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "p.mpk")
	for _, args := range [][]string{
		{"--derive-bits", "NaN"},
		{"--derive-bits", "0", "--derive=false"},
	} {
		a := append([]string{"export", "--db", dir, "--stones", "3", "--out", out}, args...)
		if code, _, errOut := muehlectl(a...); code != 2 {
			t.Errorf("export %v: got exit %d, %q; want 2", args, code, errOut)
		}
	}
}

// TestMemoryFlags checks that memory-sized flags are checked against the
// machine's memory (issue 48, item 5: query --search --table-bits 30
// mapped 18 GB of a 23 GiB machine): on a machine of 1 GiB, as the test
// pretends, a table of 2 GiB and a solve budget of 2 GiB are refused as
// flag errors before anything is allocated.
func TestMemoryFlags(t *testing.T) {
	old := machineMemory
	machineMemory = func() (uint64, bool) { return 1 << 30, true }
	defer func() { machineMemory = old }()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"query", "--db", dir, "--stones", "3", "--search", "--table-bits", "27", "--position", "W....................... b 2 3"},
		{"placement", "--db", dir, "--stones", "3", "--table-bits", "27"},
		{"solve", "--db", dir, "--stones", "3", "--mem", "2048"},
	} {
		if code, _, errOut := muehlectl(args...); code != 2 || !strings.Contains(errOut, "this machine's 1.00 GiB") {
			t.Errorf("%s: got exit %d, %q; want exit 2 naming the machine's memory", strings.Join(args, " "), code, errOut)
		}
	}
	if code, _, errOut := muehlectl("solve", "--db", dir, "--stones", "3", "--max-stones", "6", "--mem", "512"); code != 0 {
		t.Errorf("solve --mem 512 on a machine of 1 GiB: got exit %d, %q; want 0", code, errOut)
	}
}

// leaveKilled writes into the game folder k3 of dir what an import killed
// while it installed layer 3-3 leaves (issue 48, item 9): the unit's claim,
// held by a process that has ended, and a temporary verification record.
func leaveKilled(t *testing.T, dir string) (claim, tmp string) {
	t.Helper()
	ended := exec.Command(os.Args[0], "-test.run=^$")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	now := time.Now().UTC().Format(time.RFC3339Nano)
	info := fmt.Sprintf(`{"host":%q,"pid":%d,"command":"muehlectl import","start":%q,"heartbeat":%q,"os":%q}`,
		host, ended.Process.Pid, now, now, runtime.GOOS)
	claim, tmp = filepath.Join(dir, "k3", "m3-3.claim"), filepath.Join(dir, "k3", "m3-3.verified.123456.tmp")
	for _, f := range []struct{ path, text string }{{claim, info}, {tmp, "verified 3-3"}} {
		if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return claim, tmp
}

// TestKilledImportLeftovers checks that the claim and the temporary file
// a killed import leaves are removed by the next solve and by the next
// import (issue 48, item 9: they stayed for good).
func TestKilledImportLeftovers(t *testing.T) {
	dir := solvedK3(t)
	claim, tmp := leaveKilled(t, dir)
	code, _, errOut := muehlectl("solve", "--db", dir, "--stones", "3")
	if code != 0 || !strings.Contains(errOut, "removed the claim of m3-3") {
		t.Errorf("solve: got exit %d, %q; want 0 and the claim removed", code, errOut)
	}
	for _, f := range []string{claim, tmp} {
		if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("after solve: %s is still there (%v)", f, err)
		}
	}

	pkg := filepath.Join(t.TempDir(), "k3.mpk")
	if code, _, errOut := muehlectl("export", "--db", dir, "--stones", "3", "--out", pkg); code != 0 {
		t.Fatalf("export: exit %d, %s", code, errOut)
	}
	claim, tmp = leaveKilled(t, dir)
	if code, _, errOut := muehlectl("import", pkg, "--db", dir); code != 0 {
		t.Errorf("import: exit %d, %s", code, errOut)
	}
	for _, f := range []string{claim, tmp} {
		if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("after import: %s is still there (%v)", f, err)
		}
	}
}

// TestTrainingOtherGames checks that train, tactics and searcherrors draw
// positions of Twelve and Lasker Morris from their databases, and that
// train takes the game from --position as query does (issue 48, item 7:
// "no position fits", "a position of standard in the database of
// twelve k3").
func TestTrainingOtherGames(t *testing.T) {
	for _, id := range []muehle.GameID{muehle.Twelve, muehle.Lasker} {
		game, dir := id.String(), t.TempDir()
		retrotest.CopyGameIn(t, dir, id.With(3)).Close()
		g := []string{"--db", dir, "--game", game, "--stones", "3"}
		code, out, errOut := muehlectl(append([]string{"train", "--count", "2"}, g...)...)
		if code != 0 || !strings.Contains(out, "found 2 of 2") && !strings.Contains(out, "2. position") {
			t.Errorf("train %s: got exit %d, %q, %q; want two positions", game, code, out, errOut)
		}
		if code, out, errOut := muehlectl(append([]string{"tactics", "--players", "random", "--count", "3", "--layers", "3-3"}, g...)...); code != 0 {
			t.Errorf("tactics %s: got exit %d, %q, %q; want 0", game, code, out, errOut)
		}
		if code, out, errOut := muehlectl(append([]string{"searcherrors", "--layer", "3-3", "--positions", "3", "--depth", "0"}, g...)...); code != 0 {
			t.Errorf("searcherrors %s: got exit %d, %q, %q; want 0", game, code, out, errOut)
		}
		// The position train printed, answered without --game.
		i := strings.Index(out, "position \"")
		if game != "twelve" || i < 0 {
			continue
		}
		pos, _, _ := strings.Cut(out[i+len("position \""):], "\"")
		code, out, errOut = muehlectl("train", "--db", dir, "--stones", "3", "--position", pos, "--answer", "a1")
		if strings.Contains(out+errOut, "database of standard") || strings.Contains(out+errOut, "is of twelve, and --game") {
			t.Errorf("train --position %q without --game: got exit %d, %q, %q; want the twelve database read", pos, code, out, errOut)
		}
	}
}
