package ui

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"fyne.io/fyne/v2/dialog"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

// DBOld is what a database folder holds of the layer format before
// (layers.OldVersion): files this program reads only to convert them
// (retro.ConvertOld), which rewrites each in this format with the same
// values, keeping its verification.
type DBOld struct {
	Layers  int    // layer files of the format before
	Bytes   uint64 // their size
	Largest uint64 // the largest one's: a conversion writes it beside the old file
}

// convertRate is how fast a conversion goes, in bytes of old layer files
// a second. It reads each layer, checks it, writes it in the new order
// (placement layers of a reachable sweep made dense), reads the new file
// back and compares: about the disk's speed, or the processor's where the
// disk is fast. Measured on the 2-core development machine beside other
// work (docs/figures.md): the 5-stone game's 76 layers, 88.6 MB, in 2.1 to
// 2.5 s; a 9-stone moving layer of 423 MB in 5 s, a placement layer of
// 370 MB made dense in 10 to 12 s.
const convertRate = 40e6

// minMeasured is the bytes a conversion must have done before its speed
// replaces convertRate in the time left: small layers take longer for
// their size (each file is written, synced and renamed; the folder
// scanned): muehlectl convert took 2 to 4 s for 3-3, 3-4 and 4-3 of the
// 9-stone game, 1.8 MB, beside other work.
const minMeasured = 100e6

// Time returns about how long converting takes.
func (o DBOld) Time() time.Duration {
	return time.Duration(float64(o.Bytes) / convertRate * float64(time.Second))
}

// layerCount writes n layers: "1 layer", "62 layers".
func layerCount(n int) string {
	if n == 1 {
		return "1 layer"
	}
	return fmt.Sprintf("%d layers", n)
}

// Words says for the Database tab what the older layers mean and what
// converting does, in one paragraph.
func (o DBOld) Words() string {
	return fmt.Sprintf("This folder holds %s in the older file format, which this version does not read: "+
		"the players treat them as missing. Converting keeps their values and verification, computes nothing again "+
		"and takes about %s (it reads and writes their %s once). Computing and repairing wait until then.",
		layerCount(o.Layers), roughDuration(o.Time()), bytesText(o.Bytes))
}

// dialogWords says the same for the dialog that offers the conversion,
// in lines short enough for it.
func (o DBOld) dialogWords(dir string) string {
	return fmt.Sprintf("%s\nholds %s in the older file format (%s),\n"+
		"which this version of the program does not read:\nthe players treat them as missing.\n\n"+
		"Converting rewrites them in the new format with the same\nvalues, verified as they were: nothing is computed again.\n"+
		"It reads and writes each layer once: about %s.\n"+
		"Pause stops after the layer being converted; converting\nagain does the rest, also after a restart.\n\n"+
		"Convert them now?", dir, layerCount(o.Layers), bytesText(o.Bytes), roughDuration(o.Time()))
}

// Old returns what the folder of the panel's game holds of the layer
// format before. It reads the headers of the layer files, as Summary does.
// Only folders of Nine Men's Morris hold such layers: the other games'
// databases came with this format.
func (e *DBEngines) Old() DBOld {
	db, err := e.database()
	if err != nil || db.Variant().Game != muehle.Standard {
		return DBOld{}
	}
	var o DBOld
	for _, k := range layers.Order(db.Stones(), true) {
		if h, err := db.OldHeader(k); err == nil {
			n := layers.HeaderSize + h.BodySize()
			o.Layers++
			o.Bytes += n
			o.Largest = max(o.Largest, n)
		}
	}
	return o
}

