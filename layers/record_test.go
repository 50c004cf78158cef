package layers

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestOldRecordsParse reads the solve records checked in under testdata,
// written before the record named units by UnitName (their units read
// "3-4+4-3", "4-4", "p2+1-3+0"): every line parses, the units get their
// names, and each record written again and read back is the same.
func TestOldRecordsParse(t *testing.T) {
	for _, tc := range []struct {
		file  string
		lines int
	}{
		{"../retro/testdata/solve-record-k9-idle-2026-11-24.tsv", 525},
		{"../retro/testdata/solve-record-k9.tsv", 525},
		{"../retro/testdata/solve-record-k5.tsv", 73},
		{"../retro/testdata/solve-record-lasker-k10-2026-11-29.tsv", 17}, // the Lasker campaign's, before the processor time
	} {
		recs, err := ReadRecordFile(tc.file)
		if err != nil || len(recs) != tc.lines {
			t.Fatalf("%s: got %d records, %v; want %d", tc.file, len(recs), err, tc.lines)
		}
		for _, r := range recs {
			again, err := ParseRecord(r.String())
			if err != nil || again.String() != r.String() || again.Unit != r.Unit || len(again.Phases) != len(r.Phases) || r.CPUKnown {
				t.Errorf("%s: %q read back: got %q, %v", tc.file, r.String(), again.String(), err)
			}
		}
	}
	recs, _ := ReadRecordFile("../retro/testdata/solve-record-k9-idle-2026-11-24.tsv")
	r := recs[1] // 2026-11-24T13:23:05Z 3-4+4-3 1592772 0.796 count=0.163 propagate=0.075 write=0.006 verify:3-4=0.384 verify:4-3=0.073 403 2 2 cc0ed0b8118f
	want := Record{Finished: time.Date(2026, 11, 24, 13, 23, 5, 0, time.UTC), Unit: "m3-4", Slots: 1592772, Seconds: 0.796,
		Phases: []PhaseTime{{PhaseCount, Key{}, 0.163}, {PhasePropagate, Key{}, 0.075}, {PhaseWrite, Key{}, 0.006},
			{PhaseVerify, Key{W: 3, B: 4}, 0.384}, {PhaseVerify, Key{W: 4, B: 3}, 0.073}},
		PeakMiB: 403, Workers: 2, Cores: 2, Commit: "cc0ed0b8118f"}
	if !r.Finished.Equal(want.Finished) || r.Unit != want.Unit || r.Slots != want.Slots || r.Seconds != want.Seconds ||
		!slices.Equal(r.Phases, want.Phases) || r.PeakMiB != want.PeakMiB || r.Workers != want.Workers || r.Cores != want.Cores || r.Commit != want.Commit {
		t.Errorf("line 2: got %+v, want %+v", r, want)
	}
	if got, want := r.String(), "2026-11-24T13:23:05Z\tm3-4\t1592772\t0.796\tcount=0.163 propagate=0.075 write=0.006 verify:3-4=0.384 verify:4-3=0.073\t403\t2\t2\tcc0ed0b8118f"; got != want {
		t.Errorf("line 2 written again: got %q, want %q", got, want)
	}
	if got, want := r.Phase(PhaseVerify), 0.384+0.073; got != want {
		t.Errorf("verify seconds: got %v, want %v", got, want)
	}
	if got, want := r.Solving(), 0.163+0.075+0.006; got != want {
		t.Errorf("solving seconds: got %v, want %v", got, want)
	}
}

// TestRecordProcessorTime checks the tenth field, the unit's processor
// time: written when known and read back, left out when not, so that a
// line without it reads as the records before it wrote them.
func TestRecordProcessorTime(t *testing.T) {
	old := "2026-11-29T10:26:32Z\tm6-6\t157254464\t1124.368\tcount=363.608 propagate=377.441 write=4.597 verify:6-6=380.552\t1891\t2\t2\t83f080889554"
	r, err := ParseRecord(old)
	if err != nil || r.CPUKnown || r.CPUSeconds != 0 {
		t.Fatalf("ParseRecord(%q): got %+v, %v; want no processor time", old, r, err)
	}
	if _, ok := r.CoresUsed(); ok {
		t.Errorf("CoresUsed of a line without processor time: got ok, want not known")
	}
	if got := r.String(); got != old {
		t.Errorf("written again: got %q, want %q", got, old)
	}
	r.CPUSeconds, r.CPUKnown = 250.5, true
	line := r.String()
	if want := old + "\t250.500"; line != want {
		t.Errorf("with processor time: got %q, want %q", line, want)
	}
	again, err := ParseRecord(line)
	if err != nil || !again.CPUKnown || again.CPUSeconds != 250.5 || again.String() != line {
		t.Errorf("ParseRecord(%q): got %+v, %v; want 250.5 processor seconds", line, again, err)
	}
	if used, ok := again.CoresUsed(); !ok || used < 0.2227 || used > 0.2229 {
		t.Errorf("CoresUsed: got %v, %v; want 250.5/1124.368 = 0.2228", used, ok)
	}
	for _, bad := range []string{old + "\t", old + "\t-1", old + "\tNaN", old + "\t1\t2"} {
		if r, err := ParseRecord(bad); err == nil {
			t.Errorf("ParseRecord(%q): got %+v, want an error", bad, r)
		}
	}
}

