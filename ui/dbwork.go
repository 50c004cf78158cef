package ui

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/play"
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
	// Work, WorkTotal and PartWork measure the run in the cost model's
	// processor seconds: done (the finished parts and the share of this
	// one), planned, and this part's (retro.Progress).
	Work, WorkTotal, PartWork float64
	// Converting says the run converts layers of the older format
	// (Database.Convert): a part is one layer, Overall the share of the
	// bytes done, and Fraction and Part are not known.
	Converting bool
}

// runBase is what a computation did before it was paused or the program
// closed: the parts it finished, the time it ran and the model's
// processor seconds of those parts. The run that resumes it counts on
// from there.
type runBase struct {
	Parts   int
	Elapsed time.Duration
	Work    float64
}

// after returns p, of a run that resumed a computation after base, as
// progress of the whole computation: its parts numbered on from base's,
// its time and its share of the work added to base's.
func (p DBProgress) after(b runBase) DBProgress {
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

// kept returns what stays of the computation when it stops at p: the
// parts before p's, all the time spent, and the work of those parts (p's
// part is done again, or its check).
func (p DBProgress) kept() runBase {
	return runBase{Parts: p.Step - 1, Elapsed: p.Elapsed, Work: max(0, p.Work-p.Part*p.PartWork)}
}

// barPercent writes a share as a person reads it on a progress bar: whole
// percents, with a decimal below 10 % (a long computation stays under 1 %
// for many minutes), "under 0.1 %" at its start, never 100 % before the
// end.
func barPercent(f float64) string {
	switch {
	case f <= 0:
		return "0 %"
	case f < 0.001:
		return "under 0.1 %"
	case f < 0.0995:
		return fmt.Sprintf("%.1f %%", 100*f)
	case f < 1 && f >= 0.995:
		return "99 %"
	}
	return fmt.Sprintf("%.0f %%", 100*f)
}

// Lines says the progress in two lines: the part, then the whole run.
func (p DBProgress) Lines() string {
	left := "time left: measuring"
	if p.Left >= 0 {
		left = fmt.Sprintf("about %s left", roughDuration(p.Left))
	}
	if p.Converting {
		return fmt.Sprintf("Converting layer %d of %d: %s\n%d done, %d to do · %s elapsed · %s",
			p.Step, p.Steps, p.Unit, p.Step-1, p.Steps-p.Step+1, clock(p.Elapsed), left)
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

// estimate sums the cost of tasks (retro.Plan) on a machine of cores
// cores whose measured speed relative to the model is speed (0: not
// measured).
func estimate(tasks []retro.Task, cores int, speed float64) DBEstimate {
	est := DBEstimate{Cores: cores, Speed: speed}
	var cpu float64
	for _, t := range tasks {
		est.Units++
		cpu += t.CPUSeconds()
		if t.Compute {
			est.Positions += t.Cost.DiskBytes - uint64(len(t.Unit.Keys))*layers.HeaderSize
			est.Bytes += t.Cost.DiskBytes
			est.TempBytes = max(est.TempBytes, t.Cost.TempBytes)
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
	return estimate(retro.Plan(db, computeOptions(small)), retro.Workers(0), e.Speed()), nil
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

// computing returns the layer being computed, ok false when none is, and
// whether it is being converted rather than computed.
func (e *DBEngines) computing() (k layers.Key, ok, converting bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.busy, e.busyOn, e.busyConvert
}

// computingIn is computing for the layers of variant v: ok is false while
// the layer computed is one of another variant.
func (e *DBEngines) computingIn(v muehle.Variant) (k layers.Key, ok, converting bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.busy, e.busyOn && e.busyIn == v, e.busyConvert
}

// minSpeedWork is the work, in the model's processor seconds, a run must
// have done before its speed replaces the model's: the small endgames
// (about 8) and other short runs are mostly start-up, and one slowed
// down by other programs for a few seconds would say little.
const minSpeedWork = 300

// progressFunc returns the solver's progress callback for a run of opts:
// it passes on the part and the whole run (as the solver weighs them by
// the parts' expected time, retro.Progress) with the time left, notes the
// layer being computed, and measures this machine's speed against the
// model.
func (e *DBEngines) progressFunc(v muehle.Variant, opts retro.SolveOptions, progress func(DBProgress)) func(retro.Progress) {
	cores := retro.Workers(opts.Workers)
	speed := e.Speed()
	start := time.Now()
	return func(p retro.Progress) {
		f := 0.0
		if p.Total > 0 {
			f = min(1, float64(p.Done)/float64(p.Total))
		}
		elapsed := time.Since(start)
		overall, left := 0.0, time.Duration(-1)
		if p.WorkTotal > 0 {
			overall = min(1, p.WorkDone/p.WorkTotal)
		}
		switch {
		case overall > 0.01 && elapsed > 30*time.Second:
			left = time.Duration(float64(elapsed) * (1 - overall) / overall)
		case p.WorkTotal > 0:
			left = time.Duration(max(0, p.WorkTotal-p.WorkDone) / float64(cores) / cmp.Or(speed, 1.0) * float64(time.Second))
		}
		e.mu.Lock()
		e.busy, e.busyOn, e.busyIn = p.Layer, true, v
		if p.WorkDone >= minSpeedWork {
			e.speed = p.WorkDone / float64(cores) / elapsed.Seconds()
		}
		e.mu.Unlock()
		unit := p.Layer.String()
		if len(p.Task.Unit.Keys) > 0 {
			unit = p.Task.Unit.String()
		}
		progress(DBProgress{
			Unit: unit, Phase: phaseWords(p), Step: p.Step, Steps: p.Steps,
			Fraction: f, Part: p.Fraction, Overall: overall,
			Elapsed: elapsed, PartElapsed: p.Elapsed, Left: left,
			Verifying: p.Phase == retro.PhaseVerify,
			Work:      p.WorkDone, WorkTotal: p.WorkTotal, PartWork: p.Task.CPUSeconds(),
		})
	}
}

// phaseWords names the phase of p for a person.
func phaseWords(p retro.Progress) string {
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

// notComputing forgets the layer being computed when a run ends.
func (e *DBEngines) notComputing(context.Context) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.busyOn, e.busyConvert = false, false
	e.recheckReads()
}

// playerWords says what the perfect player of variant v does with the
// layers present: moving of movingAll moving layers and placement of
// placementAll layers with stones in hand (damaged ones not counted). The
// panel wraps the lines.
func playerWords(v muehle.Variant, moving, movingAll, placement, placementAll int) string {
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
	case v.Rules().Mixed && placement == placementAll:
		b.WriteString("- Stones in hand: complete; every placement and move comes from the database.\n")
	case v.Rules().Mixed:
		// No placement phase to search over: the layers with stones in
		// hand are solved in pairs like the moving ones.
		fmt.Fprintf(&b, "- Stones in hand: %d of %d layers. Its moves are perfect where the position's layer is present; elsewhere it plays alpha-beta.\n",
			placement, placementAll)
	case placement == placementAll:
		b.WriteString("- Opening: stored; every placement comes from the database (a position set up by hand that no game can reach is searched over the layers).\n")
	case moving == movingAll:
		fmt.Fprintf(&b, "- Opening: not stored (%d of %d layers). It searches each placement over the moving layers for up to %s, exact, and plays alpha-beta where that is not enough.\n",
			placement, placementAll, roughDuration(play.PlacementTime))
	default:
		fmt.Fprintf(&b, "- Opening: not stored (%d of %d layers). It searches each placement over the moving layers for up to %s, and plays alpha-beta where the search reaches a missing layer or runs out of time.\n",
			placement, placementAll, roughDuration(play.PlacementTime))
	}
	b.WriteString("After each alpha-beta move the status line says why.")
	return b.String()
}
