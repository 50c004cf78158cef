package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"muehle/layers"
	"muehle/retro"
	"muehle/retro/dbservice"
)

func init() {
	register("solve", "compute missing database layers (resumable)", runSolve)
}

// solveArgs are the checked flags of solve.
type solveArgs struct {
	db   dbFlags
	opts retro.SolveOptions
	unit string // --unit: the one unit to compute
}

// parseSolve parses and checks the flags of solve.
func parseSolve(args []string, stderr io.Writer) (solveArgs, error) {
	fs := newFlags("solve", "[--db DIR] [--stones K] [--max-stones N | --placement | --all-phases | --unit NAME] [--every-class] [--workers N] [--mem MiB] [--no-verify] [--compress] [--wait]", stderr)
	a := solveArgs{db: addDBFlags(fs)}
	sel := addLayerFlags(fs)
	workers := addWorkers(fs)
	mem := fs.Int64("mem", 0, "budget in MiB for the state words of the pair being solved (4 bytes per position) and the copies of the layers its removals lead to; a larger state is kept in a mapped file. The index tables, mapped layer files, the layers being written and the verifier's copies come on top. 0 = 3/4 of RAM")
	noVerify := fs.Bool("no-verify", false, "skip verifying each finished layer")
	compress := fs.Bool("compress", false, "keep each layer compressed once verified (as muehlectl compress does); the layers a unit reads are decoded into memory. In a game whose phases mix (Lasker Morris) a layer whose side to move is not behind stays flat until the layer whose placements lead to it is verified, while the disk has room")
	wait := fs.Bool("wait", false, "when only units other solvers of this folder hold (or that need them) are left, wait for them instead of stopping")
	every := fs.Bool("every-class", false, "compute every class of the placement layers (the full sweep), not only those reachable from the empty board (the default); the placement layers it reads must hold every class too")
	unit := fs.String("unit", "", "compute only the unit `NAME` (m3-4 for the pair 3-4 + 4-3, p5+2-4+2; muehlectl plan lists them); refused while a layer it needs is missing, damaged or unverified")
	if err := parseFlags(fs, args); err != nil {
		return a, err
	}
	opts, err := sel.options(a.db.perSide())
	if err == nil {
		err = a.db.check()
	}
	if err == nil {
		err = checkWorkers(*workers)
	}
	if err == nil && *unit != "" {
		if opts.MaxStones != 0 || opts.Placement {
			err = errors.New("--unit with --max-stones, --placement or --all-phases: --unit names the one unit to compute")
		} else if _, err = retro.FindUnit(retro.Units(a.db.variant(), retro.SolveOptions{Placement: true}), *unit); err != nil {
			err = fmt.Errorf("--unit: %w", err)
		}
	}
	if err == nil && (*mem < 0 || *mem > math.MaxInt64>>20) {
		err = fmt.Errorf("--mem %d: want 0 (3/4 of RAM) or a positive number of MiB", *mem)
	}
	if err == nil {
		err = checkMemory(fmt.Sprintf("--mem %d", *mem), uint64(*mem)<<20, 1)
	}
	if err != nil {
		return a, flagError(fs, err)
	}
	opts.Workers, opts.MemBytes, opts.SkipVerify, opts.WaitLock, opts.PlacementAll = *workers, *mem<<20, *noVerify, *wait, *every
	opts.Compress = *compress
	opts.OwnDB = true // the command's DB is the solver's alone
	a.opts, a.unit = opts, *unit
	return a, nil
}

func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, err := parseSolve(args, stderr)
	if err != nil {
		return err
	}
	db, err := a.db.open()
	if err != nil {
		return err
	}
	defer db.Close()
	tidyClaims(ctx, db, stderr)
	if a.unit != "" {
		return solveUnit(ctx, db, a, stdout, stderr)
	}
	return solveTasks(ctx, db, a.db, a.opts, stdout, stderr)
}

