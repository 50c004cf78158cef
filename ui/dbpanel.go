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
	// small is set), calling progress from any goroutine, until done or
	// until ctx is cancelled.
	Compute(ctx context.Context, small bool, progress func(DBProgress)) error
	// SmallDescription names the small endgame layers, for the offer.
	SmallDescription() string
	// Damaged names the layers whose files are damaged ("" when none):
	// the players treat them as missing.
	Damaged() string
	// Repair recomputes the damaged layers, like Compute.
	Repair(ctx context.Context, progress func(DBProgress)) error
	// Estimate returns what Compute(small) would cost; it may read every
	// layer file, so the panel calls it off the UI thread.
	Estimate(small bool) (DBEstimate, error)
	// Rate and SetRate give the speed measured in the last computation
	// (positions per second, 0: unknown), kept in the preferences.
	Rate() float64
	SetRate(float64)
}

// DBProgress is the state of a computation: a line of text, the fraction
// done of the current step and of the whole run, and the time left (-1:
// not known yet).
type DBProgress struct {
	Text     string
	Fraction float64
	Overall  float64
	Left     time.Duration
}

// dbPanel shows which layers exist, the directory, and computes missing
// layers in the background with a progress bar and a cancel button.
type dbPanel struct {
	u        *App
	db       Database
	do       func(func())
	dir      *widget.Label
	summary  *widget.Label
	bar      *widget.ProgressBar // the current part
	overall  *widget.ProgressBar // the whole run
	progress *widget.Label
	small    *widget.Button
	all      *widget.Button
	repair   *widget.Button
	cancel   *widget.Button
	change   *widget.Button
	box      fyne.CanvasObject

	stop    context.CancelFunc // cancels the running computation; nil when idle
	offered string             // the damaged layers last offered for repair
	last    time.Time          // when progress was last passed to the UI
	mu      sync.Mutex         // guards last and closed (progress comes from any goroutine)
	closed  bool               // the window is closing: no more progress for the widgets
}

