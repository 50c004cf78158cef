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

const matchUsage = `--white P --black P --games N [--stones K] [--db DIR] [--plies N] [--seed S] [--opening PLIES] [--ab-db=false] [--rows FILE]

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
won position left for a draw or a loss, a drawn one for a loss. With --rows
FILE each finished game is added to FILE (with the flags it was played
with), and a rerun with the same flags counts the games FILE holds instead
of playing them again: a long match resumes where it stopped.`

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
	mem := addCacheFlag(fs)
	rowsPath := fs.String("rows", "", "a `file` of finished games: each game is added to it as it ends, and a game it holds for the same flags is not played again, so that an interrupted match resumes")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := errors.Join(dbf.check(), matchRanges(*games, *jobs, *plies), mem.check(), inRange("--opening", *openingPlies, 0, 1000, "")); err != nil {
		return flagError(fs, err)
	}
	v, stones := dbf.variant(), dbf.stones
	db, err := openGameDB(*dbf.dir, v)
	if err != nil {
		return err
	}
	if db != nil {
		defer db.Close()
		mem.apply(db)
	}
	m := &match{variant: v, plies: *plies, db: db, rowsPath: *rowsPath}
	m.rowsKey = fmt.Sprintf("%s vs %s|%s k=%d|seed=%d|opening=%d|plies=%d|ab-db=%t|db=%t|placement-time=%s",
		*white, *black, v.Game, v.Stones, *seed, *openingPlies, *plies, *abDB, db != nil, *placementTime)
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
	done, err := readMatchRows(*rowsPath, m.rowsKey, *games)
	if err != nil {
		return err
	}
	if len(done) > 0 {
		fmt.Fprintf(stdout, "%d of the %d games from %s\n", len(done), *games, *rowsPath)
	}
	start := time.Now()
	lines, err := m.playAll(ctx, *games, *jobs, done)
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

