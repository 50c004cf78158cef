package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"muehle/layers"
	"muehle/layers/pack"
	"muehle/retro"
	"muehle/retro/dbservice"
)

func init() {
	register("export", "write the database (all or chosen layers) to one package file", runExport)
}

// exportArgs are the checked flags of export.
type exportArgs struct {
	db         dbFlags
	out        string
	keys       []layers.Key // --layer, else nil
	opts       retro.SolveOptions
	chosen     bool // --max-stones, --placement or --all-phases given
	partBytes  int64
	level      zstd.EncoderLevel
	workers    int
	storeAll   bool    // --derive=false
	derive     float64 // --derive-bits, as pack.ExportOptions.DeriveBits
	unverified bool    // --unverified
}

// parseExport parses and checks the flags of export.
func parseExport(args []string, stderr io.Writer) (exportArgs, error) {
	fs := newFlags("export", "--out FILE [--db DIR] [--stones K] [--layer KEY,KEY… | --max-stones N | --placement | --all-phases] [--part-size SIZE] [--level L] [--derive-bits B | --derive=false]", stderr)
	a := exportArgs{db: addDBFlags(fs)}
	sel := addLayerFlags(fs)
	out := fs.String("out", "", "the package `FILE` to write (with --part-size, a folder of parts); it must not exist")
	only := fs.String("layer", "", "export only these layers, comma separated, e.g. 3-3,3-4,4-3")
	part := fs.String("part-size", "", "write a folder of parts of at most `SIZE` bytes each (suffix K, M or G: 1024-based), for file systems with a size limit")
	level := fs.String("level", "default", "zstd compression: fastest, default, better or best")
	derive := fs.Bool("derive", true, "leave out layers that import computes from the layers before them (the second of a moving pair, verified; see --derive-bits); false stores every layer")
	deriveBits := fs.Float64("derive-bits", pack.DefaultDeriveBits, "leave out such a layer when its values would take at least `B` bits per slot stored (estimated on a sample of its blocks): a smaller package, a longer import; 0 leaves out every one")
	unverified := fs.Bool("unverified", false, "export layers without a verification record too (muehlectl verify writes it): the package then lacks their `verified` entries, and import says so")
	workers := addWorkers(fs)
	if err := parseFlags(fs, args); err != nil {
		return a, err
	}
	a.unverified = *unverified
	opts, err := sel.options(a.db.perSide())
	if err == nil {
		err = a.db.check()
	}
	if err == nil && *out == "" {
		err = errors.New("--out: name the package file to write")
	}
	if err == nil {
		err = checkWorkers(*workers)
	}
	if err == nil && *part != "" {
		a.partBytes, err = parseSize(*part)
		if err == nil && a.partBytes < 64<<10 {
			err = fmt.Errorf("--part-size %s: want at least 64K", *part)
		}
	}
	if err == nil {
		var ok bool
		if ok, a.level = zstd.EncoderLevelFromString(*level); !ok || *level == "" {
			err = fmt.Errorf("--level %q: want fastest, default, better or best", *level)
		}
	}
	a.chosen = *sel.maxStones != 0 || *sel.placement || *sel.all
	if err == nil && *only != "" {
		if a.chosen {
			err = errors.New("--layer with --max-stones, --placement or --all-phases: give one")
		}
		if err == nil {
			a.keys, err = a.db.layerKeys(*only)
		}
	}
	if err == nil && !(*deriveBits >= 0 && *deriveBits <= 8) { // NaN too
		err = fmt.Errorf("--derive-bits %g: want 0 to 8", *deriveBits)
	}
	if err == nil && !*derive && flagSet(fs, "derive-bits") {
		err = errors.New("--derive-bits with --derive=false: every layer is stored, give one")
	}
	if err != nil {
		return a, flagError(fs, err)
	}
	a.out, a.opts, a.workers, a.storeAll, a.derive = *out, opts, *workers, !*derive, *deriveBits
	if a.derive == 0 {
		a.derive = -1 // every layer that may be derived
	}
	return a, nil
}

// parseSize parses a size in bytes with an optional suffix K, M or G
// (1024-based).
func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("size %q: want a positive number of bytes, with K, M or G", s)
	}
	return n * mult, nil
}

