package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"muehle/layers"
)

// Database is what the database panel shows and computes. The program
// passes one backed by packages layers and retro.
type Database interface {
	// Dir returns the database directory.
	Dir() string
	// SetDir switches to the database in dir.
	SetDir(dir string) error
	// Summary describes which layers exist, a few lines of text.
	Summary() string
	// Empty reports whether no layer has been computed yet.
	Empty() bool
	// Compute computes the missing layers (only the small endgames when
	// small is set, else the complete database), calling progress from
	// any goroutine, until done or until ctx is cancelled. The finished
	// parts are kept; computing again continues.
	Compute(ctx context.Context, small bool, progress func(DBProgress)) error
	// SmallDescription names the small endgame layers, for the offer.
	SmallDescription() string
	// Damaged names the layers whose files are damaged ("" when none):
	// the players treat them as missing.
	Damaged() string
	// Repair recomputes the damaged layers, like Compute.
	Repair(ctx context.Context, progress func(DBProgress)) error
	// Old says what the folder holds of the layer format before: files
	// the players do not read, and that Compute and Repair do not touch,
	// until Convert has rewritten them.
	Old() DBOld
	// Convert rewrites the layers of the format before in this one, with
	// the same values and verification, calling progress from any
	// goroutine before each layer, until done or until ctx is cancelled:
	// then it stops after the layer being converted (each is replaced
	// whole), and converting again does the rest.
	Convert(ctx context.Context, progress func(DBProgress)) error
	// Estimate returns what Compute(small) would cost; it may read every
	// layer file, so the panel calls it off the UI thread.
	Estimate(small bool) (DBEstimate, error)
	// Speed and SetSpeed give this machine's speed relative to the cost
	// model, measured in the last long computation (0: none), kept in the
	// preferences.
	Speed() float64
	SetSpeed(float64)
}

// The preferences of the database panel. A computation started with
// Compute is remembered until it finishes, so that Resume, also after a
// restart of the program, continues it.
const (
	prefDBSpeed  = "database.speed"     // Database.Speed of the last long computation
	prefDBRun    = "database.run"       // "small" or "complete": a computation not finished
	prefDBRunDir = "database.run.dir"   // its folder
	prefDBRedo   = "database.run.redo"  // what resuming it redoes, a sentence
	prefDBParts  = "database.run.parts" // its parts finished (runBase)
	prefDBTime   = "database.run.time"  // the seconds it ran
	prefDBWork   = "database.run.work"  // the model's processor seconds of the parts finished
	runSmall     = "small"              // the values of prefDBRun
	runComplete  = "complete"           //
	resumeSays   = "Resume continues, " // the start of the sentence on resuming
)

// progressIdle is the progress line before anything has run.
const progressIdle = "Computing asks first, with its time and disk."

// dbPanel shows which layers exist, the directory, and computes missing
// layers in the background with progress, pause and resume.
type dbPanel struct {
	u        *App
	db       Database
	do       func(func())
	free     func(dir string) (uint64, error) // the free disk space; layers.FreeBytes
	dir      *widget.Label
	summary  *widget.Label
	bar      *widget.ProgressBar // the current part
	overall  *widget.ProgressBar // the whole run
	progress *widget.Label       // the part and the run, or the outcome
	note     *widget.Label       // what pausing and resuming do
	small    *widget.Button
	all      *widget.Button
	repair   *widget.Button
	convert  *widget.Button // converts the layers of the older format
	pause    *widget.Button
	resume   *widget.Button
	change   *widget.Button
	box      fyne.CanvasObject

	stop    context.CancelFunc // cancels the running computation; nil when idle
	running string             // runSmall or runComplete while Compute runs, "" for a repair
	redo    string             // what resuming the running computation would redo
	redoAt  string             // the part and phase p.redo was last saved for
	base    runBase            // what the running computation did before it was resumed
	shown   DBProgress         // the last progress shown, of the whole computation
	seen    bool               // progress has been shown since the computation (re)started
	pausing bool               // Pause was pressed; the computation has not stopped yet
	offered string             // the damaged layers last offered for repair
	last    time.Time          // when progress was last passed to the UI
	mu      sync.Mutex         // guards last, closed and cancel (progress comes from any goroutine)
	closed  bool               // the window is closing: no more progress for the widgets
	stopped bool               // the program has stopped: nothing more for the widgets
	cancel  context.CancelFunc // p.stop, for appStopped, which runs off the UI thread

	// converting says the running computation is a conversion
	// (Database.Convert), of oldAtStart layers of the older format.
	converting bool
	oldAtStart int
	offeredOld string // the folder whose older layers were offered for conversion
}

