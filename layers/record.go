package layers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The solve record is a file in the database folder
// (DB.RecordPath: k<stones>/solve-record.tsv) to which every finished unit
// of `muehlectl solve` and of the window's computations appends one line
// (retro/dbservice's Recorder), so that the figures of a database computed
// over many runs travel with it: `muehlectl report` prints them, the next
// estimate runs at the speed they measured,
// `muehlectl plan --calibrate` and the solver's cost model
// (retro/cost_test.go) compare them with the model, a package carries it
// and an import merges its valid lines (MergeRecord). This file is its one
// writer, reader and validator. The fields, separated by tabs:
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
//	peak       peak resident memory of the process during the unit in MiB
//	           (Linux: VmHWM, reset as the unit begins): its own memory
//	           and the pages of the layer files it reads in place. Lines
//	           of a compressed solve before commit a5d61a1 count the
//	           layers the units decoded once more for each unit (up to
//	           more than the machine's memory)
//	workers    goroutines
//	cores      the machine's cores
//	commit     the program's version control revision, or "unknown"
//	cpu        processor seconds of the process over the unit, user and
//	           system, all its threads (CPUTime: getrusage, or
//	           GetProcessTimes on Windows); left out where not measured,
//	           as in the records written before the field (nine fields,
//	           read so: issue 53, 2026-11-29). Beside seconds it
//	           tells a unit that had a small share of the processors
//	           (a shared machine, nice) from one that was slow: cpu over
//	           seconds is the cores it used

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
	// CPUSeconds is the processor time of the process over the unit,
	// when CPUKnown (records before the field, and systems where it is
	// not read, have none).
	CPUSeconds float64
	CPUKnown   bool
}

// CoresUsed returns the cores the unit used on average (processor time over
// wall time) and whether the record knows it.
func (r Record) CoresUsed() (float64, bool) {
	if !r.CPUKnown || r.Seconds <= 0 {
		return 0, false
	}
	return r.CPUSeconds / r.Seconds, true
}

// PhaseTime is the time of one phase of a unit.
type PhaseTime struct {
	Phase   Phase
	Layer   Key // the layer verified, in PhaseVerify
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
	f := []string{r.Finished.UTC().Format(time.RFC3339), string(r.Unit),
		strconv.FormatUint(r.Slots, 10), fmt.Sprintf("%.3f", r.Seconds), strings.Join(ph, " "),
		strconv.FormatUint(r.PeakMiB, 10), strconv.Itoa(r.Workers), strconv.Itoa(r.Cores), r.Commit}
	if r.CPUKnown {
		f = append(f, fmt.Sprintf("%.3f", r.CPUSeconds))
	}
	return strings.Join(f, "\t")
}

