package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

func init() {
	register("report", "the database's figures as a Markdown document (layers, checksums, solve times)", runReport)
}

// runReport prints, for the layers of the chosen game, what `stats` prints,
// each layer's CRC-64 and whether it is verified, then the units of the
// solve record (record.go) with their times and peak memory. It reads
// only; missing and damaged layers are listed as such.
func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", "[--db DIR] [--stones K] [--max-stones N] [--placement | --all-phases]", stderr)
	dbf := addDBFlags(fs)
	sel := addLayerFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	opts, err := sel.options(dbf.perSide())
	if err == nil {
		err = dbf.check()
	}
	if err != nil {
		return flagError(fs, err)
	}
	db, err := dbf.openExisting()
	if err != nil {
		return err
	}
	defer db.Close()
	records, recErr := layers.ReadRecordFile(db.RecordPath())

	w := bufio.NewWriter(stdout)
	defer w.Flush()
	fmt.Fprintf(w, "# The database of %s\n\n", db.Variant().Name())
	fmt.Fprintf(w, "Folder `%s`; report made %s by muehlectl %s on %s.\n\n",
		db.Dir(), time.Now().UTC().Format("2006-01-02 15:04 MST"), commit(), machine())

	fmt.Fprintln(w, "## Layers")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Won, lost and drawn count symmetry classes for the side to move; depths are plies to the end of the game.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| layer | slots | won | lost | drawn | deepest win | deepest loss | CRC-64 | verified |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|---|")
	var total, won, lost, drawn uint64
	placement := map[layers.Key]layers.Header{}
	missing, damaged, err := checkLayers(db, retro.Layers(db, opts), func(k layers.Key, h layers.Header, st layers.Status) {
		if !k.IsMoving() {
			placement[k] = h
		}
		verified := "no"
		if st == layers.StatusVerified {
			verified = "yes"
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %s | %s | %016x | %s |\n", k, h.Slots, h.Won, h.Lost, h.Drawn,
			depth(h.DeepestWin, h.Won), depth(h.DeepestLoss, h.Lost), h.Checksum, verified)
		total, won, lost, drawn = total+h.Slots, won+h.Won, lost+h.Lost, drawn+h.Drawn
	}, func(k layers.Key, what string) {
		fmt.Fprintf(w, "| %s | %s |  |  |  |  |  |  |  |\n", k, what)
	})
	if err != nil {
		return err
	}
	bad := missing + damaged
	fmt.Fprintf(w, "| all | %d | %d | %d | %d |  |  |  |  |\n\n", total, won, lost, drawn)
	if len(placement) > 0 && !db.Rules().Mixed { // a mixed game's hands do not count its plies
		writePlies(w, db.Stones(), placement, records)
	}
	if _, ok := placement[layers.KeyOf(db.Variant().NewPosition())]; ok {
		writeStart(w, db)
	}
	writeDisk(w, db, placement)
	writeSmallerGames(w, db)

	fmt.Fprintln(w, "## Units as computed")
	fmt.Fprintln(w)
	if recErr != nil {
		fmt.Fprintf(w, "The solve record could not be read completely: %v\n\n", recErr)
	}
	if len(records) == 0 {
		fmt.Fprintf(w, "No solve record (%s) in the folder.\n", filepath.Base(db.RecordPath()))
	} else {
		writeRuns(w, records)
		writeUnits(w, records)
	}
	if bad > 0 {
		w.Flush()
		return fmt.Errorf("%d layers missing or damaged", bad)
	}
	return recErr
}

// writeStart prints the value of the empty board and of each first
// move, as query prints them: the value each move gives the side to move.
func writeStart(w io.Writer, db *layers.DB) {
	start := db.Variant().NewPosition()
	fmt.Fprintln(w, "## The start")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "The empty board (`%s`): %s for White, the side to move. Each first move, and the value it gives White (`muehlectl query --position \"%s\"` prints the same):\n\n", start, describe(db.Probe(start)), start)
	fmt.Fprintln(w, "| move | value for White |")
	fmt.Fprintln(w, "|---|---|")
	board := start.Rules().Board
	for _, m := range start.Moves() {
		v, err := db.Probe(start.Play(m))
		fmt.Fprintf(w, "| %s | %s |\n", board.MoveString(m), describe(v.Parent(), err))
	}
	fmt.Fprintln(w)
}

