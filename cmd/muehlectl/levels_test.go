package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestParseLevelList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int // nil: an error
	}{
		{"1-10", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"3-3", []int{3}},
		{"1,5,10", []int{1, 5, 10}},
		{"7", []int{7}},
		{"0-3", nil},
		{"4-11", nil},
		{"5-2", nil},
		{"5,3", nil},
		{"1,1", nil},
		{"x", nil},
		{"", nil},
	} {
		got, err := parseLevelList(tc.in)
		if (err != nil) != (tc.want == nil) || !slices.Equal(got, tc.want) {
			t.Errorf("parseLevelList(%q): got %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseRates(t *testing.T) {
	got, err := parseRates("90,35,21,15,11,8,5,3,1.5,0")
	want := []float64{0.9, 0.35, 0.21, 0.15, 0.11, 0.08, 0.05, 0.03, 0.015, 0}
	if err != nil || len(got) != len(want) {
		t.Fatalf("got %v, %v; want %v", got, err, want)
	}
	for i := range want {
		if d := got[i] - want[i]; d > 1e-12 || d < -1e-12 {
			t.Errorf("rate %d: got %v, want %v", i+1, got[i], want[i])
		}
	}
	for _, bad := range []string{"", "1,2,3", "90,35,21,15,11,8,5,3,1.5,x", "90,35,21,15,11,8,5,3,1.5,101", "90,35,21,15,11,8,5,3,1.5,0,0"} {
		if _, err := parseRates(bad); err == nil {
			t.Errorf("parseRates(%q): got no error, want one", bad)
		}
	}
}

func TestLevelsAndLevelMatches(t *testing.T) {
	db := solvedCopy(t, 3)
	dir := db.Dir()
	out, errs, code := runCmd(t, "levels", "--db", dir, "--stones", "3", "--games", "6", "--levels", "1,10", "--against", "random,ab:1")
	if code != 0 {
		t.Fatalf("levels: status %d, stderr %q", code, errs)
	}
	for _, re := range []string{
		`(?m)^\| level \| p \| against ` + "`random`" + ` \| score \| against ` + "`ab:1`" + ` \| score \| mean score \| step \| value lost \| time \|$`,
		`(?m)^\| 1 \| 90 % \| \d+ / \d+ / \d+ \(`,
		`(?m)^\| 10 \| 0 % \| .* \| 0 of \d+ moves \|`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("levels: want a match of %s in\n%s", re, out)
		}
	}
	out, errs, code = runCmd(t, "match", "--db", dir, "--stones", "3", "--white", "level:10", "--black", "level:1", "--games", "4")
	if code != 0 {
		t.Fatalf("match: status %d, stderr %q", code, errs)
	}
	if !regexp.MustCompile(`level:10 +blunders: 0 of \d+ moves`).MatchString(out) {
		t.Errorf("match: want level:10 without blunders in\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"match", "--db", dir, "--stones", "3", "--white", "level:0"}, 1, "want level:N, N 1 to 10"},
		{[]string{"match", "--db", dir, "--stones", "3", "--white", "level:11"}, 1, "want level:N, N 1 to 10"},
		{[]string{"match", "--db", dir, "--stones", "3", "--white", "level"}, 1, "want level:N, N 1 to 10"},
		{[]string{"match", "--db", t.TempDir(), "--stones", "3", "--white", "level:5"}, 1, "needs a database"},
		{[]string{"levels", "--db", t.TempDir(), "--stones", "3"}, 1, "no database of 3 stones"},
		{[]string{"levels", "--db", dir, "--stones", "3", "--levels", "0-2"}, 2, "--levels"},
		{[]string{"levels", "--db", dir, "--stones", "3", "--rates", "1,2"}, 2, "--rates"},
		{[]string{"levels", "--db", dir, "--stones", "3", "--against", "nobody", "--levels", "1"}, 1, "unknown player"},
	} {
		_, errs, code := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: got status %d, stderr %q, want status %d and %q", tc.args, code, errs, tc.code, tc.msg)
		}
	}
}

func TestMeanScoreStep(t *testing.T) {
	// 2 won, 0 drawn, 2 lost: score 1/2, per-game variance 1/4, of the
	// mean 1/16. Against two opponents each counts half.
	var a meanScore
	if s := a.add(2, 0, 2, 1); s != 0.5 || a.mean != 0.5 || a.variance != 0.0625 {
		t.Errorf("one opponent: got score %v, mean %v, variance %v; want 0.5, 0.5, 0.0625", s, a.mean, a.variance)
	}
	var b meanScore
	b.add(4, 0, 0, 2) // score 1, variance 0
	b.add(0, 4, 0, 2) // score 1/2, variance 0
	if b.mean != 0.75 || b.variance != 0 {
		t.Errorf("two opponents: got mean %v, variance %v; want 0.75, 0", b.mean, b.variance)
	}
	for _, tc := range []struct {
		m, prev meanScore
		want    string
	}{
		{meanScore{0.75, 0}, meanScore{0.5, 0.0625}, "+25.0 ± 49.0 % (not measurable)"},
		{meanScore{0.75, 0.0001}, meanScore{0.5, 0.0003}, "+25.0 ± 3.9 %"},
		{meanScore{0.5, 0.0001}, meanScore{0.5, 0.0001}, "+0.0 ± 2.8 % (not monotone)"},
	} {
		if got := tc.m.step(&tc.prev); got != tc.want {
			t.Errorf("step from %+v to %+v: got %q, want %q", tc.prev, tc.m, got, tc.want)
		}
	}
	if got := a.step(nil); got != "" {
		t.Errorf("step of the first level: got %q, want \"\"", got)
	}
}
