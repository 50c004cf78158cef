package main

import (
	"strings"
	"testing"
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
