package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/retro/search"
)

func init() {
	register("searcherrors", "Lorenz's search-with-errors experiment: how often alpha-beta over our evaluation keeps the database's value, split by leaf-disjoint strategies", runSearchErrors)
}

const searchErrorsUsage = `--db DIR [--stones K] --layer L[,L…] [--positions N] [--critical] [--seed S] [--depth T | T1..T2] [--jobs J] [--rows FILE]

The search-with-errors experiment of U. Lorenz's thesis (§4.5), on our
database. From each moving layer L (3-7 or m3-7: stones of the side to move,
then of the opponent) it draws N positions at random (stored, reachable,
with at least two legal moves; with --critical only critical positions,
below; the same positions for every depth). For
each position and depth t it searches every legal move's position t plies
deep with the alpha-beta player and our evaluation, without the database
(muehlectl match's ab:t+1, its ties broken from --seed), and counts the
position as kept when the chosen move keeps the database's outcome (won,
drawn or lost; the distance does not count). It splits the positions by
whether the full-width tree the search spans, t+1 plies deep from the
position with the database's outcomes at its leaves, holds two or more
leaf-disjoint strategies for the position's outcome (docs/search.md
defines them). Every layer the trees reach must be in the database.

The draw depends on the layer, --positions, --critical and --seed alone, so a row is
the same in every run; with --rows FILE each row computed is added to FILE
and a row FILE holds is printed from it, so a long run resumes where it
stopped.

Columns: layer, depth t, positions, share kept, positions with two or more
strategies and the share of them kept, positions with fewer and the share
of them kept, and the time the row took; then the same for the critical
positions alone: those with a move that gives up the value, where the
search has a choice to get wrong (in the others every move keeps it).

After a layer's rows, the line "random" gives the share a uniformly random
legal move keeps (its expectation over the same positions, all and
critical). The table at the end sets the difficulty levels beside the
searches: level N plays a random move with probability p(N) (muehlectl
levels), so in the critical positions it keeps 1 - p(N)·(1 - random's
share); each entry names the deepest search it keeps at least as often
as ("≥ t3"; "< t0" below them all).`

func runSearchErrors(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("searcherrors", searchErrorsUsage, stderr)
	dbf := addDBFlags(fs)
	layerList := fs.String("layer", "", "moving layers, comma separated: 3-7,m8-8")
	n := fs.Int("positions", 1000, "positions drawn from each layer")
	onlyCritical := fs.Bool("critical", false, "draw only critical positions, those with a move that gives up the value (in a mostly drawn layer, a few in a thousand)")
	seed := fs.Uint64("seed", 1, "seed of the draw and of alpha-beta's ties")
	depthText := fs.String("depth", "0..6", "search depth t below each move, or a range T1..T2 (0 to 6)")
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "positions searched at the same time (the table does not depend on it)")
	rowsPath := fs.String("rows", "", "a `file` of rows: each row computed is added to it, and a row it holds (same layer, depth, positions and seed) is printed from it, not computed again, so that an interrupted run resumes")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	lo, hi, derr := parseDepthRange(*depthText)
	keys, lerr := movingLayers(*layerList, dbf.perSide())
	if err := errors.Join(dbf.check(), inRange("--positions", *n, 1, 10_000_000, ""), inRange("--jobs", *jobs, 1, 1024, ""), derr, lerr); err != nil {
		return flagError(fs, err)
	}
	db, err := dbf.openVerified()
	if err != nil {
		return err
	}
	defer db.Close()
	done, err := readErrorRows(*rowsPath)
	if err != nil {
		return err
	}
	r := &errorsRun{ctx: ctx, db: db, out: stdout, progress: stderr, n: *n, seed: *seed, critical: *onlyCritical, jobs: *jobs, rowsPath: *rowsPath, done: done, drawn: "positions"}
	if r.critical {
		r.drawn = "critical positions"
	}
	fmt.Fprintf(stdout, "search with errors: %d %s a layer, seed %d, alpha-beta with our evaluation, no database in the search\n", r.n, r.drawn, r.seed)
	fmt.Fprintf(stdout, "%-6s %5s %9s %7s %9s %7s %9s %7s   %9s %7s %9s %7s %9s %7s %9s\n", "layer", "depth",
		"positions", "kept", "≥2 strat", "kept", "<2 strat", "kept", "critical", "kept", "≥2 strat", "kept", "<2 strat", "kept", "time")
	var levels []layerLevels
	for _, k := range keys {
		ll, err := r.layer(k, lo, hi)
		if err != nil {
			return err
		}
		levels = append(levels, ll)
	}
	printLevels(stdout, levels)
	return nil
}

