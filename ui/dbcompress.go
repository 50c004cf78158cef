package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2/dialog"

	"muehle/layers"
	"muehle/retro/dbservice"
)

// DBFlat is what a database folder holds of verified layers lying flat
// (dbservice.Flat).
type DBFlat = dbservice.Flat

// compressSample is the number of positions of each layer that a
// compression in the window compares before and after (muehlectl
// compress: 1,000 by default).
const compressSample = 200

// Flat returns what the folder of the panel's game holds of verified
// layers lying flat (dbservice.FlatOf). It reads the headers of the layer
// files, as Summary does.
func (e *DBEngines) Flat() DBFlat {
	db, err := e.database()
	if err != nil {
		return DBFlat{}
	}
	return dbservice.FlatOf(db)
}

// Compress keeps the verified layers of the panel's game compressed, in
// place (dbservice.Compress, as `muehlectl compress`), marking the layer
// being compressed.
func (e *DBEngines) Compress(ctx context.Context, progress func(DBProgress)) error {
	db, err := e.database()
	if err != nil {
		return err
	}
	defer e.notComputing(ctx)
	_, err = dbservice.Compress(ctx, db, dbservice.CompressRun{Begin: func(k layers.Key) {
		e.mu.Lock()
		e.busy, e.busyOn, e.busyConvert, e.busyCompress, e.busyIn = k, true, true, true, db.Variant()
		e.mu.Unlock()
	}, Progress: progress, Sample: compressSample})
	return err
}

// compressWords says what compressing the flat layers f does, for the
// dialog that offers it, in lines short enough for it.
func compressWords(f DBFlat, dir string) string {
	return fmt.Sprintf("%s\nholds %s lying flat (%s).\n\n"+
		"Compressing keeps each in blocks that the players read\nwhere they lie, usually a sixth of its size or less, with the\n"+
		"same values, verified as they were: nothing is computed again.\n"+
		"It takes about %s.\n"+
		"Pause stops after the layer being compressed; compressing\nagain does the rest, also after a restart.\n\n"+
		"Compress them now?", dir, layerCount(f.Layers), bytesText(f.Bytes), roughDuration(f.Time()))
}

// askCompress asks whether to compress the flat layers, then checks the
// free disk space off the UI thread and compresses in the background, or
// refuses when the disk cannot hold the largest layer's compressed file
// beside it.
func (p *dbPanel) askCompress() {
	if p.stop != nil {
		return
	}
	flat := p.db.Flat()
	if flat.Layers == 0 {
		p.refresh()
		return
	}
	d := dialog.NewConfirm("Compress the layers", compressWords(flat, p.db.Dir()), func(yes bool) {
		if yes {
			p.checkCompress(flat)
		}
	}, p.u.win)
	d.SetConfirmText("Compress")
	d.SetDismissText("Not now")
	d.Show()
}

// checkCompress compresses the flat layers f in the background, or
// refuses when the disk cannot hold the largest layer's compressed file
// beside it.
func (p *dbPanel) checkCompress(f DBFlat) {
	p.withRoom(f.Largest, "compress", "Compressing writes each layer's compressed file beside it\nbefore it replaces it: the largest may need",
		func() { p.startCompress(f) })
}

// startCompress runs Database.Compress in the background.
func (p *dbPanel) startCompress(flat DBFlat) {
	if p.stop != nil {
		return
	}
	p.running, p.base, p.compressing, p.flatAtStart = "", runBase{}, true, flat.Layers
	p.start(p.db.Compress)
}

// compressNote says what pausing a compression does.
const compressNote = "Pause stops after the layer being compressed; the layers compressed stay compressed, " +
	"and Compress layers does the rest."

// compressFinished says how the compression ended: done, paused or
// failed, with the layers compressed, which are kept in any case.
func (p *dbPanel) compressFinished(err error) {
	p.rewriteFinished(err, p.flatAtStart, p.db.Flat().Layers, "compressed", "Compress layers")
}
