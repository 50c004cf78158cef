package dbservice

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

// Old is what a database folder holds of the layer format before
// (layers.OldVersion): files this program reads only to convert them
// (retro.ConvertOld), which rewrites each in this format with the same
// values, keeping its verification.
type Old struct {
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
func (o Old) Time() time.Duration { return timeAt(o.Bytes, convertRate) }

// timeAt returns how long n bytes take at rate bytes a second.
func timeAt(n uint64, rate float64) time.Duration {
	return time.Duration(float64(n) / rate * float64(time.Second))
}

// Words says what the older layers mean and what converting does, in one
// paragraph.
func (o Old) Words() string {
	return fmt.Sprintf("This folder holds %s in the older file format, which this version does not read: "+
		"the players treat them as missing. Converting keeps their values and verification, computes nothing again "+
		"and takes about %s (it reads and writes their %s once). Computing and repairing wait until then.",
		LayerCount(o.Layers), Rough(o.Time()), Bytes(o.Bytes))
}

// OldOf returns what db holds of the layer format before. It reads the
// headers of the layer files. Only folders of Nine Men's Morris hold such
// layers: the other games' databases came with this format.
func OldOf(db *layers.DB) Old {
	var o Old
	if db.Variant().Game != muehle.Standard {
		return o
	}
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

// ConvertRun is what a conversion reports to; any field may be nil.
type ConvertRun struct {
	Begin    func(layers.Key) // before each layer
	Progress func(Progress)   // before each layer, and every second
	// Skipped receives the words on a layer another program is
	// computing, which is skipped; when nil, the error names them.
	Skipped func(string)
}

// Convert rewrites the layers of the format before in db in this one
// (retro.ConvertOld), reporting before each layer its number, and every
// second the time, the share of the bytes done and the time left, from
// the speed so far (convertRate at first). Cancelled, it stops after the
// layer being converted: each layer is replaced whole, and converting
// again does the rest. It returns the number of layers converted. No
// progress is reported after it returns. Progress is called from two
// goroutines, never at once.
func Convert(ctx context.Context, db *layers.DB, run ConvertRun) (int, error) {
	if db.Variant().Game != muehle.Standard {
		return 0, nil // only Nine Men's Morris had the format before
	}
	progress := serial(run.Progress) // the ticker's reports and the layers'
	c := conversion{start: time.Now(), sizes: map[layers.Key]uint64{}, prior: convertRate}
	for _, k := range layers.Order(db.Stones(), true) {
		if h, err := db.OldHeader(k); err == nil {
			c.sizes[k] = layers.HeaderSize + h.BodySize()
			c.total += c.sizes[k]
		}
	}
	defer c.tick(progress)()
	var skipped []string
	n, err := retro.ConvertOld(ctx, db, func(k layers.Key, i, n int) {
		if run.Begin != nil {
			run.Begin(k)
		}
		pr, _ := c.next(k, i, n, time.Now())
		progress(pr)
	}, func(s string) {
		if run.Skipped != nil {
			run.Skipped(s)
		}
		skipped = append(skipped, s)
	})
	if err == nil && len(skipped) > 0 && run.Skipped == nil {
		err = fmt.Errorf("%s skipped: another program is computing in this folder (%s); convert again when it has finished",
			LayerCount(len(skipped)), skipped[0])
	}
	return n, err
}

// conversion is the progress of a Convert (or a Compress): the layers'
// sizes, the bytes of the layers done, and the layer under way.
type conversion struct {
	start    time.Time
	sizes    map[layers.Key]uint64
	total    uint64
	prior    float64 // bytes a second before minMeasured are done
	compress bool    // a Compress: its progress says so

	mu      sync.Mutex
	done    uint64    // bytes of the layers done (converted or skipped)
	doneAt  time.Time // when the last of them was done
	cur     layers.Key
	curAt   time.Time // when cur was begun
	i, n    int       // cur is layer i (from 0) of n
	started bool
}

// serial returns a function that calls f (when not nil) from any
// goroutine, never twice at once.
func serial(f func(Progress)) func(Progress) {
	var mu sync.Mutex
	return func(p Progress) {
		if f != nil {
			mu.Lock()
			defer mu.Unlock()
			f(p)
		}
	}
}

// tick reports the progress to progress every second until the function
// it returns is called (and has waited for the last report).
func (c *conversion) tick(progress func(Progress)) func() {
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
	return func() { close(stop); <-ticks }
}

// next notes that layer k, number i of n, begins at now (the one before
// is done), and returns the progress.
func (c *conversion) next(k layers.Key, i, n int, now time.Time) (Progress, bool) {
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
func (c *conversion) at(now time.Time) (Progress, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.started {
		return Progress{}, false
	}
	rate := Rate{Prior: cmp.Or(c.prior, convertRate), MinWork: minMeasured}.At(float64(c.done), c.doneAt.Sub(c.start))
	size := float64(c.sizes[c.cur])
	part := min(0.95*size, now.Sub(c.curAt).Seconds()*rate)
	phase := "converting"
	if c.compress {
		phase = "compressing"
	}
	pr := Progress{Converting: true, Compressing: c.compress, Unit: c.cur.String(), Phase: phase, Step: c.i + 1, Steps: c.n,
		Elapsed: now.Sub(c.start), Left: Left(float64(c.total)-float64(c.done)-part, rate)}
	if c.total > 0 {
		pr.Overall = min(1, (float64(c.done)+part)/float64(c.total))
	}
	return pr, true
}
