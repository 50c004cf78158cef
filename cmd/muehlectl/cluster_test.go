package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"muehle/muehle/testenv"
	"muehle/retro"
)

// TestSolveUnitCommand computes units of the k=3 game one by one: a unit
// whose dependency is missing is refused, a complete one is left alone.
func TestSolveUnitCommand(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--unit", "p2+1-3+0"}, 1, "needs layer 3-3 (unit m3-3), which is missing"},
		{[]string{"--unit", "x"}, 2, `no unit "x"`},
		{[]string{"--unit", "m3-3", "--all-phases"}, 2, "--unit with"},
		{[]string{"--unit", "3-3"}, 0, "unit 3-3 done"},
		{[]string{"--unit", "m3-3"}, 0, "unit m3-3 is complete and verified; nothing to do"},
		{[]string{"--unit", "p2+1-3+0"}, 0, "unit p2+1-3+0 done"},
	} {
		args := append([]string{"solve", "--db", dir, "--stones", "3", "--workers", "1"}, tc.args...)
		code, out, errOut := muehlectl(args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%v: got exit %d, %q %q; want exit %d and %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
}

// TestPlan checks the unit graph of the k=3 game, as text and JSON, and
// that it follows the database: a solved unit shows as verified.
func TestPlan(t *testing.T) {
	dir := t.TempDir()
	get := func() plan {
		t.Helper()
		code, out, errOut := muehlectl("plan", "--db", dir, "--stones", "3", "--all-phases", "--json", "--nodes", "2", "--cpus", "4")
		var p plan
		if err := json.Unmarshal([]byte(out), &p); code != 0 || err != nil {
			t.Fatalf("plan --json: exit %d, %v: %s %s", code, err, out, errOut)
		}
		return p
	}
	p := get()
	names := make([]string, len(p.Units))
	for i, u := range p.Units {
		names[i] = u.Name
	}
	want := []string{"m3-3", "p2+1-3+0", "p2+1-2+1", "p1+2-2+1", "p1+2-1+2", "p0+3-1+2", "p0+3-0+3"}
	if !slices.Equal(names, want) {
		t.Fatalf("units: got %v, want %v", names, want)
	}
	u := p.Units[1]
	if !slices.Equal(u.Deps, []string{"m3-3"}) || u.Level != 1 || u.Status != "missing" || u.Slots == 0 || u.MemBytes == 0 || u.CPUSeconds <= 0 {
		t.Errorf("unit %s: got %+v", u.Name, u)
	}
	if p.LeftCPUSeconds != p.CPUSeconds || p.Nodes != 2 || p.CPUs != 4 || p.WallSeconds <= 0 {
		t.Errorf("plan totals: got %+v", p)
	}
	if code, out, errOut := muehlectl("solve", "--db", dir, "--stones", "3", "--unit", "m3-3"); code != 0 {
		t.Fatalf("solve --unit m3-3: exit %d %s %s", code, out, errOut)
	}
	p = get()
	if got := p.Units[0].Status; got != "verified" {
		t.Errorf("m3-3 after solving it: got status %q, want verified", got)
	}
	if want := p.CPUSeconds - p.Units[0].CPUSeconds; p.LeftCPUSeconds < want*0.999 || p.LeftCPUSeconds > want*1.001 {
		t.Errorf("left: got %g s, want %g", p.LeftCPUSeconds, want)
	}
	code, out, _ := muehlectl("plan", "--db", dir, "--stones", "3", "--all-phases")
	for _, s := range []string{"k=3: 7 units in 7 levels, 6 to do", "m3-3       3-3", "verified", "p2+1-3+0", "m3-3  ", "expected wall time"} {
		if code != 0 || !strings.Contains(out, s) {
			t.Errorf("plan: got exit %d, %q; want %q in it", code, out, s)
		}
	}
}

// TestPlanCompress checks that the plan of a solve with --compress counts
// the reading of the finished layers kept compressed: on two machines
// (each unit alone) more processor time than the plan of the same units
// lying flat, the difference its reading time, and a line saying it; in
// one process, where the DB holds the layers decoded from one unit to the
// next (the 5-stone game's all fit), none.
func TestPlanCompress(t *testing.T) {
	dir := t.TempDir()
	get := func(args ...string) plan {
		t.Helper()
		code, out, errOut := muehlectl(append([]string{"plan", "--db", dir, "--stones", "5", "--json"}, args...)...)
		var p plan
		if err := json.Unmarshal([]byte(out), &p); code != 0 || err != nil {
			t.Fatalf("plan --json %v: exit %d, %v: %s %s", args, code, err, out, errOut)
		}
		return p
	}
	flat, comp, one := get("--nodes", "2"), get("--compress", "--nodes", "2"), get("--compress")
	if one.LeftReadCPUSeconds != 0 || math.Abs(one.LeftCPUSeconds-flat.LeftCPUSeconds) > 1e-6*flat.LeftCPUSeconds {
		t.Errorf("plan --compress in one process: %g s (%g reading); want the flat plan's %g s, none reading", one.LeftCPUSeconds, one.LeftReadCPUSeconds, flat.LeftCPUSeconds)
	}
	if flat.LeftReadCPUSeconds != 0 || flat.Compress || !comp.Compress || comp.LeftReadCPUSeconds <= 0 ||
		math.Abs(comp.LeftCPUSeconds-flat.LeftCPUSeconds-comp.LeftReadCPUSeconds) > 1e-6*comp.LeftCPUSeconds {
		t.Errorf("plan: flat %g s (%g reading), --compress %g s (%g reading); want the second higher by its reading", flat.LeftCPUSeconds,
			flat.LeftReadCPUSeconds, comp.LeftCPUSeconds, comp.LeftReadCPUSeconds)
	}
	code, out, _ := muehlectl("plan", "--db", dir, "--stones", "5", "--compress", "--nodes", "2")
	if s := "reads the finished layers kept compressed"; code != 0 || !strings.Contains(out, s) {
		t.Errorf("plan --compress: got exit %d, %q; want %q in it", code, out, s)
	}
}

// TestPlanKeptFlat: the plan of Lasker Morris counts the disk of the layers
// kept flat for their placement parents (retro.KeptFlatPeak) in what a
// solve with --compress takes at the most, and says so; the standard
// game's keeps none.
func TestPlanKeptFlat(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		game string
		flat bool
	}{{"lasker", true}, {"standard", false}} {
		code, out, errOut := muehlectl("plan", "--db", dir, "--game", tc.game, "--stones", "4", "--all-phases", "--json")
		var p plan
		if err := json.Unmarshal([]byte(out), &p); code != 0 || err != nil {
			t.Fatalf("plan --game %s --json: exit %d, %v: %s", tc.game, code, err, errOut)
		}
		if got := p.KeptFlatBytes > 0 && p.KeptFlatAt != ""; got != tc.flat {
			t.Errorf("plan --game %s: %d bytes kept flat after %q; want some: %v", tc.game, p.KeptFlatBytes, p.KeptFlatAt, tc.flat)
		}
		_, out, _ = muehlectl("plan", "--db", dir, "--game", tc.game, "--stones", "4", "--all-phases")
		if got := strings.Contains(out, "of layers kept flat for their placement parents (after unit "+p.KeptFlatAt); got != tc.flat {
			t.Errorf("plan --game %s says the layers kept flat: %v, want %v:\n%s", tc.game, got, tc.flat, out)
		}
	}
}

