package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

func init() {
	register("adopt", "give a game the moving layers another game has verified and shares with it", runAdopt)
}

// runAdopt gives the database of --game (--db, --stones) every moving
// layer that the database of --from (--from-stones) in the same folder
// holds verified and that both games share (muehle.Rules.SharesMovingLayer:
// Nine Men's Morris shares all of its moving layers with Lasker Morris
// and Ten Men's Morris, Eleven Men's Morris with Twelve, Five Men's Morris
// with Six), each copied as it lies with its header naming --game
// (layers.DB.Adopt), so that a solve of --game computes only the rest:
// its placement phase, and the moving layers --from lacks. A layer
// verified here already is left as it is. It holds each unit's claim
// while it copies its layers, so that a solver running in the folder
// does not compute them meanwhile, and passes over a unit a solver
// holds. It refuses to start when the disk lacks the room of the copies.
func runAdopt(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("adopt", "--from G [--from-stones K] [--db DIR] [--game G] [--stones K]", stderr)
	dbf := addDBFlags(fs)
	from := fs.String("from", "", "the game whose verified layers are adopted: "+muehle.GameIDs())
	fromStones := fs.Int("from-stones", 0, "its stones per side (0 = the game's own: 10 for lasker)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := dbf.check(); err != nil {
		return flagError(fs, err)
	}
	if *from == "" {
		return flagError(fs, errors.New("--from: want the game whose layers to adopt, one of "+muehle.GameIDs()))
	}
	sv, err := variantFlags(*from, *fromStones)
	if err != nil {
		return flagError(fs, fmt.Errorf("--from %s --from-stones %d: %w", *from, *fromStones, err))
	}
	v := dbf.variant()
	if sv.Game == v.Game {
		return flagError(fs, fmt.Errorf("--from %s: the game itself; name another", *from))
	}
	if _, err := os.Stat(*dbf.dir); err != nil {
		return fmt.Errorf("no database in %s: %w", *dbf.dir, err)
	}
	src, err := layers.OpenDB(*dbf.dir, sv)
	if err != nil {
		return err
	}
	defer src.Close()
	db, err := dbf.open()
	if err != nil {
		return err
	}
	defer db.Close()

	keys, have, missing := adoptKeys(db, src)
	var bytes uint64
	for _, k := range keys {
		if fi, err := os.Stat(src.Path(k)); err == nil {
			bytes += uint64(fi.Size())
		}
	}
	what := fmt.Sprintf("%s k%d", sv.Game, sv.Stones)
	if len(keys) == 0 {
		fmt.Fprintf(stdout, "nothing to adopt from %s: %d shared moving layers verified here already, %d not verified there\n", what, have, missing)
		return nil
	}
	if free, err := layers.FreeBytes(*dbf.dir); err == nil && free < bytes {
		return fmt.Errorf("adopting %d layers from %s takes %s of disk, and %s is free in %s", len(keys), what, sizeText(int64(bytes)), sizeText(int64(free)), *dbf.dir)
	}
	start := time.Now()
	adopted, passed := 0, 0
	for i, k := range keys {
		if err := ctx.Err(); err != nil {
			return err
		}
		unit := layers.UnitOf(k)
		lock, err := db.Claim(ctx, string(unit), false)
		if errors.Is(err, layers.ErrLocked) {
			fmt.Fprintf(stdout, "layer %d of %d  %-6s passed over: %v\n", i+1, len(keys), k, err)
			passed++
			continue
		}
		if err != nil {
			return err
		}
		took := time.Now()
		ok, err := db.Adopt(src, k)
		lock.Release()
		if err != nil {
			return err
		}
		if ok {
			adopted++
			form := "flat"
			if db.Compressed(k) {
				form = "compressed"
			}
			size := int64(0)
			if fi, err := os.Stat(db.Path(k)); err == nil {
				size = fi.Size()
			}
			fmt.Fprintf(stdout, "layer %d of %d  %-6s adopted, %s, %s in %v\n", i+1, len(keys), k, form, sizeText(size), time.Since(took).Round(time.Millisecond))
		}
	}
	fmt.Fprintf(stdout, "%d moving layers adopted from %s in %v (%d verified here already, %d passed over, %d not verified there); solve %s computes the rest\n",
		adopted, what, time.Since(start).Round(time.Second), have, passed, missing, dbf.label())
	return nil
}

// adoptKeys returns the moving layers db's game shares with src's that
// src holds verified and db does not, in db's order, and how many of the
// shared layers db holds verified and src lacks verified.
func adoptKeys(db, src *layers.DB) (keys []layers.Key, have, missing int) {
	v, sv := db.Variant(), src.Variant()
	for _, k := range layers.OrderIn(v, false) {
		if !k.IsMoving() || !layers.ValidIn(sv, k) || !v.Rules().SharesMovingLayer(sv.Rules(), int(k.W), int(k.B)) {
			continue
		}
		switch {
		case db.Verified(k):
			have++
		case !src.Verified(k):
			missing++
		default:
			keys = append(keys, k)
		}
	}
	return keys, have, missing
}

// adoptHint names, for a solve of db's game in the database folder dir,
// the folder of another game there that holds the most of the moving
// layers both share verified which db lacks, and the command that takes
// them; "" when there is none.
func adoptHint(db *layers.DB, dir string) string {
	v := db.Variant()
	best, most := muehle.Variant{}, 0
	for _, r := range muehle.Games {
		if r.Game() == v.Game || !v.Rules().SharesMovingLayer(r, 3, 3) {
			continue
		}
		for s := muehle.MinStones; s <= r.Stones; s++ {
			sv := r.Game().With(s)
			if layers.CheckVariant(sv) != nil {
				continue
			}
			if _, err := os.Stat(layers.GameDir(dir, sv)); err != nil {
				continue
			}
			src, err := layers.OpenDB(dir, sv)
			if err != nil {
				continue
			}
			keys, _, _ := adoptKeys(db, src)
			src.Close()
			if len(keys) > most {
				best, most = sv, len(keys)
			}
		}
	}
	if most == 0 {
		return ""
	}
	return fmt.Sprintf("%s holds %d moving layers of this game verified: `muehlectl adopt --db %s --game %s --stones %d --from %s --from-stones %d` takes them instead of computing them (docs/games.md)",
		layers.GameDir(dir, best), most, dir, v.Game, v.Stones, best.Game, best.Stones)
}