// solveTasks computes what opts asks for in db (dbservice.Solve, as the
// window does), with its estimate first and its progress on stderr.
func solveTasks(ctx context.Context, db *layers.DB, dbf dbFlags, opts retro.SolveOptions, stdout, stderr io.Writer) error {
	tasks := retro.Plan(db, opts)
	opts.Plan = tasks // made once: Solve does not read every layer again
	if len(tasks) == 0 {
		fmt.Fprintf(stdout, "database %s (%s): nothing to do, every requested layer is complete and verified\n", *dbf.dir, dbf.label())
		if opts.Compress { // the layers left flat are compressed
			return retro.Solve(ctx, db, opts)
		}
		return nil
	}
	compute := 0
	for _, t := range tasks {
		if t.Compute {
			compute++
		}
	}
	fmt.Fprintf(stdout, "database %s (%s): %d units to compute, %d to verify only\n", *dbf.dir, dbf.label(), compute, len(tasks)-compute)
	if db.Empty() {
		// A long campaign resumes by running again: say so when there
		// is nothing to resume (a new machine, or the folder gone).
		fmt.Fprintf(stdout, "no layer of it is here yet (%s): starting from the beginning\n", db.GameDir())
	}
	if hint := adoptHint(db, *dbf.dir); hint != "" {
		fmt.Fprintf(stdout, "note: %s\n", hint)
	}
	if note := memoryNote(tasks, opts.MemBytes, layers.AvailableMemory); note != "" {
		fmt.Fprintf(stdout, "note: %s\n", note)
	}
	if opts.MemBytes > 0 {
		fmt.Fprintf(stdout, "--mem %d MiB bounds the pair's state words and removal-layer copies only; index tables, mapped layer files, the bodies being written and the verifier's copies come on top (the peak of each unit is printed)\n", opts.MemBytes>>20)
	}
	speed, measured, load := dbservice.StartSpeed(db, opts, 0)
	est := dbservice.EstimateTasks(tasks, retro.Workers(opts.Workers), speed)
	if opts.Compress {
		est = est.KeptCompressed(retro.PlanKeptFlat(db.Indexer(), tasks))
	}
	fmt.Fprintf(stdout, "expected: about %s on %d workers (%s)\n", dbservice.Rough(est.Time), est.Cores, speedWords(speed, measured, load))
	switch cpu, n := dbservice.MeasuredCPUSpeed(db); {
	case n > 0:
		// The last run may have shared the machine or been stopped a
		// while: its processor time says what the cores alone would take.
		idle := dbservice.EstimateTasks(tasks, est.Cores, cpu)
		fmt.Fprintf(stdout, "on %d idle cores: about %s (the units of that run took %.2f× the model's processor time, %d of them recorded it)\n", idle.Cores, dbservice.Rough(idle.Time), 1/cpu, n)
	case load > 0:
		// The load average counts processes at the lowest priority,
		// which give the cores up, as it counts any other.
		idle := dbservice.EstimateTasks(tasks, est.Cores, 0)
		fmt.Fprintf(stdout, "on %d idle cores: about %s (the cost model)\n", idle.Cores, dbservice.Rough(idle.Time))
	}
	show, closeRecord, err := showProgress(db, &opts, stderr)
	if err != nil {
		return err
	}
	defer closeRecord()
	start := time.Now()
	_, err = dbservice.Solve(ctx, db, dbservice.Run{Opts: opts, Progress: show.show, Recorder: show.rec})
	show.finish(err == nil)
	if err != nil {
		return solveError(ctx, err, *dbf.dir, start)
	}
	fmt.Fprintf(stdout, "done in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// speedWords says where the speed of an estimate comes from
// (dbservice.StartSpeed): the units of the folder's last run measured,
// the machine's load, or the model alone.
func speedWords(speed float64, measured int, load float64) string {
	switch {
	case measured > 0:
		return fmt.Sprintf("the cost model at %.2f× its speed, measured on the last %d units of this folder's solve record", speed, measured)
	case load > 0:
		return fmt.Sprintf("the cost model at %.2f× its speed, the share of the cores the load average of %.1f leaves", speed, load)
	}
	return "the cost model, retro/cost.go"
}

// showProgress sets opts to report the solve's progress and notes on
// stderr and each finished unit in the solve record of db; call the
// returned function when the solve has ended.
func showProgress(db *layers.DB, opts *retro.SolveOptions, stderr io.Writer) (*solveProgress, func(), error) {
	rec, err := openRecord(db)
	if err != nil {
		return nil, nil, fmt.Errorf("the solve record: %w", err)
	}
	show := newSolveProgress(stderr, rec, retro.Workers(opts.Workers))
	opts.Progress = show.update
	opts.Note = show.note
	return show, func() { rec.Close() }, nil
}

// solveError explains the error of a solve that began at start.
func solveError(ctx context.Context, err error, dir string, start time.Time) error {
	switch {
	case errors.Is(err, layers.ErrLocked) && ctx.Err() == nil:
		return fmt.Errorf("another solver is working in %s, and what is left needs its units: %w (--wait waits for it and goes on; a claim whose process has ended, or whose heartbeat is more than %v old, is taken over)", dir, err, layers.LockStale)
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted after %s; the finished layers are kept, run again to resume: %w", time.Since(start).Round(time.Second), err)
	}
	return err
}

// solveUnit computes the one unit a.unit, as a job of a batch system does.
func solveUnit(ctx context.Context, db *layers.DB, a solveArgs, stdout, stderr io.Writer) error {
	opts := a.opts
	show, closeRecord, err := showProgress(db, &opts, stderr)
	if err != nil {
		return err
	}
	defer closeRecord()
	start := time.Now()
	did, err := retro.SolveUnit(ctx, db, a.unit, opts)
	show.finish(err == nil)
	if err != nil {
		return solveError(ctx, err, *a.db.dir, start)
	}
	if !did {
		state := "complete and verified"
		if opts.SkipVerify {
			state = "complete"
		}
		fmt.Fprintf(stdout, "database %s (%s): unit %s is %s; nothing to do\n", *a.db.dir, a.db.label(), a.unit, state)
		return nil
	}
	fmt.Fprintf(stdout, "database %s (%s): unit %s done in %s\n", *a.db.dir, a.db.label(), a.unit, time.Since(start).Round(time.Millisecond))
	return nil
}

// memoryNote warns, for a solve without --mem, when the largest of its
// units may take more memory than the machine has available now
// (available): the solver's budget is three quarters of the machine's
// memory, whatever other processes hold, and a second solver beside a
// first, or beside the window's, may be ended by the system for want of
// memory (the standard game's placement phase beside a held Lasker
// Morris solve was, docs/bench/standard-adopted). It names the --mem
// that keeps within what is free; "" when all is well or unknown.
func memoryNote(tasks []retro.Task, mem int64, available func() (uint64, bool)) string {
	if mem > 0 {
		return ""
	}
	var largest uint64
	for _, t := range tasks {
		largest = max(largest, t.Cost.MemBytes)
	}
	free, ok := available()
	if !ok || largest <= free {
		return ""
	}
	return fmt.Sprintf("its largest unit may take %d MiB and %d MiB of memory are available now: other processes hold the rest, and the system may end one of them or this solve for want of memory; --mem %d keeps the solve within three quarters of what is free",
		largest>>20, free>>20, free/4*3>>20)
}
