package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/retrotest"
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
		{[]string{"--opening", "-1"}, 2, "--opening -1: want 0 to 1000"},
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

// TestMatchWithDatabase plays on the solved game of 3 stones and checks
// the blunder counts: the perfect player makes none, and every move is
// judged.
func TestMatchWithDatabase(t *testing.T) {
	dir := t.TempDir()
	retrotest.CopyIn(t, dir, 3).Close()
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

// matchOpenings returns the opening printed on each game line of a match
// run with -v, by game (from 0), and the plies each game lasted.
func matchOpenings(t *testing.T, out string, games int) (openings []string, plies []int) {
	t.Helper()
	re := regexp.MustCompile(`^game (\d+): .* after (\d+) plies \(.*\); opening (.*)$`)
	openings, plies = make([]string, games), make([]int, games)
	for _, line := range strings.Split(out, "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			g, _ := strconv.Atoi(m[1])
			n, _ := strconv.Atoi(m[2])
			if g >= 1 && g <= games {
				openings[g-1], plies[g-1] = m[3], n
			}
		}
	}
	for g, o := range openings {
		if o == "" {
			t.Fatalf("game %d: no line with its opening in\n%s", g+1, out)
		}
	}
	return openings, plies
}

// TestMatchOpenings: with --opening the two games of a pair start from the
// same opening of the asked plies, pairs from different ones, and the same
// seed gives the same openings; --opening 0 prints none.
func TestMatchOpenings(t *testing.T) {
	dir := t.TempDir() // no database
	args := []string{"match", "--white", "ab:1", "--black", "random", "--games", "8", "--stones", "5", "--opening", "6", "--plies", "40", "--db", dir, "-v", "--seed", "3"}
	out, errs, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "openings: 6 random legal plies per pair of games from seed 3") || !strings.Contains(out, "no database") {
		t.Errorf("output does not say how the openings were drawn:\n%s", out)
	}
	ops, _ := matchOpenings(t, out, 8)
	for k := 0; k < 4; k++ {
		if n := len(strings.Fields(ops[2*k])); n != 6 {
			t.Errorf("games %d and %d: got an opening of %d plies %q, want 6", 2*k+1, 2*k+2, n, ops[2*k])
		}
		if ops[2*k] != ops[2*k+1] {
			t.Errorf("games %d and %d: got openings %q and %q, want the same", 2*k+1, 2*k+2, ops[2*k], ops[2*k+1])
		}
		for j := 0; j < k; j++ {
			if ops[2*j] == ops[2*k] {
				t.Errorf("pairs %d and %d: got the same opening %q, want different ones", j+1, k+1, ops[2*k])
			}
		}
	}
	// The same seed gives the same openings, whatever the number of jobs
	// and games; another seed other ones.
	again, _, _ := runCmd(t, append(args, "--jobs", "1", "--games", "6")...)
	if got, _ := matchOpenings(t, again, 6); strings.Join(got, "|") != strings.Join(ops[:6], "|") {
		t.Errorf("same seed, 6 games, 1 job: got openings %q, want %q", got, ops[:6])
	}
	other, _, _ := runCmd(t, append(args, "--seed", "4")...)
	if got, _ := matchOpenings(t, other, 8); got[0] == ops[0] && got[2] == ops[2] {
		t.Errorf("another seed: got the same openings %q", got)
	}
	plain, _, _ := runCmd(t, "match", "--white", "ab:1", "--black", "random", "--games", "2", "--stones", "5", "--db", dir, "-v")
	if strings.Contains(plain, "opening") {
		t.Errorf("without --opening the output mentions openings:\n%s", plain)
	}
}