// exportKeys returns the layers to export in the order of computation:
// those named, else those the layer flags choose (all of them must be
// there), else every layer the folder has.
func exportKeys(db *layers.DB, a exportArgs) ([]layers.Key, error) {
	order := layers.OrderIn(db.Variant(), true)
	if a.keys != nil {
		var keys []layers.Key
		for _, k := range order {
			for _, c := range a.keys {
				if c == k {
					keys = append(keys, k)
					break
				}
			}
		}
		return keys, nil
	}
	if a.chosen {
		return retro.Layers(db, a.opts), nil
	}
	var keys []layers.Key
	for _, k := range order {
		if db.Has(k) || db.Damage(k) != nil {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("no layer of %s in %s", db.Variant().Name(), db.GameDir())
	}
	return keys, nil
}

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, err := parseExport(args, stderr)
	if err != nil {
		return err
	}
	db, err := a.db.openExisting()
	if err != nil {
		return err
	}
	defer db.Close()
	keys, err := exportKeys(db, a)
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	opts := pack.ExportOptions{Out: a.out, PartBytes: a.partBytes, Level: a.level, Workers: a.workers, StoreAll: a.storeAll, DeriveBits: a.derive, Unverified: a.unverified,
		Exported: pack.Machine{Commit: commit(), Host: host, OS: runtime.GOOS + "/" + runtime.GOARCH, Cores: runtime.NumCPU()}}
	recs, err := layers.ReadRecordFile(db.RecordPath())
	if err != nil {
		fmt.Fprintf(stderr, "the solve record: %v (what it says is left out of the package)\n", err)
	}
	opts.Computed = computedBy(recs)
	show := newPackProgress(stderr)
	opts.Progress = show.update
	fmt.Fprintf(stdout, "exporting %s of %s from %s to %s\n", layerCount(len(keys)), db.Variant().Name(), db.Dir(), a.out)
	start := time.Now()
	res, err := pack.Export(ctx, db, keys, opts)
	show.finish()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted after %s; nothing written: %w", time.Since(start).Round(time.Second), err)
		}
		return err
	}
	body := res.Manifest.Bytes()
	parts := ""
	if a.partBytes > 0 {
		parts = fmt.Sprintf(" in %d parts", res.Parts)
	}
	fmt.Fprintf(stdout, "wrote %s%s: %s, %s of layer bodies in %s (%.2f %%, %.3f bits per slot) in %s\n",
		a.out, parts, layerCount(len(keys)), sizeText(int64(body)), sizeText(res.Bytes), 100*float64(res.Bytes)/float64(body),
		8*float64(res.Bytes)/float64(res.Manifest.Slots()), time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(stdout, "  %d blocks: %d zstd frames, %d context streams, %d context streams with the partner layer's values, %d without their rank directory, %d of compressed layer files copied\n",
		res.Blocks, res.Coded[0], res.Coded[1], res.Coded[2], res.Coded[3], res.Coded[4])
	if flat := dbservice.FlatOf(db); flat.Layers > 0 {
		fmt.Fprintf(stdout, "  the folder holds %s lying flat (%s), which a package codes rather than copies; `muehlectl compress --db %s` keeps them compressed, and then export and import copy them in a fraction of the time\n",
			layerCount(flat.Layers), sizeText(int64(flat.Bytes)), db.Dir())
	}
	for _, kind := range []string{"moving", "placement"} {
		var n, derived, slots, values uint64
		var packed int64
		for i, l := range res.Manifest.Layers {
			if res.Manifest.Key(i).IsMoving() == (kind == "moving") {
				n, slots, values, packed = n+1, slots+l.Slots, values+l.Won+l.Lost+l.Drawn, packed+res.Packed[i]
				if l.Derived {
					derived++
				}
			}
		}
		if n > 0 {
			fmt.Fprintf(stdout, "  %-9s %s: %d slots, %d values stored (not Unused), %s: %.3f bits per stored value\n",
				kind, layerCount(int(n)), slots, values, sizeText(packed), 8*float64(packed)/float64(max(values, 1)))
		}
		if derived > 0 {
			fmt.Fprintf(stdout, "  %-9s %s of them left out, to be computed on import from the layers before them:%s\n", "", layerCount(int(derived)), derivedText(res))
		}
	}
	return nil
}

// derivedText lists the layers export left out, with the bits per slot
// they would have taken stored where it estimated them.
func derivedText(res *pack.ExportResult) string {
	var b strings.Builder
	for i, l := range res.Manifest.Layers {
		if !l.Derived {
			continue
		}
		fmt.Fprintf(&b, " %s", l.Key)
		if i < len(res.Estimated) && res.Estimated[i] > 0 {
			fmt.Fprintf(&b, " (%.2f)", res.Estimated[i])
		}
	}
	return b.String()
}

// computedBy sums up the solve record: the units each commit computed on
// a machine of how many cores.
func computedBy(recs []layers.Record) []pack.Machine {
	var ms []pack.Machine
	at := map[string]int{}
	for _, r := range recs {
		id := fmt.Sprintf("%s %d", r.Commit, r.Cores)
		i, ok := at[id]
		if !ok {
			i = len(ms)
			at[id] = i
			ms = append(ms, pack.Machine{Commit: r.Commit, Cores: r.Cores})
		}
		ms[i].Units++
	}
	return ms
}

// sizeText gives a size in bytes, KiB, MiB or GiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// layerCount says "1 layer" or "n layers".
func layerCount(n int) string {
	if n == 1 {
		return "1 layer"
	}
	return fmt.Sprintf("%d layers", n)
}
