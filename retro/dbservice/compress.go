package dbservice

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"muehle/layers"
)

// Flat is what a database folder holds of verified layers lying flat:
// files that Compress keeps compressed (layers/doc.go, "Compressed layer
// files"), a sixth of their size or less, read where they lie.
type Flat struct {
	Layers  int    // verified layer files lying flat
	Bytes   uint64 // their size
	Largest uint64 // the largest one's: compressing writes its compressed file beside it
}

// minFlat is the size under which a flat layer does not count in Flat:
// compressing such a layer saves little, and one of a few hundred bytes
// is left as it is (its compressed file would not be smaller), so that
// counting it would offer to compress it again and again.
const minFlat = 64 << 10

// compressRate is how fast Compress goes, in bytes of flat layer files a
// second: each layer is read and checked, coded block by block both ways
// (a zstd frame and context streams), written, decoded again and compared,
// and a sample of its positions probed before and after. Measured on the
// 2-core development machine beside other work (load average 9, 2026-11-29,
// docs/export.md): `muehlectl compress --stones 6` of the 6-stone game
// lying flat, 570 MB, in 46 s (16 s of CPU).
const compressRate = 12e6

// Time returns about how long compressing takes.
func (f Flat) Time() time.Duration { return timeAt(f.Bytes, compressRate) }

// Words says what compressing the flat layers does, in one paragraph.
func (f Flat) Words() string {
	return fmt.Sprintf("This folder holds %s lying flat (%s). Compressing keeps each in blocks that the players read where they lie, "+
		"usually a sixth of its size or less, with the same values and verification; it takes about %s, "+
		"and Pause stops after the layer being compressed.",
		LayerCount(f.Layers), Bytes(f.Bytes), Rough(f.Time()))
}

// FlatOf returns what db holds of verified layers lying flat, but for
// those under minFlat bytes. It reads the headers and first bytes of the
// layer files and their verification records.
func FlatOf(db *layers.DB) Flat {
	var f Flat
	for _, k := range layers.OrderIn(db.Variant(), true) {
		h, err := db.Header(k)
		n := layers.HeaderSize + h.BodySize()
		if err != nil || n < minFlat || !db.Verified(k) || db.Compressed(k) {
			continue
		}
		f.Layers++
		f.Bytes += n
		f.Largest = max(f.Largest, n)
	}
	return f
}

// ErrNoRoom: the disk of a database folder lacks the room an operation
// needs before it starts; the error says how much.
var ErrNoRoom = errors.New("not enough disk space")

// CompressRun is what a Compress reports to and how it checks; any field
// may be nil or zero.
type CompressRun struct {
	Begin    func(layers.Key)  // before each layer
	Progress func(Progress)    // before each layer, and every second
	Layer    func(LayerResult) // after each layer
	// Sample is the number of positions of each layer compared before
	// and after, read through a database opened afresh (0: none).
	Sample int
	// Free returns the free bytes of a folder's disk (nil:
	// layers.FreeBytes); tests replace it.
	Free func(dir string) (uint64, error)
	// OwnDB says that nothing else reads db while Compress runs: after
	// each layer it unmaps every file the DB retired
	// (layers.DB.ReleaseRetired), those a reader got from DB.Layer
	// included. Without, the flat file a compressed file replaced is
	// given up as soon as no reader holds it (DB.Borrow), its disk space
	// given back for the next layer, while other readers probe db (the
	// window's players); a flat file that a reader took from DB.Layer
	// stays on the disk, deleted but mapped, until db is closed.
	OwnDB bool
}

// LayerResult is what Compress did with one layer.
type LayerResult struct {
	Key           layers.Key
	Step, Steps   int
	Header        layers.Header
	Before, After int64 // the file's size
	Done          bool  // compressed now; else left as it is (compressed already, or not smaller)
	Took          time.Duration
}

// CompressResult sums up a Compress.
type CompressResult struct {
	Done, Left    int   // layers compressed now, and left as they are
	Unverified    int   // layers not verified, left as they are
	Before, After int64 // the sizes of the layer files looked at
}

