package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"muehle/layers"
	"muehle/retro"
)

// DBEstimate is what a computation will cost: the positions to compute
// (one byte each on disk) and, once this machine's speed has been
// measured, the time.
type DBEstimate struct {
	Units     int           // moving pairs and placement layers to compute
	Positions uint64        // slots of the layers to compute
	Bytes     uint64        // disk space of the new layer files
	Time      time.Duration // 0: not known before a first computation here
}

// String says the estimate in a sentence.
func (e DBEstimate) String() string {
	if e.Units == 0 {
		return "Every layer asked for is already computed."
	}
	s := fmt.Sprintf("%d parts to compute: %s positions, %s on disk", e.Units, count(e.Positions), bytesText(e.Bytes))
	if e.Time > 0 {
		return s + fmt.Sprintf(", about %s on this machine (measured in the last computation).", roughDuration(e.Time))
	}
	return s + ". The time is estimated once the first layer is done here."
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

// computeOptions returns the solver's options for Compute.
func computeOptions(small bool) retro.SolveOptions {
	opts := retro.SolveOptions{Placement: !small}
	if small {
		opts.MaxStones = SmallMaxStones
	}
	return opts
}

// weights returns the positions of each task Solve will run for opts (its
// steps, in order) and their sum.
func weights(db *layers.DB, opts retro.SolveOptions) ([]uint64, uint64) {
	var w []uint64
	var sum uint64
	for _, t := range retro.Plan(db, opts) {
		var n uint64
		for _, k := range t.Keys {
			n += db.Indexer().Layer(k).Size()
		}
		w = append(w, n)
		sum += n
	}
	return w, sum
}

// Estimate returns what Compute(small) would cost. It reads every present
// layer file (to find damaged ones), so it is called off the UI thread.
func (e *DBEngines) Estimate(small bool) (DBEstimate, error) {
	db, err := e.database()
	if err != nil {
		return DBEstimate{}, err
	}
	var est DBEstimate
	for _, t := range retro.Plan(db, computeOptions(small)) {
		if !t.Compute {
			continue
		}
		est.Units++
		for _, k := range t.Keys {
			est.Positions += db.Indexer().Layer(k).Size()
		}
	}
	est.Bytes = est.Positions
	if r := e.Rate(); r > 0 {
		est.Time = time.Duration(float64(est.Positions) / r * float64(time.Second))
	}
	return est, nil
}

// Rate returns the positions per second measured in the last computation,
// 0 when none was measured.
func (e *DBEngines) Rate() float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rate
}

// SetRate sets the measured speed (from the preferences of an earlier run).
func (e *DBEngines) SetRate(r float64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.rate = r
}

// computing returns the layer being computed, ok false when none is.
func (e *DBEngines) computing() (layers.Key, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.busy, e.busyOn
}

// progressFunc returns the solver's progress callback for a run of opts:
// it passes on the step and the whole run (weighted by positions) with
// the time left, notes the layer being computed, and measures the speed.
func (e *DBEngines) progressFunc(db *layers.DB, opts retro.SolveOptions, progress func(DBProgress)) func(retro.Progress) {
	w, total := weights(db, opts)
	start := time.Now()
	step, inStep := 0, 0.0 // the step and the fraction of it done
	return func(p retro.Progress) {
		f := 0.0
		if p.Total > 0 {
			f = float64(p.Done) / float64(p.Total)
		}
		if p.Step != step {
			step, inStep = p.Step, 0
		}
		// A step runs its phases one after another, each from 0 to all of
		// its positions: count, propagate, write, verify. Each is taken
		// as a quarter of the step, and the step's fraction never goes back.
		inStep = max(inStep, (phaseIndex(p.Phase)+f)/4)
		var done float64
		for i := 0; i < p.Step-1 && i < len(w); i++ {
			done += float64(w[i])
		}
		if i := p.Step - 1; i >= 0 && i < len(w) {
			done += float64(w[i]) * inStep
		}
		overall, left := 0.0, time.Duration(-1)
		elapsed := time.Since(start)
		if total > 0 {
			overall = min(1, done/float64(total))
		}
		if overall > 0.01 && elapsed > 5*time.Second {
			left = time.Duration(float64(elapsed) * (1 - overall) / overall)
		}
		e.mu.Lock()
		e.busy, e.busyOn = p.Layer, true
		if elapsed > time.Second && done > 0 {
			e.rate = done / elapsed.Seconds()
		}
		e.mu.Unlock()
		what := "time left: measuring"
		if left >= 0 {
			what = fmt.Sprintf("about %s left", roughDuration(left))
		}
		progress(DBProgress{
			Text:     fmt.Sprintf("%s · part %d of %d: layer %s, %s", what, p.Step, p.Steps, p.Layer, phaseWords(p.Phase)),
			Fraction: f,
			Overall:  overall,
			Left:     left,
		})
	}
}

// phaseIndex returns the place of a phase in a step, from 0 to 3.
func phaseIndex(phase string) float64 {
	switch {
	case phase == "propagate":
		return 1
	case phase == "write":
		return 2
	case strings.HasPrefix(phase, "verify"):
		return 3
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
