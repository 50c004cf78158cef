package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
)

func init() {
	register("match", "play games between computer players and count the results", runMatch)
}

const matchUsage = `--white P --black P --games N [--stones K] [--db DIR] [--plies N] [--seed S] [--opening PLIES] [--ab-db=false]

Players P: random, ab:DEPTH (alpha-beta to a fixed depth), ab:auto or
ab:auto:DURATION (alpha-beta by time per move, 1s by default),
fallible:DEPTH:PERCENT (alpha-beta to DEPTH playing a random move instead in
PERCENT of its moves), perfect (the player the desktop program ships:
reads the database; where a placement layer is missing the placement
search, --placement-time a move, with the book beside the layers; alpha-beta
depth 6 where neither decides; among drawing moves of a drawn position the won
share of the layer after the next removal, by a minimax over drawing moves
4 plies deep, and among other moves of equal value the share of the
opponent's replies that give up value), perfect:sector:PLIES (the same,
PLIES 1 to 8 deep), perfect:trap (the share of replies that give up value
among drawing moves too), perfect:LOOKAHEAD (that share looking LOOKAHEAD 0
to 3 own moves ahead; 0: at random among the moves of the best value),
perfect:bahnsen or perfect:bahnsen:DEPTH (among drawing moves Bahnsen's win
probability, DEPTH 1 to 4 own moves, 2 by default),
level:N (difficulty level N, 1 to 10: the perfect player, playing a random
move instead with the level's probability; see muehlectl levels), ccns or
ccns:DURATION (controlled conspiracy number search by time per move, 1s by
default; it reads the database as alpha-beta does, see docs/search.md).
Alpha-beta, fallible and conspiracy number players read the exact value
of every position below the root that the database holds; --ab-db=false
makes them search instead, as the comparisons of docs/search.md do (with
the database both searches see the value of every move it holds).
Games run --jobs at a time, each with fresh players; the results carry 95 %
Wilson intervals. The two players alternate colours: the --white player has
White in the odd-numbered games, Black in the even-numbered ones. With
--opening PLIES each pair of games (1 and 2, 3 and 4, …) starts from the
same PLIES random legal plies, drawn from --seed and the pair's number
alone; where the database knows the position after them, an opening it
does not give as a draw is drawn again (up to 1000 times), so that neither
player starts lost. The opening's plies are nobody's moves: they count
toward --plies but not in the blunder rates. Games that reach --plies plies
are drawn. With a database, the blunder rate of each player is the share of
its moves (from positions the database knows) that worsen the outcome: a
won position left for a draw or a loss, a drawn one for a loss.`

func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match", matchUsage, stderr)
	white := fs.String("white", "ab:4", "first player (White in game 1)")
	black := fs.String("black", "random", "second player (Black in game 1)")
	games := fs.Int("games", 10, "number of games")
	dbf := addDBFlags(fs)
	fs.Lookup("db").Usage = "database `directory`, used when it holds the game's layers"
	plies := fs.Int("plies", 400, "plies after which a game is drawn")
	seed := fs.Uint64("seed", 1, "seed of the players' random choices")
	abDB := fs.Bool("ab-db", true, "let alpha-beta and conspiracy number players read exact values from the database")
	openingPlies := fs.Int("opening", 0, "start each pair of games from the same `PLIES` random legal plies (0: from the empty board)")
	verbose := fs.Bool("v", false, "print each game's result")
	placementTime := fs.Duration("placement-time", play.PlacementTime, "the perfect player's placement search: time per move where the database lacks the placement layer (0: no search, alpha-beta there)")
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "games played at the same time")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := errors.Join(dbf.check(), matchRanges(*games, *jobs, *plies), inRange("--opening", *openingPlies, 0, 1000, "")); err != nil {
		return flagError(fs, err)
	}
	v, stones := dbf.variant(), dbf.stones
	db, err := openGameDB(*dbf.dir, v)
	if err != nil {
		return err
	}
	if db != nil {
		defer db.Close()
	}
	m := &match{variant: v, plies: *plies, db: db}
	env := playerEnv(db, *abDB)
	env.PlacementTime = *placementTime
	if *placementTime == 0 {
		env.PlacementTime = -1 // no search
	}
	for i, spec := range []string{*white, *black} {
		var err error
		m.side[i], err = newMatchPlayer(spec, *stones, *seed+uint64(i)*1000, env)
		if err != nil {
			return err
		}
	}
	if v.Game == muehle.Standard {
		fmt.Fprintf(stdout, "%s against %s, %d games of %d stones", m.side[0].spec, m.side[1].spec, *games, *stones)
	} else {
		fmt.Fprintf(stdout, "%s against %s, %d games of %s", m.side[0].spec, m.side[1].spec, *games, v.Name())
	}
	if db != nil {
		fmt.Fprintf(stdout, ", database %s", db.Dir())
	}
	fmt.Fprintf(stdout, ", %d games at a time\n", *jobs)
	if *openingPlies > 0 {
		var probe layers.Prober // a nil *layers.DB is not a nil Prober
		if db != nil {
			probe = db
		}
		if m.openings, err = drawOpenings(ctx, v, probe, *openingPlies, *seed, (*games+1)/2); err != nil {
			return err
		}
		m.openings.describe(stdout, db != nil)
	}
	start := time.Now()
	lines, err := m.playAll(ctx, *games, *jobs)
	if *verbose {
		for i, l := range lines {
			if l != "" {
				fmt.Fprintf(stdout, "game %d: %s\n", i+1, l)
			}
		}
	}
	m.report(stdout, time.Since(start))
	return err
}