// Convert rewrites the layers of the format before in this one
// (retro.ConvertOld), calling progress before each layer with its number,
// and every second with the time, the share of the bytes done and the
// time left, from the speed so far (convertRate at first). Cancelled, it
// stops after the layer being converted: each layer is replaced whole, and
// converting again does the rest. Layers another program is computing are
// skipped, and the error says so. No progress is reported after it
// returns.
func (e *DBEngines) Convert(ctx context.Context, progress func(DBProgress)) error {
	db, err := e.database()
	if err != nil {
		return err
	}
	if v := db.Variant(); v.Game != muehle.Standard {
		return fmt.Errorf("ui: the database of %s holds no layers of the older format: only Nine Men's Morris had it", v.Name())
	}
	c := conversion{start: time.Now(), sizes: map[layers.Key]uint64{}}
	for _, k := range layers.Order(db.Stones(), true) {
		if h, err := db.OldHeader(k); err == nil {
			c.sizes[k] = layers.HeaderSize + h.BodySize()
			c.total += c.sizes[k]
		}
	}
	defer e.notComputing(ctx)
	stop, ticks := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ticks)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				if pr, ok := c.at(now); ok {
					progress(pr)
				}
			}
		}
	}()
	defer func() { close(stop); <-ticks }()
	var skipped []string
	_, err = retro.ConvertOld(ctx, db, func(k layers.Key, i, n int) {
		e.mu.Lock()
		e.busy, e.busyOn, e.busyConvert, e.busyIn = k, true, true, db.Variant()
		e.mu.Unlock()
		pr, _ := c.next(k, i, n, time.Now())
		progress(pr)
	}, func(s string) { skipped = append(skipped, s) })
	if err == nil && len(skipped) > 0 {
		err = fmt.Errorf("%s skipped: another program is computing in this folder (%s); convert again when it has finished",
			layerCount(len(skipped)), skipped[0])
	}
	return err
}

// conversion is the progress of a Convert: the layers' sizes, the bytes
// of the layers done, and the layer under way.
type conversion struct {
	start time.Time
	sizes map[layers.Key]uint64
	total uint64

	mu      sync.Mutex
	done    uint64    // bytes of the layers done (converted or skipped)
	doneAt  time.Time // when the last of them was done
	cur     layers.Key
	curAt   time.Time // when cur was begun
	i, n    int       // cur is layer i (from 0) of n
	started bool
}

// next notes that layer k, number i of n, begins at now (the one before
// is done), and returns the progress.
func (c *conversion) next(k layers.Key, i, n int, now time.Time) (DBProgress, bool) {
	c.mu.Lock()
	if c.started {
		c.done += c.sizes[c.cur]
		c.doneAt = now
	}
	c.cur, c.curAt, c.i, c.n, c.started = k, now, i, n, true
	c.mu.Unlock()
	return c.at(now)
}

// at returns the progress at now, false before the first layer: the layer
// under way is taken as converted at the speed so far (at most 95 % of
// it, however long it takes), or at convertRate before minMeasured bytes
// are done.
func (c *conversion) at(now time.Time) (DBProgress, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.started {
		return DBProgress{}, false
	}
	rate := convertRate
	if d := c.doneAt.Sub(c.start).Seconds(); c.done >= minMeasured && d > 0 {
		rate = float64(c.done) / d
	}
	size := float64(c.sizes[c.cur])
	part := min(0.95*size, now.Sub(c.curAt).Seconds()*rate)
	pr := DBProgress{Converting: true, Unit: c.cur.String(), Phase: "converting", Step: c.i + 1, Steps: c.n,
		Elapsed: now.Sub(c.start), Left: time.Duration(max(0, float64(c.total)-float64(c.done)-part) / rate * float64(time.Second))}
	if c.total > 0 {
		pr.Overall = min(1, (float64(c.done)+part)/float64(c.total))
	}
	return pr, true
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
	dir := p.db.Dir()
	p.say("Looking at the free disk space…")
	go func() {
		free, err := p.free(dir)
		p.do(func() {
			p.say("")
			if err == nil && free < old.Largest {
				p.say("Not enough disk space: nothing was converted.")
				dialog.ShowInformation("Not enough disk space", fmt.Sprintf("Not enough disk space in\n%s\n"+
					"Converting writes each layer beside the old file before it\nreplaces it: the largest needs %s, and %s are free.\n"+
					"Free some space, and convert again.", dir, bytesText(old.Largest), bytesText(free)), p.u.win)
				return
			}
			p.startConvert(old)
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
	left := p.db.Old().Layers
	done := max(0, p.oldAtStart-left)
	switch {
	case errors.Is(err, context.Canceled):
		p.say(fmt.Sprintf("Paused. %s of %d converted, kept; Convert older layers does the rest.",
			layerCount(done), p.oldAtStart))
	case err != nil:
		p.say(fmt.Sprintf("Failed: %v. %s of %d converted, kept.", err, layerCount(done), p.oldAtStart))
	default:
		p.bar.SetValue(1)
		p.overall.SetValue(1)
		p.say(fmt.Sprintf("Done: %s converted, values and verification kept.", layerCount(done)))
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
	d := dialog.NewConfirm("Layers of an older format", old.dialogWords(p.db.Dir()), func(yes bool) {
		if yes {
			p.askConvert()
		}
	}, p.u.win)
	d.SetConfirmText("Convert")
	d.SetDismissText("Not now")
	d.Show()
	return true
}
