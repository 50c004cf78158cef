package game

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"muehle/muehle"
	"muehle/retro/play"
	"muehle/retro/search"
)

// Kind is the kind of player on one side.
type Kind int

// The kinds of players.
const (
	Human Kind = iota
	RandomPlayer
	AlphaBetaPlayer
	PerfectPlayer
	LevelPlayer // a difficulty level: the perfect player erring on purpose
	CCNSPlayer  // controlled conspiracy number search, by time (search.CCNS)
)

// MaxDepth is the deepest fixed alpha-beta depth the menus offer.
const MaxDepth = 8

// PerfectVariant is how a perfect player chooses among its drawing moves.
type PerfectVariant int

// The perfect players' ways of choosing among drawing moves (see package
// retro/play): the won share of the layer after the next removal (the
// default, the zero value), the share of the opponent's losing replies,
// Bahnsen's win probability.
const (
	PerfectSector PerfectVariant = iota
	PerfectTrap
	PerfectBahnsen
)

// PlayerSpec says who plays a side: the kind, for alpha-beta the depth
// (0: automatic, by time), for the perfect player its variant, for a
// difficulty level its number (1 to play.Levels). The computer players are
// those of play.Spec that the menus offer.
type PlayerSpec struct {
	Kind    Kind
	Depth   int
	Variant PerfectVariant
	Level   int
}

// NeedsEngines reports whether the player needs the search or the
// database (alpha-beta, conspiracy numbers, perfect, a level).
func (s PlayerSpec) NeedsEngines() bool {
	return s.Kind == AlphaBetaPlayer || s.Kind == PerfectPlayer || s.Kind == LevelPlayer || s.Kind == CCNSPlayer
}

// String returns the name shown in menus and the side panel.
func (s PlayerSpec) String() string {
	switch s.Kind {
	case RandomPlayer:
		return "Random"
	case AlphaBetaPlayer:
		if s.Depth == 0 {
			return "Alpha-beta (automatic)"
		}
		return fmt.Sprintf("Alpha-beta (depth %d)", s.Depth)
	case PerfectPlayer:
		switch s.Variant {
		case PerfectBahnsen:
			return "Perfect (Bahnsen)"
		case PerfectTrap:
			return "Perfect (trap share)"
		}
		return "Perfect"
	case LevelPlayer:
		return fmt.Sprintf("Level %d", s.Level)
	case CCNSPlayer:
		return "Conspiracy numbers"
	}
	return "Human"
}

// Spec returns the computer player s names in the grammar of player
// names (play.Spec), the zero Spec for a person.
func (s PlayerSpec) Spec() play.Spec {
	switch s.Kind {
	case RandomPlayer:
		return play.Spec{Kind: play.KindRandom}
	case AlphaBetaPlayer:
		return play.Spec{Kind: play.KindAlphaBeta, Limits: search.Limits{Depth: s.Depth}}
	case PerfectPlayer:
		sp := play.DefaultPerfect
		switch s.Variant {
		case PerfectBahnsen:
			sp.Draws, sp.DrawDepth = play.DrawBahnsen, play.BahnsenDepth
		case PerfectTrap:
			sp.Draws, sp.DrawDepth = play.DrawTrap, 0
		}
		return sp
	case LevelPlayer:
		return play.Spec{Kind: play.KindLevel, Level: s.Level}
	case CCNSPlayer:
		return play.Spec{Kind: play.KindCCNS}
	}
	return play.Spec{}
}

// Encode returns the spec as a preference string: the player's name as
// muehlectl takes it ("random", "ab:4", "ab:auto", "perfect",
// "perfect:trap", "perfect:bahnsen", "level:3", "ccns"), or "human".
func (s PlayerSpec) Encode() string {
	if s.Kind == Human {
		return "human"
	}
	return s.Spec().String()
}

