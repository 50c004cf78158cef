package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/dbservice"
)

// TestRepairAsTheWindow runs one operation through muehlectl and through
// the service the window calls (ui.DBEngines.Repair: RepairOptions, then
// dbservice.Solve): a folder whose layer 3-3 is damaged is repaired both
// ways, and the two folders end alike, layer files and solve records. The
// estimate muehlectl prints next is the one the Database tab shows
// (dbservice.EstimateFor), from the speed measured in that record.
func TestRepairAsTheWindow(t *testing.T) {
	base := t.TempDir()
	if code, out, stderr := muehlectl("solve", "--db", base, "--max-stones", "6"); code != 0 {
		t.Fatalf("solve 3-3: exit %d: %s %s", code, out, stderr)
	}
	body, err := os.ReadFile(filepath.Join(base, "k9", "m3-3.layer"))
	if err != nil {
		t.Fatal(err)
	}
	body[len(body)-1] ^= 0xff // the body checksum fails
	dirs := [2]string{t.TempDir(), t.TempDir()}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(d, "k9"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "k9", "m3-3.layer"), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	if code, out, _ := muehlectl("status", "--db", dirs[0], "--check"); code != 0 || !strings.Contains(out, "  3   !") || !strings.Contains(out, "! damaged, used as missing: 3-3") {
		t.Errorf("muehlectl status --check: exit %d: %q, want 3-3 marked damaged", code, out)
	}
	code, out, stderr := muehlectl("repair", "--db", dirs[0])
	if code != 0 || !strings.Contains(out, "damaged: 3-3\n") || !strings.Contains(out, "1 units to compute") || strings.Contains(out, "starting from the beginning") || !strings.Contains(stderr, "unit 1 of 1  m3-3  183512 slots") {
		t.Fatalf("muehlectl repair: exit %d: %q %q", code, out, stderr)
	}
	if code, out, _ := muehlectl("repair", "--db", dirs[0]); code != 0 || !strings.Contains(out, "no damaged layer") {
		t.Errorf("muehlectl repair again: exit %d: %q, want no damaged layer", code, out)
	}
	if code, out, _ := muehlectl("status", "--db", dirs[0], "--check"); code != 0 || !strings.Contains(out, "  3   #") || strings.Contains(out, "used as missing") {
		t.Errorf("muehlectl status --check after repair: exit %d: %q, want 3-3 complete", code, out)
	}

	db, err := layers.OpenDB(dirs[1], muehle.NineMensMorris)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dbservice.CheckAll(db)
	opts, ok := dbservice.RepairOptions(db)
	if !ok || opts.MaxStones != 6 || opts.Placement {
		t.Fatalf("repair options: got %+v, %v; want the moving layers up to 6 stones", opts, ok)
	}
	if _, err := dbservice.Solve(context.Background(), db, dbservice.Run{Opts: opts}); err != nil {
		t.Fatal(err)
	}

	for i, d := range dirs {
		recs, err := layers.ReadRecordFile(filepath.Join(d, "k9", "solve-record.tsv"))
		if err != nil || len(recs) != 1 || recs[0].Unit != "m3-3" || recs[0].Slots != 183512 {
			t.Errorf("solve record %d: got %+v, %v; want the one unit m3-3 of 183512 slots", i, recs, err)
		}
	}
	// The layers alike; the records of verification and of the solve
	// say when.
	a, b := folderFiles(t, dirs[0]), folderFiles(t, dirs[1])
	for name, x := range a {
		if y := b[name]; !strings.HasSuffix(name, ".verified") && !strings.HasSuffix(name, ".tsv") && !bytes.Equal(x, y) {
			t.Errorf("%s repaired by muehlectl: %d bytes, by the window's service: %d, not the same", name, len(x), len(y))
		}
	}
	if len(a) != len(b) {
		t.Errorf("files repaired by muehlectl: %d, by the window's service: %d", len(a), len(b))
	}

	// The next computation's estimate, as the Database tab says it and as
	// muehlectl prints it, from the record of a run.
	if code, out, stderr := muehlectl("solve", "--db", dirs[0], "--max-stones", "6"); code != 0 || !strings.Contains(out, "nothing to do") {
		t.Fatalf("solve with nothing left: exit %d: %s %s", code, out, stderr)
	}
	rec := "2026-11-29T04:00:00Z\tm3-3\t183512\t2.000\tcount=1.000 verify:3-3=1.000\t190\t2\t2\tunknown\t3.000\n"
	if err := os.WriteFile(filepath.Join(dirs[0], "k9", "solve-record.tsv"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	est := dbservice.EstimateFor(db0(t, dirs[0]), retro.SolveOptions{MaxStones: 7}, 0)
	if est.Measured != 1 {
		t.Fatalf("estimate: measured on %d units, want the 1 of the record", est.Measured)
	}
	code, out, stderr = muehlectl("solve", "--db", dirs[0], "--max-stones", "7")
	want := regexp.MustCompile(`\nexpected: about ` + regexp.QuoteMeta(dbservice.Rough(est.Time)) + ` on \d+ workers \(the cost model at [0-9.]+× its speed, measured on the last 1 units of this folder's solve record\)\n`)
	if code != 0 || !want.MatchString(out) {
		t.Errorf("muehlectl solve after a recorded run: exit %d: %q, want a match of %s (%s)", code, out, want, stderr)
	}
	// The unit recorded its processor time: the time on idle cores
	// follows it, whatever share of the machine the run had.
	idle := regexp.MustCompile(`\non \d+ idle cores: about [^(]+ \(the units of that run took [0-9.]+× the model's processor time, 1 of them recorded it\)\n`)
	if !idle.MatchString(out) {
		t.Errorf("muehlectl solve after a run that recorded its processor time: %q, want a match of %s", out, idle)
	}
}

// db0 opens the database of Nine Men's Morris in dir for the test.
func db0(t *testing.T, dir string) *layers.DB {
	t.Helper()
	db, err := layers.OpenDB(dir, muehle.NineMensMorris)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