// writeSmallerGames compares the moving layers with those of the same
// game with fewer stones a side, where their folders are in the database
// folder: a moving layer is the same whatever the stones a side (every
// stone is on the board), so a layer of both must have the same body
// checksum and counts; each game of fewer stones was solved on its own,
// which makes this a check of the solver. In a game whose phases mix
// (Lasker Morris) every layer is compared: one with stones in hand is
// the same too, a position's value depending on the stones on the board
// and in hand only, and it is computed whole (no layer of such a game is
// swept for the positions a game reaches). It prints nothing when no
// smaller game is there.
func writeSmallerGames(w io.Writer, db *layers.DB) {
	type row struct {
		stones               int
		there, same, missing int
		differ               []layers.Key
	}
	var rows []row
	rules := db.Variant().Rules()
	mixed := rules != nil && rules.Mixed
	for j := muehle.MinStones; j < db.Stones(); j++ {
		small, err := layers.OpenDB(db.Dir(), db.Variant().Game.With(j))
		if err != nil {
			continue
		}
		r := row{stones: j}
		keys := layers.MovingLayers(j)
		if mixed {
			keys = layers.OrderIn(small.Variant(), true)
		}
		for _, k := range keys {
			hs, err := small.Header(k)
			if err != nil {
				continue
			}
			r.there++
			h, err := db.Header(k)
			switch {
			case err != nil:
				r.missing++
			case h.Checksum == hs.Checksum && h.Slots == hs.Slots && h.Won == hs.Won && h.Lost == hs.Lost &&
				h.Drawn == hs.Drawn && h.DeepestWin == hs.DeepestWin && h.DeepestLoss == hs.DeepestLoss:
				r.same++
			default:
				r.differ = append(r.differ, k)
			}
		}
		small.Close()
		if r.there > 0 {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w, "## The smaller games")
	fmt.Fprintln(w)
	what := "moving layers"
	if mixed {
		what = "layers"
		fmt.Fprintf(w, "A layer is the same whatever the stones a side: in this game, whose phases mix, those with stones in hand too, each computed whole. ")
	} else {
		fmt.Fprintf(w, "A moving layer is the same whatever the stones a side. ")
	}
	fmt.Fprintf(w, "The games of fewer stones in this folder were solved on their own; each of their %s against the one here (body CRC-64, slots, won, lost, drawn, deepest win and loss):\n\n", what)
	fmt.Fprintf(w, "| game | its %s | the same here | different | not here |\n", what)
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %d stones | %d | %d | %d | %d |\n", r.stones, r.there, r.same, len(r.differ), r.missing)
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		for _, k := range r.differ {
			fmt.Fprintf(w, "Layer %s differs from that of the %d-stone game.\n\n", k, r.stones)
		}
	}
}

// writePlies prints the placement layers present (their headers) summed
// by ply, with the solving and verifying seconds of their units' last
// records: the stored classes are those a game can reach (or all, after
// the full sweep), the others are the layers' Unused slots.
func writePlies(w io.Writer, stones int, placement map[layers.Key]layers.Header, records []layers.Record) {
	last := map[retro.UnitName]layers.Record{}
	for _, r := range records {
		last[r.Unit] = r
	}
	type ply struct {
		layers                  int
		slots, won, lost, drawn uint64
		solving, verifying      float64
	}
	plies := make([]ply, 2*stones)
	for k, h := range placement {
		p := &plies[retro.PlyOf(stones, k)]
		p.layers++
		p.slots, p.won, p.lost, p.drawn = p.slots+h.Slots, p.won+h.Won, p.lost+h.Lost, p.drawn+h.Drawn
		if r, ok := last[retro.NameOf(k)]; ok {
			p.solving += r.Solving()
			p.verifying += r.Phase(retro.PhaseVerify)
		}
	}
	fmt.Fprintln(w, "## The placement phase by ply")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Ply 0 is the empty board, ply p the positions after p placements. Stored classes are won + lost + drawn; the layers' other slots are Unused. Seconds are wall time of the units' last runs.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| ply | layers | slots | stored | stored % | won | lost | drawn | solving s | verifying s |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var all ply
	for i, p := range plies {
		if p.layers == 0 {
			continue
		}
		stored := p.won + p.lost + p.drawn
		fmt.Fprintf(w, "| %d | %d | %d | %d | %.2f | %d | %d | %d | %.1f | %.1f |\n", i, p.layers, p.slots, stored,
			100*float64(stored)/float64(p.slots), p.won, p.lost, p.drawn, p.solving, p.verifying)
		all.layers, all.slots, all.won, all.lost, all.drawn = all.layers+p.layers, all.slots+p.slots, all.won+p.won, all.lost+p.lost, all.drawn+p.drawn
		all.solving, all.verifying = all.solving+p.solving, all.verifying+p.verifying
	}
	stored := all.won + all.lost + all.drawn
	fmt.Fprintf(w, "| all | %d | %d | %d | %.2f | %d | %d | %d | %.1f | %.1f |\n\n", all.layers, all.slots, stored,
		100*float64(stored)/float64(max(1, all.slots)), all.won, all.lost, all.drawn, all.solving, all.verifying)
	for _, r := range records {
		if s := r.Phase(retro.PhaseReach); s > 0 {
			fmt.Fprintf(w, "The forward pass that marks the reachable classes ran before unit %s, %.1f s (finished %s).\n\n",
				r.Unit, s, r.Finished.UTC().Format("2006-01-02 15:04"))
		}
	}
}

