package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"muehle/layers"
	"muehle/retro"
)

// solveProgress shows a Solve run: on a terminal a progress bar per phase
// (positions per second and time left), otherwise one log line per unit
// with the time of each phase, and a line on the phase under way every
// logEvery, so that a log of a long unit shows that it goes on.
type solveProgress struct {
	w        io.Writer
	terminal bool
	logEvery time.Duration // between lines on the phase under way (not on a terminal); 0: none
	logged   time.Time     // when the phase began or was last logged

	mu        sync.Mutex
	step      int
	phase     retro.Phase // 0: none under way
	verifying layers.Key  // the layer of a PhaseVerify under way
	bar       *progressbar.ProgressBar
	last      retro.Progress
	slots     uint64
	phases    []layers.PhaseTime // the finished phases of the current unit
	ended     time.Duration      // when the previous phase of the unit ended
	start     time.Time

	record  io.Writer // the solve record (layers/record.go), or nil
	workers int       // for the record
}

func newSolveProgress(w io.Writer) *solveProgress {
	return &solveProgress{w: w, terminal: isTerminal(w), logEvery: time.Minute}
}

// isTerminal reports whether w is a terminal, where the progress of a
// long command is a bar; elsewhere (a log file, a pipe) it is lines.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// update receives the solver's reports; it is safe for concurrent use.
func (s *solveProgress) update(p retro.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Phase == retro.PhaseDone {
		// The unit is complete: its line and its record now, not when the
		// next unit begins (a run that stops next, e.g. because another
		// solver holds what is left, must not call it interrupted).
		if p.Step == s.step {
			s.last.Elapsed = p.Elapsed
			s.endPhaseLocked()
			s.endUnitLocked(true)
		}
		return
	}
	if p.Step != s.step || p.Phase != s.phase || p.Verifying != s.verifying {
		s.endPhaseLocked()
		if p.Step != s.step {
			s.endUnitLocked(true)
			s.step, s.start, s.slots, s.ended = p.Step, time.Now(), 0, 0
			resetPeakMemory()
		}
		s.phase, s.verifying, s.logged = p.Phase, p.Verifying, time.Now()
		if p.Phase == retro.PhaseCount {
			s.slots = p.Total
		}
		if s.terminal {
			s.bar = progressbar.NewOptions64(int64(p.Total),
				progressbar.OptionSetWriter(s.w),
				progressbar.OptionSetDescription(fmt.Sprintf("unit %d of %d  %-10s %-16s", p.Step, p.Steps, p.Unit, p.PhaseText())),
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
	if !s.terminal && s.logEvery > 0 && p.Total > 0 && time.Since(s.logged) >= s.logEvery {
		s.logged = time.Now()
		fmt.Fprintf(s.w, "unit %d of %d  %s  %s under way: %.1f %% (%d of %d positions) after %s\n",
			p.Step, p.Steps, p.Unit, p.PhaseText(), 100*float64(min(p.Done, p.Total))/float64(p.Total),
			min(p.Done, p.Total), p.Total, time.Since(s.start).Round(time.Second))
	}
}

// endPhaseLocked closes the bar of the phase and notes its time.
func (s *solveProgress) endPhaseLocked() {
	if s.phase == 0 {
		return
	}
	if s.bar != nil {
		s.bar.Finish()
		fmt.Fprintln(s.w)
		s.bar = nil
	}
	s.phases = append(s.phases, layers.PhaseTime{Phase: s.phase, Layer: s.verifying, Seconds: (s.last.Elapsed - s.ended).Seconds()})
	s.ended = s.last.Elapsed
	s.phase, s.verifying = 0, layers.Key{}
}

// endUnitLocked writes the log line of a finished unit (not on a
// terminal); of an unfinished one, with finished false, a line saying so.
func (s *solveProgress) endUnitLocked(finished bool) {
	if s.step == 0 {
		return
	}
	if !finished {
		fmt.Fprintf(s.w, "unit %d of %d  %s  interrupted in %s after %s; not written or not verified\n",
			s.last.Step, s.last.Steps, s.last.Unit, s.last.PhaseText(), time.Since(s.start).Round(time.Millisecond))
	} else {
		el := time.Since(s.start)
		peak := peakMemory() >> 20
		if !s.terminal {
			shown := make([]string, len(s.phases))
			for i, p := range s.phases {
				shown[i] = fmt.Sprintf("%s %s", p.Phase, time.Duration(p.Seconds*float64(time.Second)).Round(time.Millisecond))
			}
			fmt.Fprintf(s.w, "unit %d of %d  %s  %d slots in %s (%.0f slots/s: %s; peak memory %d MiB)\n",
				s.last.Step, s.last.Steps, s.last.Unit, s.slots, el.Round(time.Millisecond),
				float64(s.slots)/max(el.Seconds(), 1e-9), strings.Join(shown, ", "), peak)
		}
		if s.record != nil {
			r := layers.Record{Finished: time.Now(), Unit: s.last.Unit, Slots: s.slots, Seconds: el.Seconds(),
				Phases: s.phases, PeakMiB: peak, Workers: s.workers, Cores: runtime.NumCPU(), Commit: commit()}
			if _, err := fmt.Fprintln(s.record, r); err != nil {
				fmt.Fprintf(s.w, "cannot append to the solve record: %v\n", err)
			}
		}
	}
	s.phases = s.phases[:0]
	s.step = 0
}

// finish ends the display; finished says whether the run completed its
// last unit (else that unit is reported as interrupted, never as done).
func (s *solveProgress) finish(finished bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endPhaseLocked()
	s.endUnitLocked(finished)
}

// note writes a line the solver wants the person to read.
func (s *solveProgress) note(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bar != nil {
		fmt.Fprintln(s.w)
	}
	fmt.Fprintln(s.w, line)
}
