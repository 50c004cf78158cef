package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// matchCounts returns the won, drawn and lost counts printed for spec.
func matchCounts(t *testing.T, out, spec string) (w, d, l int) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		var s string
		if n, _ := fmt.Sscanf(line, "%s %d won %d drawn %d lost", &s, &w, &d, &l); n == 4 && s == spec {
			return w, d, l
		}
	}
	t.Fatalf("no result line for %s in\n%s", spec, out)
	return
}

func TestMatchCommand(t *testing.T) {
	dir := t.TempDir() // no database
	out, errs, code := runCmd(t, "match", "--white", "ab:2", "--black", "random", "--games", "4", "--db", dir, "-v")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	aw, ad, al := matchCounts(t, out, "ab:2")
	rw, rd, rl := matchCounts(t, out, "random")
	if aw+ad+al != 4 || aw != rl || al != rw || ad != rd {
		t.Errorf("got ab:2 %d/%d/%d and random %d/%d/%d, want 4 games seen alike from both sides", aw, ad, al, rw, rd, rl)
	}
	if !strings.Contains(out, "4 games in") || strings.Count(out, "(White) against") != 4 {
		t.Errorf("output: got\n%s\nwant four game lines and the total", out)
	}
	if strings.Contains(out, "blunders") {
		t.Errorf("output without database mentions blunders:\n%s", out)
	}
	// The colours alternate: ab:2 is White in games 1 and 3, Black in 2 and 4.
	for i, want := range []string{"game 1: ab:2 (White)", "game 2: random (White)", "game 3: ab:2 (White)", "game 4: random (White)"} {
		if !strings.Contains(out, want) {
			t.Errorf("game %d: want a line starting %q in\n%s", i+1, want, out)
		}
	}
}

// TestMatchCCNS: the conspiracy number player plays a match by time per
// move and beats the random player in the 3-stone game.
func TestMatchCCNS(t *testing.T) {
	dir := t.TempDir() // no database
	out, errs, code := runCmd(t, "match", "--white", "ccns:20ms", "--black", "random", "--games", "4", "--stones", "3", "--plies", "120", "--jobs", "1", "--db", dir)
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	w, d, l := matchCounts(t, out, "ccns:20ms")
	if w+d+l != 4 || l > 0 || w < 2 {
		t.Errorf("got ccns:20ms %d won, %d drawn, %d lost against random, want 4 games, at least 2 won, none lost:\n%s", w, d, l, out)
	}
}

func TestMatchErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--white", "nobody"}, 1, "unknown player"},
		{[]string{"--white", "ab:x"}, 1, "depth"},
		{[]string{"--white", "ab:auto:soon"}, 1, "time per move"},
		{[]string{"--white", "ccns:soon"}, 1, "time per move"},
		{[]string{"--white", "perfect"}, 1, "needs a database"},
		{[]string{"--white", "fallible:4"}, 1, "fallible:DEPTH:PERCENT"},
		{[]string{"--white", "fallible:4:101"}, 1, "fallible:DEPTH:PERCENT"},
		{[]string{"--games", "0"}, 2, "--games 0: want 1 to"},
		{[]string{"--plies", "-1"}, 2, "--plies -1: want 1 to"},
		{[]string{"--stones", "2"}, 2, "3 to 9"},
	} {
		args := append([]string{"match", "--db", dir}, tc.args...)
		_, errs, code := runCmd(t, args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: got status %d, stderr %q, want status %d and %q", tc.args, code, errs, tc.code, tc.msg)
		}
	}
}

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		x, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.2775},
		{5, 10, 0.2366, 0.7634},
		{10, 10, 0.7225, 1},
		{43, 100, 0.3373, 0.5278},
	} {
		lo, hi := wilson(tc.x, tc.n)
		if math.Abs(lo-tc.lo) > 5e-5 || math.Abs(hi-tc.hi) > 5e-5 {
			t.Errorf("wilson(%d, %d): got [%.4f, %.4f], want [%.4f, %.4f]", tc.x, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestMatchWithDatabase solves the game of 3 stones and checks the blunder
// counts: the perfect player makes none, and every move is judged.
func TestMatchWithDatabase(t *testing.T) {
	dir := t.TempDir()
	solveAllIn(t, dir, 3).Close()
	out, errs, code := runCmd(t, "match", "--white", "perfect", "--black", "random", "--games", "20", "--stones", "3", "--db", dir)
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	var b, n int
	var rate float64
	for _, line := range strings.Split(out, "\n") {
		if c, _ := fmt.Sscanf(line, "perfect blunders: %d of %d moves in known positions (%f %%)", &b, &n, &rate); c == 3 {
			break
		}
	}
	if b != 0 || n == 0 {
		t.Errorf("perfect: got %d blunders of %d moves, want 0 of many, in\n%s", b, n, out)
	}
	if _, _, l := matchCounts(t, out, "perfect"); l != 0 {
		t.Errorf("perfect lost %d games:\n%s", l, out)
	}
}
