package main

import (
	"fmt"
	"strings"
	"testing"
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