func newDBPanel(u *App, db Database, do func(func())) *dbPanel {
	p := &dbPanel{
		u:        u,
		db:       db,
		do:       do,
		free:     layers.FreeBytes,
		dir:      widget.NewLabel(""),
		summary:  widget.NewLabel(""),
		bar:      widget.NewProgressBar(),
		overall:  widget.NewProgressBar(),
		progress: widget.NewLabel(progressIdle),
		note:     widget.NewLabel(""),
	}
	if s := u.app.Preferences().Float(prefDBSpeed); s > 0 {
		db.SetSpeed(s)
	}
	// A program stopped without closing its window (SIGTERM, SIGINT) runs
	// no OnClosed; and once the driver has stopped, fyne.Do runs its
	// functions on the calling goroutine. So the panel stops the
	// computation here too, and sends nothing to the widgets after it.
	u.app.Lifecycle().SetOnStopped(p.appStopped)
	p.dir.Wrapping = fyne.TextWrapBreak
	p.summary.TextStyle.Monospace = true
	p.summary.Wrapping = fyne.TextWrapWord
	p.progress.Wrapping = fyne.TextWrapWord
	p.note.Wrapping = fyne.TextWrapWord
	p.small = widget.NewButton("Small endgames", func() { p.askCompute(true) })
	p.all = widget.NewButton("Complete database", func() { p.askCompute(false) })
	p.repair = widget.NewButton("Recompute damaged layers", p.startRepair)
	p.convert = widget.NewButton("Convert older layers", p.askConvert)
	p.pause = widget.NewButton("Pause", p.pauseCompute)
	p.resume = widget.NewButton("Resume", p.resumeCompute)
	p.change = widget.NewButton("Change folder…", p.chooseDir)
	p.overall.TextFormatter = func() string {
		if p.converting {
			return "Whole conversion: " + barPercent(p.overall.Value)
		}
		return "Whole computation: " + barPercent(p.overall.Value)
	}
	p.bar.TextFormatter = func() string { return "Current part: " + barPercent(p.bar.Value) }
	// The buttons and the progress stay in view below the layers, which
	// scroll; the buttons at the bottom, so that they stay in place when
	// the lines of text above them change.
	p.box = container.NewBorder(
		container.NewVBox(
			widget.NewLabelWithStyle("Folder", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			p.dir, p.change, widget.NewSeparator()),
		container.NewVBox(widget.NewSeparator(),
			p.overall, p.bar, p.progress, p.note, p.convert, p.repair,
			container.NewGridWithColumns(2, p.small, p.all, p.pause, p.resume)),
		nil, nil,
		container.NewVScroll(container.NewVBox(
			widget.NewLabelWithStyle("Layers of Nine Men's Morris", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			p.summary)))
	p.refresh()
	return p
}

// pending returns the computation of this folder that was started and did
// not finish ("": none), and what resuming it redoes.
func (p *dbPanel) pending() (run, redo string) {
	prefs := p.u.app.Preferences()
	run = prefs.String(prefDBRun)
	if run == "" || prefs.String(prefDBRunDir) != p.db.Dir() {
		return "", ""
	}
	return run, prefs.String(prefDBRedo)
}

// refresh shows the directory, the layers and the buttons' state.
//
// While the folder holds layers of the older format, computing, resuming
// and repairing are disabled, and the note says why beside the button that
// converts them. The solver refuses such a folder anyway; and the
// estimate a click on Complete database shows first would count those
// layers as missing (hours of computing), where converting them takes
// minutes and rewrites files the person computed, which deserves its own
// button and confirmation rather than a step hidden behind another one.
func (p *dbPanel) refresh() {
	p.dir.SetText(p.db.Dir())
	p.summary.SetText(p.db.Summary())
	busy := p.stop != nil
	run, redo := p.pending()
	old := p.db.Old()
	blocked := old.Layers > 0
	for _, b := range []*widget.Button{p.small, p.all} {
		setEnabled(b, !busy && !blocked)
	}
	setEnabled(p.change, !busy)
	damaged := p.db.Damaged() != ""
	setEnabled(p.repair, !busy && damaged && !blocked)
	setVisible(p.repair, damaged) // room for the layers when nothing is damaged
	setEnabled(p.convert, !busy && blocked)
	if blocked && p.progress.Text == progressIdle {
		p.say("") // computing is disabled: the note says why
	}
	setVisible(p.convert, blocked || p.converting)
	setEnabled(p.pause, busy && !p.pausing)
	setEnabled(p.resume, !busy && run != "" && !blocked)
	// The bars show a computation under way; idle, they would show the
	// end of the last one (or nothing) as if it were the database's state.
	// A conversion knows no share of its layer: only the whole is shown.
	setVisible(p.bar, busy && !p.converting)
	setVisible(p.overall, busy)
	switch {
	case busy && p.converting:
		p.setNote(convertNote)
	case busy && p.running != "":
		p.setNote(p.busyNote())
	case busy:
		p.setNote("")
	case blocked && run != "":
		p.setNote(old.Words() + fmt.Sprintf(" The computation of %s here was interrupted: Resume continues it after that.", runWords(run)))
	case blocked:
		p.setNote(old.Words())
	case run != "":
		p.setNote(fmt.Sprintf("The computation of %s here was interrupted. %s%s", runWords(run), resumeSays, redo))
	default:
		p.setNote("")
	}
}

// say shows s on the progress line, or nothing (and takes no room) when s
// is "".
func (p *dbPanel) say(s string) {
	p.progress.SetText(s)
	setVisible(p.progress, s != "")
}

// setNote shows s below the progress, or nothing (and takes no room) when
// s is "".
func (p *dbPanel) setNote(s string) {
	p.note.SetText(s)
	setVisible(p.note, s != "")
}

// setVisible shows or hides o.
func setVisible(o fyne.CanvasObject, on bool) {
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}

// runWords names a computation for a person.
func runWords(run string) string {
	if run == runSmall {
		return "the small endgames"
	}
	return "the complete database"
}

// checked estimates Compute(small) and measures the free disk space off
// the UI thread, then on the UI thread refuses (a message) or calls ok
// with the estimate and a line about the disk.
func (p *dbPanel) checked(small bool, ok func(est DBEstimate, disk string)) {
	p.say("Looking at the layers present and the free disk space…")
	dir := p.db.Dir()
	go func() {
		est, err := p.db.Estimate(small)
		var free uint64
		var ferr error
		if err == nil && est.Units > 0 {
			free, ferr = p.free(dir)
		}
		p.do(func() {
			p.say("")
			switch {
			case err != nil:
				p.say("Failed: " + err.Error())
				return
			case est.Units == 0:
				// Nothing left (another program may have finished it):
				// an interrupted computation of this kind is done too.
				if run, _ := p.pending(); run == runOf(small) {
					p.forgetRun()
					p.refresh()
				}
				p.say(est.String())
				return
			}
			refuse, warn := diskProblem(dir, est, free, ferr)
			if refuse != "" {
				p.say("Not enough disk space: nothing was computed.")
				dialog.ShowInformation("Not enough disk space", refuse, p.u.win)
				return
			}
			ok(est, warn)
		})
	}()
}

// askCompute says what computing takes (parts, disk, time on this
// machine), refuses when the disk is too small, and computes when the
// person agrees.
func (p *dbPanel) askCompute(small bool) {
	if p.stop != nil || p.oldBlocks() {
		return
	}
	p.checked(small, func(est DBEstimate, disk string) {
		what := "the complete database (every layer still missing:\nthe moving phase, then the opening's positions\nthat a game can reach)"
		title := "Compute the complete database"
		if small {
			what = "the small endgames (" + p.db.SmallDescription() + ")"
			title = "Compute the small endgames"
		}
		msg := fmt.Sprintf("Compute %s in\n%s?\n\n%s\n%s\n\n"+
			"It runs in the background. Pause (or closing the program)\n"+
			"stops at once and keeps the finished parts; Resume continues,\n"+
			"also after a restart.", what, p.db.Dir(), est, disk)
		dialog.ShowConfirm(title, msg, func(yes bool) {
			if yes {
				p.compute(small)
			}
		}, p.u.win)
	})
}

// resumeCompute continues the interrupted computation of this folder,
// after the disk check.
func (p *dbPanel) resumeCompute() {
	run, _ := p.pending()
	if p.stop != nil || run == "" || p.oldBlocks() {
		return
	}
	p.checked(run == runSmall, func(DBEstimate, string) { p.run(run == runSmall, true) })
}

// runOf returns the name of a computation in the preferences.
func runOf(small bool) string {
	if small {
		return runSmall
	}
	return runComplete
}

// forgetRun forgets the remembered computation: it has finished.
func (p *dbPanel) forgetRun() {
	prefs := p.u.app.Preferences()
	prefs.RemoveValue(prefDBRun)
	prefs.RemoveValue(prefDBRunDir)
	prefs.RemoveValue(prefDBRedo)
	prefs.RemoveValue(prefDBParts)
	prefs.RemoveValue(prefDBTime)
	prefs.RemoveValue(prefDBWork)
}

// compute starts computing anew (Database.Compute) in the background.
func (p *dbPanel) compute(small bool) { p.run(small, false) }

// run runs Database.Compute in the background, remembered in the
// preferences until it finishes; with resume it continues the computation
// remembered, counting its parts and time on from there.
func (p *dbPanel) run(small, resume bool) {
	if p.stop != nil || p.oldBlocks() {
		return
	}
	run := runOf(small)
	prefs := p.u.app.Preferences()
	p.base = runBase{}
	if _, redo := p.pending(); resume && redo != "" {
		p.base = runBase{Parts: prefs.Int(prefDBParts), Elapsed: time.Duration(prefs.Float(prefDBTime) * float64(time.Second)),
			Work: prefs.Float(prefDBWork)}
		p.redo = redo
	} else {
		p.redo = "computing the first part again from its start."
	}
	prefs.SetString(prefDBRun, run)
	prefs.SetString(prefDBRunDir, p.db.Dir())
	p.running, p.redoAt = run, ""
	p.saveRun()
	p.start(func(ctx context.Context, progress func(DBProgress)) error {
		return p.db.Compute(ctx, small, progress)
	})
}

// startRepair runs Database.Repair in the background.
func (p *dbPanel) startRepair() {
	if p.stop != nil || p.oldBlocks() {
		return
	}
	p.running, p.base = "", runBase{}
	p.start(p.db.Repair)
}

// saveRun remembers in the preferences what resuming the running
// computation redoes and what it keeps (runBase).
func (p *dbPanel) saveRun() {
	prefs := p.u.app.Preferences()
	prefs.SetString(prefDBRedo, p.redo)
	b := p.base
	if p.seen {
		b = p.shown.kept()
	}
	prefs.SetInt(prefDBParts, b.Parts)
	prefs.SetFloat(prefDBTime, b.Elapsed.Seconds())
	prefs.SetFloat(prefDBWork, b.Work)
}

// start runs a computation in a goroutine; progress and the end reach the
// widgets through do.
func (p *dbPanel) start(work func(ctx context.Context, progress func(DBProgress)) error) {
	if p.stop != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.stop, p.seen = cancel, false
	p.mu.Lock()
	p.cancel = cancel
	p.last = time.Time{} // the run's first progress is shown
	p.mu.Unlock()
	p.bar.SetValue(0)
	p.overall.SetValue(0)
	p.say("Starting…")
	p.refresh()
	go func() {
		err := work(ctx, func(pr DBProgress) {
			p.mu.Lock()
			now := time.Now()
			// A conversion reports once a layer: each is shown.
			if p.closed || now.Sub(p.last) < 100*time.Millisecond && pr.Fraction < 1 && !pr.Converting {
				p.mu.Unlock()
				return
			}
			p.last = now
			p.mu.Unlock()
			p.do(func() { p.show(pr) })
		})
		p.mu.Lock()
		stopped := p.stopped
		p.mu.Unlock()
		if !stopped {
			p.do(func() { p.finished(err) })
		}
	}()
}

// appStopped stops the running computation when the program stops; it is
// called off the UI thread, and touches no widget. The computation stays
// remembered in the preferences: the next start offers to resume it.
func (p *dbPanel) appStopped() {
	p.mu.Lock()
	p.closed, p.stopped = true, true
	cancel := p.cancel
	p.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// show passes progress pr to the widgets, and remembers what resuming
// would redo.
func (p *dbPanel) show(pr DBProgress) {
	if p.stop == nil {
		return // finished or cancelled meanwhile
	}
	pr = pr.after(p.base)
	p.shown, p.seen = pr, true
	p.bar.SetValue(pr.Part)
	p.overall.SetValue(pr.Overall)
	if !p.pausing {
		p.say(pr.Lines())
	}
	if p.converting {
		p.summary.SetText(p.db.Summary())
		return
	}
	p.summary.SetText(p.db.Summary())
	if p.running == "" {
		return
	}
	p.redo = pr.RedoWords()
	p.setNote(p.busyNote())
	// The preferences are written when the part or its phase changes, not
	// with every percent; pausing and closing write the last words.
	if at := fmt.Sprint(pr.Step, pr.Unit, pr.Verifying); at != p.redoAt {
		p.redoAt = at
		p.saveRun()
	}
}

// busyNote says what pausing does now.
func (p *dbPanel) busyNote() string {
	return "Pause stops at once; " + resumeSays + p.redo
}

func (p *dbPanel) finished(err error) {
	p.stop, p.pausing = nil, false
	p.mu.Lock()
	p.cancel = nil
	p.mu.Unlock()
	prefs := p.u.app.Preferences()
	if s := p.db.Speed(); s > 0 {
		prefs.SetFloat(prefDBSpeed, s)
	}
	switch {
	case p.converting:
		p.convertFinished(err)
		p.converting = false
	case errors.Is(err, context.Canceled):
		if p.running != "" {
			p.saveRun()
		}
		p.say("Paused. The finished parts are kept.")
	case err != nil:
		p.say("Failed: " + err.Error())
	default:
		if p.running != "" {
			p.forgetRun()
		}
		p.bar.SetValue(1)
		p.overall.SetValue(1)
		p.say("Done.")
	}
	p.running = ""
	p.refresh()
	p.u.databaseChanged()
	p.offerRepair()
}

// offerFolder offers what the folder needs: converting its layers of the
// older format, else recomputing its damaged layers.
func (p *dbPanel) offerFolder() {
	if !p.offerConvert() {
		p.offerRepair()
	}
}

// offerRepair asks whether to recompute the damaged layers, once for each
// set of damaged layers found.
//
// Not while the folder holds layers of the older format: they are
// converted first (offerConvert), and the solver would refuse the folder.
func (p *dbPanel) offerRepair() {
	d := p.db.Damaged()
	if d == "" || d == p.offered || p.stop != nil || p.db.Old().Layers > 0 {
		return
	}
	p.offered = d
	msg := fmt.Sprintf("These layers in\n%s\nare damaged: %s.\n"+
		"The players treat them as missing (alpha-beta plays there).\nRecompute them now?", p.db.Dir(), d)
	dialog.ShowConfirm("Damaged layers", msg, func(yes bool) {
		if yes {
			p.startRepair()
		}
	}, p.u.win)
}

// shutdown cancels a running computation when the window closes or the
// program quits, so that the solver stops cleanly (keeping the finished
// layers) and sends no more progress to widgets that are going away. The
// computation stays remembered: the next start offers to resume it. It is
// called on the UI thread.
func (p *dbPanel) shutdown() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	if p.stop != nil {
		if p.running != "" {
			p.saveRun()
		}
		p.stop()
	}
}

// pauseCompute stops the running computation at once; the finished parts
// are kept and Resume continues.
func (p *dbPanel) pauseCompute() {
	if p.stop != nil {
		p.stop()
		p.pausing = true
		p.say("Pausing: the solver stops at its next check…")
		if p.converting {
			p.say("Pausing: the layer being converted is finished first…")
		}
		p.pause.Disable()
	}
}

// chooseDir lets the person pick another database folder.
func (p *dbPanel) chooseDir() {
	dialog.ShowFolderOpen(func(l fyne.ListableURI, err error) {
		if err != nil {
			p.say("Folder: " + err.Error())
			return
		}
		if l == nil {
			return
		}
		if err := p.db.SetDir(l.Path()); err != nil {
			p.say(fmt.Sprintf("Cannot use %s: %v", l.Path(), err))
			return
		}
		p.u.app.Preferences().SetString(prefDBDir, l.Path())
		p.refresh()
		p.u.databaseChanged()
		p.offerFolder()
	}, p.u.win)
}

// offerSmall asks, on the first start without any database, whether to
// compute the small endgame layers now; on a start after an interrupted
// computation, whether to resume it; on a start in a folder with layers of
// the older format, whether to convert them (first: nothing is computed
// there before).
func (p *dbPanel) offerSmall() {
	if p.offerConvert() {
		return
	}
	if run, redo := p.pending(); run != "" {
		msg := fmt.Sprintf("The computation of %s in\n%s\nwas interrupted (paused, or the program was closed).\n"+
			"Resume it now?\nIt continues, %s", runWords(run), p.db.Dir(), redo)
		dialog.ShowConfirm("Resume the computation?", msg, func(yes bool) {
			if yes {
				p.resumeCompute()
			}
		}, p.u.win)
		return
	}
	prefs := p.u.app.Preferences()
	if !p.db.Empty() || prefs.BoolWithFallback(prefOffered, false) {
		p.offerRepair()
		return
	}
	prefs.SetBool(prefOffered, true)
	msg := fmt.Sprintf("There is no database in\n%s\nyet. Compute the small endgame layers (%s) now?\n"+
		"This takes under a minute; the perfect player and the perfect-move marks\n"+
		"then work in those endgames. The Database tab computes the rest.",
		p.db.Dir(), p.db.SmallDescription())
	dialog.ShowConfirm("No database yet", strings.TrimSpace(msg), func(yes bool) {
		if yes {
			p.compute(true)
		}
	}, p.u.win)
}