// TestWallTime checks the schedule of the estimate on made-up units.
func TestWallTime(t *testing.T) {
	units := []plannedUnit{
		{Level: 0, CPUSeconds: 8},
		{Level: 1, CPUSeconds: 6}, {Level: 1, CPUSeconds: 4}, {Level: 1, CPUSeconds: 4}, {Level: 1, CPUSeconds: 2},
		{Level: 2, CPUSeconds: 100, Status: "verified"},
	}
	// In processor seconds over the cores; a unit keeps retro.CoreUse of
	// them busy.
	for _, tc := range []struct {
		nodes, cpus int
		want        float64
	}{
		{1, 1, 8 + 16},
		{2, 1, 8 + 8},     // 6+2 | 4+4
		{4, 2, 4 + 3},     // each unit on a machine of its own
		{100, 1, 8 + 6},   // more machines than units
		{3, 1, 8 + 6},     // 6 | 4+2 | 4
		{1, 4, 8/4. + 4.}, // one machine of 4 cores
	} {
		if got, want := wallTime(units, tc.nodes, tc.cpus), tc.want/retro.CoreUse; math.Abs(got-want) > 1e-9 {
			t.Errorf("wallTime(%d nodes, %d cpus): got %g, want %g", tc.nodes, tc.cpus, got, want)
		}
	}
}

