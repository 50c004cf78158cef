package retro

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"muehle/layers"
)

// The solve record is a file in the database folder
// (layers.DB.RecordPath: k<stones>/solve-record.tsv) to which every
// finished unit of `muehlectl solve` appends one line, so that the figures
// of a database computed over many runs travel with it: `muehlectl report`
// prints them, `muehlectl plan --calibrate` and the cost model's test
// (cost_test.go) compare them with the model. This file is its one writer
// and reader. The fields, separated by tabs:
//
//	finished   UTC time, RFC 3339
//	unit       the unit's name (UnitName): m5-6, m4-4, p3+1-4+0; records
//	           written before it wrote the unit's layers joined by "+"
//	           (5-6+6-5, 4-4), which are read too
//	slots      slots computed (or verified) in the unit
//	seconds    wall-clock seconds of the unit
//	phases     phase=seconds, space separated, in the order they ran:
//	           reach, count, propagate, write, verify:LAYER (one per
//	           layer; Phase)
//	peak       peak resident memory of the unit in MiB
//	workers    goroutines
//	cores      the machine's cores
//	commit     the program's version control revision, or "unknown"

// Record is one line of the solve record: a unit a solver finished.
type Record struct {
	Finished time.Time
	Unit     UnitName
	Slots    uint64
	Seconds  float64
	Phases   []PhaseTime
	PeakMiB  uint64
	Workers  int
	Cores    int
	Commit   string
}

// PhaseTime is the time of one phase of a unit.
type PhaseTime struct {
	Phase   Phase
	Layer   layers.Key // the layer verified, in PhaseVerify
	Seconds float64
}

// name returns the phase's name in the record: "count", "verify:5-6".
func (p PhaseTime) name() string {
	if p.Phase == PhaseVerify {
		return p.Phase.String() + ":" + p.Layer.String()
	}
	return p.Phase.String()
}

// String formats the record as its line, without the newline.
func (r Record) String() string {
	ph := make([]string, len(r.Phases))
	for i, p := range r.Phases {
		ph[i] = fmt.Sprintf("%s=%.3f", p.name(), p.Seconds)
	}
	return strings.Join([]string{r.Finished.UTC().Format(time.RFC3339), string(r.Unit),
		strconv.FormatUint(r.Slots, 10), fmt.Sprintf("%.3f", r.Seconds), strings.Join(ph, " "),
		strconv.FormatUint(r.PeakMiB, 10), strconv.Itoa(r.Workers), strconv.Itoa(r.Cores), r.Commit}, "\t")
}

// ParseRecord reads one line of the solve record.
func ParseRecord(line string) (Record, error) {
	f := strings.Split(line, "\t")
	if len(f) != 9 {
		return Record{}, fmt.Errorf("%d fields, want 9", len(f))
	}
	var r Record
	var err error
	if r.Finished, err = time.Parse(time.RFC3339, f[0]); err != nil {
		return r, err
	}
	if r.Unit, err = ParseUnitName(f[1]); err != nil {
		return r, err
	}
	if r.Slots, err = strconv.ParseUint(f[2], 10, 64); err != nil {
		return r, fmt.Errorf("slots: %w", err)
	}
	if r.Seconds, err = strconv.ParseFloat(f[3], 64); err != nil {
		return r, fmt.Errorf("seconds: %w", err)
	}
	for _, p := range strings.Fields(f[4]) {
		pt, err := parsePhaseTime(p)
		if err != nil {
			return r, err
		}
		r.Phases = append(r.Phases, pt)
	}
	if r.PeakMiB, err = strconv.ParseUint(f[5], 10, 64); err != nil {
		return r, fmt.Errorf("peak: %w", err)
	}
	if r.Workers, err = strconv.Atoi(f[6]); err != nil {
		return r, fmt.Errorf("workers: %w", err)
	}
	if r.Cores, err = strconv.Atoi(f[7]); err != nil {
		return r, fmt.Errorf("cores: %w", err)
	}
	r.Commit = f[8]
	return r, nil
}

// parsePhaseTime reads one phase=seconds field of the phases.
func parsePhaseTime(s string) (PhaseTime, error) {
	bad := fmt.Errorf("phase %q: want name=seconds, the name one of reach, count, propagate, write, verify:LAYER", s)
	name, sec, ok := strings.Cut(s, "=")
	secs, err := strconv.ParseFloat(sec, 64)
	if !ok || err != nil {
		return PhaseTime{}, bad
	}
	name, layer, verify := strings.Cut(name, ":")
	p, ok := parsePhase(name)
	if !ok || verify != (p == PhaseVerify) {
		return PhaseTime{}, bad
	}
	pt := PhaseTime{Phase: p, Seconds: secs}
	if verify {
		if pt.Layer, err = layers.ParseKey(layer); err != nil {
			return PhaseTime{}, bad
		}
	}
	return pt, nil
}

// Phase returns the seconds of the unit's phase p (of all its layers, for
// PhaseVerify).
func (r Record) Phase(p Phase) float64 {
	var s float64
	for _, pt := range r.Phases {
		if pt.Phase == p {
			s += pt.Seconds
		}
	}
	return s
}

// Solving returns the seconds of counting, propagating and writing.
func (r Record) Solving() float64 {
	return r.Phase(PhaseCount) + r.Phase(PhasePropagate) + r.Phase(PhaseWrite)
}

// ReadRecords reads the lines of a solve record; empty lines are passed
// over. A line that cannot be read is an error naming its number (the
// records before it are returned).
func ReadRecords(rd io.Reader) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(rd)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		r, err := ParseRecord(sc.Text())
		if err != nil {
			return out, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// ReadRecordFile reads the solve record at path (ReadRecords); a missing
// file is an empty record.
func ReadRecordFile(path string) ([]Record, error) {
	f, err := layers.OpenRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := ReadRecords(f)
	if err != nil {
		err = fmt.Errorf("%s %w", path, err)
	}
	return recs, err
}

// AppendRecord opens the solve record at path for appending, creating
// its folder and the file when needed.
func AppendRecord(path string) (io.WriteCloser, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return layers.OpenAppendRegular(path)
}

// Latest returns the records with only the last of each unit (a unit
// recorded more than once, by a resumed or repeated run), in the order of
// those last lines.
func Latest(recs []Record) []Record {
	last := map[UnitName]int{}
	for i, r := range recs {
		last[r.Unit] = i
	}
	var out []Record
	for i, r := range recs {
		if last[r.Unit] == i {
			out = append(out, r)
		}
	}
	return out
}
