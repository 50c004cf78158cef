package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"muehle/layers"
	"muehle/muehle"
)

// This file holds the varied openings of match --opening: each pair of
// games starts from random legal plies drawn from the seed and the pair's
// number, redrawn until the database (when it knows the position) gives a
// draw, so that neither player starts lost.

// openingTries bounds the openings drawn for one pair of games before
// match gives up looking for a drawn one.
const openingTries = 1000

// openingSeedMix is the second word of an opening's generator state,
// fixed so that a seed means the same openings everywhere; the pair's
// number is added to it.
const openingSeedMix = 0x6f70656e696e6700 // "opening\0"

// opening is the start of one pair of games.
type opening struct {
	moves []muehle.Move // the plies played from the empty board
	known bool          // the database knows the position after them (then it is drawn)
	tries int           // openings drawn to find this one (1: the first)
}

// openings are the openings of a match: one per pair of games.
type openings struct {
	plies int
	seed  uint64
	pairs []opening
}

// drawOpenings draws the openings of pairs pairs of games of variant v,
// plies random legal plies each: pair k from a PCG generator seeded with
// seed and k alone, so that an opening does not depend on the number of
// games or jobs. With db (nil: none) an opening whose position db knows
// and does not give a draw, or one where the game ends, is drawn again,
// up to openingTries times.
func drawOpenings(ctx context.Context, v muehle.Variant, db layers.Prober, plies int, seed uint64, pairs int) (*openings, error) {
	o := &openings{plies: plies, seed: seed, pairs: make([]opening, pairs)}
	for k := range o.pairs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(seed, openingSeedMix+uint64(k)))
		found := false
		for try := 1; try <= openingTries && !found; try++ {
			g := v.Rules().NewGame(v.Stones)
			for g.Ply() < plies {
				ms := g.LegalMoves()
				if len(ms) == 0 {
					break
				}
				if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
					return nil, fmt.Errorf("opening of games %d and %d: %w", 2*k+1, 2*k+2, err)
				}
			}
			if r, _ := g.Result(); r != muehle.Ongoing {
				continue // the game ended within the opening
			}
			op := opening{moves: g.History(), tries: try}
			if db != nil {
				if val, err := db.Probe(g.Position()); err == nil && val != layers.Unused {
					if val.Outcome() != layers.Draw {
						continue
					}
					op.known = true
				}
			}
			o.pairs[k], found = op, true
		}
		if !found {
			return nil, fmt.Errorf("no drawn opening of %d plies for games %d and %d in %d tries: try fewer --opening plies", plies, 2*k+1, 2*k+2, openingTries)
		}
	}
	return o, nil
}

// game returns a game of variant v after the opening of game g (from 0),
// the one its pair shares.
func (o *openings) game(v muehle.Variant, g int) (*muehle.Game, error) {
	game := v.Rules().NewGame(v.Stones)
	for _, m := range o.pairs[g/2].moves {
		if err := game.Play(m); err != nil {
			return nil, fmt.Errorf("game %d, opening: %w", g+1, err)
		}
	}
	return game, nil
}

// text returns the plies of the opening of game g (from 0), as the game's
// board names them.
func (o *openings) text(board *muehle.Board, g int) string {
	ms := o.pairs[g/2].moves
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = board.MoveString(m)
	}
	return strings.Join(s, " ")
}

// describe says how the openings were drawn: plies, seed, and with a
// database how many it knows to be drawn and how many were drawn again.
func (o *openings) describe(w io.Writer, withDB bool) {
	fmt.Fprintf(w, "openings: %d random legal plies per pair of games from seed %d, the pair's two games with colours swapped; the opening's plies are charged to neither player", o.plies, o.seed)
	if !withDB {
		fmt.Fprintln(w, "; no database: not checked for a draw")
		return
	}
	known, redrawn := 0, 0
	for _, op := range o.pairs {
		if op.known {
			known++
		}
		redrawn += op.tries - 1
	}
	fmt.Fprintf(w, "; drawn again where the database gave a win or a loss or the game ended (%d redraws): %d of %d openings are draws by the database, %d unknown to it\n",
		redrawn, known, len(o.pairs), len(o.pairs)-known)
}
