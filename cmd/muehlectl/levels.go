package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
)

func init() {
	register("levels", "calibrate the difficulty levels by matches against alpha-beta", runLevels)
}

const levelsUsage = `--db DIR [--stones K] [--against P,P...] [--games N] [--levels LIST] [--rates PERCENT,...] [--jobs J]

Plays each difficulty level (level:N, the perfect player that plays a
random move instead with probability p(N)) against each opponent (match
player specs, alpha-beta depths 2 and 4 by default, not reading the
database unless --ab-db), colours alternating, and prints a Markdown table:
won / drawn / lost for the level, the 95 % Wilson interval of its wins, and
its score (a win 1, a draw 1/2) against each opponent, the mean score, its
step over the level before with a 95 % interval (marked "not monotone" when
it is not positive, "not measurable" when the interval reaches 0), the moves
that gave up value (a won position left for a draw or a loss, a drawn one
for a loss) and the time taken. --rates (ten percentages, level 1 first) replaces p(N) to try
other rates; --levels picks levels ("1-10", "1,5,10").`

func runLevels(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("levels", levelsUsage, stderr)
	stones := fs.Int("stones", 5, "stones per side (3 to 9)")
	dir := fs.String("db", layers.DefaultDir(), "database `directory` holding the game's layers")
	against := fs.String("against", "ab:2,ab:4", "the opponents, comma-separated match player specs")
	games := fs.Int("games", 100, "games per level and opponent")
	which := fs.String("levels", "1-10", "the levels to play: a range A-B or a comma-separated list")
	rates := fs.String("rates", "", "ten comma-separated percentages replacing p(1) to p(10)")
	plies := fs.Int("plies", 400, "plies after which a game is drawn")
	seed := fs.Uint64("seed", 1, "seed of the players' random choices")
	abDB := fs.Bool("ab-db", false, "let alpha-beta opponents read exact values from the database")
	jobs := fs.Int("jobs", 1, "games played at the same time")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	err := errors.Join(inRange("--stones", *stones, muehle.MinStones, muehle.StonesPerSide, ""), matchRanges(*games, *jobs, *plies))
	var ns []int
	if err == nil {
		ns, err = parseLevelList(*which)
	}
	p := func(n int) float64 { return play.LevelRate(n) }
	if err == nil && *rates != "" {
		var rs []float64
		if rs, err = parseRates(*rates); err == nil {
			p = func(n int) float64 { return rs[n-1] }
		}
	}
	if err != nil {
		return flagError(fs, err)
	}
	if *dir, err = databaseDir(*dir, muehle.Standard.With(*stones)); err != nil {
		return flagError(fs, err)
	}
	db, err := openGameDB(*dir, muehle.Standard.With(*stones))
	if err != nil {
		return fmt.Errorf("levels: %w", err)
	}
	if db == nil {
		return fmt.Errorf("levels: no database of %d stones in %s", *stones, *dir)
	}
	defer db.Close()
	opponents := strings.Split(*against, ",")
	fmt.Fprintf(stdout, "levels against %s, %d games each of %d stones, database %s, %d games at a time\n\n",
		strings.Join(opponents, ", "), *games, *stones, db.Dir(), *jobs)
	fmt.Fprintf(stdout, "| level | p |")
	for _, o := range opponents {
		fmt.Fprintf(stdout, " against `%s` | score |", o)
	}
	fmt.Fprintf(stdout, " mean score | step | value lost | time |\n|---|---|%s---|---|---|---|\n", strings.Repeat("---|---|", len(opponents)))
	levelEnv := playerEnv(db, false)
	levelEnv.LevelRate = p
	opponentEnv := playerEnv(db, *abDB)
	var prev *meanScore
	for _, n := range ns {
		start := time.Now()
		fmt.Fprintf(stdout, "| %d | %s %% |", n, strconv.FormatFloat(math.Round(1000*p(n))/10, 'f', -1, 64))
		var mean meanScore
		moves, lost := 0, 0
		for i, o := range opponents {
			m := &match{variant: muehle.Standard.With(*stones), plies: *plies, db: db}
			if m.side[0], err = newMatchPlayer(fmt.Sprintf("level:%d", n), *stones, *seed+uint64(n)*10000, levelEnv); err != nil {
				return fmt.Errorf("levels: %w", err)
			}
			if m.side[1], err = newMatchPlayer(o, *stones, *seed+uint64(n)*10000+uint64(i+1)*1000, opponentEnv); err != nil {
				return fmt.Errorf("levels: %w", err)
			}
			if _, err := m.playAll(ctx, *games, *jobs, nil); err != nil {
				return fmt.Errorf("levels: level %d against %s: %w", n, o, err)
			}
			lv := m.side[0]
			w, d, l := lv.win[0]+lv.win[1], lv.draw[0]+lv.draw[1], lv.loss[0]+lv.loss[1]
			lo, hi := wilson(w, m.games)
			score := mean.add(w, d, l, len(opponents))
			fmt.Fprintf(stdout, " %d / %d / %d (%.1f–%.1f %%) | %.1f %% |", w, d, l, 100*lo, 100*hi, 100*score)
			moves, lost = moves+lv.moves, lost+lv.blunders
		}
		fmt.Fprintf(stdout, " %.1f %% | %s | %d of %d moves | %s |\n", 100*mean.mean, mean.step(prev), lost, moves, time.Since(start).Round(time.Second))
		prev = &mean
	}
	return nil
}

