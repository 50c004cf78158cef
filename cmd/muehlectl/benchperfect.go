package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// muehlectl bench perfect: the time of a perfect move, with the layers
// open or from a cold start (issue 51: at most 5 ms and 0.5 s at worst).

const benchPerfectUsage = `[--db DIR] [--game G] [--stones K] [--positions N] [--seed S] [--player P] [--phase moving|placement] [--cold [--evict auto|system|files]] [--mem MiB]

Times a player's move (the shipped perfect player by default) on N random
positions of each phase, from random games of the game (each position with
a legal move, the placement phase's reachable from the empty board), and
prints the median and the worst of each phase. Without --cold, a first pass
over the positions opens their layers (untimed) and the second is timed:
the move with the layers open, as in a game under way. With --cold, before
each position the database is closed, the page cache dropped and the
database opened again: the time is that of a program that starts, opens the
folder and moves, its index table (loaded once, timed apart) aside.
--evict system drops the whole page cache (root only); files evicts the
folder's files alone (posix_fadvise, Linux), which leaves other programs'
pages alone; auto (the default) drops the whole cache when it may, else
evicts the files, and says which. On Linux it accounts for the wall time
of the moves on the thread that makes them: on a core, waiting for a core
(the machine's other work), blocked (locks, reads from the disk); with
their page faults and context switches. Every move is checked against the
database: one that gives up value or falls back fails the command.`

