package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/retro/search"
)

// TestSearchErrorsCommand runs the experiment on the 3-stone game's 3-3
// layer: a row per depth with the positions asked for, the split adding
// up, shares that are percentages of the counts; the same seed gives the
// same table, with any number of jobs.
func TestSearchErrorsCommand(t *testing.T) {
	dir := solvedK3(t)
	args := []string{"searcherrors", "--db", dir, "--stones", "3", "--layer", "m3-3", "--positions", "25", "--depth", "0..2", "--seed", "5", "--jobs", "3"}
	out, errs, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	var table []string
	for _, line := range strings.Split(out, "\n") {
		var layer, kept, keptSafe, keptOther, took string
		var depth, n, safe, other int
		if k, _ := fmt.Sscanf(line, "%s %d %d %s %d %s %d %s %s", &layer, &depth, &n, &kept, &safe, &keptSafe, &other, &keptOther, &took); k != 9 || layer != "3-3" {
			continue
		}
		if n != 25 || safe+other != n || depth != len(table) {
			t.Errorf("row %q: want depth %d, 25 positions split into two parts", line, len(table))
		}
		for _, s := range []string{kept, keptSafe, keptOther} {
			var pct float64
			if s != "-" {
				if _, err := fmt.Sscanf(s, "%f%%", &pct); err != nil || pct < 0 || pct > 100 {
					t.Errorf("row %q: share %q is not a percentage", line, s)
				}
			}
		}
		checkCritical(t, line)
		table = append(table, strings.Join(strings.Fields(line)[:8], " "))
	}
	if len(table) != 3 {
		t.Fatalf("got %d rows, want depths 0 to 2:\n%s", len(table), out)
	}
	again, _, _ := runCmd(t, append(args, "--jobs", "1")...)
	for _, row := range table {
		if !strings.Contains(strings.Join(strings.Fields(again), " "), row) {
			t.Errorf("second run lacks row %q:\n%s", row, again)
		}
	}
}

// checkCritical checks a row's critical columns: the critical positions
// are some of the positions, split by strategies like them, and every
// position that is not critical is kept (all its moves keep the value),
// so the kept counts differ by exactly the positions that are not.
func checkCritical(t *testing.T, line string) {
	t.Helper()
	f := strings.Fields(line)
	if len(f) != 15 {
		t.Errorf("row %q: %d columns, want 15", line, len(f))
		return
	}
	count := func(i int) int { n, _ := strconv.Atoi(f[i]); return n }
	kept := func(i, n int) int { // a share of n back to a count
		var pct float64
		fmt.Sscanf(f[i], "%f%%", &pct)
		return int(math.Round(pct * float64(n) / 100))
	}
	n, crit := count(2), count(8)
	if crit > n || count(10)+count(12) != crit {
		t.Errorf("row %q: %d critical positions of %d, split %d + %d", line, crit, n, count(10), count(12))
	}
	if n-kept(3, n) != crit-kept(9, crit) {
		t.Errorf("row %q: %d positions not kept, %d critical ones not kept; want the same (a position that is not critical is always kept)", line, n-kept(3, n), crit-kept(9, crit))
	}
}

func TestSearchErrorsFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--layer", "3-3", "--depth", "7"}, "--depth"},
		{[]string{"--layer", "3-3", "--depth", "3..1"}, "--depth"},
		{[]string{"--depth", "1"}, "--layer"},
		{[]string{"--layer", "p3+1-3+0"}, "not a moving layer"},
		{[]string{"--layer", "9-9"}, "not a moving layer"},
	} {
		args := append([]string{"searcherrors", "--db", dir, "--stones", "3"}, tc.args...)
		_, errs, code := runCmd(t, args...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: got status %d, stderr %q; want an error about %s", tc.args, code, errs, tc.want)
		}
	}
}

// TestSearchErrorsResumes: with --rows a second run prints the rows the
// first one computed from the file, computes only the others, and they
// agree with a run that computes them all.
func TestSearchErrorsResumes(t *testing.T) {
	dir := solvedK3(t)
	rows := filepath.Join(t.TempDir(), "rows.tsv")
	base := []string{"searcherrors", "--db", dir, "--stones", "3", "--layer", "3-3", "--positions", "20", "--seed", "7", "--jobs", "2"}
	if _, errs, code := runCmd(t, append(base, "--depth", "0..1", "--rows", rows)...); code != 0 {
		t.Fatalf("first run: status %d, %s", code, errs)
	}
	out, errs, code := runCmd(t, append(base, "--depth", "0..2", "--rows", rows)...)
	if code != 0 || strings.Count(out, "(from "+rows+")") != 3 {
		t.Fatalf("second run: status %d, %s; want depths 0 and 1 and the random move from the file:\n%s", code, errs, out)
	}
	data, err := os.ReadFile(rows)
	if err != nil || strings.Count(string(data), "\n") != 4 {
		t.Fatalf("rows file: %v, %q; want 4 rows", err, data)
	}
	whole, _, _ := runCmd(t, append(base, "--depth", "0..2")...)
	fields := func(s string) []string {
		var rs []string
		for _, line := range strings.Split(s, "\n") {
			if f := strings.Fields(line); len(f) >= 8 && f[0] == "3-3" && f[1] != "random" {
				rs = append(rs, strings.Join(f[:8], " "))
			}
		}
		return rs
	}
	if got, want := fields(out), fields(whole); !slices.Equal(got, want) {
		t.Errorf("resumed rows %q, want those of one run %q", got, want)
	}
}

