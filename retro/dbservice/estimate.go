package dbservice

import (
	"cmp"
	"fmt"
	"time"

	"muehle/layers"
	"muehle/retro"
)

// Estimate is what a computation will cost: the parts and positions to
// compute, the disk space, and the time on this machine from the cost
// model of retro/cost.go, scaled by this machine's cores and by the speed
// measured here: in this folder's solve record, else in the machine's
// last run, else by the share of the cores the machine's load leaves.
type Estimate struct {
	Units     int    // moving pairs and placement layers to compute (or check)
	Positions uint64 // slots of the layers to compute
	Bytes     uint64 // disk space of the new layer files, kept
	TempBytes uint64 // disk space while a part is computed, at most; freed after it
	Time      time.Duration
	Cores     int     // the cores the computation uses
	Speed     float64 // this machine's speed measured in an earlier run, relative to the model; 0: none
	// Measured is the number of parts of this folder's solve record
	// Speed was measured on (MeasuredSpeed); 0 when Speed comes from the
	// machine's last run in another folder, or there is none.
	Measured int
	// Load is the machine's load average when nothing was measured
	// (Speed 0): the time is the model's at the share of the cores left
	// beside it (loadShare). 0: not known, or a measured speed is used.
	Load float64
	// Compressed says the layers are kept compressed once verified
	// (SolveOptions.Compress): Bytes is their size so, TempBytes counts
	// the largest part lying flat until then.
	Compressed bool
	largest    uint64 // the layer files of the largest part, flat
}

// KeptCompressed returns e for layers kept compressed once verified: the
// layers at retro.CompressedShare of their flat size, and the largest
// part's flat files on top of its work lists while it is computed, and
// keptFlat, what the layers kept flat for their placement parents take at
// the most beyond compressed (retro.PlanKeptFlat).
func (e Estimate) KeptCompressed(keptFlat uint64) Estimate {
	if e.Compressed {
		return e
	}
	e.Compressed = true
	kept, peak := retro.KeptCompressed(e.Bytes, e.largest, e.TempBytes, keptFlat)
	e.Bytes, e.TempBytes = kept, peak-kept
	return e
}

// Need returns the free disk space the computation needs.
func (e Estimate) Need() uint64 { return e.Bytes + e.TempBytes }

// model returns the time the model alone says: without the speed
// measured or the load.
func (e Estimate) model() time.Duration {
	switch {
	case e.Speed > 0:
		return time.Duration(float64(e.Time) * e.Speed)
	case e.Load > 0:
		return time.Duration(float64(e.Time) * loadShare(e.Load, e.Cores, e.Cores))
	}
	return e.Time
}

// String says the estimate in a few sentences, in lines short enough
// for a dialog.
func (e Estimate) String() string {
	if e.Units == 0 {
		return "Every layer asked for is already computed."
	}
	s := fmt.Sprintf("%d parts to compute: %s positions.\nDisk: %s for the layers", e.Units, Count(e.Positions), Bytes(e.Bytes))
	if e.Compressed {
		s += " (kept compressed)"
	}
	if e.TempBytes > 0 {
		s += fmt.Sprintf(", and up to %s more\nwhile a part is computed", Bytes(e.TempBytes))
	}
	s += ".\n"
	model := Rough(e.model())
	switch {
	case e.Speed > 0 && e.Measured > 0:
		return s + fmt.Sprintf("Time: about %s on this machine, at the speed measured when the\n"+
			"last %d parts of this folder were computed: %.2f× the model's,\n"+
			"which says %s.\nOther programs running at the same time slow it down.",
			Rough(e.Time), e.Measured, e.Speed, model)
	case e.Speed > 0:
		return s + fmt.Sprintf("Time: about %s on this machine, at the speed measured in the\n"+
			"last computation here: %.2f× the model's, which says %s.\n"+
			"Other programs running at the same time slow it down.",
			Rough(e.Time), e.Speed, model)
	case e.Load > 0 && loadShare(e.Load, e.Cores, e.Cores) < 1:
		return s + fmt.Sprintf("Time: about %s on this machine's %d cores, busy now (load %.1f):\n"+
			"the model's %s at the share of the cores left. A rough guess: the\n"+
			"model's times are of a %d-core machine; it can be 2 to 4 times off.\n"+
			"After the first computation here, the speed measured then is used.",
			Rough(e.Time), e.Cores, e.Load, model, retro.CalibrationCores)
	}
	return s + fmt.Sprintf("Time: about %s on this machine's %d cores. A rough guess:\n"+
		"the times measured on a %d-core machine (partly beside other work),\n"+
		"scaled by the cores; it can be 2 to 4 times off either way. After\n"+
		"the first computation here, the speed measured then is used.",
		Rough(e.Time), e.Cores, retro.CalibrationCores)
}

