package play

import (
	"context"
	"math/rand/v2"
	"strconv"

	"muehle/muehle"
)

// Levels is the number of difficulty levels: level 1 is the weakest,
// level Levels the perfect player itself.
const Levels = 10

// levelRates holds p(n), the share of moves a level plays at random, for
// n = 1 to Levels (index 0 unused). They are calibrated by matches of k=5
// against random and alpha-beta depths 1 to 4 (muehlectl levels; the table
// is in docs/figures.md) so that each level scores measurably more than the one
// below: first with the trap share as the perfect player, then checked
// again with the sector variant, the default since.
var levelRates = [Levels + 1]float64{0, 0.90, 0.35, 0.21, 0.15, 0.11, 0.08, 0.05, 0.03, 0.015, 0}

// LevelRate returns p(n), the probability that level n plays a random
// legal move instead of the perfect player's; n outside 1 to Levels is
// taken as the nearest level.
func LevelRate(n int) float64 { return levelRates[min(max(n, 1), Levels)] }

// Level is a difficulty level for people who cannot beat a player that
// never gives up value: it plays the perfect player's move (the default
// perfect player, with its tie-break among moves of equal value and its
// alpha-beta fallback where the database lacks a layer) except that, with
// probability LevelRate(n), it plays a uniformly random legal move instead.
// The weaker player is random rather than a shallow alpha-beta search: it
// costs nothing, its errors do not depend on how tactical the position is,
// and so p(n) alone sets the strength and is calibrated directly. A random
// move is often still a good one (it keeps the value wherever most moves
// do), so the share of moves that give up value is below p(n). Level
// Levels has p = 0: it is the perfect player and never gives up value. It
// implements muehle.Player; it is not safe for concurrent use.
type Level struct {
	n       int
	perfect *Perfect
	err     *Fallible
}

// NewLevel returns level n (1 to Levels, clamped) playing perfect's moves
// and erring with probability LevelRate(n), drawing from src.
func NewLevel(n int, perfect *Perfect, src rand.Source) *Level {
	n = min(max(n, 1), Levels)
	return NewLevelRate(n, LevelRate(n), perfect, src)
}

// NewLevelRate returns level n with its own rate instead of LevelRate(n):
// for calibration (muehlectl levels --rates).
func NewLevelRate(n int, rate float64, perfect *Perfect, src rand.Source) *Level {
	return &Level{n: n, perfect: perfect, err: NewFallible(perfect, rate, src)}
}

// Name returns "Level N".
func (l *Level) Name() string { return "Level " + strconv.Itoa(l.n) }

// N returns the level's number.
func (l *Level) N() int { return l.n }

// Rate returns the probability of a random move.
func (l *Level) Rate() float64 { return l.err.rate }

// Move plays a random legal move with probability Rate, else the perfect
// player's move.
func (l *Level) Move(ctx context.Context, g *muehle.Game) (muehle.Move, error) {
	return l.err.Move(ctx, g)
}

// LastErred reports whether the last move was the random one.
func (l *Level) LastErred() bool { return l.err.LastErred() }

// LastFellBack reports whether the last move came from the perfect
// player's fallback (see Perfect.LastFellBack).
func (l *Level) LastFellBack() bool { return !l.LastErred() && l.perfect.LastFellBack() }

// FallbackReason returns why the last move came from the fallback player,
// "" when it came from the database or was the random one.
func (l *Level) FallbackReason() string {
	if l.LastErred() {
		return ""
	}
	return l.perfect.FallbackReason()
}