// TestSearchErrorsCritical: with --critical every position drawn is
// critical, and the rows file keeps such rows apart from those of the
// draw of all positions.
func TestSearchErrorsCritical(t *testing.T) {
	dir := solvedK3(t)
	rows := filepath.Join(t.TempDir(), "rows.tsv")
	base := []string{"searcherrors", "--db", dir, "--stones", "3", "--layer", "3-3", "--positions", "20", "--seed", "3", "--depth", "0..1", "--rows", rows}
	out, errs, code := runCmd(t, append(base, "--critical")...)
	if code != 0 {
		t.Fatalf("status %d, %s", code, errs)
	}
	found := 0
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 15 && f[0] == "3-3" {
			found++
			if f[2] != "20" || f[8] != "20" {
				t.Errorf("row %q: want 20 positions, all critical", line)
			}
			checkCritical(t, line)
		}
	}
	if found != 2 {
		t.Fatalf("got %d rows, want 2:\n%s", found, out)
	}
	out, errs, code = runCmd(t, base...)
	if code != 0 || strings.Contains(out, "(from ") {
		t.Fatalf("the draw of all positions: status %d, %s; want its rows computed, not read:\n%s", code, errs, out)
	}
	out, _, _ = runCmd(t, append(base, "--critical")...)
	if strings.Count(out, "(from "+rows+")") != 3 {
		t.Errorf("--critical again: want both rows and the random move's from the file:\n%s", out)
	}
}

// TestRandomKeeps: the share a random move keeps, as randomKeeps counts
// it, is what random moves keep when they are played: 200 moves in each of
// 30 critical positions of the 3-stone game agree with it within four
// standard errors; the positions that are not critical count as kept.
func TestRandomKeeps(t *testing.T) {
	db, err := layers.OpenDB(solvedK3(t), muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k, _ := layers.ParseKey("3-3")
	all, err := drawMoving(context.Background(), db, k, 60, false, rand.New(rand.NewPCG(1, 2)), newCountLines(io.Discard, "", 60))
	if err != nil {
		t.Fatal(err)
	}
	b, err := randomKeeps(db, all)
	if err != nil {
		t.Fatal(err)
	}
	if b.positions != len(all) || b.critical == 0 || b.critical == b.positions || math.Abs((b.kept-b.criticalKept)-float64(b.positions-b.critical)) > 1e-9 {
		t.Fatalf("%+v: want %d positions, some critical, the others each kept", b, len(all))
	}
	ps, err := drawMoving(context.Background(), db, k, 30, true, rand.New(rand.NewPCG(3, 4)), newCountLines(io.Discard, "", 30))
	if err != nil {
		t.Fatal(err)
	}
	if b, err = randomKeeps(db, ps); err != nil || b.critical != len(ps) {
		t.Fatalf("%+v, %v: want %d critical positions", b, err, len(ps))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	const tries = 200
	kept := 0
	for _, pos := range ps {
		v, err := search.Outcome(db, pos)
		if err != nil {
			t.Fatal(err)
		}
		moves := pos.Moves()
		for range tries {
			after, err := search.Outcome(db, pos.Play(moves[rng.IntN(len(moves))]))
			if err != nil {
				t.Fatal(err)
			}
			if -after == v {
				kept++
			}
		}
	}
	r := b.criticalKeptShare()
	n := float64(tries * len(ps))
	if got, se := float64(kept)/n, math.Sqrt(r*(1-r)/n); math.Abs(got-r) > 4*se || r >= 1 {
		t.Errorf("random moves kept %.4f of the critical positions, randomKeeps says %.4f (standard error %.4f)", got, r, se)
	}
}

// TestLevelsBesideSearches: the levels' table gives level 10 (p = 0)
// every critical position and the deepest search, and a level keeps
// 1 - p·(1 - r) with r the random move's share.
func TestLevelsBesideSearches(t *testing.T) {
	k, _ := layers.ParseKey("9-9")
	l := layerLevels{k: k, lo: 0, kept: []float64{0.78, 0.87, 0.90}, random: randomCounts{positions: 10, critical: 4, kept: 8, criticalKept: 2}}
	var out strings.Builder
	printLevels(&out, []layerLevels{l})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != play.Levels+2 {
		t.Fatalf("%d lines, want a header and %d levels:\n%s", len(lines), play.Levels, out.String())
	}
	for n := 1; n <= play.Levels; n++ {
		kept := 1 - play.LevelRate(n)*0.5
		want := "< t0"
		switch {
		case kept >= 0.90:
			want = "≥ t2"
		case kept >= 0.87:
			want = "≥ t1"
		case kept >= 0.78:
			want = "≥ t0"
		}
		if line := lines[n+1]; !strings.HasSuffix(line, fmt.Sprintf("%.1f%% (%s)", 100*kept, want)) {
			t.Errorf("level %d: %q, want %.1f%% (%s)", n, line, 100*kept, want)
		}
	}
}