// writeDisk prints the disk space of the game's folder by kind of file,
// and what a stored value costs: the bytes of the moving layers' files
// per slot, and of the placement layers' per stored class.
func writeDisk(w io.Writer, db *layers.DB, placement map[layers.Key]layers.Header) {
	use, err := db.DiskUsage()
	if err != nil {
		return
	}
	fmt.Fprintln(w, "## Disk")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| files | count | bytes | GiB |")
	fmt.Fprintln(w, "|---|---:|---:|---:|")
	var all layers.Usage
	for _, k := range []layers.FileKind{layers.KindMoving, layers.KindPlacement, layers.KindBlocks, layers.KindVerified,
		layers.KindReach, layers.KindRecord, layers.KindBook, layers.KindOther} {
		u, ok := use[k]
		if !ok {
			continue
		}
		fmt.Fprintf(w, "| %s | %d | %d | %.2f |\n", k, u.Files, u.Bytes, float64(u.Bytes)/(1<<30))
		all.Files, all.Bytes = all.Files+u.Files, all.Bytes+u.Bytes
	}
	fmt.Fprintf(w, "| all | %d | %d | %.2f |\n\n", all.Files, all.Bytes, float64(all.Bytes)/(1<<30))
	var movingSlots, stored uint64
	for _, k := range layers.MovingLayers(db.Stones()) {
		if h, err := db.Header(k); err == nil {
			movingSlots += h.Slots
		}
	}
	for _, h := range placement {
		stored += h.Won + h.Lost + h.Drawn
	}
	if m := use[layers.KindMoving]; movingSlots > 0 {
		fmt.Fprintf(w, "Moving layers: %.4f bytes per slot (%d slots). ", float64(m.Bytes)/float64(movingSlots), movingSlots)
	}
	if p := use[layers.KindPlacement]; stored > 0 {
		fmt.Fprintf(w, "Placement layers: %.3f bytes per stored class (%d classes).", float64(p.Bytes)/float64(stored), stored)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
}

// writeUnits prints the last record of each unit, in the order of the
// record, and the sums.
func writeUnits(w io.Writer, records []layers.Record) {
	last := map[retro.UnitName]int{}
	var order []retro.UnitName
	for i, r := range records {
		if _, ok := last[r.Unit]; !ok {
			order = append(order, r.Unit)
		}
		last[r.Unit] = i
	}
	fmt.Fprintln(w, "The last run of each unit. Solving is count + propagate + write; a unit that was only verified has no solving time.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| unit | slots | solving s | verifying s | total s | peak MiB | workers / cores | finished | commit |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---|---|---|")
	var slots uint64
	var solving, verifying, all float64
	for _, u := range order {
		r := records[last[u]]
		sv := r.Solving()
		vf := r.Phase(retro.PhaseVerify)
		fmt.Fprintf(w, "| %s | %d | %.1f | %.1f | %.1f | %d | %d / %d | %s | %s |\n", r.Unit, r.Slots, sv, vf, r.Seconds,
			r.PeakMiB, r.Workers, r.Cores, r.Finished.UTC().Format("2006-01-02 15:04"), r.Commit)
		slots += r.Slots
		solving += sv
		verifying += vf
		all += r.Seconds
	}
	fmt.Fprintf(w, "| all | %d | %.1f | %.1f | %.1f |  |  |  |  |\n", slots, solving, verifying, all)
}

// runGap is the longest time without a unit under way within one period
// of work (writeRuns).
const runGap = 10 * time.Minute

// writeRuns prints the periods of work the solve record shows: the record
// does not name the process that wrote a line, so a period is a run of
// records of one commit without a gap of over runGap between the end of
// the units before and the start (finish less seconds) of the next. A
// period can hold more than one process (a run stopped and resumed at
// once), never less.
func writeRuns(w io.Writer, records []layers.Record) {
	type period struct {
		commit      string
		start, end  time.Time
		units       int
		unitSeconds float64
	}
	var ps []period
	for _, r := range records {
		start := r.Finished.Add(-time.Duration(r.Seconds * float64(time.Second)))
		if n := len(ps); n == 0 || ps[n-1].commit != r.Commit || start.Sub(ps[n-1].end) > runGap {
			ps = append(ps, period{commit: r.Commit, start: start, end: r.Finished})
		}
		p := &ps[len(ps)-1]
		p.units++
		p.unitSeconds += r.Seconds
		if r.Finished.After(p.end) {
			p.end = r.Finished
		}
	}
	fmt.Fprintln(w, "Periods of work in the solve record (a new one where the commit changes or no unit was under way for over 10 minutes; a stop and a resume within that time do not show):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| period | commit | from | to | units | wall time | units' seconds |")
	fmt.Fprintln(w, "|---:|---|---|---|---:|---:|---:|")
	for i, p := range ps {
		fmt.Fprintf(w, "| %d | %s | %s | %s | %d | %s | %.0f |\n", i+1, p.commit, p.start.UTC().Format("2006-01-02 15:04"),
			p.end.UTC().Format("2006-01-02 15:04"), p.units, p.end.Sub(p.start).Round(time.Second), p.unitSeconds)
	}
	fmt.Fprintln(w)
}

// machine describes the computer: processor model (from /proc where the
// system has it), cores and memory (layers.TotalMemory).
func machine() string {
	model := ""
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v) + ", "
				break
			}
		}
	}
	mem := ""
	if n, ok := layers.TotalMemory(); ok {
		mem = fmt.Sprintf(", %.0f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%s%d cores%s", model, runtime.NumCPU(), mem)
}
