package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestRecordLineRoundTrip(t *testing.T) {
	r := unitRecord{
		Finished: time.Date(2026, 11, 23, 14, 28, 34, 0, time.UTC), Unit: "3-4+4-3", Slots: 1592772, Seconds: 3.399,
		Phases:  []phaseTime{{"count", 0.731}, {"propagate", 0.232}, {"write", 0.053}, {"verify:3-4", 2.069}, {"verify:4-3", 0.305}},
		PeakMiB: 197, Workers: 2, Cores: 2, Commit: "434a152",
	}
	got, err := parseRecord(r.String())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("got %+v, want %+v", got, r)
	}
	if v := got.phase("verify"); v < 2.373 || v > 2.375 {
		t.Errorf("verify seconds: got %v, want 2.374", v)
	}
	for _, bad := range []string{"", "a\tb", strings.Replace(r.String(), "count=0.731", "count", 1)} {
		if _, err := parseRecord(bad); err == nil {
			t.Errorf("parseRecord(%q): no error", bad)
		}
	}
}

// TestReport solves the 3-stone game's moving layer and expects the solve
// record to hold its unit and the report to show the published counts of
// 3-3, verified, and the unit; then a missing layer makes it fail.
func TestReport(t *testing.T) {
	dir := t.TempDir()
	if _, errs, code := runCmd(t, "solve", "--db", dir, "--stones", "3"); code != 0 {
		t.Fatalf("solve: status %d, %s", code, errs)
	}
	recs, err := readRecords(filepath.Join(dir, "k3"))
	if err != nil || len(recs) != 1 || recs[0].Unit != "3-3" || recs[0].Slots != 183512 || recs[0].phase("verify") <= 0 {
		t.Fatalf("solve record: got %+v, %v; want one unit 3-3 of 183512 slots, verified", recs, err)
	}
	out, errs, code := runCmd(t, "report", "--db", dir, "--stones", "3")
	if code != 0 {
		t.Fatalf("report: status %d, %s", code, errs)
	}
	for _, want := range []string{"| 3-3 | 183512 | 140621 | 28736 | 269 | 25 | 26 |", "| yes |", "\n| 3-3 | 183512 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if err := os.Remove(filepath.Join(dir, "k3", "m3-3.layer")); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCmd(t, "report", "--db", dir, "--stones", "3")
	if code == 0 || !strings.Contains(out, "| 3-3 | missing |") {
		t.Errorf("report without the layer: got status %d, output\n%s", code, out)
	}
}
