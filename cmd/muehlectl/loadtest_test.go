package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestLoadtest runs muehlectl loadtest on the 3-stone games: it draws
// positions from several layers, starts the server in a process of its
// own (this test binary running main), warms its cache, and prints a line
// and a Markdown row for each run, closed and open loop, without errors.
func TestLoadtest(t *testing.T) {
	dir := engineDB(t)
	t.Setenv(mainEnv, "1") // the server process is this binary's main
	code, out, stderr := muehlectl("loadtest", "--db", dir, "--game", "lasker-k3", "--clients", "1,8", "--rate", "0,100",
		"--time", "300ms", "--positions", "40")
	if code != 0 {
		t.Fatalf("loadtest: exit %d: %s\n%s", code, stderr, out)
	}
	t.Logf("%s", out)
	if m := regexp.MustCompile(`40 positions of lasker-k3 from (\d+) layers`).FindStringSubmatch(out); m == nil || m[1] == "1" {
		t.Errorf("want 40 positions from several layers in %q", out)
	}
	for _, want := range []string{"in a process of its own", "warmed: every position asked once, 40 answers"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in %q", want, out)
		}
	}
	rows := regexp.MustCompile(`(?m)^ +(1|8) +(as fast|100/s) +\d+ +\d+ +[\d.]+ ms +[\d.]+ ms +[\d.]+ ms +(\d+ µs|-) +(\d+ µs|-) +\S+ +none$`).FindAllString(out, -1)
	md := regexp.MustCompile(`(?m)^\| (1|8) \| (as fast|100/s) \| \d+ \| [\d.]+ ms \| [\d.]+ ms \| .* \|$`).FindAllString(out, -1)
	if len(rows) != 4 || len(md) != 4 {
		t.Errorf("got %d lines and %d table rows of runs, want 4 each without errors:\n%s", len(rows), len(md), out)
	}
	// Refused: another machine, an unknown game.
	if code, _, stderr := muehlectl("loadtest", "--db", dir, "--url", "http://192.0.2.1:8080"); code != 2 || !strings.Contains(stderr, "loopback") {
		t.Errorf("loadtest --url of another machine: exit %d, %q; want 2, loopback only", code, stderr)
	}
	if code, _, stderr := muehlectl("loadtest", "--db", dir, "--game", "chess"); code != 1 || !strings.Contains(stderr, "no such database") {
		t.Errorf("loadtest --game chess: exit %d, %q; want 1, no such database", code, stderr)
	}
}
