package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/retro/teach"
)

func init() {
	register("tactics", "the tactical test set: how often each player, by time per move, finds the one move that keeps the value", runTactics)
}

const tacticsUsage = `--players P[,P…] [--times T[,T…]] [--db DIR] [--stones K] [--count N] [--seed S] [--goal G] [--band B] [--layers LIST | --on-board N --placement] [--jobs J] [--rows FILE] [--ab-db]

The tactical test set of issue 31 (docs/search.md). It draws N positions
from the database as muehlectl train draws them (--count, --seed, --goal,
--band, --layers, --on-board and --placement as there), each with exactly
one move that keeps its value: a win to find or the only drawing move. Each
player P (the names of muehlectl match) is asked for its move in every
position with each time per move T of --times; a player that does not play
by time (random, ab:DEPTH, fallible, perfect, level) is asked once, its time
shown as "-". Every move is asked of a fresh player seeded from --seed and
the position's number, from the position without its history.

The table gives, per player and time, the positions where the move keeps
the value ("found"), the share with its 95 % Wilson interval, and the
counts by goal. The header gives the share a random move would find.

Alpha-beta and conspiracy number players search without the database by
default: with it (--ab-db) they read the exact value of every position
below the root, so they see each move's value and find every answer.
Perfect players and levels read it always.

With --rows FILE each result (player, time, --ab-db, seed, position's
number and position, move, found) is added to FILE as it is computed, and a result
FILE holds is taken from it, not asked again, so that an interrupted run
resumes. Positions run --jobs at a time (the table does not depend on it,
only the time each move gets on a busy machine); a line on stderr every
10 s tells how far a long row is.`

func runTactics(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tactics", tacticsUsage, stderr)
	dbf := addDBFlags(fs)
	tf := addTrainingFlags(fs, 100, 10000)
	playerList := fs.String("players", "ccns,ab:auto", "the players, comma separated (the names of muehlectl match)")
	timeList := fs.String("times", "100ms,1s,10s", "the times per move, comma separated")
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "positions asked at the same time")
	rowsPath := fs.String("rows", "", "a `file` of results: each result is added to it, and one it holds is not asked again, so that an interrupted run resumes")
	abDB := fs.Bool("ab-db", false, "let alpha-beta and conspiracy number players read exact values from the database (they then see every move's value)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	specs, perr := tacticsPlayers(*playerList)
	times, terr := tacticsTimes(*timeList)
	if err := errors.Join(dbf.check(), inRange("--jobs", *jobs, 1, 1024, ""), perr, terr); err != nil {
		return flagError(fs, err)
	}
	opt, err := tf.options(dbf.variant())
	if err != nil {
		return flagError(fs, err)
	}
	db, err := dbf.openVerified()
	if err != nil {
		return err
	}
	defer db.Close()
	done, err := readTacticsRows(*rowsPath)
	if err != nil {
		return err
	}
	tr, err := teach.DrawTraining(ctx, db, opt)
	if err != nil {
		return err
	}
	for _, s := range tr.Skipped {
		fmt.Fprintf(stdout, "layer %s skipped: %s\n", s.Key, describe(layers.Unused, s.Err))
	}
	if len(tr.Skipped) == len(opt.Layers) {
		return fmt.Errorf("the database in %s holds none of the %d layers to draw from", db.Dir(), len(opt.Layers))
	}
	if len(tr.Exercises) == 0 {
		return fmt.Errorf("no position fits in %d tries: try another band, goal or layers", tr.Tries)
	}
	if len(tr.Exercises) < opt.Count {
		fmt.Fprintf(stdout, "found %d of %d positions in %d tries\n", len(tr.Exercises), opt.Count, tr.Tries)
	}
	printTacticsHeader(stdout, opt, tr.Exercises, *dbf.stones, *abDB)
	t := &tactics{db: db, env: playerEnv(db, *abDB), abDB: *abDB, stones: *dbf.stones, seed: opt.Seed, es: tr.Exercises,
		jobs: *jobs, rowsPath: *rowsPath, done: done, progress: stderr}
	for i, name := range strings.Split(*playerList, ",") {
		for _, run := range tacticsRuns(strings.TrimSpace(name), specs[i], times) {
			row, err := t.run(ctx, run)
			if err != nil {
				return fmt.Errorf("%s: %w", run.spec, err)
			}
			row.print(stdout, run, *rowsPath)
		}
	}
	return nil
}

