package ui

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"muehle/layers"
	"muehle/retro"
)

// DBEstimate is what a computation will cost: the parts and positions to
// compute, the disk space, and the time on this machine from the cost
// model of retro/cost.go, scaled by this machine's cores or, once a
// computation has run here long enough, by the speed measured then.
type DBEstimate struct {
	Units     int    // moving pairs and placement layers to compute (or check)
	Positions uint64 // slots of the layers to compute
	Bytes     uint64 // disk space of the new layer files, kept
	TempBytes uint64 // disk space while a part is computed, at most; freed after it
	Time      time.Duration
	Cores     int     // the cores the computation uses
	Speed     float64 // this machine's speed measured in an earlier run, relative to the model; 0: none
}

// Need returns the free disk space the computation needs.
func (e DBEstimate) Need() uint64 { return e.Bytes + e.TempBytes }

// String says the estimate in a few sentences, in lines short enough
// for a dialog.
func (e DBEstimate) String() string {
	if e.Units == 0 {
		return "Every layer asked for is already computed."
	}
	s := fmt.Sprintf("%d parts to compute: %s positions.\nDisk: %s for the layers", e.Units, count(e.Positions), bytesText(e.Bytes))
	if e.TempBytes > 0 {
		s += fmt.Sprintf(", and up to %s more\nwhile a part is computed", bytesText(e.TempBytes))
	}
	s += ".\n"
	if e.Speed > 0 {
		return s + fmt.Sprintf("Time: about %s on this machine, at the speed measured in the\n"+
			"last long computation here: %.2f× the model's, which says %s.\n"+
			"Other programs running at the same time slow it down.",
			roughDuration(e.Time), e.Speed, roughDuration(time.Duration(float64(e.Time)*e.Speed)))
	}
	return s + fmt.Sprintf("Time: about %s on this machine's %d cores. A rough guess:\n"+
		"the times measured on a %d-core machine (partly beside other work),\n"+
		"scaled by the cores; it can be 2 to 4 times off either way. After\n"+
		"the first long computation here, the speed measured then is used.",
		roughDuration(e.Time), e.Cores, retro.CalibrationCores)
}

// diskProblem checks the free disk space for est in dir (free, or ferr
// when it could not be measured). It returns why the computation is
// refused ("" when it is not) and a warning when the space is unknown.
func diskProblem(dir string, est DBEstimate, free uint64, ferr error) (refuse, warn string) {
	need := est.Need()
	if ferr != nil {
		return "", fmt.Sprintf("The free disk space there cannot be measured (%v):\nmake sure %s are free.", ferr, bytesText(need))
	}
	if free < need {
		return fmt.Sprintf("Not enough disk space in\n%s\nThe computation needs about %s (%s for the layers and up to %s\nwhile a part is computed), and %s are free.\n"+
			"Free some space, or choose another folder (Change folder…).",
			dir, bytesText(need), bytesText(est.Bytes), bytesText(est.TempBytes), bytesText(free)), ""
	}
	return "", fmt.Sprintf("Free there: %s.", bytesText(free))
}

// DBProgress is the state of a computation: the part being computed, its
// phase and how far it is, the whole run, and the times.
type DBProgress struct {
	Unit        string // the part's layers: "4-8 + 8-4"
	Phase       string // what it does: "finding wins and losses"
	Step, Steps int    // part Step (from 1) of Steps
	Fraction    float64
	Part        float64 // of the part
	Overall     float64 // of the whole run
	Elapsed     time.Duration
	PartElapsed time.Duration
	Left        time.Duration // -1: not known yet
	// Verifying says the part's layers are written and being checked:
	// stopping now loses only the check.
	Verifying bool
}

// Lines says the progress in two lines: the part, then the whole run.
func (p DBProgress) Lines() string {
	left := "time left: measuring"
	if p.Left >= 0 {
		left = fmt.Sprintf("about %s left", roughDuration(p.Left))
	}
	return fmt.Sprintf("Part %d of %d: %s, %s (%.0f %%)\n%d done, %d to do · %s elapsed · %s",
		p.Step, p.Steps, p.Unit, p.Phase, 100*p.Fraction, p.Step-1, p.Steps-p.Step+1, clock(p.Elapsed), left)
}

// RedoWords says what resuming redoes after the computation stops at p,
// as the end of a sentence that starts "Resume continues, ".
func (p DBProgress) RedoWords() string {
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
	return fmt.Sprintf("%scomputing %s again from its start (%s of work lost).", kept, p.Unit, clock(p.PartElapsed))
}

// count writes n with thousands separators: 1,234,567.
func count(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// bytesText writes n bytes in the largest fitting unit: "3.2 GB".
func bytesText(n uint64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// roughDuration writes d the way a person estimates it: "40 s", "12 min",
// "3.5 hours", "2.1 days".
func roughDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", max(1, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()+0.5))
	case d < 48*time.Hour:
		return fmt.Sprintf("%.1f hours", d.Hours())
	}
	return fmt.Sprintf("%.1f days", d.Hours()/24)
}

