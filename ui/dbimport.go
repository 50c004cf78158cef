package ui

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"muehle/layers"
	"muehle/layers/pack"
	"muehle/retro/dbservice"
)

// dbImport is Database ▸ Import…: a package written by `muehlectl export`
// (layers/pack) chosen, described, and installed into the database folder
// in the background, with its progress in a window. Pause stops it; the
// layers installed are kept, and Resume (or importing the package again,
// also after a restart) goes on from the first layer not installed,
// which is how an interrupted import resumes anyway.
type dbImport struct {
	u *App

	win      fyne.Window
	what     *widget.Label // the package and the folder
	bar      *widget.ProgressBar
	status   *widget.Label
	pause    *widget.Button
	resume   *widget.Button
	path     string // the package being imported, or paused
	dir      string // the folder it goes to
	force    bool   // replacing verified layers was agreed to
	finished bool   // the last run ended (done, paused or failed)
	// convert, when not 0, is the stone count of a package of format 1
	// whose layers are installed, in the format before, and not all
	// converted yet: Resume converts the rest (retro.ConvertOld) instead
	// of importing again.
	convert int

	mu     sync.Mutex
	cancel context.CancelFunc // the run under way; nil when none

	// testProgress, when set, is called with every report, on the
	// import's goroutine; testConvert before each layer converted.
	testProgress func(pack.Progress)
	testConvert  func(k layers.Key, i int)
}

// importDatabase asks for a package file and offers to install it.
func (u *App) importDatabase() {
	if u.imp != nil && u.imp.running() {
		u.imp.win.Show()
		u.imp.win.RequestFocus()
		return
	}
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			u.showError("Import", err)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		u.offerImport(path)
	}, u.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".mpk"}))
	d.Show()
}

// importDir returns the folder a package goes to: the database's.
func (u *App) importDir() string {
	if u.db != nil {
		return u.db.db.Dir()
	}
	return layers.DefaultDir()
}

// offerImport opens the package at path, says what it holds and asks
// whether to install it.
func (u *App) offerImport(path string) {
	p, err := pack.Open(path)
	if err != nil {
		u.showError("Import", err)
		return
	}
	m := p.Manifest
	p.Close()
	dir := u.importDir()
	text := fmt.Sprintf("%s\n\n%s\n\nInstall it into %s?\nThe package is checked completely first. "+
		"Layers already there and identical are skipped; verified layers that differ are not replaced without asking.",
		path, packageWords(m, p.Size()), dir)
	dialog.ShowConfirm("Import a database", text, func(ok bool) {
		if ok {
			u.startImport(path, dir, false)
		}
	}, u.win)
}

// packageWords describes a package's contents in a few lines.
func packageWords(m *pack.Manifest, size int64) string {
	s := fmt.Sprintf("%d layers of %s: %s of layers in a package of %s.\nWritten %s by commit %s",
		len(m.Layers), m.Variant().Name(), bytesText(m.Bytes()), bytesText(uint64(size)), m.Created, m.Exported.Commit)
	if m.Exported.Host != "" {
		s += fmt.Sprintf(" on %s (%s, %d cores)", m.Exported.Host, m.Exported.OS, m.Exported.Cores)
	}
	verified := 0
	for _, l := range m.Layers {
		if l.Verified != "" {
			verified++
		}
	}
	return s + fmt.Sprintf(".\n%d of the layers are verified. Rules fingerprint %s.", verified, m.Fingerprint)
}

// startImport installs the package at path into dir in the background,
// showing the import window; force replaces verified layers that differ.
func (u *App) startImport(path, dir string, force bool) {
	if u.imp == nil {
		u.imp = newDBImport(u)
	}
	im := u.imp
	im.path, im.dir, im.force, im.convert = path, dir, force, 0
	im.what.SetText(fmt.Sprintf("%s\ninto %s", path, dir))
	im.win.Show()
	im.run()
}

func newDBImport(u *App) *dbImport {
	im := &dbImport{u: u, what: widget.NewLabel(""), bar: widget.NewProgressBar(), status: widget.NewLabel("")}
	im.what.Wrapping = fyne.TextWrapWord
	im.status.Wrapping = fyne.TextWrapWord
	im.pause = widget.NewButton("Pause", im.stop)
	im.resume = widget.NewButton("Resume", im.run)
	im.win = u.app.NewWindow("Import a database")
	im.win.SetContent(container.NewVBox(im.what, im.bar, im.status,
		container.NewHBox(im.pause, im.resume, widget.NewButton("Close", im.win.Hide))))
	im.win.Resize(fyne.NewSize(520, 220))
	im.win.SetCloseIntercept(im.win.Hide) // the import goes on; Database ▸ Import… shows it again
	return im
}

// running reports whether an import is under way.
func (im *dbImport) running() bool {
	im.mu.Lock()
	defer im.mu.Unlock()
	return im.cancel != nil
}

