package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"muehle/muehle/testenv"
	"muehle/retro/retrotest"
)

// mainEnv makes the test binary run main (see TestMain): a real muehlectl
// process for the signal and lock tests.
const mainEnv = "MUEHLECTL_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		main()
		return
	}
	code := retrotest.Main(m) // removes the databases solved once for the binary
	removeEngineDBs()
	os.Exit(code)
}

// TestFlagsChecked checks that every bad number or combination of flags
// is refused with exit 2 and a message naming the flag.
func TestFlagsChecked(t *testing.T) {
	dir := t.TempDir()
	tooMany := strconv.Itoa(maxWorkersPerCore*runtime.NumCPU() + 1)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--max-stones", "-5"}, "--max-stones -5: want 6 to 18"},
		{[]string{"solve", "--max-stones", "2"}, "--max-stones 2: want 6 to 18"},
		{[]string{"solve", "--stones", "4", "--max-stones", "9"}, "--max-stones 9: want 6 to 8"},
		{[]string{"solve", "--workers", "1000000"}, "--workers 1000000: want 0 to"},
		{[]string{"solve", "--workers", tooMany}, "--workers " + tooMany},
		{[]string{"solve", "--workers", "-3"}, "--workers -3"},
		{[]string{"solve", "--mem", "-1"}, "--mem -1"},
		{[]string{"solve", "--placement", "--all-phases"}, "give one"},
		{[]string{"solve", "--max-stones", "7", "--placement"}, "drop --max-stones"},
		{[]string{"solve", "--stones", "10"}, "--stones 10: want 3 to 9"},
		{[]string{"solve", "--db", ""}, "--db"},
		{[]string{"verify", "--workers", "100000000"}, "--workers 100000000"},
		{[]string{"verify", "--limit", "0"}, "--limit 0"},
		{[]string{"verify", "--stones", "3", "--layer", "4-4"}, "not a layer of the 3-stone game"},
		{[]string{"verify", "--layer", "x"}, "bad layer key"},
		{[]string{"stats", "--stones", "2"}, "--stones 2"},
		{[]string{"stats", "--max-stones", "1"}, "--max-stones 1"},
		{[]string{"query", "--stones", "2", "--position", "........................ w 9 9"}, "--stones 2: want 3 to 9 for Nine Men's Morris"},
		{[]string{"solve", "--game", "twelve", "--stones", "13"}, "--stones 13: want 3 to 12 for Twelve Men's Morris"},
		{[]string{"solve", "--game", "go"}, `--game "go": want one of standard, twelve, lasker, six, three`},
		{[]string{"solve", "--game", "twelve", "--max-stones", "25"}, "--max-stones 25: want 6 to 24"},
		{[]string{"query"}, "--position"},
		{[]string{"plan", "--nodes", "0"}, "--nodes 0"},
		{[]string{"plan", "--cpus", "-1"}, "--cpus -1"},
		{[]string{"slurm", "--mem-margin", "0.5"}, "--mem-margin 0.5"},
		{[]string{"slurm", "--cpus", "0"}, "--cpus 0"},
		{[]string{"slurm", "--dry-run", "--submit"}, "give one"},
		{[]string{"slurm", "--placement", "--all-phases"}, "give one"},
		{[]string{"match", "--placement-time", "-1s"}, "--placement-time -1s: want a time of 0 or more"},
		{[]string{"match", "--placement-time", "-1ns"}, "--placement-time -1ns"},
	} {
		args := append(tc.args, "--db", dir)
		if slicesContain(tc.args, "--db") {
			args = tc.args
		}
		code, _, stderr := muehlectl(args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: got exit %d, %q; want exit 2 and %q", tc.args, code, firstLine(stderr), tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "k9")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused command created the database: %v", err)
	}
}

func slicesContain(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// TestReadersCreateNothing checks that query, stats and verify on a
// missing folder say so, fail and create nothing.
func TestReadersCreateNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub")
	pos := "........................ w 9 9"
	for _, args := range [][]string{
		{"query", "--position", pos}, {"stats"}, {"verify"},
	} {
		code, _, stderr := muehlectl(append(args, "--db", dir)...)
		if code != 1 || !strings.Contains(stderr, "does not exist") {
			t.Errorf("%v on a missing folder: got exit %d, %q; want exit 1, does not exist", args, code, stderr)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%v created %s", args, dir)
		}
	}
}

// TestReportsDamage checks that stats, verify and query report a damaged,
// a missing and a wrong layer with a non-zero exit, and that solve then
// repairs the database.
func TestReportsDamage(t *testing.T) {
	dir := solvedK3(t)
	path := filepath.Join(dir, "k3", "m3-3.layer")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[20] ^= 1 // a header byte: the header checksum fails
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		out  string
	}{
		{[]string{"stats"}, "3-3 damaged: "},
		{[]string{"verify"}, "3-3        damaged"},
		{[]string{"verify", "--all-phases"}, "p0+3-0+3   missing"},
		{[]string{"query", "--position", "WW.B.....W....B.......B. w 0 0"}, "value    layer 3-3 damaged"},
	} {
		code, out, stderr := muehlectl(append(tc.args, "--db", dir, "--stones", "3")...)
		if code != 1 || !strings.Contains(out, tc.out) {
			t.Errorf("%v: got exit %d, %q %q; want exit 1 and %q", tc.args, code, out, stderr, tc.out)
		}
	}
	code, out, stderr := muehlectl("solve", "--db", dir, "--stones", "3")
	if code != 0 || !strings.Contains(stderr, "3-3 damaged") {
		t.Errorf("solve over the damage: got exit %d, %q %q; want it to say 3-3 is damaged", code, out, stderr)
	}
	if code, out, _ := muehlectl("stats", "--db", dir, "--stones", "3"); code != 0 || out != "3-3 140621 28736 269 25 26\n" {
		t.Errorf("stats after the repair: got exit %d, %q", code, out)
	}
}

