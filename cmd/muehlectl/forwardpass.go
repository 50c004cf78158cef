package main

// The forward pass beside the moving units.
//
// A solve of every phase computes the moving units first; the first unit
// of the placement phase then runs the forward pass that marks the
// placement classes a game reaches from the empty board
// (retro.ForwardPass): 224 s of the standard game's hour on two cores. The
// pass reads no moving layer, and the moving units leave part of the
// cores idle, about 190 processor seconds in the standard game (a phase
// waits for its slowest worker, a unit for its writes). So solve starts
// the pass beside them, in a second process (solve --forward-pass) at the
// lowest priority (nice 19), which gets only what the units leave. The
// pass holds its claim as the unit would; the first placement unit waits
// for it and reads what it wrote. Each process's own work stays in its
// own figures: the solve record's processor times are the units'.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"muehle/layers"
	"muehle/retro"
)

// forwardPass runs only the forward pass of a's game in db
// (solve --forward-pass), with a line of progress a minute on stderr.
func forwardPass(ctx context.Context, db *layers.DB, a solveArgs, stdout, stderr io.Writer) error {
	if retro.ForwardPassDone(db) {
		fmt.Fprintf(stdout, "database %s (%s): the forward pass is done, every placement layer's reachable classes are at hand\n", *a.db.dir, a.db.label())
		return nil
	}
	var done atomic.Uint64
	total := retro.PlacementSlots(db)
	start := time.Now()
	cpu0, _ := layers.CPUTime()
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	finished := make(chan struct{})
	go func() {
		for {
			select {
			case <-finished:
				return
			case <-tick.C:
				fmt.Fprintf(stderr, "forward pass under way: %.1f %% of the placement slots after %s\n", 100*float64(done.Load())/float64(max(total, 1)), time.Since(start).Round(time.Second))
			}
		}
	}()
	err := retro.ForwardPass(ctx, db, a.opts.Workers, &done)
	close(finished)
	if err != nil {
		return solveError(ctx, err, *a.db.dir, start)
	}
	cpu1, _ := layers.CPUTime()
	fmt.Fprintf(stdout, "database %s (%s): forward pass done in %s, %s of processor time\n", *a.db.dir, a.db.label(), time.Since(start).Round(time.Millisecond), (cpu1 - cpu0).Round(time.Millisecond))
	return nil
}

// forwardPassBeside starts solve --forward-pass in a second process at the
// lowest priority, when the solve of opts has moving units to compute
// before a placement phase whose forward pass is not done, the program
// nice is at hand, and the largest moving unit and the pass fit in the
// memory the solver may use together (retro.DefaultMemBytes, and --mem
// where it is given). Its lines go to stderr, each after "beside: ". The
// function returned interrupts the process if it still runs and waits for
// it.
func forwardPassBeside(db *layers.DB, dbf dbFlags, opts retro.SolveOptions, tasks []retro.Task, stdout, stderr io.Writer) (stop func()) {
	stop = func() {}
	if !opts.Placement || opts.PlacementAll || retro.ForwardPassDone(db) {
		return stop
	}
	var moving uint64 // the memory of the largest moving unit to compute
	for _, t := range tasks {
		if t.Compute && !t.Unit.Placement {
			moving = max(moving, t.Cost.MemBytes)
		}
	}
	if moving == 0 {
		return stop // the first placement unit comes next
	}
	budget := retro.DefaultMemBytes()
	if opts.MemBytes > 0 {
		budget = max(budget, opts.MemBytes)
	}
	pass := retro.ForwardPassMemBytes(db)
	if moving+pass > uint64(budget) {
		fmt.Fprintf(stdout, "the forward pass runs in the first placement unit: beside the largest moving unit (%d MiB) its %d MiB would exceed %d MiB\n", moving>>20, pass>>20, budget>>20)
		return stop
	}
	nice, err := exec.LookPath("nice")
	if err != nil || self == "" {
		return stop
	}
	cmd := exec.Command(nice, "-n", "19", self, "solve", "--forward-pass", "--db", *dbf.dir, "--game", *dbf.game,
		"--stones", strconv.Itoa(*dbf.stones), "--workers", strconv.Itoa(retro.Workers(opts.Workers)))
	endWithParent(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return stop
	}
	cmd.Stderr = cmd.Stdout // one pipe: the lines stay in order
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stdout, "the forward pass runs in the first placement unit: %v\n", err)
		return stop
	}
	fmt.Fprintf(stdout, "the forward pass runs beside the moving units: process %d at the lowest priority (--no-beside runs it in the first placement unit)\n", cmd.Process.Pid)
	var wg sync.WaitGroup
	wg.Go(func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			fmt.Fprintf(stderr, "beside: %s\n", sc.Text())
		}
	})
	return func() {
		cmd.Process.Signal(os.Interrupt) // it may have ended: then this does nothing
		wg.Wait()
		cmd.Wait()
	}
}
