package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"sync"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

func init() {
	register("bench", "measure the speed of the hot loops (perft, move generation); bench perfect: the time of a perfect move", runBench)
}

// benchmark is one line of muehlectl bench: a fixed amount of work that
// returns how many units (moves, positions, nodes) it did. Runs are single
// goroutine, so the speeds are per core.
type benchmark struct {
	name  string
	unit  string
	setup func() error // run once, untimed, before the first run; may be nil
	run   func() uint64
}

// benchmarks is the registry; other files add lines with addBenchmark in
// their init functions.
var benchmarks []benchmark

// addBenchmark registers a benchmark line: name, the unit it counts (plural,
// e.g. "moves") and the function doing the fixed work.
func addBenchmark(name, unit string, run func() uint64) {
	benchmarks = append(benchmarks, benchmark{name: name, unit: unit, run: run})
}

// addBenchmarkSetup registers a benchmark line whose work needs setup first
// (for example a database to solve a pair in); the setup is not timed.
func addBenchmarkSetup(name, unit string, setup func() error, run func() uint64) {
	benchmarks = append(benchmarks, benchmark{name: name, unit: unit, setup: setup, run: run})
}

// benchCleanups are called when muehlectl bench ends.
var benchCleanups []func()

// benchPositions is the sample the generation benchmarks loop over, made on
// first use.
var benchPositions = sync.OnceValue(func() []muehle.Position { return muehle.RandomPositions(1, 4096) })

// benchRounds is how often the generation benchmarks pass over the sample.
const benchRounds = 200

func init() {
	addBenchmark("perft6", "moves", func() uint64 {
		return muehle.Perft(muehle.NewPosition(muehle.StonesPerSide), 6)
	})
	addBenchmark("movegen", "moves", func() uint64 {
		return overSample(benchRounds, func(p *muehle.Position, buf []muehle.Move) int { return len(p.AppendMoves(buf)) })
	})
	addBenchmark("unmoves", "unmoves", func() uint64 {
		return overSample(benchRounds/4, func(p *muehle.Position, buf []muehle.Move) int { return len(p.AppendUnmoves(buf)) })
	})
	addBenchmark("unslides", "unmoves", func() uint64 {
		return overSample(benchRounds, func(p *muehle.Position, buf []muehle.Move) int { return len(p.AppendUnslides(buf)) })
	})
}

// overSample passes rounds times over the benchmark sample, calling gen on
// each position with an empty buffer of MaxUnmoves capacity, and returns the
// total it counted.
func overSample(rounds int, gen func(p *muehle.Position, buf []muehle.Move) int) uint64 {
	ps := benchPositions()
	var buf [muehle.MaxUnmoves]muehle.Move
	var n uint64
	for range rounds {
		for i := range ps {
			n += uint64(gen(&ps[i], buf[:0]))
		}
	}
	return n
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "perfect" {
		return runBenchPerfect(ctx, args[1:], stdout, stderr)
	}
	fs := newFlags("bench", "[--count N] [--run REGEXP] | perfect [flags] (the time of a perfect move: muehlectl bench perfect -h)", stderr)
	count := fs.Int("count", 3, "runs of each benchmark; the median speed is printed")
	pattern := fs.String("run", "", "only the benchmarks whose name matches this `regexp`")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *count < 1 {
		fmt.Fprintf(stderr, "--count must be at least 1, not %d\n", *count)
		return errUsage
	}
	re, err := regexp.Compile(*pattern)
	if err != nil {
		return fmt.Errorf("--run: %w", err)
	}
	fmt.Fprintf(stdout, "%s %s/%s, %d cores (GOMAXPROCS %d), one goroutine per benchmark, median of %d\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), *count)
	fmt.Fprintln(stdout, "(speeds per second of wall-clock time, and per second of processor time, which other load on the machine does not lower)")
	defer func() {
		for _, f := range benchCleanups {
			f()
		}
	}()
	ran := 0
	for _, b := range benchmarks {
		if !re.MatchString(b.name) {
			continue
		}
		if b.setup != nil {
			if err := b.setup(); err != nil {
				return fmt.Errorf("bench %s: %w", b.name, err)
			}
		}
		var n uint64
		speeds := make([]float64, *count)    // per second of wall-clock time
		cpuSpeeds := make([]float64, *count) // per second of processor time
		times := make([]time.Duration, *count)
		cpuOK := true
		for i := range *count {
			if err := ctx.Err(); err != nil {
				return err
			}
			cpu0, ok0 := layers.CPUTime()
			start := time.Now()
			n = b.run()
			times[i] = time.Since(start)
			if n == 0 {
				return fmt.Errorf("bench %s: the work failed (nothing counted)", b.name)
			}
			cpu1, ok1 := layers.CPUTime()
			speeds[i] = float64(n) / times[i].Seconds()
			cpuOK = cpuOK && ok0 && ok1 && cpu1 > cpu0
			if cpuOK {
				cpuSpeeds[i] = float64(n) / (cpu1 - cpu0).Seconds()
			}
		}
		slices.Sort(speeds)
		slices.Sort(cpuSpeeds)
		slices.Sort(times)
		fmt.Fprintf(stdout, "%-10s %14d %-8s %9.3fs %10.1f M %s/s",
			b.name, n, b.unit, times[len(times)/2].Seconds(), speeds[len(speeds)/2]/1e6, b.unit)
		if cpuOK {
			fmt.Fprintf(stdout, " %10.1f M per CPU-second", cpuSpeeds[len(cpuSpeeds)/2]/1e6)
		}
		fmt.Fprintln(stdout)
		ran++
	}
	if ran == 0 {
		return fmt.Errorf("no benchmark matches %q", *pattern)
	}
	return nil
}
