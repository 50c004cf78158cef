package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
)

func init() {
	register("placement", "time the placement search, or a player's move, on random reachable placement positions, and check them against the database", runPlacement)
}

func runPlacement(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("placement", "[--db DIR] [--stones K] [--positions N] [--seed S] [--check | --player P] [--max-total T] [--min-placed P]", stderr)
	dbf := addDBFlags(fs)
	sf := addSearchFlags(fs)
	n := fs.Int("positions", 200, "number of random reachable placement positions")
	seed := fs.Uint64("seed", 1, "seed of the random games")
	check := fs.Bool("check", false, "search below the stored placement layers (reading only the moving layers) and compare each value with the stored one")
	maxTotal := fs.Int("max-total", 0, "only positions with at most this many stones of both sides on the board and in hand (0: any); the games then prefer mills")
	minPlaced := fs.Int("min-placed", 0, "only positions with at least this many placements made")
	warm := fs.Bool("warm", false, "keep the search's table from one position to the next (default: cleared, each position searched afresh); with --player, time the positions a second time, their layers open")
	verbose := fs.Bool("v", false, "print each position")
	mem := addCacheFlag(fs)
	player := fs.String("player", "", "time this player's move instead of the search (perfect, perfect:sector, …, as in match; it searches a placement its layer lacks for up to 2 s, with the --book) and check it against the database")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *player != "" && *check {
		return flagError(fs, fmt.Errorf("--player and --check: choose one"))
	}
	if err := errors.Join(dbf.check(), sf.check(), inRange("--positions", *n, 1, 1_000_000, ""),
		inRange("--max-total", *maxTotal, 0, 2*(*dbf.stones), ""), inRange("--min-placed", *minPlaced, 0, 2*(*dbf.stones)-1, ""), mem.check()); err != nil {
		return flagError(fs, err)
	}
	db, err := dbf.openExisting()
	if err != nil {
		return err
	}
	defer db.Close()
	mem.apply(db)
	v := db.Variant()
	rng := rand.New(rand.NewPCG(*seed, 12))
	if *player != "" {
		positions := make([]muehle.Position, *n)
		for i := range positions {
			positions[i] = samplePlacement(rng, v, *maxTotal, *minPlaced)
		}
		env := playerEnv(db, true)
		if env.Book, err = sf.openBook(db); err != nil {
			return err
		}
		if err := timePlayer(ctx, stdout, db, env, *player, *seed, positions, "", *verbose); err != nil || !*warm {
			return err
		}
		return timePlayer(ctx, stdout, db, env, *player, *seed, positions, " again, the layers open", *verbose)
	}
	var prober layers.Prober = db
	if *check {
		prober = play.MovingOnly(db)
	}
	if *check && *sf.book == "default" {
		*sf.book = "" // a book would answer from earlier runs: the check searches
	}
	s, err := sf.open(db, prober)
	if err != nil {
		return err
	}
	var times []time.Duration
	var nodes []uint64
	mismatches, missing := 0, 0
	for i := 0; i < *n; i++ {
		pos := samplePlacement(rng, v, *maxTotal, *minPlaced)
		if !*warm {
			s.Reset()
		}
		start := time.Now()
		v, best, err := s.BestMoves(ctx, pos)
		el := time.Since(start)
		if errors.Is(err, layers.ErrMissing) {
			missing++
			if *verbose {
				fmt.Fprintf(stdout, "%4d %s  %v\n", i, pos, err)
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("placement: %s: %w", pos, err)
		}
		times = append(times, el)
		nodes = append(nodes, s.Nodes())
		stored := ""
		if *check {
			want, err := db.Probe(pos)
			switch {
			case err == nil && want != v:
				mismatches++
				stored = fmt.Sprintf("  MISMATCH: stored %v", want)
			case err == nil:
				stored = "  = stored"
			default:
				stored = "  (" + describe(want, err) + ")"
			}
		}
		if *verbose || stored != "" && stored != "  = stored" {
			fmt.Fprintf(stdout, "%4d %s  %-12s %d best moves %8.3f s %10d nodes%s\n", i, pos, v, len(best), el.Seconds(), s.Nodes(), stored)
		}
	}
	if b := s.Book(); b != nil {
		if err := b.Save(); err != nil { // the results stand: a warning
			fmt.Fprintf(stderr, "muehlectl placement: the book is not saved: %v\n", err)
		}
	}
	fmt.Fprintf(stdout, "k=%d: %d positions searched, %d needed missing moving layers\n", v.Stones, len(times), missing)
	if len(times) > 0 {
		st := slices.Clone(times)
		slices.Sort(st)
		sn := slices.Clone(nodes)
		slices.Sort(sn)
		fmt.Fprintf(stdout, "time per position (best moves): median %.3f s, worst %.3f s; nodes: median %d, worst %d\n",
			st[len(st)/2].Seconds(), st[len(st)-1].Seconds(), sn[len(sn)/2], sn[len(sn)-1])
	}
	if *check {
		fmt.Fprintf(stdout, "checked against the stored placement layers: %d mismatches\n", mismatches)
		if mismatches > 0 {
			return fmt.Errorf("placement: %d values differ from the stored layers", mismatches)
		}
	}
	return nil
}

// timePlayer times the moves of the player spec (as in match) on the
// positions, each from a fresh player, and checks each move against the
// database: it must keep the position's value (a blunder otherwise) and
// not come from the fallback player. It fails when there is a blunder or a
// fallback. The first look-up in a layer opens it and checks its whole
// checksum; pass names a second pass over the same positions.
func timePlayer(ctx context.Context, stdout io.Writer, db *layers.DB, env play.Env, spec string, seed uint64, positions []muehle.Position, pass string, verbose bool) error {
	mp, err := newMatchPlayer(spec, db.Stones(), seed, env)
	if err != nil {
		return err
	}
	var times []time.Duration
	blunders, fallbacks, unknown, slow := 0, 0, 0, 0
	for i, pos := range positions {
		g, err := muehle.NewGameFrom(pos, db.Stones())
		if err != nil {
			return err
		}
		pl := mp.newPlayer(pos.Turn, i)
		start := time.Now()
		m, err := pl.Move(ctx, g)
		el := time.Since(start)
		if err != nil {
			return fmt.Errorf("placement: %s: %w", pos, err)
		}
		times = append(times, el)
		if el > play.PlacementTime {
			slow++
		}
		note := ""
		if p, ok := pl.(interface{ LastFellBack() bool }); ok && p.LastFellBack() {
			fallbacks++
			note = "  FALLBACK"
		}
		before, after, err := valuesAround(db, pos, m)
		switch {
		case err != nil || before == layers.Unused || after == layers.Unused:
			unknown++
			note += "  (not in the database)"
		case after.Parent().Outcome() < before.Outcome():
			blunders++
			note += fmt.Sprintf("  BLUNDER: %s for %s", after.Parent(), before)
		}
		if verbose || note != "" {
			fmt.Fprintf(stdout, "%4d %s  %-10s %8.3f s%s\n", i, pos, m, el.Seconds(), note)
		}
	}
	st := slices.Clone(times)
	slices.Sort(st)
	fmt.Fprintf(stdout, "k=%d, %s%s: %d positions, time per move: median %.3f s, worst %.3f s, %d over 2 s; %d moves that give up value, %d fallbacks, %d positions the database does not hold\n",
		db.Stones(), spec, pass, len(positions), st[len(st)/2].Seconds(), st[len(st)-1].Seconds(), slow, blunders, fallbacks, unknown)
	if blunders+fallbacks > 0 {
		return fmt.Errorf("placement: %s: %d moves gave up value, %d fell back", spec, blunders, fallbacks)
	}
	return nil
}

// samplePlacement returns a random placement position reachable from the
// empty board of variant v, the side to move with a stone in hand: a game
// of uniformly random moves stopped after a uniformly random number of
// placements (at least minPlaced). With maxTotal > 0 the games
// close mills whenever they can and keep only positions with at most
// maxTotal stones of both sides on the board and in hand: late positions
// of the placement phase whose moving layers are small.
func samplePlacement(rng *rand.Rand, v muehle.Variant, maxTotal, minPlaced int) muehle.Position {
	for {
		p := v.NewPosition()
		stop := minPlaced + rng.IntN(max(1, 2*v.Stones-minPlaced))
		for placed := 0; p.Hand[p.Turn] > 0 && !p.IsOver(); placed++ {
			total := p.Total(muehle.White) + p.Total(muehle.Black)
			if placed >= minPlaced && (maxTotal > 0 && total <= maxTotal || maxTotal == 0 && placed >= stop) {
				return p
			}
			ms := p.Moves()
			if maxTotal > 0 {
				if r := slices.DeleteFunc(slices.Clone(ms), func(m muehle.Move) bool { return !m.IsRemoval() }); len(r) > 0 {
					ms = r
				} else if t := threats(p, ms); len(t) > 0 && rng.IntN(4) > 0 {
					ms = t
				}
			}
			p = p.Play(ms[rng.IntN(len(ms))])
		}
	}
}

// threats returns the moves of ms that give the mover two stones of a
// mill whose third point is empty.
func threats(p muehle.Position, ms []muehle.Move) []muehle.Move {
	b := p.Rules().Board
	before := b.MillTargets(p.Mover(), p.Empty())
	var t []muehle.Move
	for _, m := range ms {
		after := b.MillTargets(p.Mover()|m.To.Bit(), p.Empty()&^m.To.Bit())
		if after&^before != 0 {
			t = append(t, m)
		}
	}
	return t
}