// DecodeSpec reads a preference string written by Encode, or by earlier
// versions ("alphabeta:4", "alphabeta:0" for automatic, "perfect:sector").
// A player the menus do not offer reads as the nearest one they do (a
// deeper or timed alpha-beta as automatic, another perfect variant by its
// rule among drawing moves, a timed conspiracy number player as the
// menus' one); an unreadable perfect player as the default,
// an unreadable level as the middle level; anything else is a person.
func DecodeSpec(s string) PlayerSpec {
	name, arg, _ := strings.Cut(s, ":")
	if name == "alphabeta" { // earlier versions
		if arg == "0" {
			arg = "auto"
		}
		s = "ab:" + arg
	}
	sp, err := play.ParseSpec(s)
	if err != nil {
		switch name {
		case "perfect":
			return PlayerSpec{Kind: PerfectPlayer}
		case "level":
			return PlayerSpec{Kind: LevelPlayer, Level: play.Levels / 2}
		case "alphabeta", "ab":
			return PlayerSpec{Kind: AlphaBetaPlayer}
		}
		return PlayerSpec{Kind: Human}
	}
	switch sp.Kind {
	case play.KindRandom:
		return PlayerSpec{Kind: RandomPlayer}
	case play.KindAlphaBeta:
		d := sp.Limits.Depth
		if d > MaxDepth {
			d = 0
		}
		return PlayerSpec{Kind: AlphaBetaPlayer, Depth: d}
	case play.KindPerfect:
		switch sp.Draws {
		case play.DrawBahnsen:
			return PlayerSpec{Kind: PerfectPlayer, Variant: PerfectBahnsen}
		case play.DrawTrap:
			return PlayerSpec{Kind: PerfectPlayer, Variant: PerfectTrap}
		}
		return PlayerSpec{Kind: PerfectPlayer}
	case play.KindLevel:
		return PlayerSpec{Kind: LevelPlayer, Level: sp.Level}
	case play.KindCCNS:
		return PlayerSpec{Kind: CCNSPlayer}
	}
	return PlayerSpec{Kind: Human} // a fallible player: not offered
}

// Engines makes the computer players that need the search and the
// database, and answers questions about the database. The window passes
// ui.DBEngines, backed by packages retro/play and layers; tests may pass
// their own. This package takes only the names of players from
// retro/play (play.Spec), and makes none that needs the search or the
// database itself.
type Engines interface {
	// AlphaBeta returns an alpha-beta player searching to depth (0: automatic).
	AlphaBeta(depth int, src rand.Source) (muehle.Player, error)
	// CCNS returns the conspiracy number player with its default time per move.
	CCNS(src rand.Source) (muehle.Player, error)
	// Perfect returns the perfect player of variant v, falling back to
	// alpha-beta outside the computed layers.
	Perfect(v PerfectVariant, src rand.Source) (muehle.Player, error)
	// Level returns difficulty level n (1 to play.Levels): the default perfect
	// player that plays a random move instead with the level's probability.
	Level(n int, src rand.Source) (muehle.Player, error)
	// Evaluator returns the source of perfect-move marks.
	Evaluator() (Evaluator, error)
	// StateNumber describes where pos is stored: its layer and index.
	StateNumber(pos muehle.Position) (string, error)
}

// NewPlayer returns the player for spec, its random choices drawn from
// src (the caller seeds it); nil for a person.
func NewPlayer(spec PlayerSpec, e Engines, src rand.Source) (muehle.Player, error) {
	switch spec.Kind {
	case RandomPlayer:
		return muehle.NewRandom(src), nil
	case AlphaBetaPlayer:
		if e == nil {
			return nil, fmt.Errorf("game: alpha-beta player: no engines")
		}
		return e.AlphaBeta(spec.Depth, src)
	case CCNSPlayer:
		if e == nil {
			return nil, fmt.Errorf("game: conspiracy number player: no engines")
		}
		return e.CCNS(src)
	case PerfectPlayer:
		if e == nil {
			return nil, fmt.Errorf("game: perfect player: no engines")
		}
		return e.Perfect(spec.Variant, src)
	case LevelPlayer:
		if e == nil {
			return nil, fmt.Errorf("game: level %d: no engines", spec.Level)
		}
		return e.Level(spec.Level, src)
	}
	return nil, nil
}