func newDBPanel(u *App, db Database, do func(func())) *dbPanel {
	p := &dbPanel{
		u:        u,
		db:       db,
		do:       do,
		dir:      widget.NewLabel(""),
		summary:  widget.NewLabel(""),
		bar:      widget.NewProgressBar(),
		overall:  widget.NewProgressBar(),
		progress: widget.NewLabel("Compute: you are asked first, with the time and space it takes."),
	}
	if r := u.app.Preferences().Float(prefDBRate); r > 0 {
		db.SetRate(r)
	}
	p.dir.Wrapping = fyne.TextWrapBreak
	p.summary.TextStyle.Monospace = true
	p.progress.Truncation = fyne.TextTruncateEllipsis
	p.small = widget.NewButton("Small endgames", func() { p.askCompute(true) })
	p.all = widget.NewButton("All missing layers", func() { p.askCompute(false) })
	p.repair = widget.NewButton("Recompute damaged layers", p.startRepair)
	p.cancel = widget.NewButton("Cancel", p.cancelCompute)
	p.change = widget.NewButton("Change folder…", p.chooseDir)
	p.overall.TextFormatter = func() string { return fmt.Sprintf("Whole computation: %.0f%%", 100*p.overall.Value) }
	p.bar.TextFormatter = func() string { return fmt.Sprintf("Current part: %.0f%%", 100*p.bar.Value) }
	// The buttons and the progress stay in view below the layers, which
	// scroll.
	p.box = container.NewBorder(
		container.NewVBox(
			widget.NewLabelWithStyle("Folder", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			p.dir, p.change, widget.NewSeparator()),
		container.NewVBox(widget.NewSeparator(),
			container.NewGridWithColumns(2, p.small, p.all), p.repair,
			p.overall, p.bar, p.progress, p.cancel),
		nil, nil,
		container.NewVScroll(container.NewVBox(
			widget.NewLabelWithStyle("Layers", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			p.summary)))
	p.refresh()
	return p
}

// refresh shows the directory, the layers and the buttons' state.
func (p *dbPanel) refresh() {
	p.dir.SetText(p.db.Dir())
	p.summary.SetText(p.db.Summary())
	busy := p.stop != nil
	for _, b := range []*widget.Button{p.small, p.all, p.change} {
		if busy {
			b.Disable()
		} else {
			b.Enable()
		}
	}
	if busy || p.db.Damaged() == "" {
		p.repair.Disable()
	} else {
		p.repair.Enable()
	}
	if busy {
		p.cancel.Enable()
	} else {
		p.cancel.Disable()
	}
}

// askCompute says what computing takes (positions, disk, time on this
// machine) and computes when the person agrees.
func (p *dbPanel) askCompute(small bool) {
	if p.stop != nil {
		return
	}
	p.progress.SetText("Looking at the layers present…")
	go func() {
		est, err := p.db.Estimate(small)
		p.do(func() {
			p.progress.SetText("")
			if err != nil {
				p.progress.SetText("Failed: " + err.Error())
				return
			}
			if est.Units == 0 {
				p.progress.SetText(est.String())
				return
			}
			what := "the missing layers"
			if small {
				what = "the small endgames (" + p.db.SmallDescription() + ")"
			}
			msg := fmt.Sprintf("Compute %s in\n%s?\n%s\nThe computation runs in the background and can be cancelled;\nfinished layers are kept.",
				what, p.db.Dir(), est)
			dialog.ShowConfirm("Compute layers", msg, func(yes bool) {
				if yes {
					p.compute(small)
				}
			}, p.u.win)
		})
	}()
}

// compute runs Database.Compute in the background.
func (p *dbPanel) compute(small bool) {
	p.start(func(ctx context.Context, progress func(DBProgress)) error {
		return p.db.Compute(ctx, small, progress)
	})
}

// startRepair runs Database.Repair in the background.
func (p *dbPanel) startRepair() { p.start(p.db.Repair) }

// start runs a computation in a goroutine; progress and the end reach the
// widgets through do.
func (p *dbPanel) start(work func(ctx context.Context, progress func(DBProgress)) error) {
	if p.stop != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.stop = cancel
	p.bar.SetValue(0)
	p.overall.SetValue(0)
	p.progress.SetText("Starting…")
	p.refresh()
	go func() {
		err := work(ctx, func(pr DBProgress) {
			p.mu.Lock()
			now := time.Now()
			if p.closed || now.Sub(p.last) < 100*time.Millisecond && pr.Fraction < 1 {
				p.mu.Unlock()
				return
			}
			p.last = now
			p.mu.Unlock()
			p.do(func() {
				if p.stop == nil {
					return // finished or cancelled meanwhile
				}
				p.bar.SetValue(pr.Fraction)
				p.overall.SetValue(pr.Overall)
				p.progress.SetText(pr.Text)
				p.summary.SetText(p.db.Summary())
			})
		})
		p.do(func() { p.finished(err) })
	}()
}

func (p *dbPanel) finished(err error) {
	p.stop = nil
	if r := p.db.Rate(); r > 0 {
		p.u.app.Preferences().SetFloat(prefDBRate, r)
	}
	switch {
	case errors.Is(err, context.Canceled):
		p.progress.SetText("Cancelled. The layers finished so far are kept; computing again resumes.")
	case err != nil:
		p.progress.SetText("Failed: " + err.Error())
	default:
		p.bar.SetValue(1)
		p.overall.SetValue(1)
		p.progress.SetText("Done.")
	}
	p.refresh()
	p.u.databaseChanged()
	p.offerRepair()
}

// offerRepair asks whether to recompute the damaged layers, once for each
// set of damaged layers found.
func (p *dbPanel) offerRepair() {
	d := p.db.Damaged()
	if d == "" || d == p.offered || p.stop != nil {
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
// layers) and sends no more progress to widgets that are going away. It is
// called on the UI thread.
func (p *dbPanel) shutdown() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	if p.stop != nil {
		p.stop()
	}
}

func (p *dbPanel) cancelCompute() {
	if p.stop != nil {
		p.stop()
		p.progress.SetText("Cancelling…")
	}
}

// chooseDir lets the person pick another database folder.
func (p *dbPanel) chooseDir() {
	dialog.ShowFolderOpen(func(l fyne.ListableURI, err error) {
		if err != nil {
			p.progress.SetText("Folder: " + err.Error())
			return
		}
		if l == nil {
			return
		}
		if err := p.db.SetDir(l.Path()); err != nil {
			p.progress.SetText(fmt.Sprintf("Cannot use %s: %v", l.Path(), err))
			return
		}
		p.u.app.Preferences().SetString(prefDBDir, l.Path())
		p.refresh()
		p.u.databaseChanged()
		p.offerRepair()
	}, p.u.win)
}

// offerSmall asks, on the first start without any database, whether to
// compute the small endgame layers now.
func (p *dbPanel) offerSmall() {
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