// runBenchPerfect is muehlectl bench perfect.
func runBenchPerfect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench perfect", benchPerfectUsage, stderr)
	dbf := addDBFlags(fs)
	n := fs.Int("positions", 200, "random positions of each phase")
	seed := fs.Uint64("seed", 1, "seed of the random games")
	player := fs.String("player", "perfect", "the player timed, as in match")
	cold := fs.Bool("cold", false, "from a cold start: before each position the database closed, the page cache dropped, the database opened again")
	evict := fs.String("evict", "auto", "with --cold, how the page cache is dropped: system (all of it, root only), files (the folder's files), auto")
	mem := addCacheFlag(fs)
	only := fs.String("phase", "", "only the positions of this phase: moving or placement (default both)")
	verbose := fs.Bool("v", false, "print each position and its time")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := errors.Join(dbf.check(), inRange("--positions", *n, 1, 100_000, ""), mem.check()); err != nil {
		return flagError(fs, err)
	}
	if !slices.Contains([]string{"auto", "system", "files"}, *evict) {
		return flagError(fs, fmt.Errorf("--evict %q: want auto, system or files", *evict))
	}
	if *only != "" && *only != "moving" && *only != "placement" {
		return flagError(fs, fmt.Errorf("--phase %q: want moving or placement", *only))
	}
	v := dbf.variant()
	phases := benchPhases(v, *seed, *n)
	switch *only {
	case "moving":
		phases[1] = nil
	case "placement":
		phases[0] = nil
	}
	if len(phases[0]) < *n && *only != "placement" || len(phases[1]) < *n && *only != "moving" {
		fmt.Fprintf(stdout, "the random games gave %d moving and %d placement positions of the %d asked\n", len(phases[0]), len(phases[1]), *n)
	}
	drop := func() (string, error) { return "", nil }
	if *cold {
		drop = func() (string, error) { return dropCaches(*evict, layers.GameDir(*dbf.dir, v)) }
		how, err := drop()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "cold start: before each position %s\n", how)
	}
	start := time.Now()
	db, err := dbf.openVerified()
	if err != nil {
		return err
	}
	defer func() { db.Close() }()
	mem.apply(db)
	fmt.Fprintf(stdout, "%s in %s: the index table ready in %.3f s; block cache %s\n", dbf.label(), *dbf.dir, time.Since(start).Seconds(), sizeText(db.CacheLimit()))
	for ph, name := range []string{"moving", "placement"} {
		ps := phases[ph]
		if len(ps) == 0 {
			continue
		}
		var times, cpus, moves, delays, blocked []time.Duration
		var offs offCPU
		offOK := true
		bad := 0
		for pass := range 2 {
			if pass == 0 && *cold {
				continue // no warming: each position starts cold
			}
			times, cpus, moves, delays, blocked, offs = times[:0], cpus[:0], moves[:0], delays[:0], blocked[:0], offCPU{}
			for i, pos := range ps {
				if *cold {
					db.Close()
					if _, err := drop(); err != nil {
						return err
					}
				}
				t0 := time.Now()
				if *cold {
					if db, err = dbf.openVerified(); err != nil {
						return err
					}
					mem.apply(db)
				}
				el, cpu, off, ok, note, err := timeMove(ctx, db, *player, *seed, pos, i)
				el += time.Since(t0) - el // the opening too, when cold
				if err != nil {
					return err
				}
				cpus, moves, delays = append(cpus, cpu), append(moves, off.wall), append(delays, off.runDelay)
				blocked = append(blocked, max(0, off.wall-off.onCPU-off.runDelay))
				offs, offOK = offs.plus(off), offOK && ok
				if note != "" {
					bad++
				}
				times = append(times, el)
				if *verbose && (pass == 1 || *cold) || note != "" {
					thread := ""
					if ok {
						thread = fmt.Sprintf(" (its thread: on a core %.3f ms, waiting for one %.3f ms)", off.onCPU.Seconds()*1e3, off.runDelay.Seconds()*1e3)
					}
					fmt.Fprintf(stdout, "%4d %s  %8.3f ms, processor %8.3f ms%s%s\n", i, pos, el.Seconds()*1e3, cpu.Seconds()*1e3, thread, note)
				}
			}
		}
		slices.Sort(times)
		slices.Sort(cpus)
		state := "the layers open"
		if *cold {
			state = "each from a cold start"
		}
		fmt.Fprintf(stdout, "%s, %s, %d %s positions, %s: median %.3f ms, worst %.3f ms (processor time of the move: median %.3f ms, worst %.3f ms); block cache %s\n",
			dbf.label(), *player, len(times), name, state, times[len(times)/2].Seconds()*1e3, times[len(times)-1].Seconds()*1e3,
			cpus[len(cpus)/2].Seconds()*1e3, cpus[len(cpus)-1].Seconds()*1e3, sizeText(db.CacheBytes()))
		if offOK {
			slices.Sort(delays)
			slices.Sort(blocked)
			n := float64(len(times))
			fmt.Fprintf(stdout, "  the thread of the %s moves (their wall time %.1f ms in all): on a core %.1f ms, waiting for a core %.1f ms (a move's median %.3f ms, worst %.3f), blocked %.1f ms (median %.3f ms, worst %.3f); a move's page faults %.1f minor, %.2f major, context switches %.1f voluntary, %.1f involuntary (means)\n",
				name, sum(moves).Seconds()*1e3, offs.onCPU.Seconds()*1e3, offs.runDelay.Seconds()*1e3, delays[len(delays)/2].Seconds()*1e3, delays[len(delays)-1].Seconds()*1e3,
				sum(blocked).Seconds()*1e3, blocked[len(blocked)/2].Seconds()*1e3, blocked[len(blocked)-1].Seconds()*1e3,
				float64(offs.minor)/n, float64(offs.major)/n, float64(offs.vol)/n, float64(offs.involuntary)/n)
		}
		if bad > 0 {
			return fmt.Errorf("bench perfect: %d %s moves gave up value, fell back or were not in the database", bad, name)
		}
	}
	return nil
}