// tacticsPlayers parses the comma-separated player names of --players.
func tacticsPlayers(list string) ([]play.Spec, error) {
	var specs []play.Spec
	for _, name := range strings.Split(list, ",") {
		sp, err := play.ParseSpec(strings.TrimSpace(name))
		if err != nil {
			return nil, fmt.Errorf("--players: %w", err)
		}
		specs = append(specs, sp)
	}
	return specs, nil
}

// tacticsTimes parses the comma-separated times per move of --times.
func tacticsTimes(list string) ([]time.Duration, error) {
	var ts []time.Duration
	for _, s := range strings.Split(list, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("--times %q: want times per move above 0, comma separated, e.g. 100ms,1s,10s", list)
		}
		ts = append(ts, d)
	}
	return ts, nil
}

// tacticsRun is one row of the table: a player with one time per move.
type tacticsRun struct {
	name string        // the player as --players names it
	spec play.Spec     // with the row's time per move
	time time.Duration // 0: the player does not play by time
}

// tacticsRuns returns the rows of player sp, named name: one per time of
// times when it plays by time, else one.
func tacticsRuns(name string, sp play.Spec, times []time.Duration) []tacticsRun {
	if _, timed := sp.WithMoveTime(times[0]); !timed {
		return []tacticsRun{{name: name, spec: sp}}
	}
	var runs []tacticsRun
	for _, d := range times {
		s, _ := sp.WithMoveTime(d)
		runs = append(runs, tacticsRun{name: name, spec: s, time: d})
	}
	return runs
}

// tacticsKey names one result: the player with its time (the canonical
// name), whether alpha-beta players read the database (--ab-db), the
// seed, the position's number in the set and the position.
type tacticsKey struct {
	spec  string
	abDB  bool
	seed  uint64
	index int
	pos   string
}

// tacticsResult is one position asked of one player.
type tacticsResult struct {
	move  string
	found bool
}

// readTacticsRows reads the results of a --rows file. A line is: the
// player's canonical name, ab-db=true or ab-db=false, the seed, the
// position's number (from 0), the position, the move, and 1 or 0 for
// found; tab separated.
func readTacticsRows(path string) (map[tacticsKey]tacticsResult, error) {
	lines, err := readRowLines(path)
	if err != nil {
		return nil, err
	}
	rows := map[tacticsKey]tacticsResult{}
	for _, l := range lines {
		f := strings.Split(l.text, "\t")
		if len(f) != 7 {
			return nil, fmt.Errorf("--rows %s: line %d is not a result of tactics (want 7 tab-separated fields): %q", path, l.n, l.text)
		}
		abDB, err0 := strconv.ParseBool(strings.TrimPrefix(f[1], "ab-db="))
		seed, err1 := strconv.ParseUint(f[2], 10, 64)
		index, err2 := strconv.Atoi(f[3])
		if !strings.HasPrefix(f[1], "ab-db=") || err0 != nil || err1 != nil || err2 != nil || index < 0 || (f[6] != "0" && f[6] != "1") {
			return nil, fmt.Errorf("--rows %s: line %d is not a result of tactics: %q", path, l.n, l.text)
		}
		rows[tacticsKey{f[0], abDB, seed, index, f[4]}] = tacticsResult{f[5], f[6] == "1"}
	}
	return rows, nil
}

// tacticsRow is the table's row of one player and time: positions, those
// found, the same by goal, and how many results came from the --rows file.
type tacticsRow struct {
	n, found        int
	win, winFound   int
	draw, drawFound int
	fromFile        int
}

// print writes the row of run.
func (r tacticsRow) print(w io.Writer, run tacticsRun, rowsPath string) {
	tm := "-"
	if run.time > 0 {
		tm = run.time.String()
	}
	lo, hi := wilson(r.found, r.n)
	fmt.Fprintf(w, "%-16s %6s %9s %7s %14s %16s %16s", run.name, tm, fmt.Sprintf("%d/%d", r.found, r.n), share(r.found, r.n),
		fmt.Sprintf("[%.1f, %.1f]", 100*lo, 100*hi),
		fmt.Sprintf("%d/%d %s", r.winFound, r.win, share(r.winFound, r.win)),
		fmt.Sprintf("%d/%d %s", r.drawFound, r.draw, share(r.drawFound, r.draw)))
	if r.fromFile > 0 {
		fmt.Fprintf(w, " (%d from %s)", r.fromFile, rowsPath)
	}
	fmt.Fprintln(w)
}