// TestCalibrate compares the model with a solve record of two units, and
// refuses a record whose units are not of the game.
func TestCalibrate(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tsv")
	os.WriteFile(bad, []byte("2026-11-23T14:43:06Z\tm3-3\t1000\t1.570\tcount=0.187\t188\t2\t2\tunknown\n"), 0o644)
	if code, _, errOut := muehlectl("plan", "--calibrate", bad, "--stones", "5", "--db", dir); code != 1 || !strings.Contains(errOut, "not a unit of Nine Men's Morris with 5 stones") {
		t.Errorf("plan --calibrate with a wrong unit: got exit %d, %q", code, errOut)
	}
	if code, _, errOut := muehlectl("plan", "--calibrate", filepath.Join(dir, "none.tsv"), "--stones", "5", "--db", dir); code != 1 || !strings.Contains(errOut, "no solve records") {
		t.Errorf("plan --calibrate with a missing file: got exit %d, %q", code, errOut)
	}
	// A solve record says its workers: 3-3 on 2 (0.02 s + 183,512 slots at
	// 1,780,000 a processor second, over 2 × 0.91 cores: 0.0676 s, printed
	// to the 100 ms, measured 1.57 s: 23.21), p4+1-5+0 on 1 (0.02 s + the
	// reachable 53.97 % of 10,498,440 slots at 2,040,000, over 0.91: 3.07
	// s; this record's run was the full sweep, 45.83 times as long). The units
	// are written as records before the unit's name were: 3-3 for m3-3.
	// A line of 0 slots only verified its unit: m3-3 counts with the line
	// that solved it, m4-4, never solved in the record, is left out.
	record := filepath.Join(dir, "solve-record.tsv")
	os.WriteFile(record, []byte("2026-11-23T14:43:06Z\t3-3\t183512\t1.570\tcount=0.187 propagate=0.716 write=0.004 verify:3-3=0.548\t188\t2\t2\tunknown\n"+
		"2026-11-23T14:44:00Z\tm3-3\t0\t0.600\tverify:3-3=0.600\t150\t2\t2\tunknown\n"+
		"2026-11-23T14:45:00Z\tm4-4\t0\t0.900\tverify:4-4=0.900\t150\t2\t2\tunknown\n"+
		"2026-11-23T14:49:02Z\tp4+1-5+0\t10498440\t140.900\tcount=100.176 write=0.024 verify:p4+1-5+0=40.972\t279\t1\t2\tunknown\n"), 0o644)
	code, out, errOut := muehlectl("plan", "--calibrate", record, "--stones", "5", "--db", dir)
	// The sums by phase are these units' own; all units: 142.47 s
	// measured against 0.0676 + 3.074 s, 45.35.
	for _, re := range []string{`(?m)^5\s+m3-3\s+183512\s+1\.6s\s+100ms\s+23\.21\s+188 MiB`, `(?m)^5\s+p4\+1-5\+0\s+10498440\s+2m21s\s+3\.1s\s+45\.83\s`,
		`(?m)^moving units, summed \(wall time\): measured 1\.6s, model 100ms, measured/model 23\.21$`,
		`(?m)^placement units, summed \(wall time\): measured 2m21s, model 3\.1s, measured/model 45\.83$`,
		`(?m)^all units, summed \(wall time\): measured 2m22s, model 3\.1s, measured/model 45\.35$`,
		`(?m)^1 units left out: the records hold only runs that verified them$`, `(?m)^2 units; `,
		`(?m)^time compared as processor time for 0 units .*, as wall time on the run's workers for 2 `} {
		if code != 0 || !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("plan --calibrate with a record: got exit %d, %q %q; want a match of %s", code, out, errOut, re)
		}
	}
}