// DiskProblem checks the free disk space for e in dir (free, or ferr when
// it could not be measured). It returns why the computation is refused
// ("" when it is not) and a warning when the space is unknown.
func (e Estimate) DiskProblem(dir string, free uint64, ferr error) (refuse, warn string) {
	need := e.Need()
	if ferr != nil {
		return "", fmt.Sprintf("The free disk space there cannot be measured (%v):\nmake sure %s are free.", ferr, Bytes(need))
	}
	if free < need {
		return fmt.Sprintf("Not enough disk space in\n%s\nThe computation needs about %s (%s for the layers and up to %s\nwhile a part is computed), and %s are free.\n"+
			"Free some space, or choose another folder (Change folder…).",
			dir, Bytes(need), Bytes(e.Bytes), Bytes(e.TempBytes), Bytes(free)), ""
	}
	return "", fmt.Sprintf("Free there: %s.", Bytes(free))
}

// ModelSeconds returns the wall time of task t on cores cores at the
// model's speed: its processor time spread over the cores
// (retro.WallSeconds).
func ModelSeconds(t retro.Task, cores int) float64 {
	return retro.WallSeconds(t.CPUSeconds(), cores)
}

// EstimateTasks sums the cost of tasks (retro.Plan) on a machine of cores
// cores whose measured speed relative to the model is speed (0: not
// measured).
func EstimateTasks(tasks []retro.Task, cores int, speed float64) Estimate {
	est := Estimate{Cores: cores, Speed: speed}
	var wall float64
	for _, t := range tasks {
		est.Units++
		wall += ModelSeconds(t, cores)
		if t.Compute {
			est.Positions += t.Cost.DiskBytes - uint64(len(t.Unit.Keys))*layers.HeaderSize
			est.Bytes += t.Cost.DiskBytes
			est.TempBytes = max(est.TempBytes, t.Cost.TempBytes)
			est.largest = max(est.largest, t.Cost.DiskBytes)
		}
	}
	est.Time = time.Duration(wall / cmp.Or(speed, 1.0) * float64(time.Second))
	return est
}

// EstimateFor returns what solving opts in db would cost: the plan of
// retro.Plan (which reads every present layer file to find damaged ones)
// at the speed measured in the last run of db's solve record, else at
// machine (the speed of the machine's last run elsewhere), else at the
// share of the cores the machine's load leaves.
func EstimateFor(db *layers.DB, opts retro.SolveOptions, machine float64) Estimate {
	speed, n, load := StartSpeed(db, opts, machine)
	tasks := retro.Plan(db, opts)
	est := EstimateTasks(tasks, retro.Workers(opts.Workers), speed)
	if n == 0 && machine == 0 {
		est.Speed, est.Load = 0, load
	}
	est.Measured = n
	if opts.Compress {
		est = est.KeptCompressed(retro.PlanKeptFlat(db.Indexer(), tasks))
	}
	return est
}

// StartSpeed returns the speed relative to the model a run of opts in db
// begins with: measured in the last run of db's solve record (n its
// units), else machine (the machine's last run elsewhere, 0: none), else
// the share of the cores left beside the load average load (0: not
// known).
func StartSpeed(db *layers.DB, opts retro.SolveOptions, machine float64) (speed float64, n int, load float64) {
	if speed, n = MeasuredSpeed(db); n > 0 {
		return speed, n, 0
	}
	if machine > 0 {
		return machine, 0, 0
	}
	if l, ok := Load(); ok {
		w := retro.Workers(opts.Workers)
		return loadShare(l, w, w), 0, l
	}
	return 0, 0, 0
}
