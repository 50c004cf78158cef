package main

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"muehle/layers"
	"muehle/retro"
)

// measuredUnit is a unit line of a solve log.
type measuredUnit struct {
	stones int
	name   string // as the log writes it: "3-4+4-3", "4-4", "p2+1-3+0"
	slots  uint64
	wall   time.Duration
	peak   uint64 // bytes
	// workers is the run's number of workers, 0 when the log does not say
	// (--log-workers then).
	workers int
}

var (
	logHeader = regexp.MustCompile(`^database .* \(k=(\d)\):`)
	logUnit   = regexp.MustCompile(`^layer \d+ of \d+\s+(\S+)\s+(\d+) slots in (\S+) \(.*peak memory (\d+) MiB\)`)
)

// readMeasured returns the unit lines of a solve log (what muehlectl solve
// writes when its output is not a terminal), with the stone count of the
// header line before them. A unit that appears more than once (a resumed
// run) counts with its last line; lines of units only verified (0 slots)
// are skipped.
func readMeasured(r io.Reader) ([]measuredUnit, error) {
	var units []measuredUnit
	stones := 0
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if m := logHeader.FindStringSubmatch(line); m != nil {
			stones, _ = strconv.Atoi(m[1])
			continue
		}
		m := logUnit.FindStringSubmatch(line)
		if m == nil || stones == 0 {
			continue
		}
		slots, err1 := strconv.ParseUint(m[2], 10, 64)
		wall, err2 := time.ParseDuration(m[3])
		peak, err3 := strconv.ParseUint(m[4], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || slots == 0 {
			continue
		}
		mu := measuredUnit{stones: stones, name: m[1], slots: slots, wall: wall, peak: peak << 20}
		units = slices.DeleteFunc(units, func(u measuredUnit) bool { return u.stones == stones && u.name == mu.name })
		units = append(units, mu)
	}
	return units, sc.Err()
}

// readRecordUnits returns the units of a solve record (record.go) of a game
// of stones per side, with their workers. A unit recorded more than once
// counts with its last line.
func readRecordUnits(r io.Reader, stones int) ([]measuredUnit, error) {
	var units []measuredUnit
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		rec, err := parseRecord(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		mu := measuredUnit{stones: stones, name: rec.Unit, slots: rec.Slots, workers: rec.Workers,
			wall: time.Duration(rec.Seconds * float64(time.Second)), peak: rec.PeakMiB << 20}
		units = slices.DeleteFunc(units, func(u measuredUnit) bool { return u.name == mu.name })
		units = append(units, mu)
	}
	return units, sc.Err()
}

// readMeasuredFile reads the measured units of a solve log, or of a solve
// record (a .tsv file, of the game of stones per side).
func readMeasuredFile(name string, stones int) ([]measuredUnit, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if strings.HasSuffix(name, ".tsv") {
		return readRecordUnits(f, stones)
	}
	return readMeasured(f)
}

// calibrate compares the cost model with the units measured in the logs or
// solve records (.tsv, of the game of ix's database: stones per side); a
// log's runs had workers goroutines, a record says. For each unit it prints
// the measured and the expected wall time and peak memory, and the ratio;
// then the median and the worst ratio of each.
func calibrate(w io.Writer, ix *layers.Indexer, files []string, stones, workers int) error {
	fmt.Fprintf(w, "%-3s %-14s %12s %10s %10s %6s %9s %9s %6s\n", "k", "unit", "slots", "measured", "model", "ratio", "peak", "model", "ratio")
	var timeRatios, memRatios, bigRatios []float64
	for _, name := range files {
		measured, err := readMeasuredFile(name, stones)
		if err == nil && len(measured) == 0 {
			err = errNoUnitLines
		}
		if err != nil {
			return fmt.Errorf("--calibrate %s: %w", name, err)
		}
		for _, m := range measured {
			first, _, _ := strings.Cut(m.name, "+")
			if strings.HasPrefix(m.name, "p") {
				first = m.name
			}
			u, err := retro.FindUnit(retro.Units(m.stones, retro.SolveOptions{Placement: true}), first)
			if err != nil || u.Slots(ix) != m.slots {
				return fmt.Errorf("--calibrate %s: unit %s of %d slots is not a unit of the k=%d game", name, m.name, m.slots, m.stones)
			}
			c := retro.UnitCost(ix, u)
			model := c.CPUSeconds / float64(cmp.Or(m.workers, workers))
			tr, mr := m.wall.Seconds()/model, float64(m.peak)/float64(c.MemBytes)
			timeRatios, memRatios = append(timeRatios, tr), append(memRatios, mr)
			if m.slots >= bigUnit {
				bigRatios = append(bigRatios, tr)
			}
			fmt.Fprintf(w, "%-3d %-14s %12d %10s %10s %6.2f %9s %9s %6.2f\n", m.stones, m.name, m.slots,
				seconds(m.wall.Seconds()), seconds(model), tr, mib(m.peak), mib(c.MemBytes), mr)
		}
	}
	fmt.Fprintf(w, "%d units; measured/model: time median %.2f (%.2f to %.2f), within 2x for %d; memory median %.2f (%.2f to %.2f)\n",
		len(timeRatios), median(timeRatios), slices.Min(timeRatios), slices.Max(timeRatios), within(timeRatios, 2),
		median(memRatios), slices.Min(memRatios), slices.Max(memRatios))
	if len(bigRatios) > 0 {
		fmt.Fprintf(w, "%d units of at least %d slots: time median %.2f (%.2f to %.2f), within 2x for %d\n",
			len(bigRatios), bigUnit, median(bigRatios), slices.Min(bigRatios), slices.Max(bigRatios), within(bigRatios, 2))
	}
	return nil
}

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

// errNoUnitLines is returned for a --calibrate log without unit lines.
var errNoUnitLines = errors.New("no unit lines (\"layer I of N  UNIT  SLOTS slots in TIME (…; peak memory M MiB)\")")
