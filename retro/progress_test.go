package retro

import (
	"math"
	"sync"
	"testing"

	"muehle/layers"
)

// TestTaskFraction checks how far a task is when one of its phases is at
// a fraction: the phases one after another by their shares of the time,
// the verification shared among the layers, the forward pass first.
func TestTaskFraction(t *testing.T) {
	k34, k43, k44 := layers.Moving(3, 4), layers.Moving(4, 3), layers.Moving(4, 4)
	p := layers.Key{W: 8, WH: 1, B: 9}
	pair := Task{Unit: Unit{Keys: []layers.Key{k34, k43}}, Compute: true}
	single := Task{Unit: Unit{Keys: []layers.Key{k44}}, Compute: true}
	place := Task{Unit: Unit{Keys: []layers.Key{p}, Placement: true}, Compute: true}
	verify := Task{Unit: pair.Unit, Verify: []layers.Key{k43}}
	// The first placement unit: the forward pass takes 80 % of its time.
	first := place
	first.Cost = Cost{CPUSeconds: 10, ReachCPUSeconds: 8}
	none := layers.Key{}
	tests := []struct {
		task   Task
		phase  Phase
		verify layers.Key
		f      float64
		want   float64
	}{
		{pair, PhaseCount, none, 0.5, 0.15},
		{pair, PhasePropagate, none, 1, 0.58},
		{pair, PhaseWrite, none, 1, 0.60},
		{pair, PhaseVerify, k34, 0.5, 0.70},
		{pair, PhaseVerify, k43, 0, 0.80},
		{pair, PhaseVerify, k43, 1, 1},
		{single, PhaseVerify, k44, 0.5, 0.80},
		{place, PhaseCount, none, 1, 0.58},
		{verify, PhaseVerify, k43, 0.25, 0.25},
		{pair, Phase(99), none, 0.5, 0},
		{first, PhaseReach, none, 0.5, 0.4},
		{first, PhaseCount, none, 0.5, 0.8 + 0.2*0.29},
		{first, PhaseVerify, p, 1, 1},
	}
	for _, tt := range tests {
		if got := tt.task.Fraction(tt.phase, tt.verify, tt.f); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Fraction(%v, %v %v, %v): got %v, want %v", tt.task.Unit, tt.phase, tt.verify, tt.f, got, tt.want)
		}
	}
}

// TestPhaseNames checks the names of the phases, which the solve record
// holds (layers.TestPhaseNamesRead reads them back).
func TestPhaseNames(t *testing.T) {
	want := []string{"reach", "count", "propagate", "write", "verify"}
	for i, p := range []Phase{PhaseReach, PhaseCount, PhasePropagate, PhaseWrite, PhaseVerify} {
		if got := p.String(); got != want[i] {
			t.Errorf("phase %d: got %q, want %q", int(p), got, want[i])
		}
	}
	if got := (Progress{Phase: PhaseVerify, Verifying: layers.Moving(5, 6)}).PhaseText(); got != "verify 5-6" {
		t.Errorf("PhaseText: got %q, want verify 5-6", got)
	}
}

// TestSolveProgressOfPlan solves the 3-stone moving layer 3-3 and checks
// what its Progress says of the run: the unit, a typed phase, the task as
// planned with its cost, a share of the task and of the run that never
// goes back and ends at the whole; and that a plan the caller made
// (SolveOptions.Plan) is the one the run counts its steps and work by.
func TestSolveProgressOfPlan(t *testing.T) {
	db := openDB(t, t.TempDir(), 3)
	opts := SolveOptions{MaxStones: 6, Workers: 2}
	plan := Plan(db, opts)
	if len(plan) != 1 || plan[0].Unit.Name != "m3-3" || !plan[0].Compute || plan[0].Cost.CPUSeconds <= 0 {
		t.Fatalf("Plan: got %+v, want one task computing m3-3 with its cost", plan)
	}
	// A plan of two tasks, the second made up: the run counts by it.
	made := append(plan, Task{Unit: Unit{Name: "m9-9"}, Compute: true, Cost: Cost{CPUSeconds: 1000}})
	opts.Plan = made
	var seen []Progress
	var mu sync.Mutex
	opts.Progress = func(p Progress) { mu.Lock(); seen = append(seen, p); mu.Unlock() }
	solve(t, db, opts)
	if len(seen) == 0 {
		t.Fatal("no progress")
	}
	total := plan[0].CPUSeconds() + 1000
	last := 0.0
	phases := map[Phase]bool{}
	for _, p := range seen {
		phases[p.Phase] = true
		if p.Unit != "m3-3" || p.Step != 1 || p.Steps != 2 || p.Task.Unit.Name != "m3-3" || p.WorkTotal != total {
			t.Fatalf("progress %+v: want unit m3-3, step 1 of 2, work total %v", p, total)
		}
		if p.Fraction < last || p.Fraction > 1 || math.Abs(p.WorkDone-p.Fraction*plan[0].CPUSeconds()) > 1e-9 {
			t.Fatalf("progress %+v: fraction went back from %v, or work done is not the task's share", p, last)
		}
		last = p.Fraction
	}
	if last != 1 || !phases[PhaseCount] || !phases[PhasePropagate] || !phases[PhaseWrite] || !phases[PhaseVerify] {
		t.Errorf("at the end: got fraction %v, phases %v; want 1 and count, propagate, write, verify", last, phases)
	}
}

// TestPhaseTextReading names the layer the count phase reads.
func TestPhaseTextReading(t *testing.T) {
	p := Progress{Phase: PhaseCount, Reading: layers.Moving(3, 10)}
	if got := p.PhaseText(); got != "count, reading 3-10" {
		t.Errorf("PhaseText = %q, want %q", got, "count, reading 3-10")
	}
}