// clock writes an elapsed time as hours and minutes, "1:05 h", or minutes
// and seconds, "4:09 min".
func clock(d time.Duration) string {
	s := int(d.Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d h", s/3600, s/60%60)
	}
	return fmt.Sprintf("%d:%02d min", s/60, s%60)
}

// computeOptions returns the solver's options for Compute: the small
// endgames, or the complete database: every moving layer, then the
// placement layers (their classes reachable from the empty board).
func computeOptions(small bool) retro.SolveOptions {
	if small {
		return retro.SolveOptions{MaxStones: SmallMaxStones}
	}
	return retro.SolveOptions{Placement: true}
}

// plannedTask is a task of a run with its expected processor time.
type plannedTask struct {
	retro.Task
	cost retro.Cost // of computing it; a task that only verifies takes VerifyShare of the time
}

// cpuSeconds returns the task's expected processor time.
func (t plannedTask) cpuSeconds() float64 {
	if t.Compute {
		return t.cost.CPUSeconds
	}
	return t.cost.CPUSeconds * retro.VerifyShare
}

// planTasks returns the work Solve will do on db for opts, with the cost
// of each task. It reads every present layer file (retro.Plan).
func planTasks(db *layers.DB, opts retro.SolveOptions) []plannedTask {
	units := map[string]retro.Unit{}
	for _, u := range retro.Units(db.Stones(), opts) {
		units[u.Name] = u
	}
	var out []plannedTask
	for _, t := range retro.Plan(db, opts) {
		out = append(out, plannedTask{t, retro.UnitCostIn(db.Indexer(), units[t.Unit], retro.DefaultMemBytes())})
	}
	return out
}

// estimate sums the cost of tasks on a machine of cores cores whose
// measured speed relative to the model is speed (0: not measured).
func estimate(tasks []plannedTask, cores int, speed float64) DBEstimate {
	est := DBEstimate{Cores: cores, Speed: speed}
	var cpu float64
	for _, t := range tasks {
		est.Units++
		cpu += t.cpuSeconds()
		if t.Compute {
			est.Positions += t.cost.DiskBytes - uint64(len(t.Keys))*layers.HeaderSize
			est.Bytes += t.cost.DiskBytes
			est.TempBytes = max(est.TempBytes, t.cost.TempBytes)
		}
	}
	est.Time = time.Duration(cpu / float64(cores) / cmp.Or(speed, 1.0) * float64(time.Second))
	return est
}

// Estimate returns what Compute(small) would cost. It reads every present
// layer file (to find damaged ones), so it is called off the UI thread.
func (e *DBEngines) Estimate(small bool) (DBEstimate, error) {
	db, err := e.database()
	if err != nil {
		return DBEstimate{}, err
	}
	return estimate(planTasks(db, computeOptions(small)), retro.Workers(0), e.Speed()), nil
}

// Speed returns this machine's speed relative to the cost model, measured
// in the last computation that ran long enough; 0 when none did.
func (e *DBEngines) Speed() float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.speed
}

// SetSpeed sets the measured speed (from the preferences of an earlier run).
func (e *DBEngines) SetSpeed(s float64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.speed = s
}

// computing returns the layer being computed, ok false when none is.
func (e *DBEngines) computing() (layers.Key, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.busy, e.busyOn
}

// minSpeedWork is the work, in the model's processor seconds, a run must
// have done before its speed replaces the model's: the small endgames
// (about 8) and other short runs are mostly start-up, and one slowed
// down by other programs for a few seconds would say little.
const minSpeedWork = 300

// progressFunc returns the solver's progress callback for a run of opts:
// it passes on the part and the whole run (weighted by the expected time
// of the parts) with the time left, notes the layer being computed, and
// measures this machine's speed against the model.
func (e *DBEngines) progressFunc(db *layers.DB, opts retro.SolveOptions, progress func(DBProgress)) func(retro.Progress) {
	tasks := planTasks(db, opts)
	var total float64
	for _, t := range tasks {
		total += t.cpuSeconds()
	}
	cores := retro.Workers(opts.Workers)
	speed := e.Speed()
	start := time.Now()
	step, inStep := 0, 0.0 // the step and the fraction of it done
	return func(p retro.Progress) {
		f := 0.0
		if p.Total > 0 {
			f = min(1, float64(p.Done)/float64(p.Total))
		}
		if p.Step != step {
			step, inStep = p.Step, 0
		}
		var task plannedTask
		if i := p.Step - 1; i >= 0 && i < len(tasks) {
			task = tasks[i]
		}
		// The step's fraction never goes back.
		inStep = max(inStep, stepFraction(task, p.Phase, f))
		var done float64 // expected processor seconds of the work done
		for i := 0; i < p.Step-1 && i < len(tasks); i++ {
			done += tasks[i].cpuSeconds()
		}
		done += task.cpuSeconds() * inStep
		elapsed := time.Since(start)
		overall, left := 0.0, time.Duration(-1)
		if total > 0 {
			overall = min(1, done/total)
		}
		switch {
		case overall > 0.01 && elapsed > 30*time.Second:
			left = time.Duration(float64(elapsed) * (1 - overall) / overall)
		case total > 0:
			left = time.Duration((total - done) / float64(cores) / cmp.Or(speed, 1.0) * float64(time.Second))
		}
		e.mu.Lock()
		e.busy, e.busyOn = p.Layer, true
		if done >= minSpeedWork {
			e.speed = done / float64(cores) / elapsed.Seconds()
		}
		e.mu.Unlock()
		unit := p.Layer.String()
		if len(task.Keys) > 0 {
			unit = retro.Unit{Keys: task.Keys}.String()
		}
		progress(DBProgress{
			Unit: unit, Phase: phaseWords(p.Phase), Step: p.Step, Steps: p.Steps,
			Fraction: f, Part: inStep, Overall: overall,
			Elapsed: elapsed, PartElapsed: p.Elapsed, Left: left,
			Verifying: strings.HasPrefix(p.Phase, "verify"),
		})
	}
}

