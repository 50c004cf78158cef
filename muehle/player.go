package muehle

import (
	"context"
	"errors"
	"math/rand/v2"
)

// Player chooses moves: a person at the board or a computer opponent.
type Player interface {
	// Name describes the player, e.g. "Random" or "Alpha-beta (depth 4)".
	Name() string
	// Move returns a legal move for the current position of g. It must not
	// modify g; callers in another goroutine pass g.Clone(). It returns
	// ctx.Err() promptly when ctx is cancelled.
	Move(ctx context.Context, g *Game) (Move, error)
}

// ErrNoMove is returned by a player asked to move in a finished game.
var ErrNoMove = errors.New("muehle: no legal move")

// Random plays a uniformly random legal move.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a random player drawing from src.
func NewRandom(src rand.Source) *Random { return &Random{rng: rand.New(src)} }

// NewSeededRandom returns a random player with a fixed seed, for tests.
func NewSeededRandom(seed uint64) *Random {
	return NewRandom(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Name returns "Random".
func (r *Random) Name() string { return "Random" }

// Move returns a uniformly random legal move of g.
func (r *Random) Move(ctx context.Context, g *Game) (Move, error) {
	if err := ctx.Err(); err != nil {
		return Move{}, err
	}
	ms := g.LegalMoves()
	if len(ms) == 0 {
		return Move{}, ErrNoMove
	}
	return ms[r.rng.IntN(len(ms))], nil
}
