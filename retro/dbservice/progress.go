package dbservice

import (
	"cmp"
	"fmt"
	"sync"
	"time"

	"muehle/layers"
	"muehle/retro"
)

// Progress is the state of a computation: the part being computed, its
// phase and how far it is, the whole run, and the times.
type Progress struct {
	Unit        string // the part's layers: "4-8 + 8-4"
	Phase       string // what it does: "finding wins and losses"
	Step, Steps int    // part Step (from 1) of Steps
	Fraction    float64
	Part        float64 // of the part
	Overall     float64 // of the whole run
	Elapsed     time.Duration
	PartElapsed time.Duration
	Left        time.Duration // -1: not known yet
	// Share is the cores the run has used since its units began (the
	// process's processor time over the wall time), 0 while not
	// measured; IdleLeft is the time left on Cores idle cores, at the
	// processor time the run's work has taken (-1: not known). On a
	// shared machine, or under nice, Left is IdleLeft at the run's share
	// of the processors.
	Share    float64
	Cores    int
	IdleLeft time.Duration
	// Verifying says the part's layers are written and being checked:
	// stopping now loses only the check.
	Verifying bool
	// Work, WorkTotal and PartWork measure the run in the cost model's
	// processor seconds: done (the finished parts and the share of this
	// one), planned, and this part's (retro.Progress).
	Work, WorkTotal, PartWork float64
	// Converting says the run converts layers of the older format
	// (Convert): a part is one layer, Overall the share of the bytes
	// done, and Fraction and Part are not known.
	Converting bool
	// Compressing says the run, reported as a conversion (Converting),
	// compresses layers (Compress).
	Compressing bool
}

// Base is what a computation did before it was paused or the program
// closed: the parts it finished, the time it ran and the model's
// processor seconds of those parts. The run that resumes it counts on
// from there.
type Base struct {
	Parts   int
	Elapsed time.Duration
	Work    float64
}

// After returns p, of a run that resumed a computation after base, as
// progress of the whole computation: its parts numbered on from base's,
// its time and its share of the work added to base's.
func (p Progress) After(b Base) Progress {
	p.Step += b.Parts
	p.Steps += b.Parts
	p.Elapsed += b.Elapsed
	p.Work += b.Work
	p.WorkTotal += b.Work
	if p.WorkTotal > 0 {
		p.Overall = min(1, p.Work/p.WorkTotal)
	}
	return p
}

// Kept returns what stays of the computation when it stops at p: the
// parts before p's, all the time spent, and the work of those parts (p's
// part is done again, or its check).
func (p Progress) Kept() Base {
	return Base{Parts: p.Step - 1, Elapsed: p.Elapsed, Work: max(0, p.Work-p.Part*p.PartWork)}
}

// LeftWords says the time left: "about 3 min left", or "time left:
// measuring" while it is not known.
func (p Progress) LeftWords() string {
	if p.Left < 0 {
		return "time left: measuring"
	}
	return fmt.Sprintf("about %s left", Rough(p.Left))
}

// ShareWords says, after LeftWords, what the time left assumes and what
// the run would take alone on the machine: "at this run's share of the
// processors (0.30 of 2 cores); about 21.0 hours on 2 idle cores", or ""
// while the share is not measured.
func (p Progress) ShareWords() string {
	if p.Share <= 0 || p.IdleLeft < 0 || p.Left < 0 {
		return ""
	}
	return fmt.Sprintf("at this run's share of the processors (%.2f of %d cores); about %s on %d idle cores",
		p.Share, p.Cores, Rough(p.IdleLeft), p.Cores)
}

// Lines says the progress in two lines: the part, then the whole run.
func (p Progress) Lines() string {
	if p.Converting {
		verb := "Converting"
		if p.Compressing {
			verb = "Compressing"
		}
		return fmt.Sprintf("%s layer %d of %d: %s\n%d done, %d to do · %s elapsed · %s",
			verb, p.Step, p.Steps, p.Unit, p.Step-1, p.Steps-p.Step+1, Clock(p.Elapsed), p.LeftWords())
	}
	return fmt.Sprintf("Part %d of %d: %s, %s (%.0f %%)\n%d done, %d to do · %s elapsed · %s",
		p.Step, p.Steps, p.Unit, p.Phase, 100*p.Fraction, p.Step-1, p.Steps-p.Step+1, Clock(p.Elapsed), p.LeftWords())
}

// RedoWords says what resuming redoes after the computation stops at p,
// as the end of a sentence that starts "Resume continues, ".
func (p Progress) RedoWords() string {
	var kept string
	switch done := p.Step - 1; {
	case done == 1:
		kept = "keeping the finished part and "
	case done > 1:
		kept = fmt.Sprintf("keeping %d finished parts and ", done)
	}
	if p.Verifying {
		return fmt.Sprintf("%sthe layers of %s, which are written: only their check is redone.", kept, p.Unit)
	}
	return fmt.Sprintf("%scomputing %s again from its start (%s of work lost).", kept, p.Unit, Clock(p.PartElapsed))
}

