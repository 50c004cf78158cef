package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/retro/teach"
)

func init() {
	register("train", "training positions from the database (a win to find, the only drawing move), and the check of an answer", runTrain)
}

// runTrain prints a seeded set of training positions, or with --position
// and --answer says whether a move keeps the position's value and, when it
// does not, how the opponent wins.
func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train", "[--db DIR] [--stones K] [--count N] [--seed S] [--band B] [--goal G] [--answers N] [--on-board N] [--placement] [--layers LIST] [--solutions] [--mem MiB]\n"+
		"       muehlectl train [--db DIR] [--stones K] --position TEXT [--unreachable] --answer MOVE", stderr)
	dbf := addDBFlags(fs).withCache()
	tf := addTrainingFlags(fs, 10, 1000)
	answers := fs.Int("answers", 1, "at most `N` moves keep the value (1: exactly one)")
	solutions := fs.Bool("solutions", false, "also print the moves that keep the value")
	position := fs.String("position", "", "with --answer: the position, as query --position takes it")
	answer := fs.String("answer", "", "check `MOVE` as the answer in --position, e.g. \"d2-d3\" or \"a7xg1\"")
	unreachable := addUnreachableFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if pos, err := muehle.ParsePosition(*position); err == nil {
		dbf.adopt(pos.Game) // a position of twelve needs no --game twelve
	}
	if err := errors.Join(dbf.check(), inRange("--answers", *answers, 1, muehle.MaxMoves, "")); err != nil {
		return flagError(fs, err)
	}
	opt, err := tf.options(dbf.variant())
	if err != nil {
		return flagError(fs, err)
	}
	opt.MaxAnswers = *answers
	if (*position == "") != (*answer == "") {
		return flagError(fs, errors.New("--position and --answer go together"))
	}
	if *position != "" {
		return trainAnswer(stdout, dbf, *position, *answer, *unreachable)
	}
	db, err := dbf.openVerified()
	if err != nil {
		return err
	}
	defer db.Close()
	tr, err := teach.DrawTraining(ctx, db, opt)
	if err != nil {
		return err
	}
	printTraining(stdout, opt, tr, *solutions)
	if len(tr.Exercises) == 0 {
		return fmt.Errorf("no position fits in %d tries: try another band, goal or layers, or more --answers", tr.Tries)
	}
	fmt.Fprintf(stdout, "\ncheck an answer: muehlectl train --db %s --game %s --stones %d --position \"POSITION\" --answer MOVE\n", *dbf.dir, dbf.variant().Game, *dbf.stones)
	return nil
}

// trainingFlags are the flags that choose training positions, shared by
// train and tactics: how many, the seed, the difficulty band, the goal and
// the layers to draw from.
type trainingFlags struct {
	maxCount   int
	count      *int
	seed       *uint64
	band, goal *string
	onBoard    *int
	placement  *bool
	layers     *string
}

// addTrainingFlags declares --count (count by default, 1 to maxCount),
// --seed, --band, --goal, --on-board, --placement and --layers on fs.
func addTrainingFlags(fs *flag.FlagSet, count, maxCount int) trainingFlags {
	return trainingFlags{
		maxCount:  maxCount,
		count:     fs.Int("count", count, fmt.Sprintf("how many positions (1 to %d)", maxCount)),
		seed:      fs.Uint64("seed", 1, "the seed: the same seed and flags give the same positions on every machine"),
		band:      fs.String("band", "any", "difficulty: any, easy (1-5 plies), medium (6-15), hard (16-35) or deep (36 and more); see docs/training.md"),
		goal:      fs.String("goal", "any", "what to find: any, win (a won position) or draw (the only drawing moves)"),
		onBoard:   fs.Int("on-board", 0, "only positions with `N` stones on the board in all (0: any)"),
		placement: fs.Bool("placement", false, "draw from the placement layers too"),
		layers:    fs.String("layers", "", "draw only from these layers, e.g. \"3-3,4-3\" or \"p3+1-3+0\" (instead of --on-board and --placement)"),
	}
}

// options returns the training options the flags give for the game of
// variant v (MaxAnswers left 0: exactly one answer), or an error naming
// the bad flag.
func (f trainingFlags) options(v muehle.Variant) (teach.TrainingOptions, error) {
	opt := teach.TrainingOptions{Count: *f.count, Seed: *f.seed}
	if err := inRange("--count", opt.Count, 1, f.maxCount, ""); err != nil {
		return opt, err
	}
	var err error
	if opt.Band, err = teach.ParseBand(*f.band); err != nil {
		return opt, fmt.Errorf("--band: %w", err)
	}
	if opt.Goal, err = teach.ParseGoal(*f.goal); err != nil {
		return opt, fmt.Errorf("--goal: %w", err)
	}
	if opt.Layers, err = trainLayers(*f.layers, v, *f.onBoard, *f.placement); err != nil {
		return opt, err
	}
	return opt, nil
}