// run starts (or resumes) the import of im.path.
func (im *dbImport) run() {
	if im.running() {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	im.mu.Lock()
	im.cancel = cancel
	im.mu.Unlock()
	im.finished = false
	im.pause.Enable()
	im.resume.Disable()
	im.status.SetText("Checking the package…")
	im.bar.SetValue(0)
	path, dir, force, stones, do := im.path, im.dir, im.force, im.convert, im.u.do
	go func() {
		var r importRun
		var err error
		if stones == 0 {
			var mu sync.Mutex // reports may come from the install's goroutines
			start, phase := time.Now(), ""
			r.res, err = dbservice.ImportFile(ctx, path, dir, pack.ImportOptions{Force: force,
				Progress: func(p pack.Progress) {
					if im.testProgress != nil {
						im.testProgress(p)
					}
					mu.Lock()
					if p.Phase != phase {
						start, phase = time.Now(), p.Phase
					}
					left := dbservice.PackLeft(p, time.Since(start))
					mu.Unlock()
					do(func() { im.show(p, left) })
				}})
			if r.res != nil {
				r.installed = len(r.res.Installed)
				if len(r.res.Old) > 0 {
					stones = r.res.Manifest.Variant().Stones // packages of format 1 hold the standard game
				}
			}
		}
		if err == nil && stones != 0 {
			r.convert = stones
			i := 0
			r.converted, err = dbservice.ConvertImported(ctx, dir, stones, dbservice.ConvertRun{
				Begin: func(k layers.Key) {
					if im.testConvert != nil {
						im.testConvert(k, i)
					}
					i++
				},
				Progress: func(p DBProgress) { do(func() { im.showConvert(p) }) }})
		}
		do(func() { im.done(r, err, ctx.Err() != nil) })
	}()
}

// importRun is what a run of the import did.
type importRun struct {
	res       *pack.ImportResult // nil when the run only converted
	installed int                // layers installed
	convert   int                // the stone count of layers of the format before to convert; 0 for none
	converted int                // layers converted
}

// showConvert displays the conversion of the layers of the format
// before at p.
func (im *dbImport) showConvert(p DBProgress) {
	if im.finished {
		return
	}
	im.status.SetText(fmt.Sprintf("Converting the layers of the format before: layer %d of %d (%s), %s.", p.Step, p.Steps, p.Unit, p.LeftWords()))
	im.bar.SetValue(p.Overall)
}

// show displays a report of the import, the time left of its phase
// (dbservice.PackLeft: -1 while not known).
func (im *dbImport) show(p pack.Progress, left time.Duration) {
	if im.finished {
		return // a late report
	}
	what := "Checking the package"
	switch {
	case p.Deriving:
		what = "Computing from the layers before it"
	case p.Phase == "install":
		what = "Installing"
	}
	text := fmt.Sprintf("%s: layer %d of %d (%s)", what, p.Step, p.Steps, p.Layer)
	if left >= 0 {
		text += ", about " + roughDuration(left) + " left"
	}
	im.status.SetText(text + ".")
	if p.Total > 0 {
		im.bar.SetValue(float64(p.Done) / float64(p.Total))
	}
}

// stop pauses the import: the layers installed are kept.
func (im *dbImport) stop() {
	im.mu.Lock()
	if im.cancel != nil {
		im.cancel()
	}
	im.mu.Unlock()
	im.pause.Disable()
	im.status.SetText("Pausing after the block under way…")
}

// done shows how the import ended and makes the database's users see the
// new layers.
func (im *dbImport) done(r importRun, err error, paused bool) {
	im.mu.Lock()
	im.cancel = nil
	im.mu.Unlock()
	im.finished = true
	im.pause.Disable()
	im.convert = 0
	if err != nil && r.convert != 0 {
		im.convert = r.convert // the package is in; Resume converts the rest
	}
	u := im.u
	if (r.installed > 0 || r.converted > 0) && u.db != nil {
		u.db.db.SetDir(im.dir) // opened again: the new layers are seen
		u.db.refresh()
		u.databaseChanged()
	}
	switch {
	case err == nil:
		im.resume.Disable()
		im.bar.SetValue(1)
		text := "Done"
		if r.res != nil {
			text = fmt.Sprintf("Done: %d layers installed, %d were there already", len(r.res.Installed), len(r.res.Skipped))
		}
		if r.converted > 0 {
			text += fmt.Sprintf("; %d layers of the format before converted", r.converted)
		}
		im.status.SetText(text + ".")
	case paused && im.convert != 0:
		im.resume.Enable()
		im.status.SetText(fmt.Sprintf("Paused while converting the package's layers of the format before; %d converted in this run are kept. Resume converts the rest (so does `muehlectl convert`).", r.converted))
	case paused:
		im.resume.Enable()
		im.status.SetText(fmt.Sprintf("Paused; %d layers installed in this run are kept. Resume goes on from the next one, also after a restart (import the same package again).", r.installed))
	case errors.Is(err, pack.ErrConflict):
		im.resume.Disable()
		im.status.SetText("Not imported: the folder holds verified layers that differ from the package's.")
		dialog.ShowConfirm("Replace verified layers?", err.Error()+"\n\nReplace them with the package's?", func(ok bool) {
			if ok {
				im.force = true
				im.run()
			}
		}, im.win)
	default:
		im.resume.Enable()
		im.status.SetText(fmt.Sprintf("Stopped: %v", err))
	}
}