// ParseRecord reads one line of the solve record: ten fields, or nine
// (no processor time) as the records before that field wrote them.
func ParseRecord(line string) (Record, error) {
	f := strings.Split(line, "\t")
	if len(f) != 9 && len(f) != 10 {
		return Record{}, fmt.Errorf("%d fields, want 9 or 10", len(f))
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
	if r.Seconds, err = parseSeconds(f[3]); err != nil {
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
	if r.Workers < 1 || r.Cores < 1 {
		return r, fmt.Errorf("workers %d, cores %d: want at least 1", r.Workers, r.Cores)
	}
	if !validCommit(f[8]) {
		return r, fmt.Errorf("commit %q: want a hexadecimal revision (+dirty) or unknown", f[8])
	}
	r.Commit = f[8]
	if len(f) == 10 {
		if r.CPUSeconds, err = parseSeconds(f[9]); err != nil {
			return r, fmt.Errorf("cpu: %w", err)
		}
		r.CPUKnown = true
	}
	return r, nil
}

// parseSeconds reads a non-negative, finite number of seconds.
func parseSeconds(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a time", s)
	}
	return v, nil
}

// validCommit reports whether s is what commit fields hold: "unknown" or
// a hexadecimal revision of up to 40 digits, "+dirty" appended when the
// tree had changes.
func validCommit(s string) bool {
	if s == "unknown" {
		return true
	}
	s = strings.TrimSuffix(s, "+dirty")
	if s == "" || len(s) > 40 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// parsePhaseTime reads one phase=seconds field of the phases.
func parsePhaseTime(s string) (PhaseTime, error) {
	bad := fmt.Errorf("phase %q: want name=seconds, the name one of reach, count, propagate, write, verify:LAYER", s)
	name, sec, ok := strings.Cut(s, "=")
	secs, err := parseSeconds(sec)
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
		if pt.Layer, err = ParseKey(layer); err != nil {
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

// MaxRecordBytes bounds a solve record: a folder's, read by ReadRecords,
// and a package's, merged by MergeRecord. A unit's line takes about 200
// bytes, so the 1,000 units of the standard game take 200 KB.
const MaxRecordBytes = 16 << 20

// byteOrderMark is the UTF-8 byte-order mark some editors write first; it
// is no part of a record's first line.
const byteOrderMark = "\uFEFF"

// maxRecordLine bounds one line of a solve record (a placement unit's
// line is under 300 bytes).
const maxRecordLine = 4096

// ReadRecords reads the lines of a solve record, at most MaxRecordBytes;
// empty lines are passed over. A line that cannot be read is an error
// naming its number (the records before it are returned).
func ReadRecords(rd io.Reader) ([]Record, error) {
	var out []Record
	lr := &io.LimitedReader{R: rd, N: MaxRecordBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(nil, maxRecordLine)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, byteOrderMark)
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		r, err := ParseRecord(line)
		if err != nil {
			return out, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("line %d: %w", len(out)+1, err)
	}
	if lr.N == 0 {
		return out, fmt.Errorf("%w: a solve record of more than %d bytes", ErrFormat, MaxRecordBytes)
	}
	return out, nil
}

// MergeRecord gives the solve record at path the valid lines of rec (a
// package's record, untrusted) it lacks, appended: a line ParseRecord
// refuses, or one with any byte it would not write, is left out and
// counted in refused. rec over MaxRecordBytes is refused whole, as is a
// merge that would make the record longer. An existing record that cannot be read is
// kept as it is (its lines are compared as text).
func MergeRecord(path string, rec []byte) (added, refused int, err error) {
	if len(rec) > MaxRecordBytes {
		return 0, 0, fmt.Errorf("%w: a solve record of %d bytes, more than %d", ErrFormat, len(rec), MaxRecordBytes)
	}
	old, err := ReadRegular(path, MaxRecordBytes)
	if errors.Is(err, os.ErrNotExist) {
		old, err = nil, nil
	}
	if err != nil {
		return 0, 0, err
	}
	rec = bytes.TrimPrefix(rec, []byte(byteOrderMark))
	have := map[string]bool{}
	for _, line := range strings.Split(string(old), "\n") {
		have[line] = true
	}
	var add bytes.Buffer
	for _, line := range strings.Split(string(rec), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		r, perr := ParseRecord(line)
		if perr != nil || len(line) > maxRecordLine || !utf8.ValidString(line) || strings.ContainsFunc(line, unprintable) || r.Finished.After(time.Now().Add(24*time.Hour)) {
			refused++
			continue
		}
		if !have[line] {
			have[line] = true
			add.WriteString(line + "\n")
			added++
		}
	}
	if added == 0 {
		return 0, refused, nil
	}
	if len(old)+add.Len()+1 > MaxRecordBytes {
		return 0, refused, fmt.Errorf("%w: the solve record would grow past %d bytes", ErrFormat, MaxRecordBytes)
	}
	out := add.Bytes()
	if len(old) > 0 && old[len(old)-1] != '\n' {
		out = append([]byte("\n"), out...)
	}
	// Appended in one write, as a solver appends its lines (AppendRecord),
	// so that one running in the folder loses none of its own.
	f, err := AppendRecord(path)
	if err != nil {
		return 0, refused, err
	}
	_, err = f.Write(out)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return added, refused, err
}

// unprintable reports a control character other than the tab.
func unprintable(r rune) bool { return r != '\t' && (r < ' ' || r == 0x7f || r == utf8.RuneError) }

// ReadRecordFile reads the solve record at path (ReadRecords); a missing
// file is an empty record.
func ReadRecordFile(path string) ([]Record, error) {
	f, err := OpenRegular(path)
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
	return OpenAppendRegular(path)
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

// UnitName is the one name of a unit: "m3-4" for the pair 3-4 + 4-3 (the
// layer with w ≤ b first), "m4-4", "p5+2-4+2" for a placement layer. Claims
// (DB.ClaimPath), the command line, batch jobs, the solve record and
// Progress use it; Unit.String gives the unit's layers for people.
type UnitName string

// UnitOf returns the name of the unit that computes layer k.
func UnitOf(k Key) UnitName {
	if !k.IsMoving() {
		return UnitName(k.String())
	}
	w, b := min(k.W, k.B), max(k.W, k.B)
	return UnitName(fmt.Sprintf("m%d-%d", w, b))
}

// ParseUnitName reads a unit's name: its own ("m3-4", "p5+2-4+2"), or as
// solve records before this name wrote it, its layers joined by "+"
// ("3-4+4-3", "4-4"). It checks the form, not that the game has the unit.
func ParseUnitName(s string) (UnitName, error) {
	first := s
	switch {
	case strings.HasPrefix(s, "p"):
	case strings.HasPrefix(s, "m"):
		first = s[1:]
	default:
		first, _, _ = strings.Cut(s, "+")
	}
	k, err := ParseKey(first)
	if err != nil {
		return "", fmt.Errorf("layers: unit name %q: %w", s, err)
	}
	n := UnitOf(k)
	if strings.HasPrefix(s, "m") || strings.HasPrefix(s, "p") {
		if n != UnitName(s) {
			return "", fmt.Errorf("layers: unit name %q: want %s", s, n)
		}
		return n, nil
	}
	if want := layersText(k); s != want {
		return "", fmt.Errorf("layers: unit name %q: want %s or %s", s, n, want)
	}
	return n, nil
}

// layersText writes the layers of the unit of moving layer k as solve
// records before UnitName wrote them: "3-4+4-3", "4-4".
func layersText(k Key) string {
	if k.W != k.B {
		return fmt.Sprintf("%s+%d-%d", k, k.B, k.W)
	}
	return k.String()
}

// Phase is a phase of a unit's computation. The window and muehlectl
// switch on these constants, so renaming or removing one breaks their
// build, not their progress bars.
type Phase int

// The phases of a unit, in the order they run. A moving pair counts,
// propagates, writes and verifies its layers; a placement layer counts
// (its sweep), writes and verifies; the first placement unit of the
// reachable sweep runs the forward pass (PhaseReach) before.
const (
	PhaseReach     Phase = iota + 1 // the forward pass marking the reachable placement classes
	PhaseCount                      // count the successors (a placement layer: its whole sweep)
	PhasePropagate                  // work the lists through by depth
	PhaseWrite                      // write the layer files
	PhaseVerify                     // verify one layer (Progress.Verifying)
	// PhaseDone is the last report of a unit: it is complete (and
	// verified, unless SkipVerify is set). A unit that stops without it
	// was interrupted.
	PhaseDone
)

// phaseNames are the names of the phases in the solve record and the log.
var phaseNames = [...]string{PhaseReach: "reach", PhaseCount: "count", PhasePropagate: "propagate",
	PhaseWrite: "write", PhaseVerify: "verify", PhaseDone: "done"}

// String returns the phase's name: "reach", "count", "propagate",
// "write", "verify", "done".
func (p Phase) String() string {
	if p > 0 && int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("phase(%d)", int(p))
}

// parsePhase returns the phase called name (Phase.String).
func parsePhase(name string) (Phase, bool) {
	for p, n := range phaseNames {
		if n != "" && n == name {
			return Phase(p), true
		}
	}
	return 0, false
}