// TestMatchOpeningsDrawn plays on the solved game of 3 stones: every
// opening is a draw by the database, and the blunder counts judge only
// the players' moves, not the opening's plies.
func TestMatchOpeningsDrawn(t *testing.T) {
	dir := t.TempDir()
	db := retrotest.CopyIn(t, dir, 3)
	defer db.Close()
	const games, opening = 10, 3
	out, errs, code := runCmd(t, "match", "--white", "perfect", "--black", "random", "--games", strconv.Itoa(games), "--stones", "3",
		"--opening", strconv.Itoa(opening), "--db", dir, "-v", "--seed", "7")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, fmt.Sprintf("%d of %d openings are draws by the database", games/2, games/2)) {
		t.Errorf("output does not say that every opening is a draw:\n%s", out)
	}
	ops, plies := matchOpenings(t, out, games)
	judged := 0
	for g, o := range ops {
		pos := muehle.NewPosition(3)
		for _, s := range strings.Fields(o) {
			m, err := muehle.ParseMove(s)
			if err != nil || !pos.IsLegal(m) {
				t.Fatalf("game %d: opening %q: %s is not a legal move (%v)", g+1, o, s, err)
			}
			pos = pos.Play(m)
		}
		if v, err := db.Probe(pos); err != nil || v.Outcome() != layers.Draw {
			t.Errorf("game %d: opening %q leads to %s (%v), want a draw", g+1, o, v, err)
		}
		judged += plies[g] - opening
	}
	n := 0
	for _, spec := range []string{"perfect", "random"} {
		var b, k int
		var rate float64
		for _, line := range strings.Split(out, "\n") {
			if c, _ := fmt.Sscanf(line, spec+" blunders: %d of %d moves in known positions (%f %%)", &b, &k, &rate); c == 3 {
				break
			}
		}
		n += k
	}
	if n != judged {
		t.Errorf("got %d moves judged, want %d: the players' moves after the openings\n%s", n, judged, out)
	}
}

// TestMatchRows resumes a match from its --rows file: a rerun plays no
// game and prints the same counts, a run from the first 8 games plays the
// other 12 to the same counts (the players are seeded by game), a match
// with other flags ignores the file's games, and a line that is not a
// game is an error.
func TestMatchRows(t *testing.T) {
	dir := t.TempDir()
	retrotest.CopyIn(t, dir, 3).Close()
	rows := filepath.Join(t.TempDir(), "games.tsv")
	args := []string{"match", "--white", "perfect", "--black", "random", "--games", "20", "--stones", "3", "--db", dir, "--rows", rows}
	counts := func(out string) string {
		t.Helper()
		w, d, l := matchCounts(t, out, "perfect")
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "perfect ") && strings.Contains(line, "blunders:") {
				return fmt.Sprintf("%d/%d/%d %s", w, d, l, line)
			}
		}
		t.Fatalf("no blunder line in\n%s", out)
		return ""
	}
	first, errs, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	again, _, code := runCmd(t, args...)
	if code != 0 || !strings.Contains(again, "20 of the 20 games from") || counts(again) != counts(first) {
		t.Errorf("rerun: status %d, got\n%s\nwant all 20 games from the file and the counts of\n%s", code, again, first)
	}
	data, err := os.ReadFile(rows)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) < 20 {
		t.Fatalf("--rows file has %d lines, want 20 games", len(lines))
	}
	if err := os.WriteFile(rows, []byte(strings.Join(lines[:8], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	resumed, _, code := runCmd(t, args...)
	if code != 0 || !strings.Contains(resumed, "8 of the 20 games from") || counts(resumed) != counts(first) {
		t.Errorf("resumed from 8 games: status %d, got\n%s\nwant the counts of\n%s", code, resumed, first)
	}
	other, _, code := runCmd(t, append(args, "--seed", "2")...)
	if code != 0 || strings.Contains(other, "games from") {
		t.Errorf("--seed 2 took games of seed 1 from the file: status %d\n%s", code, other)
	}
	if err := os.WriteFile(rows, []byte("not a game\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCmd(t, args...); code == 0 || !strings.Contains(errs, "line 1 is not a game of match") {
		t.Errorf("a line that is not a game: status %d, stderr %q", code, errs)
	}
}
