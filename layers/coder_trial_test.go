package layers

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCoderTrial measures what the two coders of a block make of each
// block of the compressed layers of a database folder: the bytes of the
// zstd frame and of the context streams, the time each takes to encode
// the block (once) and to decode it (three times, the mean). It logs what
// encoding costs under the rule for one block, and the layers' size and
// the mean decoding time of a block under two kinds of rule: the streams
// where they save more than so many bytes, and where they are smaller
// than a share of zstd's frame (codec.go, streamsGain). A measurement,
// not a check:
//
//	MUEHLE_CODER_TRIAL_DB=DIR [MUEHLE_CODER_TRIAL_GAME=lasker] [MUEHLE_CODER_TRIAL_STONES=6] \
//	[MUEHLE_CODER_TRIAL_LAYERS=7-6,4-9] go test -run CoderTrial -v ./layers/
//
// DIR is the database folder (holding kN or GAME/kN); without LAYERS
// every compressed layer of the folder is read.
func TestCoderTrial(t *testing.T) {
	dir := os.Getenv("MUEHLE_CODER_TRIAL_DB")
	if dir == "" {
		t.Skip("MUEHLE_CODER_TRIAL_DB names no folder of compressed layers")
	}
	v := envVariant(t, "MUEHLE_CODER_TRIAL_GAME", "MUEHLE_CODER_TRIAL_STONES")
	db, err := OpenDB(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	x := db.Indexer()
	type blockCost struct {
		n      int           // bytes of the block
		z, s   int           // bytes: zstd frame, streams
		tz, ts time.Duration // decoding
		ez, es time.Duration // encoding
	}
	var all []blockCost
	names := os.Getenv("MUEHLE_CODER_TRIAL_LAYERS")
	if names == "" {
		files, _ := filepath.Glob(filepath.Join(filepath.Dir(db.Path(Moving(3, 3))), "*.layer"))
		var ns []string
		for _, f := range files {
			n := strings.TrimSuffix(filepath.Base(f), ".layer")
			ns = append(ns, strings.TrimPrefix(n, "m"))
		}
		names = strings.Join(ns, ",")
	}
	for name := range strings.SplitSeq(names, ",") {
		k, err := ParseKey(name)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if db.Form(k) == 0 {
			continue // flat: a layer too small to compress
		}
		z, _, err := openZ(db.Path(k), v, k, x.Layer(k).Parts())
		if err != nil {
			t.Fatal(err)
		}
		parts := z.parts
		var c blockCoder
		if c.enc, err = zstdEnc(); err != nil {
			t.Fatal(err)
		}
		if c.dec, err = zstdDec(); err != nil {
			t.Fatal(err)
		}
		var out []byte
		buf := make([]byte, 0, 1<<z.shift)
		for b := range z.n {
			raw, err := z.decode(buf, b, &c)
			if err != nil {
				t.Fatal(err)
			}
			base := uint64(b) << z.shift
			start := time.Now()
			zf := c.enc.EncodeAll(raw, nil)
			ez := time.Since(start)
			start = time.Now()
			st := c.sc.Encode(nil, raw, base, parts, nil)
			bc := blockCost{n: len(raw), z: len(zf) + 1, s: len(st) + 1, ez: ez, es: time.Since(start)}
			start = time.Now()
			for range 3 {
				if out, err = c.dec.DecodeAll(zf, out[:0]); err != nil {
					t.Fatal(err)
				}
			}
			bc.tz = time.Since(start) / 3
			start = time.Now()
			for range 3 {
				if out, err = c.sc.Decode(out[:0], st, len(raw), base, parts, nil); err != nil {
					t.Fatal(err)
				}
			}
			bc.ts = time.Since(start) / 3
			all = append(all, bc)
		}
		z.close()
	}
	var zAll, sAll, least int
	var tzAll, tsAll time.Duration
	for _, bc := range all {
		zAll += bc.z
		sAll += bc.s
		least += min(bc.z, bc.s)
		tzAll += bc.tz
		tsAll += bc.ts
	}
	n := time.Duration(len(all))
	t.Logf("%d blocks; all zstd %d bytes, %v a block to decode; all streams %d bytes, %v", len(all), zAll, tzAll/n, sAll, tsAll/n)
	// What encoding costs under blockCoder.encode's rule for one block
	// (streamsPay aside, which may leave the streams out of a whole
	// layer): zstd always, the streams only where zstd's frame leaves
	// them a streamsGain-th of the block to save.
	var ezAll, esAll, esTried time.Duration
	tried, kept := 0, 0
	for _, bc := range all {
		ezAll += bc.ez
		esAll += bc.es
		gain := bc.n / streamsGain
		if min(bc.z-1, bc.n) > gain {
			tried++
			esTried += bc.es
			if bc.s-1+gain < min(bc.z-1, bc.n) {
				kept++
			}
		}
	}
	t.Logf("encoding a block: zstd %v, streams %v; the rule for one block tries the streams on %d blocks (%v of encoding in all, against %v of zstd) and keeps them on %d", ezAll/n, esAll/n, tried, esTried, ezAll, kept)
	// The rules, each saying whether a block is coded as streams.
	type rule struct {
		name    string
		streams func(blockCost) bool
	}
	var rules []rule
	for _, save := range []int{0, 128, 256, 512, 1024, 1536, 2048, 3072, 4096} {
		rules = append(rules, rule{fmt.Sprintf("streams where they save more than %d bytes", save),
			func(bc blockCost) bool { return bc.s+save < bc.z }})
	}
	for _, margin := range []float64{0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5} {
		rules = append(rules, rule{fmt.Sprintf("streams where smaller than %.2f of zstd", margin),
			func(bc blockCost) bool { return float64(bc.s) < margin*float64(bc.z) }})
	}
	for _, r := range rules {
		var size int
		var ds []time.Duration
		for _, bc := range all {
			if r.streams(bc) {
				size, ds = size+bc.s, append(ds, bc.ts)
			} else {
				size, ds = size+bc.z, append(ds, bc.tz)
			}
		}
		var tm time.Duration
		for _, d := range ds {
			tm += d
		}
		slices.Sort(ds)
		t.Logf("%s: %d bytes (%.3f of the smallest), a block %v to decode on average, median %v", r.name, size, float64(size)/float64(least), tm/n, ds[len(ds)/2])
	}
}