// errorsRun is a run of searcherrors: its flags, the rows its --rows file
// held, and where the table goes.
type errorsRun struct {
	ctx      context.Context
	db       *layers.DB
	out      io.Writer
	progress io.Writer // stderr: a line on a long row every countEvery
	n        int
	seed     uint64
	critical bool
	jobs     int
	rowsPath string
	done     map[errorRowID]savedRow
	drawn    string // "positions" or "critical positions"
}

// layer prints layer k's rows, depths lo to hi, then its random move's
// row, each from the rows file or computed and added to it, and returns
// what the levels' table needs of the layer.
func (r *errorsRun) layer(k layers.Key, lo, hi int) (layerLevels, error) {
	ll := layerLevels{k: k, lo: lo}
	var ps []muehle.Position // drawn when a row of the layer is computed
	draw := func() (err error) {
		if ps == nil {
			// The draw depends on the layer, --positions, --critical and
			// the seed alone, so that rows of separate runs belong to
			// one table.
			progress := newCountLines(r.progress, fmt.Sprintf("searcherrors: %s, drawing %s", k, r.drawn), r.n)
			ps, err = drawMoving(r.ctx, r.db, k, r.n, r.critical, rand.New(rand.NewPCG(r.seed, uint64(k.W)<<8|uint64(k.B))), progress)
			if err == nil && len(ps) < r.n {
				fmt.Fprintf(r.out, "layer %s: only %d %s found\n", k, len(ps), r.drawn)
			}
		}
		return err
	}
	from := func(saved bool) string { // the note on a row the file held
		if saved {
			return " (from " + r.rowsPath + ")"
		}
		return ""
	}
	for t := lo; t <= hi; t++ {
		id := errorRowID{k, t, r.n, r.seed, r.critical}
		saved, ok := r.done[id]
		if !ok {
			if err := draw(); err != nil {
				return ll, err
			}
			start := time.Now()
			progress := newCountLines(r.progress, fmt.Sprintf("searcherrors: %s depth %d", k, t), len(ps))
			row, err := searchErrors(r.ctx, r.db, r.db.Stones(), ps, t, r.seed, r.jobs, progress)
			if err != nil {
				return ll, fmt.Errorf("layer %s, depth %d: %w", k, t, err)
			}
			saved = savedRow{row: row, took: time.Since(start)}
			if err := appendErrorRow(r.rowsPath, id, row, saved.took); err != nil {
				return ll, err
			}
		}
		fmt.Fprintf(r.out, "%-6s %5d %s   %s %9s%s\n", k, t, saved.row.all.columns(), saved.row.critical.columns(), saved.took.Round(time.Millisecond), from(ok))
		ll.kept = append(ll.kept, saved.row.critical.keptShare())
	}
	id := errorRowID{k, randomDepth, r.n, r.seed, r.critical}
	saved, ok := r.done[id]
	if !ok {
		if err := draw(); err != nil {
			return ll, err
		}
		var err error
		if saved.random, err = randomKeeps(r.db, ps); err != nil {
			return ll, fmt.Errorf("layer %s: %w", k, err)
		}
		if err := appendRandomRow(r.rowsPath, id, saved.random); err != nil {
			return ll, err
		}
	}
	b := saved.random
	fmt.Fprintf(r.out, "%-6s %5s %9d %7s %29s   %9d %7s%s\n", k, "random", b.positions, percent(b.keptShare()), "", b.critical, percent(b.criticalKeptShare()), from(ok))
	ll.random = b
	return ll, nil
}

// randomDepth stands for the random move's row in an errorRowID.
const randomDepth = -1

// randomCounts is what a uniformly random legal move keeps in a draw of
// positions: the sums, over all positions and over the critical ones, of
// the share of each position's moves that keep its outcome.
type randomCounts struct {
	positions, critical int
	kept, criticalKept  float64
}

// keptShare and criticalKeptShare are the expected shares kept.
func (b randomCounts) keptShare() float64 { return b.kept / float64(max(b.positions, 1)) }
func (b randomCounts) criticalKeptShare() float64 {
	return b.criticalKept / float64(max(b.critical, 1))
}

