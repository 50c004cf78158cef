package main

import (
	"math"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"muehle/muehle/testenv"
	"muehle/retro/retrotest"
)

func TestBenchCommand(t *testing.T) {
	out, errs, code := runCmd(t, "bench", "--count", "1", "--run", "^(movegen|unslides)$")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "cores") ||
		!strings.HasPrefix(lines[2], "movegen ") || !strings.HasPrefix(lines[3], "unslides ") {
		t.Fatalf("output: got\n%s\nwant a header and the lines movegen and unslides", out)
	}
	for _, l := range lines[2:] {
		if !strings.Contains(l, "/s") || strings.Contains(l, " 0 ") {
			t.Errorf("line %q: want a non-zero count and a speed", l)
		}
	}
	if _, errs, code := runCmd(t, "bench", "--run", "nothing-matches"); code != 1 || !strings.Contains(errs, "no benchmark matches") {
		t.Errorf("bench --run nothing-matches: got status %d, stderr %q", code, errs)
	}
}

func TestBenchRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range benchmarks {
		if seen[b.name] || b.name == "" || b.unit == "" || b.run == nil {
			t.Errorf("benchmark %+v: names must be unique and every field set", b)
		}
		seen[b.name] = true
	}
	for _, name := range []string{"perft6", "movegen", "pair45", "pair36", "verify45"} {
		if !seen[name] {
			t.Errorf("benchmark %q missing", name)
		}
	}
}

// TestBenchPerfect times the perfect move on a compressed copy of the
// complete game of three stones (four without -short), with the layers
// open (under a --mem of 1 MiB,
// which the block cache keeps) and from a cold start with the folder's
// files evicted.
func TestBenchPerfect(t *testing.T) {
	k := "3"
	if testenv.Full() {
		k = "4"
	}
	flat := retrotest.Solved(t, int(k[0]-'0'))
	dir := t.TempDir()
	copyTree(t, flat.Dir(), dir)
	if out, errs, code := runCmd(t, "compress", "--db", dir, "--stones", k); code != 0 {
		t.Fatalf("compress: status %d, output %q, stderr %q", code, out, errs)
	}
	out, errs, code := runCmd(t, "bench", "perfect", "--db", dir, "--stones", k, "--positions", "20", "--mem", "1")
	if code != 0 {
		t.Fatalf("bench perfect: status %d, output %q, stderr %q", code, out, errs)
	}
	for _, want := range []string{"block cache 1.0 MiB\n", "20 moving positions, the layers open: median", "20 placement positions, the layers open: median"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench perfect: output %q, want %q in it", out, want)
		}
	}
	if runtime.GOOS == "linux" {
		// The account of the moves' wall time on their thread adds up.
		re := regexp.MustCompile(`the thread of the (moving|placement) moves \(their wall time ([0-9.]+) ms in all\): on a core ([0-9.]+) ms, waiting for a core ([0-9.]+) ms \(.*\), blocked ([0-9.]+) ms`)
		ms := re.FindAllStringSubmatch(out, -1)
		if len(ms) != 2 {
			t.Errorf("bench perfect: output %q, want the account of the thread of each phase", out)
		}
		for _, m := range ms {
			var f [4]float64
			for i := range f {
				f[i], _ = strconv.ParseFloat(m[i+2], 64)
			}
			if sum := f[1] + f[2] + f[3]; math.Abs(sum-f[0]) > 0.2+0.01*f[0] {
				t.Errorf("%s: on a core, waiting and blocked add up to %.1f ms, want the wall time %.1f", m[0], sum, f[0])
			}
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, "; block cache "); i >= 0 && strings.Contains(l[i:], "MiB") && !strings.HasPrefix(l[i:], "; block cache 1.0 MiB") && !strings.Contains(l[i:], "KiB") {
			t.Errorf("line %q: the block cache beyond --mem 1", l)
		}
	}
	out, errs, code = runCmd(t, "bench", "perfect", "--db", dir, "--stones", k, "--positions", "3", "--cold", "--evict", "files")
	if code != 0 && strings.Contains(errs, "cannot evict") {
		t.Skipf("no eviction here: %s", errs)
	}
	if code != 0 || !strings.Contains(out, "3 moving positions, each from a cold start: median") {
		t.Errorf("bench perfect --cold: status %d, output %q, stderr %q", code, out, errs)
	}
}