// The shares of a computed unit's time by phase, for the progress bar:
// counting 30 %, propagating 28 %, writing 2 %, verifying the rest
// (retro.VerifyShare). They are rough: the moving units of the solve
// records in retro/testdata spent 21 to 23 % counting, 36 % propagating,
// under 1 % writing and 40 to 42 % verifying (docs/figures.md).
const (
	shareCount     = 0.30
	sharePropagate = 0.28
	shareWrite     = 0.02
)

// stepFraction returns how much of task is done when phase is at fraction
// f: its phases one after another, each from 0 to all of its positions,
// the verification shared among the task's layers. The first placement
// unit runs the forward pass (phase "reach") before its own phases, for
// the share of its time the cost model gives the pass.
func stepFraction(task plannedTask, phase string, f float64) float64 {
	pass := 0.0
	if task.cost.CPUSeconds > 0 {
		pass = task.cost.ReachCPUSeconds / task.cost.CPUSeconds
	}
	if phase == "reach" {
		return pass * f
	}
	return pass + (1-pass)*unitFraction(task, phase, f)
}

// unitFraction is stepFraction within the unit's own phases.
func unitFraction(task plannedTask, phase string, f float64) float64 {
	n := max(1, len(task.Keys))
	if k, ok := strings.CutPrefix(phase, "verify "); ok {
		i := 0
		for j, key := range task.Keys {
			if key.String() == k {
				i = j
			}
		}
		if !task.Compute {
			i = 0
			for j, key := range task.Verify {
				if key.String() == k {
					i = j
				}
			}
			n = max(1, len(task.Verify))
			return (float64(i) + f) / float64(n)
		}
		base := shareCount + sharePropagate + shareWrite
		return base + (1-base)*(float64(i)+f)/float64(n)
	}
	switch phase {
	case "count":
		if len(task.Keys) == 1 && !task.Keys[0].IsMoving() {
			return (shareCount + sharePropagate) * f // a placement layer is counted, not propagated
		}
		return shareCount * f
	case "propagate":
		return shareCount + sharePropagate*f
	case "write":
		return shareCount + sharePropagate + shareWrite*f
	}
	return 0
}

// phaseWords names a phase of the solver for a person.
func phaseWords(phase string) string {
	switch phase {
	case "count":
		return "counting moves"
	case "propagate":
		return "finding wins and losses"
	case "write":
		return "writing"
	case "reach":
		return "finding the placement positions a game can reach"
	}
	if k, ok := strings.CutPrefix(phase, "verify "); ok {
		return "checking " + k
	}
	return phase
}

// notComputing forgets the layer being computed when a run ends.
func (e *DBEngines) notComputing(context.Context) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.busyOn = false
}

// playerWords says what the perfect player does with the layers present:
// moving of movingAll moving layers and placement of placementAll
// placement layers (damaged ones not counted). The panel wraps the lines.
func playerWords(moving, movingAll, placement, placementAll int) string {
	var b strings.Builder
	b.WriteString("The perfect player:\n")
	switch moving {
	case movingAll:
		b.WriteString("- Moving phase: complete; every move comes from the database.\n")
	case 0:
		b.WriteString("- Moving phase: no layer yet; it plays alpha-beta there.\n")
	default:
		fmt.Fprintf(&b, "- Moving phase: %d of %d layers. Its moves are perfect where the position's layer is present (#); elsewhere it plays alpha-beta.\n",
			moving, movingAll)
	}
	switch {
	case placement == placementAll:
		b.WriteString("- Opening: stored; every placement comes from the database (a position set up by hand that no game can reach is searched over the layers).\n")
	case moving == movingAll:
		fmt.Fprintf(&b, "- Opening: not stored (%d of %d layers). It searches each placement over the moving layers for up to %s, exact, and plays alpha-beta where that is not enough.\n",
			placement, placementAll, roughDuration(PlacementTime))
	default:
		fmt.Fprintf(&b, "- Opening: not stored (%d of %d layers). It searches each placement over the moving layers for up to %s, and plays alpha-beta where the search reaches a missing layer or runs out of time.\n",
			placement, placementAll, roughDuration(PlacementTime))
	}
	b.WriteString("After each alpha-beta move the status line says why.")
	return b.String()
}
