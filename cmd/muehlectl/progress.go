package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"muehle/layers"
	"muehle/retro"
	"muehle/retro/dbservice"
)

// solveProgress shows a Solve run: on a terminal a progress bar per phase
// (positions per second and time left), otherwise one log line per unit
// with the time of each phase, and a line on the phase under way every
// logEvery, so that a log of a long unit shows that it goes on, with the
// time left of the run (dbservice.Meter, as the window shows it). The
// units' times and the solve record come from dbservice.Recorder.
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
	start     time.Time
	left      string // the run's time left, "" when not known

	rec *dbservice.Recorder
}

// newSolveProgress shows a run on w, appending its units to the solve
// record (nil: none) of a run of workers workers.
func newSolveProgress(w, record io.Writer, workers int) *solveProgress {
	s := &solveProgress{w: w, terminal: isTerminal(w), logEvery: time.Minute, rec: dbservice.NewRecorder(record, workers)}
	s.rec.Unit = s.unitLine
	s.rec.Interrupted = func(last retro.Progress, ran time.Duration) {
		fmt.Fprintf(s.w, "unit %d of %d  %s  interrupted in %s after %s; not written or not verified\n",
			last.Step, last.Steps, last.Unit, last.PhaseText(), ran.Round(time.Millisecond))
	}
	s.rec.Error = func(err error) { fmt.Fprintf(s.w, "cannot append to the solve record: %v\n", err) }
	return s
}

// isTerminal reports whether w is a terminal, where the progress of a
// long command is a bar; elsewhere (a log file, a pipe) it is lines.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// show receives a report of the solver with the run's progress
// (dbservice.Run.Progress).
func (s *solveProgress) show(p retro.Progress, pr dbservice.Progress) {
	s.mu.Lock()
	s.left = ""
	if pr.Left >= 0 {
		s.left = pr.LeftWords() + " in the run"
		if w := pr.ShareWords(); w != "" {
			s.left += " " + w
		}
	}
	s.mu.Unlock()
	s.update(p)
}

// update receives the solver's reports and passes them to s.rec; it is
// safe for concurrent use.
func (s *solveProgress) update(p retro.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.displayLocked(p)
	s.rec.Update(p)
}

// displayLocked shows report p.
func (s *solveProgress) displayLocked(p retro.Progress) {
	if p.Phase == retro.PhaseDone {
		if p.Step == s.step {
			s.endPhaseLocked()
			s.step = 0
		}
		return
	}
	if p.Step != s.step || p.Phase != s.phase || p.Verifying != s.verifying {
		s.endPhaseLocked()
		if p.Step != s.step {
			s.step, s.start = p.Step, time.Now()
		}
		s.phase, s.verifying, s.logged = p.Phase, p.Verifying, time.Now()
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
	if s.bar != nil {
		if s.left != "" {
			s.bar.Describe(fmt.Sprintf("unit %d of %d  %-10s %-16s (%s)", p.Step, p.Steps, p.Unit, p.PhaseText(), s.left))
		}
		s.bar.Set64(int64(min(p.Done, p.Total)))
	}
	if !s.terminal && s.logEvery > 0 && p.Total > 0 && time.Since(s.logged) >= s.logEvery {
		s.logged = time.Now()
		left := ""
		if s.left != "" {
			left = "; " + s.left
		}
		fmt.Fprintf(s.w, "unit %d of %d  %s  %s under way: %.1f %% (%d of %d positions) after %s%s\n",
			p.Step, p.Steps, p.Unit, p.PhaseText(), 100*float64(min(p.Done, p.Total))/float64(p.Total),
			min(p.Done, p.Total), p.Total, time.Since(s.start).Round(time.Second), left)
	}
}

// endPhaseLocked closes the bar of the phase.
func (s *solveProgress) endPhaseLocked() {
	if s.phase == 0 {
		return
	}
	if s.bar != nil {
		s.bar.Finish()
		fmt.Fprintln(s.w)
		s.bar = nil
	}
	s.phase, s.verifying = 0, layers.Key{}
}

// unitLine writes the log line of a finished unit (not on a terminal),
// from its record; s.mu is held (the recorder calls it from update and
// finish).
func (s *solveProgress) unitLine(r layers.Record, last retro.Progress) {
	if s.terminal {
		return
	}
	shown := make([]string, len(r.Phases))
	for i, p := range r.Phases {
		shown[i] = fmt.Sprintf("%s %s", p.Phase, time.Duration(p.Seconds*float64(time.Second)).Round(time.Millisecond))
	}
	el := time.Duration(r.Seconds * float64(time.Second))
	fmt.Fprintf(s.w, "unit %d of %d  %s  %d slots in %s%s (%.0f slots/s: %s; peak memory %d MiB)\n",
		last.Step, last.Steps, r.Unit, r.Slots, el.Round(time.Millisecond), processorWords(r),
		float64(r.Slots)/max(el.Seconds(), 1e-9), strings.Join(shown, ", "), r.PeakMiB)
}

// finish ends the display; finished says whether the run completed its
// last unit (else that unit is reported as interrupted, never as done).
func (s *solveProgress) finish(finished bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endPhaseLocked()
	s.rec.Finish(finished)
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

// processorWords says a unit's processor time after its wall time in its
// log line: ", 4m10s of processor time, 0.22 of 2 cores", "" when the
// record has none. The share tells a unit starved of the processors (a
// shared machine, nice) from a slow one.
func processorWords(r layers.Record) string {
	used, ok := r.CoresUsed()
	if !ok {
		return ""
	}
	cpu := time.Duration(r.CPUSeconds * float64(time.Second))
	return fmt.Sprintf(", %s of processor time, %.2f of %d cores", cpu.Round(time.Millisecond), used, r.Cores)
}