// trainLayers returns the layers to draw from: those of list (comma
// separated keys) when given, else the moving layers of variant v (and
// those with stones in hand) with onBoard stones on the board.
func trainLayers(list string, v muehle.Variant, onBoard int, placement bool) ([]layers.Key, error) {
	if list == "" {
		if err := inRange("--on-board", onBoard, 0, 2*v.Stones, "; 0 = any"); err != nil {
			return nil, err
		}
		return teach.TrainingLayers(v, onBoard, placement), nil
	}
	if onBoard != 0 || placement {
		return nil, errors.New("--layers names the layers: it takes neither --on-board nor --placement")
	}
	var ks []layers.Key
	for _, s := range strings.Split(list, ",") {
		k, err := layers.ParseKey(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("--layers: %w", err)
		}
		if !layers.ValidIn(v, k) {
			return nil, fmt.Errorf("--layers: %v is not a layer of the %d-stone game of %s", k, v.Stones, v.Rules().Name)
		}
		ks = append(ks, k)
	}
	return ks, nil
}

// printTraining prints the drawn positions, each with the side to move,
// what to find and the difficulty, and the layers that were skipped.
func printTraining(w io.Writer, opt teach.TrainingOptions, tr teach.Training, solutions bool) {
	keep := "exactly one move keeps the value"
	if n := max(opt.MaxAnswers, 1); n > 1 {
		keep = fmt.Sprintf("1 to %d moves keep the value", n)
	}
	fmt.Fprintf(w, "training positions: seed %d, difficulty %s, goal %s, %s\n", opt.Seed, opt.Band, opt.Goal, keep)
	for _, s := range tr.Skipped {
		fmt.Fprintf(w, "layer %s skipped: %s\n", s.Key, describe(layers.Unused, s.Err))
	}
	for i, e := range tr.Exercises {
		what := "keeps it"
		if len(e.Answers) > 1 {
			what = "keep it"
		}
		fmt.Fprintf(w, "\n%d. position %q\n   %s to move: %s (%s); %d of %d moves %s; difficulty %s (%d plies); layer %s slot %d\n",
			i+1, e.Pos.String(), e.Pos.Turn, e.Goal, e.Value, len(e.Answers), e.Moves, what, e.Band(), e.Difficulty, e.Layer, e.Index)
		if solutions {
			ms := make([]string, len(e.Answers))
			for j, m := range e.Answers {
				ms[j] = e.Pos.Board().MoveString(m)
			}
			fmt.Fprintf(w, "   solution: %s\n", strings.Join(ms, " "))
		}
	}
	if len(tr.Exercises) < opt.Count {
		fmt.Fprintf(w, "\nfound %d of %d positions in %d tries\n", len(tr.Exercises), opt.Count, tr.Tries)
	}
}

// trainAnswer checks move text as the answer in the position text and
// prints right or wrong, with the refutation of a wrong answer.
func trainAnswer(w io.Writer, dbf dbFlags, text, moveText string, unreachable bool) error {
	pos, err := muehle.ParsePosition(text)
	if err != nil {
		return err
	}
	if err := play.Supported(pos.Rules()); err != nil {
		return err
	}
	if err := dbf.agrees(pos.Game); err != nil {
		return err
	}
	if err := checkReachable(w, pos, *dbf.stones, unreachable); err != nil {
		return err
	}
	g, err := muehle.NewGameFrom(pos, *dbf.stones)
	if err != nil {
		return err
	}
	b := pos.Board() // moves named on the game's own board
	m, err := b.ParseMove(moveText)
	if err != nil {
		return err
	}
	db, err := dbf.openVerified()
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := teach.CheckAnswer(db, pos, m, refuteMax)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "position %q: %s to move, %s\n", pos.String(), pos.Turn, a.Before)
	if a.Right {
		fmt.Fprintf(w, "right: %s keeps the value (%s)\n", b.MoveString(m), a.After)
		return nil
	}
	fmt.Fprintf(w, "wrong: %s gives up the %s: after it %s is %s; the best move is %s (%s)\n",
		b.MoveString(m), outcomeNoun(a.Before), pos.Turn, a.After, b.MoveString(a.Best), a.BestValue)
	if err := g.Play(m); err != nil {
		return err
	}
	fmt.Fprintf(w, "refutation (%s to move):\n", pos.Turn.Other())
	printLine(w, g, 1, a.Refutation)
	if end := g.Positions()[1]; a.LineErr == nil && len(a.Refutation) == refuteMax {
		for _, s := range a.Refutation {
			end = end.Play(s.Move)
		}
		if !end.IsOver() && !a.Refutation[refuteMax-1].Move.IsRemoval() {
			fmt.Fprintf(w, "  (cut after %d moves: the line of a drawn position need not end)\n", refuteMax)
		}
	}
	if a.LineErr != nil {
		fmt.Fprintf(w, "  (the line stops: %s)\n", describe(layers.Unused, a.LineErr))
	}
	return nil
}

// outcomeNoun returns "win", "draw" or "loss" for the outcome of v.
func outcomeNoun(v layers.Value) string {
	switch v.Outcome() {
	case layers.Win:
		return "win"
	case layers.Draw:
		return "draw"
	}
	return "loss"
}
