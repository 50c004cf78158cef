package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"muehle/layers"
	"muehle/retro"
	"muehle/retro/dbservice"
)

// calibrate compares the cost model with the units of the solve records
// files (layers/record.go), of db's game.
// A unit recorded more than once counts with its last line that solved
// it; one only verified (its solve interrupted before the record) is left
// out. The model counts the reading of the layers a unit needs as they
// lie in db's folder now (compressed ones decoded, retro.CostOptions). A
// unit's time is compared as processor time where its record has
// it (the model's CPUSeconds against the process's over the unit: what
// the unit cost whatever share of a shared machine it got), else as wall
// time (the model's spread over the workers its record says). For each
// unit it prints the measured and the expected time, which of the two,
// and peak memory, and the ratios; then the median and the worst ratio of
// each, and the sums of the units' times by phase and kind of time (what
// a whole run is expected to take against what it took).
func calibrate(w io.Writer, db *layers.DB, files []string) error {
	ix, v := db.Indexer(), db.Variant()
	// The layers the units read counted as they lie in the folder now:
	// the reading of those kept compressed is part of a unit's time.
	co := modelOptions(db, retro.SolveOptions{}, retro.DefaultMemBytes())
	fmt.Fprintf(w, "%-3s %-14s %12s %10s %10s %6s %9s %9s %6s %s\n", "k", "unit", "slots", "measured", "model", "ratio", "peak", "model", "ratio", "time")
	units := retro.Units(v, retro.SolveOptions{Placement: true})
	var timeRatios, memRatios, bigRatios []float64
	var sums [2][3]struct{ measured, model float64 } // by kind of time (wall, processor): moving, placement, all
	var kinds [2]int                                 // units compared by wall time, by processor time
	var read float64                                 // the model's processor seconds of reading compressed layers
	verifiedOnly := 0
	for _, name := range files {
		recs, err := layers.ReadRecordFile(name)
		if err == nil && len(recs) == 0 {
			err = errNoRecords
		}
		if err != nil {
			return inputError("--calibrate", name, layers.MaxRecordBytes, err)
		}
		// A line of 0 slots is a run that only verified the unit (its
		// solve was interrupted before it was recorded): half the work.
		solved := slices.DeleteFunc(slices.Clone(recs), func(r layers.Record) bool { return r.Slots == 0 })
		verifiedOnly += len(layers.Latest(recs)) - len(layers.Latest(solved))
		co.Held = nil
		var prev layers.Record
		for _, r := range layers.Latest(solved) {
			if co.Held == nil || dbservice.StartsRun(prev, r) {
				// A run in one process holds the layers its
				// units read decoded for the next ones.
				co.Held = retro.NewHeldLayers(ix, v, retro.SolveOptions{Placement: true})
			}
			prev = r
			u, err := retro.FindUnit(units, string(r.Unit))
			if err != nil || u.Slots(ix) != r.Slots {
				return fmt.Errorf("--calibrate %s: unit %s of %d slots is not a unit of %s", name, r.Unit, r.Slots, v.Name())
			}
			c := retro.CostAsRecorded(u, retro.UnitCostWith(ix, u, co), r)
			kind, measured, model := 0, r.Seconds, retro.WallSeconds(c.CPUSeconds, r.Workers)
			if r.CPUKnown && r.CPUSeconds > 0 {
				kind, measured, model = 1, r.CPUSeconds, c.CPUSeconds
			}
			kinds[kind]++
			read += c.ReadCPUSeconds
			peak := r.PeakMiB << 20
			tr, mr := measured/model, float64(peak)/float64(c.MemBytes)
			timeRatios, memRatios = append(timeRatios, tr), append(memRatios, mr)
			if r.Slots >= bigUnit {
				bigRatios = append(bigRatios, tr)
			}
			phase := 0
			if u.Placement {
				phase = 1
			}
			for _, i := range []int{phase, 2} {
				sums[kind][i].measured += measured
				sums[kind][i].model += model
			}
			fmt.Fprintf(w, "%-3d %-14s %12d %10s %10s %6.2f %9s %9s %6.2f %s\n", v.Stones, r.Unit, r.Slots,
				seconds(measured), seconds(model), tr, mib(peak), mib(c.MemBytes), mr, timeKinds[kind])
		}
	}
	if verifiedOnly > 0 {
		fmt.Fprintf(w, "%d units left out: the records hold only runs that verified them\n", verifiedOnly)
	}
	fmt.Fprintf(w, "time compared as processor time for %d units (their records have it: what a unit cost, whatever its share of a shared machine), as wall time on the run's workers for %d (records without it)\n",
		kinds[1], kinds[0])
	if read > 0 {
		fmt.Fprintf(w, "the model's times include %s of processor time reading the layers kept compressed in %s (as they lie now)\n", seconds(read), db.Dir())
	}
	fmt.Fprintf(w, "%d units; measured/model: time median %.2f (%.2f to %.2f), within 2x for %d; memory median %.2f (%.2f to %.2f)\n",
		len(timeRatios), median(timeRatios), slices.Min(timeRatios), slices.Max(timeRatios), within(timeRatios, 2),
		median(memRatios), slices.Min(memRatios), slices.Max(memRatios))
	if len(bigRatios) > 0 {
		fmt.Fprintf(w, "%d units of at least %d slots: time median %.2f (%.2f to %.2f), within 2x for %d\n",
			len(bigRatios), bigUnit, median(bigRatios), slices.Min(bigRatios), slices.Max(bigRatios), within(bigRatios, 2))
	}
	for kind := range sums {
		for i, name := range []string{"moving units", "placement units", "all units"} {
			if s := sums[kind][i]; s.model > 0 {
				fmt.Fprintf(w, "%s, summed (%s time): measured %s, model %s, measured/model %.2f\n", name, timeKinds[kind], seconds(s.measured), seconds(s.model), s.measured/s.model)
			}
		}
	}
	return nil
}

// timeKinds names the time a unit is compared by: wall time, or the
// processor time its record has.
var timeKinds = [2]string{"wall", "processor"}

// bigUnit is the size from which a unit's time is mostly its slots' work.
const bigUnit = 1_000_000

// median returns the median of xs.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// within counts the ratios within a factor f of 1.
func within(xs []float64, f float64) int {
	n := 0
	for _, x := range xs {
		if math.Abs(math.Log(x)) <= math.Log(f) {
			n++
		}
	}
	return n
}

// errNoRecords is returned for a --calibrate file without records.
var errNoRecords = errors.New("no solve records (the file is missing or empty; muehlectl solve writes k<K>/solve-record.tsv in the database folder)")