// openGameDB opens the database of variant v in dir when dir holds that
// variant's folder, and returns nil (no error) when it does not.
func openGameDB(dir string, v muehle.Variant) (*layers.DB, error) {
	st, err := os.Stat(layers.GameDir(dir, v))
	if err != nil || !st.IsDir() {
		return nil, nil
	}
	return layers.OpenDB(dir, v)
}

// matchRanges checks the flags of a series of games: --games, --jobs and
// --plies.
func matchRanges(games, jobs, plies int) error {
	err := inRange("--games", games, 1, math.MaxInt32, "")
	if err == nil {
		err = inRange("--jobs", jobs, 1, 1024, "")
	}
	if err == nil {
		err = inRange("--plies", plies, 1, math.MaxInt32, "")
	}
	return err
}

// playAll plays the games on jobs goroutines, each game with fresh
// players, and returns each game's line. It stops at the first error.
func (m *match) playAll(ctx context.Context, games, jobs int) ([]string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make([]string, games)
	next := make(chan int)
	errs := make(chan error, jobs)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				l, err := m.play(ctx, g)
				if err != nil {
					errs <- err
					cancel()
					return
				}
				lines[g] = l
			}
		}()
	}
feed:
	for g := range games {
		select {
		case next <- g:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return lines, err
	}
	return lines, nil
}

// matchPlayer is one side of a match with its counts.
type matchPlayer struct {
	spec      string
	newPlayer func(colour muehle.Color, game int) muehle.Player // fresh for each game (players keep state)
	win       [2]int                                            // by colour
	draw      [2]int
	loss      [2]int
	moves     int // moves from positions the database knows
	blunders  int // of those, moves that worsened the outcome
	fallbacks int // perfect player moves played by its fallback
}

// newMatchPlayer parses name (the grammar of play.Spec) and returns the
// side that makes a fresh player for each game and colour reading env,
// seeded from seed, the game and the colour.
func newMatchPlayer(name string, stones int, seed uint64, env play.Env) (*matchPlayer, error) {
	sp, err := play.ParseSpec(name)
	if err != nil {
		return nil, err
	}
	if sp.NeedsDB() && env.DB == nil {
		return nil, fmt.Errorf("player %q needs a database of %d stones (--db)", name, stones)
	}
	return &matchPlayer{spec: name, newPlayer: func(c muehle.Color, game int) muehle.Player {
		return sp.New(env, func(stream uint64) rand.Source { return matchSource(seed, c, game, stream) })
	}}, nil
}

// playerEnv returns what the players of a match read: db (nil: none),
// which alpha-beta players probe when abDB, and the shipped player's
// placement book beside its layers.
func playerEnv(db *layers.DB, abDB bool) play.Env {
	if db == nil {
		return play.Env{}
	}
	env := play.Env{DB: db, Book: play.ShippedBook(db)}
	if abDB {
		env.Probe = db
	}
	return env
}

// matchSource returns the random source of a player of a match: seeded
// from seed, the game and the colour, one stream per use (play.Sources).
func matchSource(seed uint64, c muehle.Color, game int, stream uint64) rand.Source {
	return rand.NewPCG(seed+uint64(game)<<20, stream<<8|uint64(c))
}

// match is a series of games between two players.
type match struct {
	variant       muehle.Variant
	plies         int
	db            *layers.DB
	side          [2]*matchPlayer
	openings      *openings  // nil: every game from the empty board
	mu            sync.Mutex // guards the counts below and in side
	games, capped int
}