// Compress keeps the verified layers of db compressed, in place, as
// `muehlectl compress` and the Database tab do (layers.DB.Compress: each
// body checked in full, coded block by block, written beside the file,
// decoded again and compared byte for byte before it replaces the file in
// one rename; the header, the block file and the verification record
// stay). Layers not verified are left as they are. It refuses to start,
// with an error wrapping ErrNoRoom, when the folder's disk lacks the room
// of the largest flat layer. It is safe to interrupt and to run again:
// cancelled, it stops after the layer under way, and the layers
// compressed already are skipped. With run.Sample it compares that many
// positions of each layer, drawn at random, read through a database
// opened afresh with the values read before. Progress is reported as
// Convert reports it (Progress.Converting and Compressing), from two
// goroutines, never at once.
func Compress(ctx context.Context, db *layers.DB, run CompressRun) (CompressResult, error) {
	var res CompressResult
	// One conversion of a folder at a time: a second would take the first
	// one's temporary file for a leftover and remove it, or write the same.
	lock, err := db.Claim(ctx, compressClaim, false)
	if err != nil {
		return res, fmt.Errorf("compress: %w", err)
	}
	defer lock.Release()
	removeStaleCompressTemps(db.GameDir())
	var todo []layers.Key
	c := conversion{start: time.Now(), sizes: map[layers.Key]uint64{}, prior: compressRate, compress: true}
	var largest uint64
	for _, k := range layers.OrderIn(db.Variant(), true) {
		fi, err := os.Stat(db.Path(k))
		if err != nil {
			continue
		}
		if !db.Verified(k) {
			res.Unverified++
			continue
		}
		todo = append(todo, k)
		if db.Form(k) != layers.CompressForm { // flat, or compressed in form 1: rewritten
			c.sizes[k] = uint64(fi.Size())
			c.total += c.sizes[k]
			largest = max(largest, uint64(fi.Size()))
		}
	}
	free := run.Free
	if free == nil {
		free = layers.FreeBytes
	}
	if n, err := free(db.GameDir()); err == nil && n < largest {
		return res, fmt.Errorf("%w in %s: %s free, and compressing writes each layer's compressed file beside it before it replaces it: the largest may take %s; free some room first",
			ErrNoRoom, db.GameDir(), Bytes(n), Bytes(largest))
	}
	progress := serial(run.Progress) // the ticker's reports and the layers'
	defer c.tick(progress)()
	for i, k := range todo {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if run.Begin != nil {
			run.Begin(k)
		}
		pr, _ := c.next(k, i, len(todo), time.Now())
		progress(pr)
		sample := run.Sample
		if db.Form(k) == layers.CompressForm {
			sample = 0 // left as it is: nothing to compare, and reading it in full would fill its won depths for nothing
		}
		sam, err := sampleValues(db, k, sample, uint64(i))
		if err != nil {
			return res, fmt.Errorf("compress: %w", err)
		}
		t0 := time.Now()
		b, a, did, err := db.Compress(k)
		if err != nil {
			return res, fmt.Errorf("compress: %w", err)
		}
		res.Before, res.After = res.Before+b, res.After+a
		if did {
			res.Done++
		} else {
			res.Left++
		}
		if err := compareSample(db, k, sam); err != nil {
			return res, fmt.Errorf("compress: %w", err)
		}
		if run.OwnDB {
			if err := db.ReleaseRetired(); err != nil {
				return res, fmt.Errorf("compress: %w", err)
			}
		}
		if run.Layer != nil {
			h, _ := db.Header(k)
			run.Layer(LayerResult{Key: k, Step: i + 1, Steps: len(todo), Header: h, Before: b, After: a, Done: did, Took: time.Since(t0)})
		}
	}
	return res, nil
}

// valueSample is a sample of a layer's slots and their values.
type valueSample struct {
	slots  []uint64
	values []layers.Value
}

// sampleValues draws n slots of layer k (seeded by seed) and reads their
// values as the layer is now.
func sampleValues(db *layers.DB, k layers.Key, n int, seed uint64) (valueSample, error) {
	var s valueSample
	if n <= 0 {
		return s, nil
	}
	f, release, err := db.Borrow(k) // released: the flat file's disk is given back once replaced
	if err != nil {
		return s, err
	}
	defer release()
	slots := f.Header().Slots
	r := rand.New(rand.NewPCG(seed, 51))
	for range min(uint64(n), slots) {
		i := r.Uint64N(slots)
		s.slots = append(s.slots, i)
		s.values = append(s.values, f.Value(i))
	}
	return s, nil
}

// compareSample probes the positions of the sample's slots through a
// database opened afresh and compares their values with the sample's.
func compareSample(db *layers.DB, k layers.Key, s valueSample) error {
	if len(s.slots) == 0 {
		return nil
	}
	fresh, err := layers.OpenDB(db.Dir(), db.Variant())
	if err != nil {
		return err
	}
	defer fresh.Close()
	l := db.Indexer().Layer(k)
	for j, i := range s.slots {
		p, ok := l.Position(i)
		if !ok {
			continue
		}
		p.Game = db.Variant().Game
		got, err := fresh.Probe(p)
		if err != nil {
			return err
		}
		if got != s.values[j] {
			return fmt.Errorf("layer %s slot %d: %v after compressing, %v before", k, i, got, s.values[j])
		}
	}
	return nil
}

// compressClaim is the name of the claim (layers.DB.Claim) a conversion
// holds on its folder while it runs.
const compressClaim = "compress"

// removeStaleCompressTemps removes the temporary files of a compress run
// that was killed (name.z.tmp).
func removeStaleCompressTemps(dir string) {
	names, _ := filepath.Glob(filepath.Join(dir, "*.layer.z.tmp"))
	for _, n := range names {
		os.Remove(n)
	}
}
