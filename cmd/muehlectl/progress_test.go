package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"muehle/layers"
	"muehle/retro"
)

// TestSolveProgressLog checks the log of a solve that is not on a
// terminal: a line on the phase under way once logEvery has passed, none
// before, and the unit's line at its end; and the unit's line in the
// solve record, with the time of each phase.
func TestSolveProgressLog(t *testing.T) {
	var log, record bytes.Buffer
	s := newSolveProgress(&log, &record, 2)
	s.logEvery = time.Hour
	k := layers.Moving(3, 3)
	p := retro.Progress{Unit: "m3-3", Layer: k, Step: 1, Steps: 2, Phase: retro.PhaseCount, Total: 1000}
	s.update(p)
	p.Done = 250
	s.update(p)
	if log.Len() != 0 {
		t.Fatalf("before logEvery: got %q, want nothing", log.String())
	}
	s.logEvery = time.Nanosecond
	time.Sleep(time.Millisecond)
	p.Done = 400
	s.update(p)
	want := regexp.MustCompile(`^unit 1 of 2  m3-3  count under way: 40\.0 % \(400 of 1000 positions\) after \d+s\n$`)
	if !want.MatchString(log.String()) {
		t.Fatalf("after logEvery: got %q, want a match of %s", log.String(), want)
	}
	s.logEvery = 0
	p.Elapsed = 2 * time.Second // the count's last report
	s.update(p)
	p.Phase, p.Verifying, p.Done, p.Total, p.Elapsed = retro.PhaseVerify, k, 0, 1000, 2*time.Second
	s.update(p)
	p.Done, p.Elapsed = 1000, 3*time.Second
	s.update(p)
	s.finish(true)
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	// The processor time where the system gives it (CPUTime).
	cpu := ""
	if _, ok := layers.CPUTime(); ok {
		cpu = `, \S+ of processor time, \d+\.\d\d of \d+ cores`
	}
	unit := regexp.MustCompile(`^unit 1 of 2  m3-3  1000 slots in \S+` + cpu + ` \(\d+ slots/s: count 2s, verify 1s; peak memory \d+ MiB\)$`)
	if len(lines) != 2 || !unit.MatchString(lines[1]) {
		t.Errorf("log %q: want the line under way, then a match of %s", log.String(), unit)
	}
	recs, err := layers.ReadRecords(&record)
	if err != nil || len(recs) != 1 || recs[0].Unit != "m3-3" || recs[0].Slots != 1000 || recs[0].Workers != 2 ||
		len(recs[0].Phases) != 2 || recs[0].Phase(retro.PhaseCount) != 2 || recs[0].Phases[1].Layer != k || recs[0].Phase(retro.PhaseVerify) != 1 ||
		recs[0].CPUKnown != (cpu != "") {
		t.Errorf("solve record %q: got %+v, %v; want unit m3-3 of 1000 slots on 2 workers, count 2 s, verify:3-3 1 s", record.String(), recs, err)
	}
}
