package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro"
)

// TestReport solves the 3-stone game's moving layer and expects the solve
// record to hold its unit and the report to show the published counts of
// 3-3, verified, and the unit; then a missing layer makes it fail.
func TestReport(t *testing.T) {
	dir := t.TempDir()
	if _, errs, code := runCmd(t, "solve", "--db", dir, "--stones", "3"); code != 0 {
		t.Fatalf("solve: status %d, %s", code, errs)
	}
	recs, err := layers.ReadRecordFile(filepath.Join(dir, "k3", "solve-record.tsv"))
	if err != nil || len(recs) != 1 || recs[0].Unit != "m3-3" || recs[0].Slots != 183512 || recs[0].Phase(retro.PhaseVerify) <= 0 {
		t.Fatalf("solve record: got %+v, %v; want one unit 3-3 of 183512 slots, verified", recs, err)
	}
	out, errs, code := runCmd(t, "report", "--db", dir, "--stones", "3")
	if code != 0 {
		t.Fatalf("report: status %d, %s", code, errs)
	}
	for _, want := range []string{"| 3-3 | 183512 | 140621 | 28736 | 269 | 25 | 26 |", "| yes |", "\n| m3-3 | 183512 |"} {
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

// TestReportPlacementPlies solves the 3-stone game with its placement
// phase and checks the report's sums by ply against the layers' own
// headers, and the line of the forward pass.
func TestReportPlacementPlies(t *testing.T) {
	dir := t.TempDir()
	if _, errs, code := runCmd(t, "solve", "--db", dir, "--stones", "3", "--placement"); code != 0 {
		t.Fatalf("solve: status %d, %s", code, errs)
	}
	out, errs, code := runCmd(t, "report", "--db", dir, "--stones", "3", "--placement")
	if code != 0 {
		t.Fatalf("report: status %d, %s", code, errs)
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var want [6]struct{ layers, slots, stored uint64 }
	for _, k := range layers.PlacementLayers(3) {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		h := f.Header()
		p := &want[retro.PlyOf(3, k)]
		p.layers, p.slots, p.stored = p.layers+1, p.slots+h.Slots, p.stored+h.Won+h.Lost+h.Drawn
	}
	for ply, w := range want {
		row := fmt.Sprintf("\n| %d | %d | %d | %d | ", ply, w.layers, w.slots, w.stored)
		if !strings.Contains(out, row) {
			t.Errorf("report lacks the row %q of ply %d:\n%s", row, ply, out)
		}
	}
	if !strings.Contains(out, "\n| 0 | 1 | 1 | 1 | 100.00 | 1 | 0 | 0 |") { // the empty board: won for White
		t.Errorf("report: the empty board's row is not one won class:\n%s", out)
	}
	if !regexp.MustCompile(`The forward pass that marks the reachable classes ran before unit p\S+, \d+\.\d s`).MatchString(out) {
		t.Errorf("report lacks the forward pass:\n%s", out)
	}
	// The start as query gives it: the empty board's value, and each of
	// the 24 first placements with the value query prints for it.
	q, errs, code := runCmd(t, "query", "--db", dir, "--stones", "3", "--book", "", "--position", "........................ w 3 3")
	if code != 0 {
		t.Fatalf("query: status %d, %s", code, errs)
	}
	value := regexp.MustCompile(`(?m)^value +(.+?) \(`).FindStringSubmatch(q)
	if value == nil || !strings.Contains(out, "The empty board (`........................ w 3 3`): "+value[1]+" for White") {
		t.Errorf("report's empty board is not query's (%q):\n%s", value, out)
	}
	moves := regexp.MustCompile(`(?m)^  ([a-g][1-7]) +(won in \d+|lost in \d+|drawn) `).FindAllStringSubmatch(q, -1)
	if len(moves) != 24 {
		t.Fatalf("query printed %d first moves, want 24:\n%s", len(moves), q)
	}
	for _, m := range moves {
		if row := "\n| " + m[1] + " | " + m[2] + " |"; !strings.Contains(out, row) {
			t.Errorf("report lacks the first move %s as query gives it (%q):\n%s", m[1], row, out)
		}
	}
}

// TestReportSmallerGamesMixed solves Lasker Morris with 3 and with 4
// stones in one folder: the 4-stone report finds every layer of the
// 3-stone game the same, those with stones in hand too.
func TestReportSmallerGamesMixed(t *testing.T) {
	testenv.SlowUnderRace(t, "solves Lasker Morris of 3 and of 4 stones")
	dir := t.TempDir()
	for _, k := range []string{"3", "4"} {
		if _, errs, code := runCmd(t, "solve", "--db", dir, "--game", "lasker", "--all-phases", "--stones", k); code != 0 {
			t.Fatalf("solve --stones %s: status %d, %s", k, code, errs)
		}
	}
	out, errs, code := runCmd(t, "report", "--db", dir, "--game", "lasker", "--stones", "4")
	if code != 0 {
		t.Fatalf("report: status %d, %s", code, errs)
	}
	n := len(layers.OrderIn(muehle.Lasker.With(3), true))
	if n <= len(layers.MovingLayers(3)) {
		t.Fatalf("the 3-stone game of Lasker Morris has %d layers: want more than its moving ones", n)
	}
	if want := fmt.Sprintf("\n| 3 stones | %d | %d | 0 | 0 |", n, n); !strings.Contains(out, want) || strings.Contains(out, "differs") {
		t.Fatalf("report lacks %q or names a difference:\n%s", want, out)
	}
}

// TestReportSmallerGames solves the moving layers of the 3- and 4-stone
// games in one folder and expects the 4-stone report to find 3-3 the same
// as the 3-stone game's; then 3-3 of the 3-stone game is written again
// with one value changed, and the report names it.
func TestReportSmallerGames(t *testing.T) {
	testenv.SlowUnderRace(t, "solves the 3- and 4-stone games' moving layers")
	dir := t.TempDir()
	for _, k := range []string{"3", "4"} {
		if _, errs, code := runCmd(t, "solve", "--db", dir, "--stones", k); code != 0 {
			t.Fatalf("solve --stones %s: status %d, %s", k, code, errs)
		}
	}
	out, errs, code := runCmd(t, "report", "--db", dir, "--stones", "4")
	if code != 0 {
		t.Fatalf("report: status %d, %s", code, errs)
	}
	if want := "\n| 3 stones | 1 | 1 | 0 | 0 |"; !strings.Contains(out, want) || strings.Contains(out, "differs") {
		t.Fatalf("report lacks %q or names a difference:\n%s", want, out)
	}
	if out, _, _ := runCmd(t, "report", "--db", dir, "--stones", "3"); strings.Contains(out, "## The smaller games") {
		t.Errorf("the 3-stone report has smaller games:\n%s", out)
	}

	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	k := layers.Moving(3, 3)
	f, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	body := append([]byte(nil), f.Body()...)
	for i, b := range body { // a won or lost value made a draw
		if v := layers.Value(b); v != layers.Unused && v.Outcome() != layers.Draw {
			body[i] = byte(layers.Drawn)
			break
		}
	}
	if err := db.Write(k, body); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, _, _ = runCmd(t, "report", "--db", dir, "--stones", "4")
	if want := "\n| 3 stones | 1 | 0 | 1 | 0 |"; !strings.Contains(out, want) || !strings.Contains(out, "Layer 3-3 differs from that of the 3-stone game.") {
		t.Errorf("report with a changed 3-3 lacks %q or the sentence:\n%s", want, out)
	}
}

// TestReportRuns: a period of work ends where the commit changes or no
// unit was under way for over runGap, and not where units overlap.
func TestReportRuns(t *testing.T) {
	at := func(min float64) time.Time {
		return time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC).Add(time.Duration(min * float64(time.Minute)))
	}
	rec := func(finished, seconds float64, commit string) layers.Record {
		return layers.Record{Finished: at(finished), Unit: "m3-3", Seconds: seconds, Commit: commit}
	}
	records := []layers.Record{
		rec(5, 300, "aaa"),  // 12:00 to 12:05
		rec(4, 120, "aaa"),  // overlaps the first
		rec(14, 240, "aaa"), // starts 12:10, 5 minutes after
		rec(40, 60, "aaa"),  // starts 12:39, 25 minutes after: a new period
		rec(41, 30, "bbb"),  // another commit
	}
	var b strings.Builder
	writeRuns(&b, records)
	for _, want := range []string{
		"\n| 1 | aaa | 2026-11-26 12:00 | 2026-11-26 12:14 | 3 | 14m0s | 660 |",
		"\n| 2 | aaa | 2026-11-26 12:39 | 2026-11-26 12:40 | 1 | 1m0s | 60 |",
		"\n| 3 | bbb | 2026-11-26 12:40 | 2026-11-26 12:41 | 1 | 30s | 30 |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("periods lack %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "\n| 4 |") {
		t.Errorf("more than three periods:\n%s", b.String())
	}
}

// TestReportReadsHeaders reports on a folder kept compressed (form 2,
// where a won slot's depth is found from the layers below it) with its
// layer 3-3 removed: the rows of 3-4 and 4-3 still come from their
// headers, their files checked as their verification records note; the
// report does not decode a layer and find its won depths, which would
// need 3-3 (and, in a large game, take as long as a solve's reading).
func TestReportReadsHeaders(t *testing.T) {
	testenv.SlowUnderRace(t, "solves and compresses three layers of the 4-stone game; the report reads them on one goroutine")
	dir := t.TempDir()
	if _, errs, code := runCmd(t, "solve", "--db", dir, "--stones", "4", "--max-stones", "7"); code != 0 {
		t.Fatalf("solve: status %d, %s", code, errs)
	}
	if out, errs, code := runCmd(t, "compress", "--db", dir, "--stones", "4"); code != 0 {
		t.Fatalf("compress: status %d, output %q, stderr %q", code, out, errs)
	}
	for _, ext := range []string{".layer", ".blocks", ".verified"} {
		if err := os.Remove(filepath.Join(dir, "k4", "m3-3"+ext)); err != nil {
			t.Fatal(err)
		}
	}
	out, errs, code := runCmd(t, "report", "--db", dir, "--stones", "4", "--max-stones", "7")
	for _, want := range []string{"| 3-3 | missing |", "| 3-4 | 796386 | 102281 | 0 | 658117 | 33 | - |", "| 4-3 | 796386 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q (status %d, stderr %q):\n%s", want, code, errs, out)
		}
	}
}