// printTacticsHeader says what the set holds and how the players read the
// database, and prints the table's column names.
func printTacticsHeader(w io.Writer, opt teach.TrainingOptions, es []teach.Exercise, stones int, abDB bool) {
	wins, random := 0, 0.0
	for _, e := range es {
		if e.Goal == teach.FindWin {
			wins++
		}
		random += 1 / float64(e.Moves)
	}
	fmt.Fprintf(w, "tactics: %d positions of the %d-stone game with exactly one move that keeps the value (find the win: %d, hold the draw: %d), seed %d, goal %s, difficulty %s; a random move finds %.1f %% on average\n",
		len(es), stones, wins, len(es)-wins, opt.Seed, opt.Goal, opt.Band, 100*random/float64(len(es)))
	if abDB {
		fmt.Fprintln(w, "alpha-beta and conspiracy number players read the database below the root (--ab-db): they see every move's value")
	} else {
		fmt.Fprintln(w, "alpha-beta and conspiracy number players search without the database; perfect players and levels read it")
	}
	fmt.Fprintf(w, "%-16s %6s %9s %7s %14s %16s %16s\n", "player", "time", "found", "share", "95% interval", "find the win", "hold the draw")
}

// tactics asks players for their moves in a set of training positions.
type tactics struct {
	db       *layers.DB
	env      play.Env
	abDB     bool // alpha-beta players read the database (part of a result's key)
	stones   int
	seed     uint64
	es       []teach.Exercise
	jobs     int
	rowsPath string
	done     map[tacticsKey]tacticsResult // results of the --rows file
	progress io.Writer                    // stderr

	mu sync.Mutex // guards the --rows file
}

// run asks run's player for its move in every position of the set, jobs
// at a time, taking the results the --rows file holds, and returns the row.
func (t *tactics) run(ctx context.Context, run tacticsRun) (tacticsRow, error) {
	results := make([]tacticsResult, len(t.es))
	var todo []int
	var row tacticsRow
	for i, e := range t.es {
		if r, ok := t.done[t.key(run, i, e)]; ok {
			results[i] = r
			row.fromFile++
		} else {
			todo = append(todo, i)
		}
	}
	progress := newCountLines(t.progress, fmt.Sprintf("tactics: %s", run.spec), len(todo))
	err := forEach(ctx, t.jobs, todo, func(ctx context.Context, i int) error {
		r, err := t.ask(ctx, run, i)
		if err == nil {
			err = t.keep(run, i, r)
		}
		if err != nil {
			return fmt.Errorf("position %d %q: %w", i+1, t.es[i].Pos.String(), err)
		}
		results[i] = r
		progress.add()
		return nil
	})
	if err != nil {
		return row, err
	}
	for i, e := range t.es {
		row.n++
		found := results[i].found
		if found {
			row.found++
		}
		if e.Goal == teach.FindWin {
			row.win++
			if found {
				row.winFound++
			}
		} else {
			row.draw++
			if found {
				row.drawFound++
			}
		}
	}
	return row, nil
}

// key returns the name of the result of run in position i, e.
func (t *tactics) key(run tacticsRun, i int, e teach.Exercise) tacticsKey {
	return tacticsKey{run.spec.String(), t.abDB, t.seed, i, e.Pos.String()}
}

// ask asks a fresh player of run for its move in position i, seeded from
// the seed, the position's number and its side to move, and judges it.
func (t *tactics) ask(ctx context.Context, run tacticsRun, i int) (tacticsResult, error) {
	e := t.es[i]
	g, err := muehle.NewGameFrom(e.Pos, t.stones)
	if err != nil {
		return tacticsResult{}, err
	}
	pl := run.spec.New(t.env, func(stream uint64) rand.Source { return matchSource(t.seed, e.Pos.Turn, i, stream) })
	mv, err := pl.Move(ctx, g)
	if err != nil {
		return tacticsResult{}, err
	}
	if !e.Pos.IsLegal(mv) {
		return tacticsResult{}, fmt.Errorf("the player played %s, not a legal move", e.Pos.Board().MoveString(mv))
	}
	return tacticsResult{move: e.Pos.Board().MoveString(mv), found: slices.Contains(e.Answers, mv)}, nil
}

// keep adds the result of run in position i to the --rows file.
func (t *tactics) keep(run tacticsRun, i int, r tacticsResult) error {
	if t.rowsPath == "" {
		return nil
	}
	k := t.key(run, i, t.es[i])
	found := 0
	if r.found {
		found = 1
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return appendRowLine(t.rowsPath, fmt.Sprintf("%s\tab-db=%t\t%d\t%d\t%s\t%s\t%d", k.spec, k.abDB, k.seed, k.index, k.pos, r.move, found))
}
