package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"muehle/retro/retrotest"
)

// tacticsTableRow is a row of the table tactics prints: the player, the time,
// the positions found of those asked.
type tacticsTableRow struct {
	player, time string
	found, n     int
	line         string // without the note on the --rows file
}

var tacticsFromFile = regexp.MustCompile(` \((\d+) from .*\)$`)

// parseTactics returns the rows of tactics' table and the share a random
// move finds on average, from the header.
func parseTactics(t *testing.T, out string) (rows []tacticsTableRow, random float64) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "a random move finds "); i >= 0 {
			fmt.Sscanf(line[i:], "a random move finds %f %%", &random)
		}
		var r tacticsTableRow
		var share, lo, hi string
		if c, _ := fmt.Sscanf(line, "%s %s %d/%d %s %s %s", &r.player, &r.time, &r.found, &r.n, &share, &lo, &hi); c == 7 && strings.HasSuffix(share, "%") {
			r.line = tacticsFromFile.ReplaceAllString(line, "")
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		t.Fatalf("no table in\n%s", out)
	}
	return rows, random
}

// TestTactics runs the tests of tactics on a copy of the solved 4-stone
// game.
func TestTactics(t *testing.T) {
	dir := t.TempDir()
	retrotest.CopyIn(t, dir, 4).Close()
	base := []string{"tactics", "--db", dir, "--stones", "4", "--layers", "4-4,3-4", "--count", "60", "--seed", "3", "--jobs", "2"}

	t.Run("perfect and random", func(t *testing.T) {
		out, errs, code := runCmd(t, append(base, "--players", "perfect,random,ab:2,ccns", "--times", "5ms,20ms")...)
		if code != 0 {
			t.Fatalf("status %d, stderr %q", code, errs)
		}
		rows, random := parseTactics(t, out)
		want := []string{"perfect -", "random -", "ab:2 -", "ccns 5ms", "ccns 20ms"}
		if len(rows) != len(want) {
			t.Fatalf("got %d rows, want %d (%v):\n%s", len(rows), len(want), want, out)
		}
		for i, r := range rows {
			if r.player+" "+r.time != want[i] || r.n != 60 {
				t.Errorf("row %d: got %s %s with %d positions, want %s with 60", i+1, r.player, r.time, r.n, want[i])
			}
		}
		if p := rows[0]; p.found != p.n {
			t.Errorf("perfect found %d of %d, want all:\n%s", p.found, p.n, out)
		}
		// A random move finds about 1/moves of each position: within
		// three standard deviations of the expected count.
		p, n := random/100, float64(rows[1].n)
		if d := math.Abs(float64(rows[1].found) - n*p); p <= 0 || d > 3*math.Sqrt(n*p*(1-p))+1 {
			t.Errorf("random found %d of %d, want about %.1f (%.1f %% on average):\n%s", rows[1].found, rows[1].n, n*p, random, out)
		}
	})

	// With --ab-db the searching players read the value of every move's
	// position: they find every answer, which is why tactics leaves it off
	// by default.
	t.Run("ab-db", func(t *testing.T) {
		out, errs, code := runCmd(t, append(base, "--players", "ab:1,ccns", "--times", "5ms", "--ab-db")...)
		if code != 0 {
			t.Fatalf("status %d, stderr %q", code, errs)
		}
		if !strings.Contains(out, "read the database below the root (--ab-db)") {
			t.Errorf("the header does not say that the searches read the database:\n%s", out)
		}
		rows, _ := parseTactics(t, out)
		for _, r := range rows {
			if r.found != r.n {
				t.Errorf("%s %s with --ab-db: got %d of %d found, want all:\n%s", r.player, r.time, r.found, r.n, out)
			}
		}
	})

	t.Run("resumes", func(t *testing.T) {
		rowsFile := filepath.Join(t.TempDir(), "tactics.tsv")
		args := append(base, "--players", "random,ab:2,ccns", "--times", "5ms", "--rows", rowsFile)
		first, errs, code := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("status %d, stderr %q", code, errs)
		}
		data, err := os.ReadFile(rowsFile)
		lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
		if err != nil || len(lines) != 3*60 {
			t.Fatalf("rows file: %v, %d lines, want 180", err, len(lines))
		}
		// All from the file: the same table, the timed player's too.
		again, errs, code := runCmd(t, args...)
		if code != 0 || strings.Count(again, "(60 from "+rowsFile+")") != 3 {
			t.Fatalf("second run: status %d, stderr %q, want every result from the file:\n%s", code, errs, again)
		}
		rows1, _ := parseTactics(t, first)
		rows2, _ := parseTactics(t, again)
		for i := range rows1 {
			if rows1[i].line != rows2[i].line {
				t.Errorf("row %d: got %q, then from the file %q", i+1, rows1[i].line, rows2[i].line)
			}
		}
		// Half the file: the deterministic players' rows come out the
		// same, the rest asked again and added.
		if err := os.WriteFile(rowsFile, []byte(strings.Join(lines[:90], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		half, errs, code := runCmd(t, append(base, "--players", "random,ab:2", "--rows", rowsFile)...)
		if code != 0 || !strings.Contains(half, "(60 from ") || !strings.Contains(half, "(30 from ") {
			t.Fatalf("run on half the file: status %d, stderr %q, want 60 and 30 results from it:\n%s", code, errs, half)
		}
		rows3, _ := parseTactics(t, half)
		for i := range rows3 {
			if rows1[i].line != rows3[i].line {
				t.Errorf("row %d: got %q, then resumed %q", i+1, rows1[i].line, rows3[i].line)
			}
		}
		if data, _ := os.ReadFile(rowsFile); strings.Count(string(data), "\n") != 120 {
			t.Errorf("rows file after resuming: %d lines, want 120", strings.Count(string(data), "\n"))
		}
		// A line that is not a result is an error naming the file and line.
		bad := filepath.Join(t.TempDir(), "bad.tsv")
		os.WriteFile(bad, []byte("# comment\nrandom\t1\t0\n"), 0o644)
		if _, errs, code := runCmd(t, append(base, "--players", "random", "--rows", bad)...); code != 1 || !strings.Contains(errs, "line 2 is not a result of tactics") {
			t.Errorf("bad rows file: status %d, stderr %q, want 1 and the line", code, errs)
		}
	})

	t.Run("flags", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			code int
			msg  string
		}{
			{[]string{"--players", "nobody"}, 2, `--players: unknown player "nobody"`},
			{[]string{"--players", "ab:x"}, 2, "--players"},
			{[]string{"--times", "soon"}, 2, `--times "soon": want times per move above 0`},
			{[]string{"--times", "1s,0s"}, 2, "--times"},
			{[]string{"--count", "0"}, 2, "--count 0: want 1 to 10000"},
			{[]string{"--jobs", "0"}, 2, "--jobs 0: want 1 to"},
			{[]string{"--goal", "lose"}, 2, "--goal"},
			{[]string{"--layers", "9-9"}, 2, "not a layer of the 4-stone game"},
			{[]string{"--db", t.TempDir()}, 1, "holds none of the 4 layers"},
		} {
			args := append([]string{"tactics", "--db", dir, "--stones", "4", "--players", "random"}, tc.args...)
			_, errs, code := runCmd(t, args...)
			if code != tc.code || !strings.Contains(errs, tc.msg) {
				t.Errorf("%v: got status %d, stderr %q, want status %d and %q", tc.args, code, errs, tc.code, tc.msg)
			}
		}
	})
}