// randomKeeps counts what a random move keeps in the positions ps.
func randomKeeps(db layers.Prober, ps []muehle.Position) (randomCounts, error) {
	var b randomCounts
	for _, pos := range ps {
		v, err := search.Outcome(db, pos)
		if err != nil {
			return b, err
		}
		giving, moves, err := givingUp(db, pos, v, false)
		if err != nil {
			return b, err
		}
		share := float64(moves-giving) / float64(moves)
		b.positions++
		b.kept += share
		if giving > 0 {
			b.critical++
			b.criticalKept += share
		}
	}
	return b, nil
}

// layerLevels is what the levels' table needs of a layer: the share of
// its critical positions kept at each depth from lo on, and the random move's.
type layerLevels struct {
	k      layers.Key
	lo     int
	kept   []float64
	random randomCounts
}

// printLevels prints the difficulty levels beside the searches: the share
// of each layer's critical positions a level keeps, 1 - p·(1 - r) with r
// the random move's, and the deepest search that keeps no more.
func printLevels(w io.Writer, ls []layerLevels) {
	fmt.Fprintf(w, "\nlevels, kept in the critical positions (p: the share of random moves)\n%-5s %6s", "level", "p")
	for _, l := range ls {
		fmt.Fprintf(w, " %14s", l.k)
	}
	fmt.Fprintln(w)
	for n := 1; n <= play.Levels; n++ {
		p := play.LevelRate(n)
		fmt.Fprintf(w, "%-5d %6s", n, percent(p))
		for _, l := range ls {
			kept := 1 - p*(1-l.random.criticalKeptShare())
			fmt.Fprintf(w, " %14s", percent(kept)+" ("+asDeep(kept, l.lo, l.kept)+")")
		}
		fmt.Fprintln(w)
	}
}

// asDeep names the deepest search (depth lo+i keeping kept[i]) that keeps
// no more than share: "≥ t3", or "< t0" when every one keeps more.
func asDeep(share float64, lo int, kept []float64) string {
	deepest := -1
	for i, k := range kept {
		if k <= share {
			deepest = lo + i
		}
	}
	if deepest < 0 {
		return fmt.Sprintf("< t%d", lo)
	}
	return fmt.Sprintf("≥ t%d", deepest)
}

