package retro

import (
	"time"

	"muehle/layers"
)

// Phase is a phase of a unit's computation (layers.Phase: the solve
// record, which layers owns, holds their names). The window and muehlectl
// switch on these constants, so renaming or removing one breaks their
// build, not their progress bars.
type Phase = layers.Phase

// The phases of a unit, in the order they run (layers.PhaseReach ...).
const (
	PhaseReach     = layers.PhaseReach
	PhaseCount     = layers.PhaseCount
	PhasePropagate = layers.PhasePropagate
	PhaseWrite     = layers.PhaseWrite
	PhaseVerify    = layers.PhaseVerify
	PhaseDone      = layers.PhaseDone
)

// Progress is the event a Solve run reports (SolveOptions.Progress), from
// any goroutine: every 250 ms of a phase, and once at its end.
type Progress struct {
	Unit  UnitName   // the unit under way
	Layer layers.Key // its first layer
	// Step, Steps: this is step Step (from 1) of Steps units to compute
	// or verify in this run.
	Step, Steps int
	Phase       Phase
	// Verifying is the layer being verified, in PhaseVerify.
	Verifying layers.Key
	// Reading is the finished layer the count phase reads in full before
	// it counts (decoding it, and in compressed form 2 finding its won
	// depths: minutes for a large layer), the zero Key otherwise.
	Reading     layers.Key
	Done, Total uint64 // work done and to do in this phase, in positions
	Elapsed     time.Duration
	// Task is the work of the unit as planned, with its cost.
	Task Task
	// Fraction is the share of the task done, from its phases one after
	// another by their expected time (Task.Fraction); it never goes back
	// within a step.
	Fraction float64
	// WorkDone and WorkTotal measure the whole run in the cost model's
	// processor seconds (Task.CPUSeconds): those of the tasks before this
	// one plus Fraction of this one's, and those of every task planned at
	// the start (more when a unit was added on the way).
	WorkDone, WorkTotal float64
}

// PhaseText names the phase and, in PhaseVerify, the layer: "count",
// "verify 5-6", and a layer being read: "count, reading 3-10".
func (p Progress) PhaseText() string {
	switch {
	case p.Phase == PhaseVerify:
		return p.Phase.String() + " " + p.Verifying.String()
	case p.Reading != layers.Key{}:
		return p.Phase.String() + ", reading " + p.Reading.String()
	}
	return p.Phase.String()
}

// The shares of a computed unit's time by phase, for the progress bar:
// counting 30 %, propagating 28 %, writing 2 %, verifying the rest
// (VerifyShare). They are rough: the moving units of the solve records in
// retro/testdata spent 21 to 23 % counting, 36 % propagating, under 1 %
// writing and 40 to 42 % verifying (docs/figures.md).
const (
	shareCount     = 0.30
	sharePropagate = 0.28
	shareWrite     = 0.02
)

// Fraction returns how much of task t is done when phase (verifying the
// layer verifying, in PhaseVerify) is at fraction f: its phases one after
// another, each from 0 to all of its positions, the verification shared
// among the task's layers. The first placement unit runs the forward pass
// (PhaseReach) before its own phases, for the share of its time the cost
// model gives the pass.
func (t Task) Fraction(phase Phase, verifying layers.Key, f float64) float64 {
	pass := 0.0
	if t.Cost.CPUSeconds > 0 {
		pass = t.Cost.ReachCPUSeconds / t.Cost.CPUSeconds
	}
	if phase == PhaseReach {
		return pass * f
	}
	return pass + (1-pass)*t.unitFraction(phase, verifying, f)
}

// unitFraction is Fraction within the unit's own phases.
func (t Task) unitFraction(phase Phase, verifying layers.Key, f float64) float64 {
	keys := t.Unit.Keys
	switch phase {
	case PhaseVerify:
		if !t.Compute {
			keys = t.Verify
		}
		i := 0
		for j, k := range keys {
			if k == verifying {
				i = j
			}
		}
		share := (float64(i) + f) / float64(max(1, len(keys)))
		if !t.Compute {
			return share
		}
		base := shareCount + sharePropagate + shareWrite
		return base + (1-base)*share
	case PhaseCount:
		if t.Unit.Placement {
			return (shareCount + sharePropagate) * f // a placement layer is counted, not propagated
		}
		return shareCount * f
	case PhasePropagate:
		return shareCount + sharePropagate*f
	case PhaseWrite:
		return shareCount + sharePropagate + shareWrite*f
	}
	return 0
}

// CPUSeconds returns the task's expected processor time: its unit's, or
// VerifyShare of it for a task that only verifies.
func (t Task) CPUSeconds() float64 {
	if t.Compute {
		return t.Cost.CPUSeconds
	}
	return t.Cost.CPUSeconds * VerifyShare
}
