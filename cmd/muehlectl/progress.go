package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"muehle/retro"
)

// solveProgress shows a Solve run: a progress bar per phase on a terminal,
// or one log line per finished phase otherwise.
type solveProgress struct {
	w        io.Writer
	terminal bool

	mu    sync.Mutex
	key   string // step and phase of the bar shown
	bar   *progressbar.ProgressBar
	last  retro.Progress
	start time.Time
}

func newSolveProgress(w io.Writer) *solveProgress {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return &solveProgress{w: w, terminal: tty}
}

// update receives the solver's reports; it is safe for concurrent use.
func (s *solveProgress) update(p retro.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := fmt.Sprintf("%d/%s", p.Step, p.Phase)
	if key != s.key {
		s.finishLocked()
		s.key = key
		s.start = time.Now()
		if s.terminal {
			s.bar = progressbar.NewOptions64(int64(p.Total),
				progressbar.OptionSetWriter(s.w),
				progressbar.OptionSetDescription(fmt.Sprintf("layer %d of %d  %-14s %-9s", p.Step, p.Steps, unitName(p), p.Phase)),
				progressbar.OptionShowCount(),
				progressbar.OptionShowIts(),
				progressbar.OptionSetItsString("pos"),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionSetWidth(30),
			)
		}
	}
	s.last = p
	if s.bar != nil {
		s.bar.Set64(int64(min(p.Done, p.Total)))
	}
}

func unitName(p retro.Progress) string {
	if p.Layer.IsMoving() && p.Layer.W != p.Layer.B {
		return fmt.Sprintf("%s+%d-%d", p.Layer, p.Layer.B, p.Layer.W)
	}
	return p.Layer.String()
}

// finishLocked closes the current bar or writes the log line of the phase.
func (s *solveProgress) finishLocked() {
	if s.key == "" {
		return
	}
	p := s.last
	el := time.Since(s.start)
	rate := float64(p.Done) / max(el.Seconds(), 1e-9)
	if s.bar != nil {
		s.bar.Finish()
		fmt.Fprintln(s.w)
		s.bar = nil
		return
	}
	fmt.Fprintf(s.w, "layer %d of %d  %s  %s: %d positions in %s (%.0f/s)\n",
		p.Step, p.Steps, unitName(p), p.Phase, p.Done, el.Round(time.Millisecond), rate)
}

// finish ends the display.
func (s *solveProgress) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finishLocked()
	s.key = ""
}