// openGameDB opens the database of variant v in dir, its verified layers
// only (layers.DB.VerifiedOnly), when dir holds that variant's folder, and
// returns nil (no error) when it does not.
func openGameDB(dir string, v muehle.Variant) (*layers.DB, error) {
	st, err := os.Stat(layers.GameDir(dir, v))
	if err != nil || !st.IsDir() {
		return nil, nil
	}
	db, err := layers.OpenDB(dir, v)
	if err == nil {
		db.VerifiedOnly()
	}
	return db, err
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
// players, and returns each game's line; the games of done (by number,
// from a --rows file) are counted as they are, not played. It stops at
// the first error.
func (m *match) playAll(ctx context.Context, games, jobs int, done map[int]gameRecord) ([]string, error) {
	lines := make([]string, games)
	var todo []int
	for g := range games {
		if r, ok := done[g]; ok {
			m.add(r)
			lines[g] = r.line
		} else {
			todo = append(todo, g)
		}
	}
	err := forEach(ctx, jobs, todo, func(ctx context.Context, g int) error {
		r, err := m.play(ctx, g)
		if err == nil {
			err = m.keep(r)
		}
		lines[g] = r.line
		return err
	})
	return lines, err
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
	rowsPath      string     // --rows: the finished games ("": none)
	rowsKey       string     // the flags a game of the --rows file must have been played with
	mu            sync.Mutex // guards the counts below and in side, and the --rows file
	games, capped int
}

// gameRecord is a finished game of a match: its result, the counts of
// each colour's moves (judged by the database, blunders among them, made
// by a fallback) and the line that describes it.
type gameRecord struct {
	game                       int // from 0
	result                     muehle.Result
	capped                     bool // drawn at --plies
	moves, blunders, fallbacks [2]int
	line                       string
}

// play plays game g (from 0): side 0 has White in even games. With
// openings, the game starts after its pair's opening, whose plies are
// judged for neither side. It returns the finished game.
func (m *match) play(ctx context.Context, g int) (gameRecord, error) {
	r := gameRecord{game: g}
	first := g % 2 // the side that has White
	colour := [2]*matchPlayer{m.side[first], m.side[1-first]}
	game := m.variant.Rules().NewGame(m.variant.Stones)
	if m.openings != nil {
		var err error
		if game, err = m.openings.game(m.variant, g); err != nil {
			return r, err
		}
	}
	inst := [2]muehle.Player{colour[0].newPlayer(muehle.White, g), colour[1].newPlayer(muehle.Black, g)}
	result, why := game.Result()
	for result == muehle.Ongoing {
		if game.Ply() >= m.plies {
			result, why = muehle.Draw, fmt.Sprintf("%d plies", m.plies)
			r.capped = true
			break
		}
		pos := game.Position()
		c := pos.Turn
		mv, err := inst[c].Move(ctx, game.Clone())
		if err != nil {
			return r, fmt.Errorf("game %d, ply %d, %s: %w", g+1, game.Ply(), colour[c].spec, err)
		}
		if p, ok := inst[c].(interface{ LastFellBack() bool }); ok && p.LastFellBack() {
			r.fallbacks[c]++
		}
		if judged, blunder := m.judge(pos, mv); judged {
			r.moves[c]++
			if blunder {
				r.blunders[c]++
			}
		}
		if err := game.Play(mv); err != nil {
			return r, fmt.Errorf("game %d, %s: %w", g+1, colour[c].spec, err)
		}
		result, why = game.Result()
	}
	r.result = result
	r.line = fmt.Sprintf("%s (White) against %s: %s after %d plies (%s)", colour[0].spec, colour[1].spec, result, game.Ply(), why)
	if m.openings != nil {
		r.line += "; opening " + m.openings.text(game.Rules().Board, g)
	}
	return r, nil
}

// add counts the finished game r.
func (m *match) add(r gameRecord) {
	first := r.game % 2 // the side that has White
	colour := [2]*matchPlayer{m.side[first], m.side[1-first]}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.games++
	if r.capped {
		m.capped++
	}
	for c := range 2 {
		mp := colour[c]
		mp.moves += r.moves[c]
		mp.blunders += r.blunders[c]
		mp.fallbacks += r.fallbacks[c]
		switch {
		case r.result == muehle.Draw:
			mp.draw[c]++
		case (r.result == muehle.WhiteWins) == (c == 0):
			mp.win[c]++
		default:
			mp.loss[c]++
		}
	}
}

// keep counts the finished game r and adds it to the --rows file.
func (m *match) keep(r gameRecord) error {
	m.add(r)
	if m.rowsPath == "" {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return appendRowLine(m.rowsPath, fmt.Sprintf("%s\t%d\t%d\t%t\t%d %d %d\t%d %d %d\t%s", m.rowsKey, r.game+1, r.result, r.capped,
		r.moves[0], r.blunders[0], r.fallbacks[0], r.moves[1], r.blunders[1], r.fallbacks[1], r.line))
}

// readMatchRows returns the games of the --rows file path played with the
// flags key, by number (from 0), those up to games; rows of other flags
// belong to other matches and are left alone.
func readMatchRows(path, key string, games int) (map[int]gameRecord, error) {
	lines, err := readRowLines(path)
	if err != nil {
		return nil, err
	}
	done := map[int]gameRecord{}
	for _, l := range lines {
		f := strings.Split(l.text, "\t")
		if len(f) != 7 {
			return nil, fmt.Errorf("--rows %s: line %d is not a game of match (want 7 tab-separated fields): %q", path, l.n, l.text)
		}
		if f[0] != key {
			continue
		}
		var r gameRecord
		var result int
		_, err1 := fmt.Sscanf(f[1]+" "+f[2]+" "+f[3], "%d %d %t", &r.game, &result, &r.capped)
		_, err2 := fmt.Sscanf(f[4], "%d %d %d", &r.moves[0], &r.blunders[0], &r.fallbacks[0])
		_, err3 := fmt.Sscanf(f[5], "%d %d %d", &r.moves[1], &r.blunders[1], &r.fallbacks[1])
		r.game--
		r.result, r.line = muehle.Result(result), f[6]
		if err := errors.Join(err1, err2, err3); err != nil || r.game < 0 || r.result < muehle.WhiteWins || r.result > muehle.Draw {
			return nil, fmt.Errorf("--rows %s: line %d is not a game of match: %q", path, l.n, l.text)
		}
		if r.game < games {
			done[r.game] = r
		}
	}
	return done, nil
}

// judge reports whether the database knows both pos and the value of mv
// (judged), and whether mv gave up value there (a blunder).
func (m *match) judge(pos muehle.Position, mv muehle.Move) (judged, blunder bool) {
	if m.db == nil {
		return false, false
	}
	before, after, err := valuesAround(m.db, pos, mv)
	if err != nil {
		return false, false // a layer is missing
	}
	return true, after.Parent().Outcome() < before.Outcome()
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
			fmt.Fprintf(w, ", %d moves by the fallback (%s)", mp.fallbacks, fallbackCause(m.db))
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

// fallbackCause says why the perfect player fell back: layers missing,
// and those of db found damaged by name (a damaged layer reads as a
// missing one, but it is no gap in the computation: solve recomputes it).
func fallbackCause(db *layers.DB) string {
	var damaged []string
	for _, k := range layers.OrderIn(db.Variant(), true) {
		if db.Damage(k) != nil {
			damaged = append(damaged, k.String())
		}
	}
	if len(damaged) == 0 {
		return "layer missing"
	}
	return "layer missing or damaged; damaged: " + strings.Join(damaged, ", ")
}
