package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"muehle/muehle"
)

// runCmd runs a muehlectl command line and returns stdout, stderr and the
// exit status.
func runCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestPerftCommand(t *testing.T) {
	out, errs, code := runCmd(t, "perft", "--depth", "5")
	want := "perft 1 24\nperft 2 552\nperft 3 12144\nperft 4 255024\nperft 5 5140800\n"
	if code != 0 || out != want {
		t.Fatalf("perft --depth 5: got status %d, output %q (stderr %q), want %q", code, out, errs, want)
	}

	// From a position of the moving phase, against the library's perft.
	p := muehle.RandomPositions(3, 100)[60]
	out, errs, code = runCmd(t, "perft", "--depth", "4", "--position", p.String(), "--workers", "3", "--time")
	var b strings.Builder
	for d := 1; d <= 4; d++ {
		fmt.Fprintf(&b, "perft %d %d\n", d, muehle.Perft(p, d))
	}
	if code != 0 || out != b.String() {
		t.Fatalf("perft from %s: got status %d, output %q, want %q", p, code, out, b.String())
	}
	if !strings.Contains(errs, "M moves/s") {
		t.Errorf("perft --time: stderr %q, want the speed", errs)
	}
}

func TestPerftDivide(t *testing.T) {
	out, errs, code := runCmd(t, "perft", "--depth", "2", "--divide")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2+24 || lines[2] != "a7 23" || lines[len(lines)-1] != "g1 23" {
		t.Fatalf("perft --depth 2 --divide: got status %d, stderr %q, output\n%s", code, errs, out)
	}
}

func TestPerftCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		code    int
		mention string
	}{
		{[]string{"perft"}, 2, "--depth must be 1 to 12"},
		{[]string{"perft", "--depth", "13"}, 2, "--depth must be 1 to 12"},
		{[]string{"perft", "--depth", "x"}, 2, "invalid value"},
		{[]string{"perft", "--depth", "2", "extra"}, 2, "unexpected arguments"},
		{[]string{"perft", "--depth", "2", "--position", "nonsense"}, 1, "want 4 fields"},
		{[]string{"perft", "--depth", "2", "--position", "WWWWWWWWWW.............. b 0 9"}, 1, "White has 10 stones"},
		{[]string{"perft", "--depth", "2", "--stones", "3"}, 0, ""},
		{[]string{"perft", "--depth", "2", "--stones", "12"}, 1, "12 stones per side"},
		{[]string{"perft", "--depth", "2", "--workers", "0"}, 2, "--workers 0: want 1 to"},
		{[]string{"perft", "--depth", "2", "--workers", "1000000"}, 2, "--workers 1000000: want 1 to"},
	} {
		_, errs, code := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.mention) {
			t.Errorf("%v: got status %d, stderr %q; want %d mentioning %q", tc.args, code, errs, tc.code, tc.mention)
		}
	}
}

func TestPerftInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := parallelPerft(ctx, muehle.NewPosition(9), 7, 2); err == nil {
		t.Error("perft 7 with a cancelled context: got no error")
	}
}
