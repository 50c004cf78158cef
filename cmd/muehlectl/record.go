package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"muehle/layers"
)

// The solve record is a file in the database folder, k<stones>/solve-record.tsv,
// to which every finished unit of `muehlectl solve` appends one line, so that
// the figures of a database computed over many runs travel with it and
// `muehlectl report` can print them. The fields, separated by tabs:
//
//	finished   UTC time, RFC 3339
//	unit       e.g. 5-6+6-5 or 4-4 or p3+1-4+0
//	slots      slots computed (or verified) in the unit
//	seconds    wall-clock seconds of the unit
//	phases     phase=seconds, space separated: count, propagate, write,
//	           verify:LAYER (one per layer)
//	peak       peak resident memory of the unit in MiB
//	workers    goroutines
//	cores      the machine's cores
//	commit     the program's version control revision, or "unknown"
const recordFile = "solve-record.tsv"

// unitRecord is one line of the solve record.
type unitRecord struct {
	Finished time.Time
	Unit     string
	Slots    uint64
	Seconds  float64
	Phases   []phaseTime
	PeakMiB  uint64
	Workers  int
	Cores    int
	Commit   string
}

// phaseTime is the time of one phase of a unit.
type phaseTime struct {
	Name    string // count, propagate, write, verify:5-6
	Seconds float64
}

// String formats the record as its line, without the newline.
func (r unitRecord) String() string {
	ph := make([]string, len(r.Phases))
	for i, p := range r.Phases {
		ph[i] = fmt.Sprintf("%s=%.3f", p.Name, p.Seconds)
	}
	return strings.Join([]string{r.Finished.UTC().Format(time.RFC3339), r.Unit,
		strconv.FormatUint(r.Slots, 10), fmt.Sprintf("%.3f", r.Seconds), strings.Join(ph, " "),
		strconv.FormatUint(r.PeakMiB, 10), strconv.Itoa(r.Workers), strconv.Itoa(r.Cores), r.Commit}, "\t")
}

// parseRecord reads one line of the solve record.
func parseRecord(line string) (unitRecord, error) {
	f := strings.Split(line, "\t")
	if len(f) != 9 {
		return unitRecord{}, fmt.Errorf("%d fields, want 9", len(f))
	}
	var r unitRecord
	var err error
	if r.Finished, err = time.Parse(time.RFC3339, f[0]); err != nil {
		return r, err
	}
	r.Unit = f[1]
	if r.Slots, err = strconv.ParseUint(f[2], 10, 64); err != nil {
		return r, fmt.Errorf("slots: %w", err)
	}
	if r.Seconds, err = strconv.ParseFloat(f[3], 64); err != nil {
		return r, fmt.Errorf("seconds: %w", err)
	}
	for _, p := range strings.Fields(f[4]) {
		name, sec, ok := strings.Cut(p, "=")
		s, err := strconv.ParseFloat(sec, 64)
		if !ok || err != nil {
			return r, fmt.Errorf("phase %q: want name=seconds", p)
		}
		r.Phases = append(r.Phases, phaseTime{name, s})
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

// solving returns the seconds of count, propagate and write.
func (r unitRecord) solving() float64 {
	return r.phase("count") + r.phase("propagate") + r.phase("write")
}

// phase returns the seconds of the phases whose name is name or starts
// with name+":", summed.
func (r unitRecord) phase(name string) float64 {
	var s float64
	for _, p := range r.Phases {
		if p.Name == name || strings.HasPrefix(p.Name, name+":") {
			s += p.Seconds
		}
	}
	return s
}

// readRecords reads the solve record of the database folder sub (the
// k<stones> folder); a missing file is an empty record. Lines that cannot
// be read are reported, not skipped silently.
func readRecords(sub string) ([]unitRecord, error) {
	f, err := layers.OpenRegular(filepath.Join(sub, recordFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []unitRecord
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		r, err := parseRecord(sc.Text())
		if err != nil {
			return out, fmt.Errorf("%s line %d: %w", filepath.Join(sub, recordFile), n, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// openRecord opens the solve record of the database folder sub for
// appending, creating the folder and the file when needed.
func openRecord(sub string) (io.WriteCloser, error) {
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return nil, err
	}
	return layers.OpenAppendRegular(filepath.Join(sub, recordFile))
}

// commit returns the version control revision the program was built from,
// with "+dirty" when the tree had changes, or "unknown".
func commit() string {
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