// TestParseRecordRefuses checks that lines a solve record cannot hold are
// refused with an error.
func TestParseRecordRefuses(t *testing.T) {
	good := "2026-11-24T13:23:05Z\tm3-4\t1592772\t0.796\tcount=0.163 verify:3-4=0.384\t403\t2\t2\tcc0ed0b8118f"
	if _, err := ParseRecord(good); err != nil {
		t.Fatalf("ParseRecord(%q): %v", good, err)
	}
	for _, bad := range []string{
		"",
		strings.Replace(good, "\tm3-4\t", "\tm4-3\t", 1),              // not a unit's name
		strings.Replace(good, "\tm3-4\t", "\t3-4+3-4\t", 1),           // not the layers of a unit
		strings.Replace(good, "count=", "counting=", 1),               // no such phase
		strings.Replace(good, "verify:3-4=", "verify=", 1),            // verify without its layer
		strings.Replace(good, "count=", "count:3-4=", 1),              // a layer on another phase
		strings.Replace(good, "0.796", "fast", 1),                     // seconds
		strings.Replace(good, "\tcc0ed0b8118f", "", 1),                // 8 fields
		strings.Replace(good, "2026-11-24T13:23:05Z", "yesterday", 1), // time
	} {
		if r, err := ParseRecord(bad); err == nil {
			t.Errorf("ParseRecord(%q): got %+v, want an error", bad, r)
		}
	}
}

// TestUnitNames checks the one name of a unit, read from each form a
// solve record has held.
func TestUnitNames(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"m3-4", "m3-4"}, {"3-4+4-3", "m3-4"}, {"4-3+3-4", "m3-4"}, {"4-4", "m4-4"}, {"m4-4", "m4-4"},
		{"p2+1-3+0", "p2+1-3+0"},
	} {
		if got, err := ParseUnitName(tc.in); err != nil || string(got) != tc.want {
			t.Errorf("ParseUnitName(%q): got %q, %v, want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "m4-3", "3-4", "3-4+4-4", "x", "m", "p2+1-3"} {
		if got, err := ParseUnitName(bad); err == nil {
			t.Errorf("ParseUnitName(%q): got %q, want an error", bad, got)
		}
	}
	if got := UnitOf(Key{W: 5, B: 4}); got != "m4-5" {
		t.Errorf("UnitOf(5-4): got %q, want m4-5", got)
	}
}

// TestLatest checks that a unit recorded twice counts with its last line.
func TestLatest(t *testing.T) {
	recs := []Record{{Unit: "m3-3", Slots: 1}, {Unit: "m3-4", Slots: 2}, {Unit: "m3-3", Slots: 3}}
	got := Latest(recs)
	if len(got) != 2 || got[0].Unit != "m3-4" || got[1].Slots != 3 {
		t.Errorf("Latest: got %+v, want m3-4 then m3-3 of 3 slots", got)
	}
}

// TestPhaseNamesRead checks that every phase's name in the solve record
// reads back as the phase.
func TestPhaseNamesRead(t *testing.T) {
	for _, p := range []Phase{PhaseReach, PhaseCount, PhasePropagate, PhaseWrite, PhaseVerify} {
		if q, ok := parsePhase(p.String()); !ok || q != p {
			t.Errorf("parsePhase(%q): got %v, %v, want %v", p.String(), q, ok, p)
		}
	}
}

// FuzzReadRecords reads arbitrary solve records, their first bytes above
// all: no panic; a record read without error holds only lines that
// ParseRecord reads back as written; a byte-order mark before a record
// changes nothing.
func FuzzReadRecords(f *testing.F) {
	good := "2026-11-24T13:23:05Z\tm3-4\t1592772\t0.796\tcount=0.163 verify:3-4=0.384\t403\t2\t2\tcc0ed0b8118f\n"
	withCPU := strings.TrimSuffix(good, "\n") + "\t0.512\n"
	for _, s := range []string{good, withCPU, "\uFEFF" + good, "\uFEFF", "\xef\xbb", "\r\n" + good, good + "x", "\x00" + good, strings.Repeat("\t", 9)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := ReadRecords(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, r := range recs {
			if again, err := ParseRecord(r.String()); err != nil || again.String() != r.String() {
				t.Errorf("record %q read back: %q, %v", r.String(), again.String(), err)
			}
		}
		if bytes.HasPrefix(b, []byte("\uFEFF")) {
			return // one mark is read over, not two
		}
		with, err := ReadRecords(bytes.NewReader(append([]byte("\uFEFF"), b...)))
		if err != nil || len(with) != len(recs) {
			t.Errorf("with a byte-order mark before it: %d records, %v; without: %d", len(with), err, len(recs))
		}
	})
}