// timeMove times the move of a fresh player spec in pos (game number i
// of seed), in wall time and in the processor time of this process
// (which the load of other programs does not lengthen), says what the
// process waited for off the processor meanwhile (off, when offOK: on
// Linux), and checks the move against db: note is "" for a move that
// keeps the value, read from the database.
func timeMove(ctx context.Context, db *layers.DB, spec string, seed uint64, pos muehle.Position, i int) (el, cpu time.Duration, off offCPU, offOK bool, note string, err error) {
	mp, err := newMatchPlayer(spec, db.Stones(), seed, playerEnv(db, true))
	if err != nil {
		return 0, 0, offCPU{}, false, "", err
	}
	g, err := muehle.NewGameFrom(pos, db.Stones())
	if err != nil {
		return 0, 0, offCPU{}, false, "", err
	}
	pl := mp.newPlayer(pos.Turn, i)
	runtime.LockOSThread() // the move on one thread, whose waits readOffCPU reads
	defer runtime.UnlockOSThread()
	span := time.Now() // the wall time the account of the thread covers
	off0, ok0 := readOffCPU()
	cpu0, _ := layers.CPUTime()
	start := time.Now()
	m, err := pl.Move(ctx, g)
	el = time.Since(start)
	cpu1, _ := layers.CPUTime()
	off1, ok1 := readOffCPU()
	off.wall = time.Since(span)
	if err != nil {
		return 0, 0, offCPU{}, false, "", fmt.Errorf("bench perfect: %s: %w", pos, err)
	}
	wall := off.wall
	off, offOK = off1.minus(off0), ok0 && ok1
	off.wall = wall
	if p, ok := pl.(interface{ LastFellBack() bool }); ok && p.LastFellBack() {
		note = "  FALLBACK"
	}
	before, after, err := valuesAround(db, pos, m)
	switch {
	case err != nil || before == layers.Unused || after == layers.Unused:
		note += "  (not in the database)"
	case after.Parent().Outcome() < before.Outcome():
		note += fmt.Sprintf("  BLUNDER %s: %s for %s", m, after.Parent(), before)
	}
	return el, cpu1 - cpu0, off, offOK, note, nil
}

// benchPhases returns up to n positions of each phase (moving, then
// placement: the mover has stones in hand) drawn at random from random
// games of v, each with a legal move.
func benchPhases(v muehle.Variant, seed uint64, n int) [2][]muehle.Position {
	all := v.Rules().RandomPositions(v.Stones, seed, 100*n)
	var phases [2][]muehle.Position
	for _, p := range all {
		if len(p.AppendMoves(nil)) == 0 {
			continue
		}
		ph := 0
		if p.Hand[p.Turn] > 0 {
			ph = 1
		}
		phases[ph] = append(phases[ph], p)
	}
	rng := rand.New(rand.NewPCG(seed, 51))
	for ph := range phases {
		rng.Shuffle(len(phases[ph]), func(i, j int) { phases[ph][i], phases[ph][j] = phases[ph][j], phases[ph][i] })
		phases[ph] = phases[ph][:min(n, len(phases[ph]))]
	}
	return phases
}

// dropCaches drops the page cache as --evict asks (system, files or
// auto) and says what it did.
func dropCaches(evict, dir string) (string, error) {
	if evict != "files" {
		err := layers.DropPageCache()
		if err == nil {
			return "the whole page cache dropped (echo 3 > /proc/sys/vm/drop_caches)", nil
		}
		if evict == "system" {
			return "", fmt.Errorf("bench perfect: cannot drop the page cache (root only): %w", err)
		}
	}
	why := ""
	if evict == "auto" {
		why = "the whole page cache may not be dropped here (root only), so "
	}
	k, err := layers.EvictFiles(dir)
	if err != nil {
		return "", fmt.Errorf("bench perfect: cannot evict the files of %s from the page cache: %w", dir, err)
	}
	return fmt.Sprintf("%sthe %d files of %s evicted from the page cache (posix_fadvise; the rest of the page cache kept)", why, k, dir), nil
}

// sum returns the sum of ds.
func sum(ds []time.Duration) time.Duration {
	var t time.Duration
	for _, d := range ds {
		t += d
	}
	return t
}
