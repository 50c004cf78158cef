package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"muehle/layers"
)

func init() {
	register("compress", "keep a folder's verified layers compressed, in place", runCompress)
}

// runCompress rewrites every verified layer of a folder's game compressed
// (layers.DB.Compress: blocks coded one by one, decoded again and compared
// byte for byte before the file is replaced; the header, the block file
// and the verification record stay). It is safe to interrupt and to run
// again: a layer is replaced in one rename, and the layers compressed
// already are skipped. It refuses to start when the folder's disk lacks
// the room of the largest layer's temporary file. Afterwards it compares
// --sample positions of each layer, drawn at random, read through a
// database opened afresh with the values read before.
func runCompress(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compress", "[--db DIR] [--game G] [--stones K] [--sample N]", stderr)
	dbf := addDBFlags(fs)
	sample := fs.Int("sample", 1000, "positions of each layer compared before and after")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := dbf.check(); err != nil {
		return flagError(fs, err)
	}
	db, err := dbf.openExisting()
	if err != nil {
		return err
	}
	defer db.Close()
	v := db.Variant()
	removeStaleCompressTemps(db.GameDir())
	var todo []layers.Key
	var largest int64
	var skipped int
	for _, k := range layers.OrderIn(v, true) {
		fi, err := os.Stat(db.Path(k))
		if err != nil {
			continue
		}
		if !db.Verified(k) {
			skipped++
			continue
		}
		todo = append(todo, k)
		largest = max(largest, fi.Size())
	}
	if len(todo) == 0 {
		fmt.Fprintf(stdout, "no verified layer in %s\n", db.GameDir())
		return nil
	}
	if free, err := layers.FreeBytes(db.GameDir()); err == nil && free < uint64(largest) {
		return fmt.Errorf("compress: %s has %s free; the largest layer's temporary file may take %s: free some room first", db.GameDir(), sizeText(int64(free)), sizeText(largest))
	}
	var before, after int64
	var done int
	start := time.Now()
	for i, k := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		sam, err := sampleValues(db, k, *sample, uint64(i))
		if err != nil {
			return fmt.Errorf("compress: %w", err)
		}
		t0 := time.Now()
		b, a, did, err := db.Compress(k)
		if err != nil {
			return fmt.Errorf("compress: %w", err)
		}
		before, after = before+b, after+a
		h, _ := db.Header(k)
		state := "compressed"
		if !did {
			state = "left as it is"
		} else {
			done++
		}
		fmt.Fprintf(stdout, "layer %d of %d  %-10s %s, %s: %s -> %s (%.3f bits per stored value) in %v\n",
			i+1, len(todo), k, state, kindOf(h), sizeText(b), sizeText(a), 8*float64(a)/float64(max(1, h.Won+h.Lost+h.Drawn)), time.Since(t0).Round(time.Millisecond))
		if err := compareSample(db, k, sam); err != nil {
			return fmt.Errorf("compress: %w", err)
		}
	}
	fmt.Fprintf(stdout, "%d layers compressed, %d left as they are (compressed already, or not smaller compressed), %d not verified (left as they are); layer files %s before, %s now; %d positions of each layer compared in %v\n",
		done, len(todo)-done, skipped, sizeText(before), sizeText(after), *sample, time.Since(start).Round(time.Second))
	return nil
}

// kindOf names a layer's kind in the lines of compress.
func kindOf(h layers.Header) string {
	switch {
	case h.Key.IsMoving():
		return "moving"
	case h.Dense():
		return "placement, dense"
	}
	return "placement"
}

// valueSample is a sample of a layer's slots and their values.
type valueSample struct {
	slots  []uint64
	values []layers.Value
}

// sampleValues draws n slots of layer k (seeded by seed) and reads their
// values as the layer is now.
func sampleValues(db *layers.DB, k layers.Key, n int, seed uint64) (valueSample, error) {
	f, err := db.Layer(k)
	if err != nil {
		return valueSample{}, err
	}
	var s valueSample
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

// removeStaleCompressTemps removes the temporary files of a compress run
// that was killed (name.z.tmp).
func removeStaleCompressTemps(dir string) {
	names, _ := filepath.Glob(filepath.Join(dir, "*.layer.z.tmp"))
	for _, n := range names {
		os.Remove(n)
	}
}