// meanScore is a level's mean score over its opponents (a win 1, a draw
// 1/2, a loss 0) and the variance of that estimate.
type meanScore struct{ mean, variance float64 }

// add counts w wins, d draws and l losses against one of k opponents and
// returns the score against it. The variance of a score in one game is
// estimated from the counts; the opponents' estimates are independent.
func (m *meanScore) add(w, d, l, k int) float64 {
	n := float64(w + d + l)
	s := (float64(w) + float64(d)/2) / n
	v := (float64(w)*(1-s)*(1-s) + float64(d)*(0.5-s)*(0.5-s) + float64(l)*s*s) / n
	m.mean += s / float64(k)
	m.variance += v / n / float64(k*k)
	return s
}

// step returns the mean score's rise over prev with its 95 % interval,
// "+6.1 ± 2.9 %", marked "(not monotone)" when it is not positive and "(not
// measurable)" when the interval reaches 0; "" for the first level.
func (m meanScore) step(prev *meanScore) string {
	if prev == nil {
		return ""
	}
	d := m.mean - prev.mean
	h := 1.959963984540054 * math.Sqrt(m.variance+prev.variance)
	s := fmt.Sprintf("%+.1f ± %.1f %%", 100*d, 100*h)
	switch {
	case d <= 0:
		s += " (not monotone)"
	case d-h <= 0:
		s += " (not measurable)"
	}
	return s
}

// parseLevelList reads "A-B" or "A,B,C" as levels 1 to play.Levels, in
// increasing order.
func parseLevelList(s string) ([]int, error) {
	var ns []int
	if a, b, ok := strings.Cut(s, "-"); ok {
		lo, err1 := strconv.Atoi(a)
		hi, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || lo < 1 || hi > play.Levels || lo > hi {
			return nil, fmt.Errorf("--levels %q: want A-B with 1 ≤ A ≤ B ≤ %d", s, play.Levels)
		}
		for n := lo; n <= hi; n++ {
			ns = append(ns, n)
		}
		return ns, nil
	}
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > play.Levels || (len(ns) > 0 && n <= ns[len(ns)-1]) {
			return nil, fmt.Errorf("--levels %q: want increasing levels 1 to %d", s, play.Levels)
		}
		ns = append(ns, n)
	}
	return ns, nil
}

// parseRates reads play.Levels comma-separated percentages as rates.
func parseRates(s string) ([]float64, error) {
	fs := strings.Split(s, ",")
	if len(fs) != play.Levels {
		return nil, fmt.Errorf("--rates: got %d percentages, want %d", len(fs), play.Levels)
	}
	rs := make([]float64, len(fs))
	for i, f := range fs {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || x < 0 || x > 100 {
			return nil, fmt.Errorf("--rates: %q: want a percentage 0 to 100", f)
		}
		rs[i] = x / 100
	}
	return rs, nil
}
