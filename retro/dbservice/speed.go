package dbservice

import (
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

// runGap is the longest pause between one unit's end and the next one's
// start within one run of a solver: records further apart belong to
// different runs.
const runGap = time.Minute

// LastRun returns the records of the last run in recs (a solve record in
// the order written): the last record and those before it whose next unit
// began within runGap of their end.
func LastRun(recs []layers.Record) []layers.Record {
	i := len(recs) - 1
	for i > 0 && !StartsRun(recs[i-1], recs[i]) {
		i--
	}
	return recs[max(0, i):]
}

// StartsRun reports whether record next, written after prev, begins a
// new run: its unit began more than runGap after prev's ended.
func StartsRun(prev, next layers.Record) bool {
	began := next.Finished.Add(-time.Duration(next.Seconds * float64(time.Second)))
	return began.Sub(prev.Finished) > runGap
}

// SpeedOf returns this machine's speed relative to the model in the
// records recs of variant v, as a time estimate needs it: the model's wall
// time of their units (ModelSeconds, on the workers each ran with) over
// the time they took; and the number of records it counts. A unit the
// model does not know is passed over; so is a record of verifying only
// (no phase but verify), whose model time is VerifyShare of the unit's.
// co says how the layers the units read were kept (retro.CostOptionsFor:
// the reading of compressed ones counts in the model's time; with Held,
// recs are one run's, in order).
func SpeedOf(ix *layers.Indexer, v muehle.Variant, recs []layers.Record, co retro.CostOptions) (float64, int) {
	s := speedsOf(ix, v, recs, co)
	return s.wall, s.n
}

// speeds is what records say of a machine against the model: the model's
// wall time of their units over the time they took (n units), and the
// model's processor time over the processor time recorded (cpuN units,
// those whose record knows it).
type speeds struct {
	wall, cpu float64
	n, cpuN   int
}

// speedsOf measures the speeds of recs as SpeedOf says.
func speedsOf(ix *layers.Indexer, v muehle.Variant, recs []layers.Record, co retro.CostOptions) speeds {
	units := retro.Units(v, retro.SolveOptions{Placement: true})
	var model, took, modelCPU, cpu float64
	var s speeds
	for _, r := range recs {
		u, err := retro.FindUnit(units, string(r.Unit))
		if err != nil || r.Seconds <= 0 {
			continue
		}
		t := retro.Task{Unit: u, Cost: retro.CostAsRecorded(u, retro.UnitCostWith(ix, u, co), r), Compute: r.Solving() > 0 || r.Phase(retro.PhaseReach) > 0}
		model += ModelSeconds(t, r.Workers)
		took += r.Seconds
		s.n++
		if r.CPUKnown && r.CPUSeconds > 0 {
			modelCPU += t.CPUSeconds()
			cpu += r.CPUSeconds
			s.cpuN++
		}
	}
	if s.n == 0 || took <= 0 {
		return speeds{}
	}
	s.wall = model / took
	if s.cpuN > 0 {
		s.cpu = modelCPU / cpu
	}
	return s
}

// MeasuredSpeed returns the speed measured in the last run recorded in
// db's solve record (SpeedOf of LastRun), and the number of units it
// counts: 0 when the record is missing, empty or cannot be read.
func MeasuredSpeed(db *layers.DB) (float64, int) {
	s := lastRunSpeeds(db)
	return s.wall, s.n
}

// MeasuredCPUSpeed returns the model's processor time over the processor
// time of the units of the last run recorded in db's solve record, and the
// number of units it counts (0: none recorded their processor time). It
// is the speed on idle cores: a run that shared the machine, or was
// stopped and went on, took longer but not more processor time.
func MeasuredCPUSpeed(db *layers.DB) (float64, int) {
	s := lastRunSpeeds(db)
	return s.cpu, s.cpuN
}

// lastRunSpeeds measures the last run of db's solve record.
func lastRunSpeeds(db *layers.DB) speeds {
	recs, err := layers.ReadRecordFile(db.RecordPath())
	if err != nil || len(recs) == 0 {
		return speeds{}
	}
	// The layers the units read counted as they lie now (compressed
	// ones cost their reading), as the estimate that uses the speed
	// counts them (retro.Plan).
	co := retro.CostOptionsFor(db, retro.SolveOptions{})
	co.Held = retro.NewHeldLayers(db.Indexer(), db.Variant(), retro.SolveOptions{Placement: true}) // one run, in one process
	return speedsOf(db.Indexer(), db.Variant(), LastRun(recs), co)
}
