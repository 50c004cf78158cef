package ui

import (
	"context"
	"errors"
	"fmt"

	"fyne.io/fyne/v2/dialog"

	"muehle/layers"
	"muehle/retro/dbservice"
)

// DBOld is what a database folder holds of the layer format before
// (dbservice.Old).
type DBOld = dbservice.Old

// dialogWords says what the older layers o mean and what converting
// does (as Old.Words) for the dialog that offers the conversion, in lines
// short enough for it.
func dialogWords(o DBOld, dir string) string {
	return fmt.Sprintf("%s\nholds %s in the older file format (%s),\n"+
		"which this version of the program does not read:\nthe players treat them as missing.\n\n"+
		"Converting rewrites them in the new format with the same\nvalues, verified as they were: nothing is computed again.\n"+
		"It reads and writes each layer once: about %s.\n"+
		"Pause stops after the layer being converted; converting\nagain does the rest, also after a restart.\n\n"+
		"Convert them now?", dir, layerCount(o.Layers), bytesText(o.Bytes), roughDuration(o.Time()))
}

// Old returns what the folder of the panel's game holds of the layer
// format before (dbservice.OldOf). It reads the headers of the layer
// files, as Summary does.
func (e *DBEngines) Old() DBOld {
	db, err := e.database()
	if err != nil {
		return DBOld{}
	}
	return dbservice.OldOf(db)
}

// Convert rewrites the layers of the format before in this one
// (dbservice.Convert), marking the layer being converted.
func (e *DBEngines) Convert(ctx context.Context, progress func(DBProgress)) error {
	db, err := e.database()
	if err != nil {
		return err
	}
	defer e.notComputing(ctx)
	_, err = dbservice.Convert(ctx, db, dbservice.ConvertRun{Begin: func(k layers.Key) {
		e.mu.Lock()
		e.busy, e.busyOn, e.busyConvert, e.busyIn = k, true, true, db.Variant()
		e.mu.Unlock()
	}, Progress: progress})
	return err
}

// oldBlocks reports whether the folder holds layers of the format before,
// which keep computing and repairing from starting (the solver refuses
// such a folder: it would compute them again), and says so.
func (p *dbPanel) oldBlocks() bool {
	if p.db.Old().Layers == 0 {
		return false
	}
	p.say("Convert the older layers first (Convert older layers).")
	return true
}

// askConvert checks the free disk space off the UI thread, then converts
// the older layers in the background, or refuses when the disk cannot
// hold the largest of them twice.
func (p *dbPanel) askConvert() {
	if p.stop != nil {
		return
	}
	old := p.db.Old()
	if old.Layers == 0 {
		p.refresh()
		return
	}
	p.withRoom(old.Largest, "convert", "Converting writes each layer beside the old file before it\nreplaces it: the largest needs",
		func() { p.startConvert(old) })
}

// withRoom checks the free disk space of the folder off the UI thread,
// then calls start, or refuses when fewer than need bytes are free:
// verb names the run ("convert"), why begins the sentence that says what
// it writes and how much the largest layer needs.
func (p *dbPanel) withRoom(need uint64, verb, why string, start func()) {
	dir := p.db.Dir()
	p.say("Looking at the free disk space…")
	go func() {
		free, err := p.free(dir)
		p.do(func() {
			p.say("")
			if err == nil && free < need {
				p.say("Not enough disk space: nothing was " + verb + "ed.")
				dialog.ShowInformation("Not enough disk space", fmt.Sprintf("Not enough disk space in\n%s\n%s %s, and %s are free.\n"+
					"Free some space, and %s again.", dir, why, bytesText(need), bytesText(free), verb), p.u.win)
				return
			}
			start()
		})
	}()
}

// startConvert runs Database.Convert in the background.
func (p *dbPanel) startConvert(old DBOld) {
	if p.stop != nil {
		return
	}
	p.running, p.base, p.converting, p.oldAtStart = "", runBase{}, true, old.Layers
	p.start(p.db.Convert)
}

// convertNote says what pausing a conversion does.
const convertNote = "Pause stops after the layer being converted; the layers converted stay converted, " +
	"and Convert older layers does the rest."

// convertFinished says how the conversion ended: done, paused or failed,
// with the layers converted, which are kept in any case.
func (p *dbPanel) convertFinished(err error) {
	p.rewriteFinished(err, p.oldAtStart, p.db.Old().Layers, "converted", "Convert older layers")
}

// rewriteFinished says how a run that rewrites layers one by one ended
// (a conversion, a compression: the layers done past, its button
// button), of atStart layers to do, left of them still to do: done,
// paused or failed, the layers done kept in any case.
func (p *dbPanel) rewriteFinished(err error, atStart, left int, past, button string) {
	done := max(0, atStart-left)
	switch {
	case errors.Is(err, context.Canceled):
		p.say(fmt.Sprintf("Paused. %s of %d %s, kept; %s does the rest.", layerCount(done), atStart, past, button))
	case err != nil:
		p.say(fmt.Sprintf("Failed: %v. %s of %d %s, kept.", err, layerCount(done), atStart, past))
	default:
		p.bar.SetValue(1)
		p.overall.SetValue(1)
		p.say(fmt.Sprintf("Done: %s %s, values and verification kept.", layerCount(done), past))
	}
}

// offerConvert asks whether to convert the layers of the format before,
// once for each folder.
func (p *dbPanel) offerConvert() bool {
	old := p.db.Old()
	if old.Layers == 0 || p.stop != nil || p.offeredOld == p.db.Dir() {
		return old.Layers > 0
	}
	p.offeredOld = p.db.Dir()
	d := dialog.NewConfirm("Layers of an older format", dialogWords(old, p.db.Dir()), func(yes bool) {
		if yes {
			p.askConvert()
		}
	}, p.u.win)
	d.SetConfirmText("Convert")
	d.SetDismissText("Not now")
	d.Show()
	return true
}