// percent formats a share as a percentage.
func percent(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// errorRowID names a row of the table: the layer, the depth, the
// positions asked for, the seed of the draw and whether it drew critical
// positions only.
type errorRowID struct {
	k        layers.Key
	t, n     int
	seed     uint64
	critical bool
}

// savedRow is a row read from a --rows file: a depth's, or the random
// move's.
type savedRow struct {
	row    errorsRow
	took   time.Duration
	random randomCounts
}

// readErrorRows reads the rows of a --rows file ("" or a missing file: none).
// A line is: layer, depth, positions asked, seed; positions, kept, with two
// or more strategies, of them kept; the same four of the critical
// positions; seconds; and "critical" when the draw was of critical
// positions only (a line of 13 fields, before --critical, drew all); tab
// separated; # starts a comment. The random move's line is: layer,
// "random", positions asked, seed; positions and the sum of the shares
// kept, critical positions and theirs; and "critical" as above.
func readErrorRows(path string) (map[errorRowID]savedRow, error) {
	lines, err := readRowLines(path)
	if err != nil {
		return nil, err
	}
	rows := map[errorRowID]savedRow{}
	for _, l := range lines {
		var name string
		var id errorRowID
		var r savedRow
		var secs float64
		a, c := &r.row.all, &r.row.critical
		text, critical := strings.CutSuffix(l.text, "\tcritical")
		if f := strings.Split(text, "\t"); len(f) > 1 && f[1] == "random" {
			b := &r.random
			if n, err := fmt.Sscanf(text, "%s\trandom\t%d\t%d\t%d\t%g\t%d\t%g", &name, &id.n, &id.seed, &b.positions, &b.kept, &b.critical, &b.criticalKept); n != 7 || err != nil {
				return nil, fmt.Errorf("--rows %s: line %d is not a row of the random move: %q", path, l.n, l.text)
			}
			id.t = randomDepth
		} else if n, err := fmt.Sscanf(text, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%g", &name, &id.t, &id.n, &id.seed,
			&a.positions, &a.kept, &a.safe, &a.keptSafe, &c.positions, &c.kept, &c.safe, &c.keptSafe, &secs); n != 13 || err != nil {
			if len(strings.Split(l.text, "\t")) == 9 {
				return nil, fmt.Errorf("--rows %s: line %d is a row of the format before the critical positions (9 fields): remove it or the file, and the row is computed again", path, l.n)
			}
			return nil, fmt.Errorf("--rows %s: line %d is not a row: %q", path, l.n, l.text)
		}
		if id.k, err = layers.ParseKey(name); err != nil {
			return nil, fmt.Errorf("--rows %s: line %d: %w", path, l.n, err)
		}
		id.critical = critical
		r.took = time.Duration(secs * float64(time.Second))
		rows[id] = r
	}
	return rows, nil
}

// appendErrorRow adds a row to the --rows file (none for "").
func appendErrorRow(path string, id errorRowID, row errorsRow, took time.Duration) error {
	a, c := row.all, row.critical
	line := fmt.Sprintf("%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.3f", id.k, id.t, id.n, id.seed,
		a.positions, a.kept, a.safe, a.keptSafe, c.positions, c.kept, c.safe, c.keptSafe, took.Seconds())
	if id.critical {
		line += "\tcritical"
	}
	return appendRowLine(path, line)
}

// appendRandomRow adds the random move's row to the --rows file.
func appendRandomRow(path string, id errorRowID, b randomCounts) error {
	line := fmt.Sprintf("%s\trandom\t%d\t%d\t%d\t%.6f\t%d\t%.6f", id.k, id.n, id.seed, b.positions, b.kept, b.critical, b.criticalKept)
	if id.critical {
		line += "\tcritical"
	}
	return appendRowLine(path, line)
}

// errorsRow is one row of the table: the counts of all positions, and of
// the critical ones (a move gives up the value).
type errorsRow struct{ all, critical errorCounts }

// errorCounts counts positions, those kept, those whose tree holds two or
// more strategies, and those of them kept.
type errorCounts struct{ positions, kept, safe, keptSafe int }

// add counts a position: kept, and safe (two or more strategies).
func (c *errorCounts) add(kept, safe bool) {
	c.positions++
	if kept {
		c.kept++
	}
	if safe {
		c.safe++
		if kept {
			c.keptSafe++
		}
	}
}

// keptShare is the share of the positions kept.
func (c errorCounts) keptShare() float64 { return float64(c.kept) / float64(max(c.positions, 1)) }

// columns formats the counts as the table's six columns.
func (c errorCounts) columns() string {
	return fmt.Sprintf("%9d %7s %9d %7s %9d %7s", c.positions, share(c.kept, c.positions),
		c.safe, share(c.keptSafe, c.safe), c.positions-c.safe, share(c.kept-c.keptSafe, c.positions-c.safe))
}

// searchErrors searches each position with alpha-beta t+1 plies deep
// without the database and counts the moves that keep the database's
// outcome, split by the strategies the searched tree holds. jobs positions
// are searched at a time, each counted to progress; each position's player
// breaks its ties from its own stream of seed, so the table does not depend
// on jobs.
func searchErrors(ctx context.Context, db layers.Prober, stones int, ps []muehle.Position, t int, seed uint64, jobs int, progress *countLines) (errorsRow, error) {
	type result struct{ kept, safe, critical bool }
	results := make([]result, len(ps))
	err := forEach(ctx, jobs, indices(len(ps)), func(ctx context.Context, i int) error {
		r := &results[i]
		var err error
		r.kept, r.safe, r.critical, err = searchError(ctx, db, stones, ps[i], t, rand.NewPCG(seed, uint64(i)<<4|uint64(t)))
		if err != nil {
			return fmt.Errorf("position %q: %w", ps[i].String(), err)
		}
		progress.add()
		return nil
	})
	var row errorsRow
	if err != nil {
		return row, err
	}
	for _, r := range results {
		row.all.add(r.kept, r.safe)
		if r.critical {
			row.critical.add(r.kept, r.safe)
		}
	}
	return row, nil
}

// searchError searches pos t+1 plies deep with a fresh alpha-beta player
// breaking ties from src, and reports whether its move keeps the
// database's outcome, whether the tree holds two or more strategies for
// it, and whether pos is critical: one of its moves gives up the outcome.
func searchError(ctx context.Context, db layers.Prober, stones int, pos muehle.Position, t int, src rand.Source) (kept, safe, critical bool, err error) {
	g, err := muehle.NewGameFrom(pos, stones)
	if err != nil {
		return false, false, false, err
	}
	ab := search.NewAlphaBeta(search.Limits{Depth: t + 1}, src, nil)
	ab.SetOptions(search.SearchOptions{TTBits: 16})
	r, err := ab.Search(ctx, g)
	if err != nil {
		return false, false, false, err
	}
	v, strategies, err := search.Strategies(db, pos, t+1, 2)
	if err != nil {
		return false, false, false, err
	}
	after, err := search.Outcome(db, pos.Play(r.Move))
	if err != nil {
		return false, false, false, err
	}
	critical, err = isCritical(db, pos, v)
	return -after == v, strategies >= 2, critical, err
}

// isCritical reports whether a move of pos gives up its outcome v.
func isCritical(db layers.Prober, pos muehle.Position, v layers.Outcome) (bool, error) {
	giving, _, err := givingUp(db, pos, v, true)
	return giving > 0, err
}

// givingUp counts pos's moves and those that give up its outcome v,
// stopping at the first of them when first is set.
func givingUp(db layers.Prober, pos muehle.Position, v layers.Outcome, first bool) (giving, moves int, err error) {
	for _, m := range pos.Moves() {
		after, err := search.Outcome(db, pos.Play(m))
		if err != nil {
			return 0, 0, err
		}
		moves++
		if -after != v {
			giving++
			if first {
				break
			}
		}
	}
	return giving, moves, nil
}

// drawMoving draws up to n distinct positions of moving layer k at random:
// stored (not an unused slot), reachable in a game, with two legal moves or
// more, and critical (isCritical) if critical is set. It gives up after
// 100·n tries, or (critical) four times the layer's slots if that is more.
// Each position drawn is counted to progress.
func drawMoving(ctx context.Context, db *layers.DB, k layers.Key, n int, critical bool, rng *rand.Rand, progress *countLines) ([]muehle.Position, error) {
	ix := db.Indexer().Layer(k)
	if ix == nil || ix.Size() == 0 {
		return nil, fmt.Errorf("layer %s: not a layer of the %d-stone game", k, db.Stones())
	}
	seen := map[uint64]bool{}
	var ps []muehle.Position
	tries := uint64(100 * n)
	if critical {
		tries = max(tries, 4*ix.Size())
	}
	for try := uint64(0); len(ps) < n && try < tries; try++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		i := rng.Uint64N(ix.Size())
		if seen[i] {
			continue
		}
		pos, ok := ix.Position(i)
		if !ok {
			continue
		}
		pos.Game = db.Variant().Game // the index numbers the boards of every game
		v, err := db.Probe(pos)
		if err != nil {
			return nil, fmt.Errorf("layer %s: %w", k, err)
		}
		if v == layers.Unused || pos.CheckReachable(db.Stones()) != nil || pos.CountMoves() < 2 {
			continue
		}
		if critical {
			o, err := search.Outcome(db, pos)
			c := false
			if err == nil {
				c, err = isCritical(db, pos, o)
			}
			if err != nil {
				return nil, fmt.Errorf("layer %s: %w", k, err)
			}
			if !c {
				continue
			}
		}
		seen[i] = true
		ps = append(ps, pos)
		progress.add()
	}
	return ps, nil
}

