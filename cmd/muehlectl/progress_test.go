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
// before, and the unit's line at its end, which plan --calibrate reads
// while it passes over the others.
func TestSolveProgressLog(t *testing.T) {
	var log bytes.Buffer
	s := newSolveProgress(&log)
	s.logEvery = time.Hour
	k := layers.Moving(3, 3)
	p := retro.Progress{Layer: k, Step: 1, Steps: 2, Phase: "count", Total: 1000}
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
	want := regexp.MustCompile(`^layer 1 of 2  3-3  count under way: 40\.0 % \(400 of 1000 positions\) after \d+s\n$`)
	if !want.MatchString(log.String()) {
		t.Fatalf("after logEvery: got %q, want a match of %s", log.String(), want)
	}
	s.finish(true)
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if len(lines) != 2 || logUnit.MatchString(lines[0]) || !logUnit.MatchString(lines[1]) {
		t.Errorf("log %q: want the line under way, which plan --calibrate passes over, then the unit's line it reads", log.String())
	}
}