// TestCalibrateProcessorTime checks that a unit whose record has its
// processor time is compared by it, the others by wall time: 3-3 took
// 1.57 s on 2 workers but 0.102 s of processor time (a small share of a
// shared machine), against the model's 0.02 + 183,512/1,780,000 = 0.1231
// s of processor time: 0.83; 3-4 has no processor time, so its wall time
// 0.383 s against the model's (0.02 + 1,592,772/1,780,000)/(2 × 0.91) =
// 0.5027 s: 0.76.
func TestCalibrateProcessorTime(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "solve-record.tsv")
	os.WriteFile(record, []byte("2026-11-23T14:43:06Z\tm3-3\t183512\t1.570\tcount=0.187 propagate=0.716 write=0.004 verify:3-3=0.548\t188\t2\t2\tunknown\t0.102\n"+
		"2026-11-23T14:44:00Z\tm3-4\t1592772\t0.383\tcount=0.200 verify:3-4=0.183\t200\t2\t2\tunknown\n"), 0o644)
	code, out, errOut := muehlectl("plan", "--calibrate", record, "--stones", "5", "--db", dir)
	for _, re := range []string{`(?m)^5\s+m3-3\s+183512\s+100ms\s+100ms\s+0\.83\s+188 MiB\s+\S+ MiB\s+\S+ processor$`,
		`(?m)^5\s+m3-4\s+1592772\s+400ms\s+500ms\s+0\.76\s+200 MiB\s+\S+ MiB\s+\S+ wall$`,
		`(?m)^time compared as processor time for 1 units .*, as wall time on the run's workers for 1 `,
		`(?m)^moving units, summed \(processor time\): measured 100ms, model 100ms, measured/model 0\.83$`,
		`(?m)^moving units, summed \(wall time\): measured 400ms, model 500ms, measured/model 0\.76$`} {
		if code != 0 || !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("plan --calibrate: got exit %d, %q %q; want a match of %s", code, out, errOut, re)
		}
	}
}

// TestSlurmDryRun checks the sbatch commands for the k=3 game: one job per
// unit, each after the jobs of its dependencies, or one array per level;
// after a unit is solved only the others are submitted.
func TestSlurmDryRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Slurm's job scripts are for Linux")
	}
	dir := t.TempDir()
	jobs := filepath.Join(dir, "jobs")
	dry := func(extra ...string) []string {
		t.Helper()
		args := append([]string{"slurm", "--db", dir, "--stones", "3", "--all-phases", "--dry-run", "--jobs", jobs, "--cpus", "2", "--muehlectl", "/opt/muehlectl"}, extra...)
		code, out, errOut := muehlectl(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", extra, code, errOut)
		}
		return strings.Split(strings.TrimSpace(out), "\n")
	}
	lines := dry()
	if len(lines) != 8 || !strings.Contains(lines[0], "7 units, 7 to compute in 7 jobs") {
		t.Fatalf("slurm --dry-run: got %d lines %q, want a header and 7 jobs", len(lines), lines)
	}
	// --mem: (300 MiB + 4 bytes × 183,512 slots of 3-3) × 1.25 = 375.9 MiB.
	if want := "muehle_k3_m3_3=$(sbatch --parsable --job-name=muehle-k3-m3-3 --mem=376M --cpus-per-task=2 --output=" + jobs + "/m3-3-%j.out " + jobs + "/m3-3.sh)"; lines[1] != want {
		t.Errorf("first job:\ngot  %s\nwant %s", lines[1], want)
	}
	if want := "--dependency=afterok:$muehle_k3_m3_3 --kill-on-invalid-dep=yes " + jobs + "/p2+1-3+0.sh)"; !strings.HasPrefix(lines[2], "muehle_k3_p2_1_3_0=$(sbatch") || !strings.HasSuffix(lines[2], want) {
		t.Errorf("second job: got %s, want it to end in %s", lines[2], want)
	}
	if _, err := os.Stat(jobs); !os.IsNotExist(err) {
		t.Errorf("--dry-run wrote %s (%v)", jobs, err)
	}
	arr := dry("--array")
	if len(arr) != 8 || !strings.Contains(arr[2], "--array=0-0") || !strings.Contains(arr[2], "--dependency=afterok:$muehle_k3_level00 ") {
		t.Errorf("slurm --array --dry-run: got %q", arr)
	}

	if code, _, errOut := muehlectl("solve", "--db", dir, "--stones", "3", "--unit", "m3-3"); code != 0 {
		t.Fatal(errOut)
	}
	lines = dry()
	if len(lines) != 7 || !strings.Contains(lines[0], "6 to compute in 6 jobs") || strings.Contains(lines[1], "--dependency") || !strings.Contains(lines[1], "p2+1-3+0") {
		t.Errorf("after m3-3 is solved: got %q, want 6 jobs, the first without dependencies", lines)
	}
}

