package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"muehle/layers/pack"
	"muehle/retro/dbservice"
)

// packProgress shows an export or import: on a terminal a bar per phase
// (bytes of layer bodies), otherwise a line a minute on the layer under
// way, with the time left (dbservice.Rate), and one when the phase is
// done, as solve does.
type packProgress struct {
	w        io.Writer
	terminal bool
	logEvery time.Duration

	mu     sync.Mutex
	phase  string
	bar    *progressbar.ProgressBar
	step   int
	last   pack.Progress
	logged time.Time
	start  time.Time
}

func newPackProgress(w io.Writer) *packProgress {
	return &packProgress{w: w, terminal: isTerminal(w), logEvery: time.Minute}
}

// update receives the reports of pack; it is safe for concurrent use.
func (s *packProgress) update(p pack.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Phase != s.phase {
		s.endLocked()
		s.phase, s.start, s.logged = p.Phase, time.Now(), time.Now()
		if s.terminal {
			s.bar = progressbar.NewOptions64(int64(p.Total),
				progressbar.OptionSetWriter(s.w),
				progressbar.OptionSetDescription(fmt.Sprintf("%-8s", p.Phase)),
				progressbar.OptionShowBytes(true),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionSetWidth(30),
			)
		}
	}
	if s.bar != nil {
		s.bar.Describe(fmt.Sprintf("%-8s layer %d of %d  %-10s", phaseWord(p), p.Step, p.Steps, p.Layer))
		s.bar.Set64(int64(min(p.Done, p.Total)))
	}
	if !s.terminal && time.Since(s.logged) >= s.logEvery {
		s.lineLocked(p, "under way")
	}
	s.step, s.last = p.Step, p
}

// lineLocked writes a log line on p, with the phase's time left
// (dbservice.PackLeft).
func (s *packProgress) lineLocked(p pack.Progress, what string) {
	s.logged = time.Now()
	el := time.Since(s.start)
	left := ""
	if d := dbservice.PackLeft(p, el); d >= 0 && p.Done < p.Total {
		left = ", about " + dbservice.Rough(d) + " left"
	}
	fmt.Fprintf(s.w, "%s %s: layer %d of %d (%s), %.1f %% of %s of layer bodies, package at %s, after %s%s\n", phaseWord(p), what, p.Step, p.Steps, p.Layer,
		100*float64(p.Done)/float64(max(p.Total, 1)), sizeText(int64(p.Total)), sizeText(p.Packed), el.Round(time.Millisecond), left)
}

// phaseWord names what p reports: its phase, or "derive" for a layer an
// import computes from the layers before it.
func phaseWord(p pack.Progress) string {
	if p.Deriving {
		return "derive"
	}
	return p.Phase
}

// endLocked ends the display of the phase under way.
func (s *packProgress) endLocked() {
	if s.bar != nil {
		s.bar.Finish()
		fmt.Fprintln(s.w)
		s.bar = nil
	} else if s.phase != "" && s.step != 0 {
		s.lineLocked(s.last, "done")
	}
	s.phase, s.step = "", 0
}

// finish ends the display.
func (s *packProgress) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endLocked()
}

// note writes a line the person should read, between the bars.
func (s *packProgress) note(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bar != nil {
		fmt.Fprintln(s.w)
	}
	fmt.Fprintln(s.w, line)
}