// movingLayers parses a comma-separated list of moving layers ("3-7",
// "m3-7") of the game with stones per side.
func movingLayers(list string, stones int) ([]layers.Key, error) {
	if list == "" {
		return nil, errors.New("--layer: name at least one moving layer, e.g. 3-7")
	}
	var ks []layers.Key
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimPrefix(strings.TrimSpace(s), "m")
		k, err := layers.ParseKey(s)
		if err != nil {
			return nil, fmt.Errorf("--layer: %w", err)
		}
		if !k.IsMoving() || !k.Valid(stones) {
			return nil, fmt.Errorf("--layer: %v is not a moving layer of the %d-stone game", k, stones)
		}
		ks = append(ks, k)
	}
	return ks, nil
}

// parseDepthRange reads "T" or "T1..T2", depths 0 to 6.
func parseDepthRange(s string) (int, int, error) {
	a, b, isRange := strings.Cut(s, "..")
	if !isRange {
		b = a
	}
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || lo < 0 || hi > 6 || lo > hi {
		return 0, 0, fmt.Errorf("--depth %q: want T or T1..T2, 0 ≤ T1 ≤ T2 ≤ 6", s)
	}
	return lo, hi, nil
}

// share formats k of n as a percentage, "-" when n is 0.
func share(k, n int) string {
	if n == 0 {
		return "-"
	}
	return percent(float64(k) / float64(n))
}
