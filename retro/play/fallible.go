package play

import (
	"context"
	"math/rand/v2"

	"muehle/muehle"
)

// Fallible is a player that plays like its inner player except that, with
// probability Rate, it plays a uniformly random legal move instead: a
// model of an opponent who mostly plays well and sometimes errs. It
// implements muehle.Player; it is not safe for concurrent use.
type Fallible struct {
	inner muehle.Player
	rate  float64
	rng   *rand.Rand
	erred bool // the last move was the random one
}

// NewFallible returns inner erring with probability rate, drawing from src.
func NewFallible(inner muehle.Player, rate float64, src rand.Source) *Fallible {
	return &Fallible{inner: inner, rate: rate, rng: rand.New(src)}
}

// Name returns the inner player's name with "fallible".
func (f *Fallible) Name() string { return "Fallible " + f.inner.Name() }

// Move plays a random legal move with probability Rate, else the inner
// player's move.
func (f *Fallible) Move(ctx context.Context, g *muehle.Game) (muehle.Move, error) {
	f.erred = false
	if f.rng.Float64() < f.rate {
		if ms := g.LegalMoves(); len(ms) > 0 {
			f.erred = true
			return ms[f.rng.IntN(len(ms))], nil
		}
	}
	return f.inner.Move(ctx, g)
}

// LastErred reports whether the last call of Move played the random move.
func (f *Fallible) LastErred() bool { return f.erred }
