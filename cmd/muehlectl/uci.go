package main

import (
	"context"
	"errors"
	"io"
	"os"

	"muehle/cmd/muehlectl/uci"
	"muehle/retro/play"
)

func init() {
	register("uci", "speak the UCI-like mill engine protocol on stdin and stdout", runUCI)
}

func runUCI(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("uci", "[--db DIR] [--game GAME] [--stones K] [--player NAME] [--seed S] [--split-removal=false] [--mem MiB]", stderr)
	dbf := addDBFlags(fs)
	mem := addCacheFlag(fs) // the engine's Hash option, which a GUI may set
	player := fs.String("player", "perfect", "the player that chooses bestmove: any player name (as muehlectl play takes), e.g. perfect, ab:6, level:4")
	seed := fs.Uint64("seed", 1, "seed of the player's random choices")
	split := fs.Bool("split-removal", true, "bestmove gives a removal as a move of its own (d6-d5, then xa1), as the mill protocol does; false: one move, d6-d5xa1")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := errors.Join(dbf.check(), mem.check()); err != nil {
		return flagError(fs, err)
	}
	if _, err := play.ParseSpec(*player); err != nil {
		return flagError(fs, err)
	}
	e := uci.New(stdout, uci.Options{DB: *dbf.dir, Game: *dbf.game, Stones: *dbf.stones, Player: *player, Seed: *seed, SplitRemoval: *split, Hash: *mem.mib})
	err := e.Run(ctx, os.Stdin)
	return errors.Join(err, e.Close())
}