// TestSignalAndLock runs a solve in another process, checks that a second
// solve of the same folder is refused naming it, then stops it with
// SIGTERM and checks that it says so, prints no "done", and leaves no work
// files or lock behind; a third solve resumes.
func TestSignalAndLock(t *testing.T) {
	testenv.SlowUnderRace(t, "solves k=4 in a second process")
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "solve", "--db", dir, "--stones", "4", "--workers", "1")
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	ownGroup(cmd)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewReader(stderr)
	var log strings.Builder
	for !strings.Contains(log.String(), "unit 1 of 3") {
		l, err := lines.ReadString('\n')
		log.WriteString(l)
		if err != nil {
			t.Fatalf("solve ended early: %v\n%s", err, log.String())
		}
	}
	// Unit 1's line comes when it is done, before unit 2 is claimed: wait
	// for the claim with its holder written (a claim is created, then
	// written: stopped between the two, it names no pid), and stop the
	// first process there, so that it holds unit 2 of 3 however fast the
	// machine (CI's finished the unit before the second solve looked).
	claim := filepath.Join(dir, "k4", "m3-4.claim")
	pid := fmt.Sprintf(`"pid":%d`, cmd.Process.Pid)
	for start := time.Now(); ; time.Sleep(time.Millisecond) {
		if b, err := os.ReadFile(claim); err == nil && strings.Contains(string(b), pid) {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("no claim %s a minute after unit 1's line", claim)
		}
	}
	release := hold(t, cmd.Process)
	if _, err := os.Stat(claim); err != nil {
		release()
		t.Fatalf("the first solve finished unit 2 before it could be held: %v", err)
	}
	code, _, errOut := muehlectl("solve", "--db", dir, "--stones", "4")
	if code != 1 || !strings.Contains(errOut, "another solver") || !strings.Contains(errOut, "pid "+strconv.Itoa(cmd.Process.Pid)) {
		t.Errorf("second solve: got exit %d, %q; want exit 1 naming pid %d", code, errOut, cmd.Process.Pid)
	}

	// Asked to stop while held, the first process stops in unit 2 when
	// it goes on.
	interrupt(t, cmd.Process) // SIGTERM; on Windows Ctrl-Break
	release()
	rest, _ := io.ReadAll(lines)
	log.Write(rest)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("after SIGTERM: got %v, want exit status 1", err)
	}
	if !strings.Contains(log.String(), "interrupted") || strings.Contains(stdout.String(), "done") {
		t.Errorf("after SIGTERM: stdout %q, stderr %q; want interrupted and no done", stdout.String(), log.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "tmp")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after SIGTERM: tmp left behind (%v)", err)
	}
	if claims, _ := filepath.Glob(filepath.Join(dir, "k4", "*.claim")); len(claims) > 0 {
		t.Errorf("after SIGTERM: claims left behind: %v", claims)
	}
	if code, out, errOut := muehlectl("solve", "--db", dir, "--stones", "4"); code != 0 || !strings.Contains(out, "done") {
		t.Errorf("resumed solve: got exit %d, %q %q", code, out, errOut)
	}
}

// FuzzFlags parses arbitrary command lines for solve, verify and stats:
// the parsers never panic, refuse with errUsage, and what they accept is
// in range.
func FuzzFlags(f *testing.F) {
	for _, s := range []string{
		"solve --max-stones 7", "solve --workers 2 --mem 64", "solve --all-phases --stones 5",
		"solve --max-stones -5", "solve --workers 1000000", "solve --placement --all-phases",
		"verify --layer 3-4 --limit 5", "verify --stones 3 --layer p1+2-1+2", "stats --placement",
		"stats --max-stones 2", "solve --mem=-1", "verify --workers=-3",
	} {
		f.Add(s)
	}
	maxW := maxWorkersPerCore * runtime.NumCPU()
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) == 0 {
			return
		}
		check := func(err error, db dbFlags, maxStones, workers int) {
			if err != nil {
				if err != errUsage {
					t.Fatalf("%q: got error %v, want errUsage", line, err)
				}
				return
			}
			k := *db.stones
			if k < 3 || k > 9 || *db.dir == "" || maxStones != 0 && (maxStones < 6 || maxStones > 2*k) || workers < 0 || workers > maxW {
				t.Fatalf("%q accepted: stones %d, db %q, max-stones %d, workers %d", line, k, *db.dir, maxStones, workers)
			}
		}
		switch args[0] {
		case "solve":
			a, err := parseSolve(args[1:], io.Discard)
			check(err, a.db, a.opts.MaxStones, a.opts.Workers)
			if err == nil && (a.opts.MemBytes < 0 || a.opts.Placement && a.opts.MaxStones != 0) {
				t.Fatalf("%q accepted: %+v", line, a.opts)
			}
		case "verify":
			a, err := parseVerify(args[1:], io.Discard)
			check(err, a.db, a.opts.MaxStones, a.workers)
			if err == nil && (a.limit < 1 || len(a.keys) == 1 && !a.keys[0].Valid(*a.db.stones)) {
				t.Fatalf("%q accepted: limit %d, keys %v", line, a.limit, a.keys)
			}
		case "stats":
			a, err := parseStats(args[1:], io.Discard)
			check(err, a.db, a.opts.MaxStones, 0)
		}
	})
}
