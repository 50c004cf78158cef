package dbservice

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"muehle/layers"
	"muehle/retro"
)

// Recorder follows the reports of a solver run and appends a line to the
// solve record (layers/record.go) for each unit finished: its slots, its
// time, the time of each phase, its peak memory, the processor time of
// the process over it. The window and muehlectl
// record their runs through it, so that the next estimate of either
// learns from both (MeasuredSpeed). It is safe for concurrent use.
type Recorder struct {
	w       io.Writer // the solve record, or nil
	workers int
	// Unit, when set, receives each finished unit's record (after it is
	// written) with the last report of the unit; Interrupted the last
	// report of a unit that stopped unfinished and the time it ran; Error
	// an error writing the record. They are called with the recorder's
	// lock held: they must not call it.
	Unit        func(r layers.Record, last retro.Progress)
	Interrupted func(last retro.Progress, ran time.Duration)
	Error       func(error)

	mu        sync.Mutex
	step      int
	phase     retro.Phase // 0: none under way
	verifying retro.Progress
	last      retro.Progress
	slots     uint64
	phases    []layers.PhaseTime // the finished phases of the current unit
	ended     time.Duration      // when the previous phase of the unit ended
	start     time.Time
	cpu       time.Duration // the process's processor time when the unit began
	cpuKnown  bool
}

// NewRecorder returns a recorder writing to w (nil: none) for a run of
// workers workers.
func NewRecorder(w io.Writer, workers int) *Recorder {
	return &Recorder{w: w, workers: workers}
}

// Update receives a report of the solver.
func (r *Recorder) Update(p retro.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p.Phase == retro.PhaseDone {
		// The unit is complete: its record now, not when the next unit
		// begins (a run that stops next, e.g. because another solver
		// holds what is left, must not call it interrupted).
		if p.Step == r.step {
			r.last.Elapsed = p.Elapsed
			r.endPhaseLocked()
			r.endUnitLocked(true)
		}
		return
	}
	if p.Step != r.step || p.Phase != r.phase || p.Verifying != r.verifying.Verifying {
		r.endPhaseLocked()
		if p.Step != r.step {
			r.endUnitLocked(true)
			r.step, r.start, r.slots, r.ended = p.Step, time.Now(), 0, 0
			r.cpu, r.cpuKnown = layers.CPUTime()
			resetPeakMemory()
		}
		r.phase, r.verifying = p.Phase, p
		if p.Phase == retro.PhaseCount {
			r.slots = p.Total
		}
	}
	r.last = p
}

// endPhaseLocked notes the time of the phase under way.
func (r *Recorder) endPhaseLocked() {
	if r.phase == 0 {
		return
	}
	r.phases = append(r.phases, layers.PhaseTime{Phase: r.phase, Layer: r.verifying.Verifying, Seconds: (r.last.Elapsed - r.ended).Seconds()})
	r.ended = r.last.Elapsed
	r.phase, r.verifying = 0, retro.Progress{}
}

// endUnitLocked records a finished unit; of an unfinished one, with
// finished false, it calls Interrupted.
func (r *Recorder) endUnitLocked(finished bool) {
	if r.step == 0 {
		return
	}
	if !finished {
		if r.Interrupted != nil {
			r.Interrupted(r.last, time.Since(r.start))
		}
	} else {
		rec := layers.Record{Finished: time.Now(), Unit: r.last.Unit, Slots: r.slots, Seconds: time.Since(r.start).Seconds(),
			Phases: r.phases, PeakMiB: peakMemory() >> 20, Workers: r.workers, Cores: runtime.NumCPU(), Commit: Commit()}
		if cpu, ok := layers.CPUTime(); ok && r.cpuKnown {
			rec.CPUSeconds, rec.CPUKnown = (cpu - r.cpu).Seconds(), true
		}
		if r.w != nil {
			if _, err := fmt.Fprintln(r.w, rec); err != nil && r.Error != nil {
				r.Error(err)
			}
		}
		if r.Unit != nil {
			r.Unit(rec, r.last)
		}
	}
	r.phases = nil
	r.step = 0
}

// Finish ends the run; finished says whether it completed its last unit
// (else that unit is interrupted, never recorded as done).
func (r *Recorder) Finish(finished bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.endPhaseLocked()
	r.endUnitLocked(finished)
}

// Commit returns the version control revision the program was built from,
// with "+dirty" when the tree had changes, or "unknown".
func Commit() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}

// Run is a computation of a database folder as the window and muehlectl
// start it.
type Run struct {
	Opts retro.SolveOptions
	// Speed is the machine's speed measured in its last run (0: none),
	// which the time left begins with when the folder's solve record
	// measured none (MeasuredSpeed).
	Speed float64
	// Progress, when set, receives each report of the solver with the
	// progress of the run, from any goroutine.
	Progress func(retro.Progress, Progress)
	// Recorder, when set, records the run, fed and finished by the
	// caller (its Progress passes each report on); else Solve makes one
	// for the folder's solve record, and feeds and finishes it.
	Recorder *Recorder
}

// Solve computes what run.Opts asks for in db (retro.Solve), appending
// each finished unit to the folder's solve record, and reports the
// progress through one Meter. It returns the speed the run measured
// (Meter.Speed; 0 when it did nothing), which the next estimate of any
// folder may begin with.
func Solve(ctx context.Context, db *layers.DB, run Run) (float64, error) {
	opts := run.Opts
	speed, _, _ := StartSpeed(db, opts, run.Speed)
	m := NewMeter(retro.Workers(opts.Workers), speed) // its time includes the plan's reading of the layers
	if opts.Plan == nil {
		opts.Plan = retro.Plan(db, opts)
	}
	if len(opts.Plan) == 0 && !opts.Compress { // with Compress, the layers left flat are compressed
		return 0, nil
	}
	rec, own := run.Recorder, run.Recorder == nil
	if own {
		f, err := layers.AppendRecord(db.RecordPath())
		if err != nil {
			return 0, fmt.Errorf("the solve record: %w", err)
		}
		defer f.Close()
		rec = NewRecorder(f, retro.Workers(opts.Workers))
	}
	opts.Progress = func(p retro.Progress) {
		if own {
			rec.Update(p)
		}
		if run.Progress != nil {
			run.Progress(p, m.At(p))
		} else {
			m.At(p)
		}
	}
	err := retro.Solve(ctx, db, opts)
	if own {
		rec.Finish(err == nil)
	}
	return m.Speed(), err
}