// play plays game g (from 0): side 0 has White in even games. With
// openings, the game starts after its pair's opening, whose plies are
// judged for neither side. It returns a line describing the result.
func (m *match) play(ctx context.Context, g int) (string, error) {
	first := g % 2 // the side that has White
	colour := [2]*matchPlayer{m.side[first], m.side[1-first]}
	game := m.variant.Rules().NewGame(m.variant.Stones)
	if m.openings != nil {
		var err error
		if game, err = m.openings.game(m.variant, g); err != nil {
			return "", err
		}
	}
	inst := [2]muehle.Player{colour[0].newPlayer(muehle.White, g), colour[1].newPlayer(muehle.Black, g)}
	capped := false
	result, why := game.Result()
	for result == muehle.Ongoing {
		if game.Ply() >= m.plies {
			result, why = muehle.Draw, fmt.Sprintf("%d plies", m.plies)
			capped = true
			break
		}
		pos := game.Position()
		mp := colour[pos.Turn]
		pl := inst[pos.Turn]
		mv, err := pl.Move(ctx, game.Clone())
		if err != nil {
			return "", fmt.Errorf("game %d, ply %d, %s: %w", g+1, game.Ply(), mp.spec, err)
		}
		if p, ok := pl.(interface{ LastFellBack() bool }); ok && p.LastFellBack() {
			m.mu.Lock()
			mp.fallbacks++
			m.mu.Unlock()
		}
		m.judge(mp, pos, mv)
		if err := game.Play(mv); err != nil {
			return "", fmt.Errorf("game %d, %s: %w", g+1, mp.spec, err)
		}
		result, why = game.Result()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.games++
	if capped {
		m.capped++
	}
	for c := range 2 {
		mp := colour[c]
		switch {
		case result == muehle.Draw:
			mp.draw[c]++
		case (result == muehle.WhiteWins) == (c == 0):
			mp.win[c]++
		default:
			mp.loss[c]++
		}
	}
	line := fmt.Sprintf("%s (White) against %s: %s after %d plies (%s)", colour[0].spec, colour[1].spec, result, game.Ply(), why)
	if m.openings != nil {
		line += "; opening " + m.openings.text(game.Rules().Board, g)
	}
	return line, nil
}

// judge counts mv from pos for mp when the database knows both the
// position and the move's value, and whether it was a blunder.
func (m *match) judge(mp *matchPlayer, pos muehle.Position, mv muehle.Move) {
	if m.db == nil {
		return
	}
	before, after, err := valuesAround(m.db, pos, mv)
	if err != nil {
		return // a layer is missing
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	mp.moves++
	if after.Parent().Outcome() < before.Outcome() {
		mp.blunders++
	}
}

// valuesAround returns the value of pos for its side to move and the
// value after mv for the other side (lost in 0 when mv ends the game);
// mv gives up value when after.Parent().Outcome() < before.Outcome().
func valuesAround(db layers.Prober, pos muehle.Position, mv muehle.Move) (before, after layers.Value, err error) {
	if before, err = db.Probe(pos); err != nil {
		return before, after, err
	}
	after = layers.LossIn(0)
	if child := pos.Play(mv); !child.IsOver() {
		after, err = db.Probe(child)
	}
	return before, after, err
}

// report prints the results of the games played.
func (m *match) report(w io.Writer, elapsed time.Duration) {
	fmt.Fprintf(w, "%d games in %s", m.games, elapsed.Round(time.Millisecond))
	if m.capped > 0 {
		fmt.Fprintf(w, ", %d drawn at the ply cap of %d", m.capped, m.plies)
	}
	fmt.Fprintln(w)
	for _, mp := range m.side {
		fmt.Fprintf(w, "%-16s %4d won %4d drawn %4d lost   (as White %d/%d/%d, as Black %d/%d/%d)\n",
			mp.spec, mp.win[0]+mp.win[1], mp.draw[0]+mp.draw[1], mp.loss[0]+mp.loss[1],
			mp.win[0], mp.draw[0], mp.loss[0], mp.win[1], mp.draw[1], mp.loss[1])
	}
	if m.games > 0 {
		for _, mp := range m.side {
			fmt.Fprintf(w, "%-16s 95%% Wilson intervals:", mp.spec)
			for i, x := range []int{mp.win[0] + mp.win[1], mp.draw[0] + mp.draw[1], mp.loss[0] + mp.loss[1]} {
				lo, hi := wilson(x, m.games)
				fmt.Fprintf(w, " %s %.1f%% [%.1f, %.1f]", [3]string{"won", "drawn", "lost"}[i], 100*float64(x)/float64(m.games), 100*lo, 100*hi)
			}
			fmt.Fprintln(w)
		}
	}
	if m.db == nil {
		return
	}
	for _, mp := range m.side {
		rate := 0.0
		if mp.moves > 0 {
			rate = 100 * float64(mp.blunders) / float64(mp.moves)
		}
		fmt.Fprintf(w, "%-16s blunders: %d of %d moves in known positions (%.2f %%)", mp.spec, mp.blunders, mp.moves, rate)
		if name, _, _ := strings.Cut(mp.spec, ":"); mp.fallbacks > 0 || name == "perfect" || name == "level" {
			fmt.Fprintf(w, ", %d moves by the fallback (layer missing)", mp.fallbacks)
		}
		fmt.Fprintln(w)
	}
}

// wilson returns the Wilson score interval at 95 % confidence for x
// successes in n trials.
func wilson(x, n int) (lo, hi float64) {
	const z = 1.959963984540054
	p, fn := float64(x)/float64(n), float64(n)
	d := 1 + z*z/fn
	c := (p + z*z/(2*fn)) / d
	h := z / d * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn))
	return max(0, c-h), min(1, c+h)
}