// PhaseWords names the phase of p for a person.
func PhaseWords(p retro.Progress) string {
	switch p.Phase {
	case retro.PhaseCount:
		return "counting moves"
	case retro.PhasePropagate:
		return "finding wins and losses"
	case retro.PhaseWrite:
		return "writing"
	case retro.PhaseReach:
		return "finding the placement positions a game can reach"
	case retro.PhaseVerify:
		return "checking " + p.Verifying.String()
	}
	return p.Phase.String()
}

// measureAfter is how long a run goes before the speed it measures
// replaces the one it began with in the time left: its first seconds are
// mostly start-up (the index table, the first layers read from disk).
const measureAfter = 10 * time.Second

// Meter turns the solver's reports of a run into Progress with the time
// left (Rate): the model's wall time of what is left (ModelSeconds), at
// the speed the run began with and, after measureAfter, at the speed the
// run measures itself (its model time done over the time its units took,
// from the first report: the plan before it, which reads every layer
// present, is not the machine's speed). It is safe for concurrent use.
type Meter struct {
	cores int
	speed float64 // the speed the run began with (0: the model's)
	start time.Time
	// cpuTime reads the process's processor time (layers.CPUTime; the
	// tests' clock).
	cpuTime func() (time.Duration, bool)
	cpu0    time.Duration // the processor time at the first report
	cpuOK   bool

	mu    sync.Mutex
	first time.Time // the first report: the solver's plan is made, its units begin
	done  float64   // the model's wall seconds of what is done, at the last report
	at    time.Duration
}

// NewMeter returns the meter of a run on cores cores that begins with
// speed (relative to the model; 0: the model's), now.
func NewMeter(cores int, speed float64) *Meter {
	return &Meter{cores: max(1, cores), speed: speed, start: time.Now(), cpuTime: layers.CPUTime}
}

// idle returns the share of the processors a run used (cores, cpu over
// at) and the time left on cores idle cores when work worth done model
// wall seconds took processor time cpu and left model wall seconds are
// left: the processor time per model second measured, spread over the
// cores. idle is -1 while nothing is measured.
func idle(done, left float64, cores int, at, cpu time.Duration) (share float64, idle time.Duration) {
	if done <= 0 || at < measureAfter || cpu <= 0 {
		return 0, -1
	}
	share = cpu.Seconds() / at.Seconds()
	perModel := cpu.Seconds() / (done * float64(cores) * retro.CoreUse) // processor seconds per model processor second
	return share, time.Duration(left * perModel * float64(time.Second))
}

// wall returns the model's wall seconds of work cpu (processor seconds).
func (m *Meter) wall(cpu float64) float64 { return retro.WallSeconds(cpu, m.cores) }

// At returns the progress of report p.
func (m *Meter) At(p retro.Progress) Progress {
	f := 0.0
	if p.Total > 0 {
		f = min(1, float64(p.Done)/float64(p.Total))
	}
	elapsed := time.Since(m.start)
	overall := 0.0
	if p.WorkTotal > 0 {
		overall = min(1, p.WorkDone/p.WorkTotal)
	}
	done := m.wall(p.WorkDone)
	left := m.wall(max(0, p.WorkTotal-p.WorkDone))
	m.mu.Lock()
	if m.first.IsZero() {
		m.first = time.Now()
		m.cpu0, m.cpuOK = m.cpuTime()
	}
	m.done, m.at = done, time.Since(m.first) // the units' time, not the plan's
	at, cpu0, cpuOK := m.at, m.cpu0, m.cpuOK
	m.mu.Unlock()
	share, idleLeft := 0.0, time.Duration(-1)
	if cpu, ok := m.cpuTime(); ok && cpuOK {
		share, idleLeft = idle(done, left, m.cores, at, cpu-cpu0)
	}
	speed := Rate{Prior: cmp.Or(m.speed, 1.0), MinTime: measureAfter}.At(done, at)
	unit := p.Layer.String()
	if len(p.Task.Unit.Keys) > 0 {
		unit = p.Task.Unit.String()
	}
	return Progress{
		Unit: unit, Phase: PhaseWords(p), Step: p.Step, Steps: p.Steps,
		Fraction: f, Part: p.Fraction, Overall: overall,
		Elapsed: elapsed, PartElapsed: p.Elapsed, Left: Left(left, speed),
		Share: share, Cores: m.cores, IdleLeft: idleLeft,
		Verifying: p.Phase == retro.PhaseVerify,
		Work:      p.WorkDone, WorkTotal: p.WorkTotal, PartWork: p.Task.CPUSeconds(),
	}
}

// Speed returns the speed the run measured, relative to the model: the
// model's wall time of what it did over the time that took; 0 before
// anything was reported.
func (m *Meter) Speed() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.done <= 0 || m.at <= 0 {
		return 0
	}
	return m.done / m.at.Seconds()
}