// TestSlurmSubmit submits the k=3 game through stand-ins for sbatch and
// squeue: a unit queued already is not submitted again and its job stands
// in as a dependency; then a written job script, run as Slurm runs it,
// computes its unit with this program.
func TestSlurmSubmit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Slurm's job scripts are for Linux")
	}
	dir := t.TempDir()
	bin := t.TempDir()
	jobs := filepath.Join(dir, "jobs")
	log := filepath.Join(bin, "sbatch.log")
	os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fmt.Sprintf("#!/bin/sh\necho \"$@\" >> %s\nwc -l < %s | tr -d ' '\n", log, log)), 0o755)
	os.WriteFile(filepath.Join(bin, "squeue"), []byte("#!/bin/sh\necho '77 muehle-k3-p2+1-3+0'\necho '78 other-job'\n"), 0o755)
	code, out, errOut := muehlectl("slurm", "--db", dir, "--stones", "3", "--all-phases", "--submit", "--jobs", jobs,
		"--sbatch", filepath.Join(bin, "sbatch"), "--squeue", filepath.Join(bin, "squeue"), "--sbatch-args", "--partition=small --time=10")
	if code != 0 {
		t.Fatalf("slurm --submit: exit %d, %s %s", code, out, errOut)
	}
	for _, s := range []string{"muehle-k3-m3-3: job 1\n", "muehle-k3-p2+1-3+0: in the queue already as job 77", "muehle-k3-p2+1-2+1: job 2 after 77\n", "muehle-k3-p0+3-0+3: job 6 after 5\n"} {
		if !strings.Contains(out, s) {
			t.Errorf("slurm --submit: got %q, want %q in it", out, s)
		}
	}
	b, _ := os.ReadFile(log)
	calls := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(calls) != 6 || !strings.Contains(calls[0], "--partition=small --time=10 "+jobs+"/m3-3.sh") || !strings.Contains(calls[1], "--dependency=afterok:77 ") {
		t.Errorf("sbatch calls: got %q", calls)
	}

	cmd := exec.Command(filepath.Join(jobs, "m3-3.sh"))
	cmd.Env = append(os.Environ(), mainEnv+"=1", "SLURM_CPUS_PER_TASK=1")
	if out, err := cmd.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("unit m3-3 done")) {
		t.Fatalf("job script m3-3.sh: %v, %s", err, out)
	}
	if code, out, _ := muehlectl("plan", "--db", dir, "--stones", "3"); code != 0 || !strings.Contains(out, "verified") {
		t.Errorf("plan after the job: got exit %d, %q", code, out)
	}
}

// TestSolveTwoProcesses runs two plain solves of the whole k=4 game on one
// folder at once; they share the units (none is done twice) and end with
// the files of one solve.
func TestSolveTwoProcesses(t *testing.T) {
	testenv.SlowUnderRace(t, "solves the k=4 game twice")
	ref := t.TempDir()
	if code, _, errOut := muehlectl("solve", "--db", ref, "--stones", "4", "--all-phases", "--no-verify", "--workers", "1"); code != 0 {
		t.Fatal(errOut)
	}
	dir := t.TempDir()
	var wg sync.WaitGroup
	logs := make([]string, 2)
	for i := range logs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "solve", "--db", dir, "--stones", "4", "--all-phases", "--no-verify", "--workers", "1", "--wait")
			cmd.Env = append(os.Environ(), mainEnv+"=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("solver %d: %v\n%s", i, err, out)
			}
			logs[i] = string(out)
		}()
	}
	wg.Wait()
	unitLine := regexp.MustCompile(`(?m)^unit \d+ of \d+\s+(\S+)\s+\d+ slots in`)
	seen := map[string]int{}
	for i, l := range logs {
		units := unitLine.FindAllStringSubmatch(l, -1)
		for _, m := range units {
			seen[m[1]]++
		}
		t.Logf("solver %d computed %d units", i, len(units))
	}
	if len(seen) != 30 {
		t.Errorf("units computed: got %d, want 30", len(seen))
	}
	for u, n := range seen {
		if n != 1 {
			t.Errorf("unit %s computed %d times, want once", u, n)
		}
	}
	files, _ := filepath.Glob(filepath.Join(ref, "k4", "*.layer"))
	for _, f := range files {
		want, _ := os.ReadFile(f)
		got, err := os.ReadFile(filepath.Join(dir, "k4", filepath.Base(f)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from the single solve's (%v)", filepath.Base(f), err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "k4", "*.claim")); len(left) > 0 {
		t.Errorf("claims left behind: %v", left)
	}
}
