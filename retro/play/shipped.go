package play

import (
	"math/rand/v2"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/search"
)

// The defaults of the shipped perfect player (NewShipped), the one the
// desktop program offers and muehlectl's match, play and levels measure:
// the README's figures are this player's.
const (
	// PlacementTime is how long the placement search may decide a
	// placement whose layer the database lacks before the fallback moves:
	// 2 s, the budget the measurements of docs/placement.md count moves
	// against ("over 2 s"), short enough for a person to wait for. The
	// desktop program gave 3 s before, muehlectl 2 s.
	PlacementTime = 2 * time.Second
	// FallbackDepth is the depth of the alpha-beta fallback, where
	// neither the database nor the placement search decides: a fixed
	// depth, so that a match with a seed plays the same games on any
	// machine and under any load (a search by time would not), and 6,
	// which answers in well under a second in the standard game. The
	// desktop program searched by time (1 s) before, muehlectl to depth 6.
	FallbackDepth = 6
)

// The placement search's table is DefaultPlacementTableBits (64 MiB, made
// at its first search), the size its measurements in docs/placement.md
// used; the desktop program and muehlectl's match took 2^21 before.

// ShippedBook returns the shipped player's placement book: the default
// book beside the layers of db (BookPath), shared by the desktop program
// and muehlectl. It returns nil, no book, when the file cannot be read or
// is damaged: the moves stay exact, only slower. A Book is safe for
// concurrent use, so the players of a match share one.
func ShippedBook(db *layers.DB) *Book {
	b, err := OpenBook(BookPath(db.Dir(), db.Variant()), db.Stones())
	if err != nil {
		return nil
	}
	return b
}

// NewShipped returns the shipped perfect player on db: NewPerfect (the
// sector variant among drawing moves) breaking ties from src; where db
// lacks a placement layer, the placement search reading and filling book
// (nil: none) for up to PlacementTime a move; where neither decides (a
// moving layer missing, the time spent), alpha-beta to FallbackDepth,
// reading db, breaking its ties from fbSrc. The placement search's
// budget is the field p.Placement.MaxTime; without a search
// (p.Placement = nil) every such placement is the fallback's.
func NewShipped(db *layers.DB, book *Book, src, fbSrc rand.Source) *Perfect {
	fb := search.NewAlphaBeta(search.Limits{Depth: FallbackDepth}, fbSrc, db)
	p := NewPerfect(db, src, fb)
	p.Placement = NewPlacementSearch(db, db.Indexer(), book, DefaultPlacementTableBits)
	p.Placement.MaxTime = PlacementTime
	return p
}

// Sources gives a player's random sources by stream: 0 breaks its ties
// among equal moves (and is the random player's), 1 is the perfect
// player's fallback's, 2 draws the deliberate errors of a fallible player
// or a level. The caller seeds them: the players take no seed from the
// clock.
type Sources func(stream uint64) rand.Source

// Env is what the players Spec.New makes read.
type Env struct {
	// DB is the database of the game; perfect players and levels need it.
	DB *layers.DB
	// Probe is where alpha-beta players (fallible ones, the conspiracy
	// number player) read exact values; nil: nowhere, they search.
	Probe layers.Prober
	// Book is the placement book of perfect players and levels (see
	// ShippedBook); nil: none.
	Book *Book
	// PlacementTime replaces the placement search's PlacementTime when
	// set; negative: no placement search (the fallback plays there).
	PlacementTime time.Duration
	// LevelRate replaces LevelRate for levels when set (calibration).
	LevelRate func(n int) float64
}

// New returns a fresh player named by s (not the zero Spec), reading env
// and drawing from src. A perfect player or a level needs env.DB: s.NeedsDB
// says which; New panics without it. Each kind draws on the streams of
// Sources it documents.
func (s Spec) New(env Env, src Sources) muehle.Player {
	switch s.Kind {
	case KindRandom:
		return muehle.NewRandom(src(0))
	case KindAlphaBeta:
		return search.NewAlphaBeta(s.Limits, src(0), env.Probe)
	case KindCCNS:
		return search.NewCCNS(s.Limits.MoveTime, src(0), env.Probe)
	case KindFallible:
		ab := search.NewAlphaBeta(search.Limits{Depth: s.Limits.Depth}, src(0), env.Probe)
		return NewFallible(ab, float64(s.Percent)/100, src(2))
	case KindPerfect:
		p := env.perfect(src)
		p.Lookahead, p.Draws, p.DrawDepth = s.Lookahead, s.Draws, s.DrawDepth
		return p
	case KindLevel:
		rate := LevelRate(s.Level)
		if env.LevelRate != nil {
			rate = env.LevelRate(s.Level)
		}
		return NewLevelRate(s.Level, rate, env.perfect(src), src(2))
	}
	panic("play: Spec.New of " + s.String() + ": no such player")
}

// perfect returns the shipped perfect player of env.
func (env Env) perfect(src Sources) *Perfect {
	if env.DB == nil {
		panic("play: a perfect player needs a database")
	}
	p := NewShipped(env.DB, env.Book, src(0), src(1))
	switch {
	case env.PlacementTime < 0:
		p.Placement = nil
	case env.PlacementTime > 0:
		p.Placement.MaxTime = env.PlacementTime
	}
	return p
}
