package dbservice

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

// TestLastRun splits a solve record into runs: a unit that began more
// than runGap after the one before starts a new run.
func TestLastRun(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)
	rec := func(unit string, end, secs float64) layers.Record {
		return layers.Record{Unit: retro.UnitName(unit), Finished: t0.Add(time.Duration(end * float64(time.Second))), Seconds: secs}
	}
	recs := []layers.Record{rec("m3-3", 0, 1), rec("m3-4", 2, 2), // a run
		rec("m3-3", 600, 1), rec("m3-4", 700, 90), rec("m4-4", 701, 1)} // the next: 3-4 began 10 s after 3-3 ended
	got := LastRun(recs)
	if len(got) != 3 || got[0].Finished != recs[2].Finished {
		t.Errorf("last run: got %d records from %v, want the 3 from %v", len(got), got[0].Finished, recs[2].Finished)
	}
	if got := LastRun(recs[:1]); len(got) != 1 {
		t.Errorf("one record: got %d, want it", len(got))
	}
}

// TestSpeedOf checks the speed measured in records against the model:
// units that took twice the model's wall time on their workers run at
// half its speed; a unit the model does not know is passed over.
func TestSpeedOf(t *testing.T) {
	v := muehle.Standard.With(5)
	db, err := layers.OpenDB(t.TempDir(), v)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ix := db.Indexer()
	units := retro.Units(v, retro.SolveOptions{Placement: true})
	var recs []layers.Record
	var model float64
	for _, name := range []string{"m3-3", "m4-5", "p4+1-4+0"} {
		u, err := retro.FindUnit(units, name)
		if err != nil {
			t.Fatal(err)
		}
		task := retro.Task{Unit: u, Cost: retro.UnitCost(ix, u), Compute: true}
		m := ModelSeconds(task, 2)
		model += m
		r := layers.Record{Unit: u.Name, Seconds: 2 * m, Workers: 2,
			Phases: []layers.PhaseTime{{Phase: retro.PhaseCount, Seconds: m}}}
		if name != "m4-5" { // a record without its processor time
			r.CPUSeconds, r.CPUKnown = 4*task.CPUSeconds(), true
		}
		recs = append(recs, r)
	}
	recs = append(recs, layers.Record{Unit: "m9-9", Seconds: 1000, Workers: 2, CPUSeconds: 1, CPUKnown: true}) // not a unit of 5 stones
	speed, n := SpeedOf(ix, v, recs, retro.CostOptions{})
	if n != 3 || speed < 0.499 || speed > 0.501 {
		t.Errorf("speed: got %v of %d units, want 0.5 of 3 (model %v s)", speed, n, model)
	}
	// Their processor time was four times the model's: the speed on
	// idle cores is a quarter, whatever share of the machine they had.
	s := speedsOf(ix, v, recs, retro.CostOptions{})
	if s.cpuN != 2 || s.cpu < 0.2499 || s.cpu > 0.2501 {
		t.Errorf("processor speed: got %v of %d units, want 0.25 of 2", s.cpu, s.cpuN)
	}
}

// TestEstimateLearnsFromFinishedRun is item 7 of issue 49: the estimate
// of a small game was 3 to 9 times off on a busy machine, and the next
// one did not learn from the finished run. A run of the 3-stone game
// records its units; the estimate of the same work in a folder with that
// record is the time the run took (within a factor 1.5 either way), and
// the speed the run returns is the machine's for the next estimate
// elsewhere, however short the run.
func TestEstimateLearnsFromFinishedRun(t *testing.T) {
	v := muehle.Standard.With(3)
	opts := retro.SolveOptions{Placement: true}
	a, err := layers.OpenDB(t.TempDir(), v)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	model := EstimateTasks(retro.Plan(a, opts), retro.Workers(0), 0)
	start := time.Now()
	var last Progress
	speed, err := Solve(t.Context(), a, Run{Opts: opts, Progress: func(_ retro.Progress, p Progress) { last = p }})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if speed <= 0 || last.Overall < 0.99 || last.Left < 0 {
		t.Errorf("run: speed %v, last progress %+v; want a speed measured, the run at its end with a time left", speed, last)
	}
	recs, err := layers.ReadRecordFile(a.RecordPath())
	if err != nil || len(recs) != model.Units {
		t.Fatalf("solve record: %d units, %v; want %d", len(recs), err, model.Units)
	}
	// The same work in a folder whose record holds the run.
	b, err := layers.OpenDB(t.TempDir(), v)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	body, err := os.ReadFile(a.RecordPath())
	if err == nil {
		err = os.MkdirAll(filepath.Dir(b.RecordPath()), 0o755)
	}
	if err == nil {
		err = os.WriteFile(b.RecordPath(), body, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	est := EstimateFor(b, opts, 0)
	t.Logf("the run took %v; the model alone said %v, the estimate from its record says %v (%.2f× the model's speed)", took, model.Time, est.Time, est.Speed)
	if est.Measured != model.Units || est.Time < took*2/3 || est.Time > took*3/2 {
		t.Errorf("estimate after the run: got %v from %d units, want about %v from %d", est.Time, est.Measured, took, model.Units)
	}
	// Another folder without a record: the machine's speed of that run.
	c, err := layers.OpenDB(t.TempDir(), muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := EstimateFor(c, retro.SolveOptions{MaxStones: 7}, speed); got.Speed != speed || got.Measured != 0 {
		t.Errorf("estimate in a new folder: speed %v from %d units, want the machine's %v", got.Speed, got.Measured, speed)
	}
}
