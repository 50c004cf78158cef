package game

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"muehle/muehle"
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
)

// Levels is the number of difficulty levels (1, the weakest, to Levels,
// the perfect player); the same as retro/play's.
const Levels = 10

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
// difficulty level its number (1 to Levels).
type PlayerSpec struct {
	Kind    Kind
	Depth   int
	Variant PerfectVariant
	Level   int
}

// NeedsEngines reports whether the player needs the search or the
// database (alpha-beta, perfect, a level).
func (s PlayerSpec) NeedsEngines() bool {
	return s.Kind == AlphaBetaPlayer || s.Kind == PerfectPlayer || s.Kind == LevelPlayer
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
	}
	return "Human"
}

// Encode returns the spec as a preference string: "human", "random",
// "alphabeta:4", "perfect", "perfect:trap", "perfect:bahnsen",
// "level:3".
func (s PlayerSpec) Encode() string {
	switch s.Kind {
	case RandomPlayer:
		return "random"
	case AlphaBetaPlayer:
		return "alphabeta:" + strconv.Itoa(s.Depth)
	case PerfectPlayer:
		switch s.Variant {
		case PerfectBahnsen:
			return "perfect:bahnsen"
		case PerfectTrap:
			return "perfect:trap"
		}
		return "perfect"
	case LevelPlayer:
		return "level:" + strconv.Itoa(s.Level)
	}
	return "human"
}

// DecodeSpec reads a preference string written by Encode; anything else
// is a person. A level outside 1 to Levels reads as the middle level.
func DecodeSpec(s string) PlayerSpec {
	name, arg, _ := strings.Cut(s, ":")
	switch name {
	case "random":
		return PlayerSpec{Kind: RandomPlayer}
	case "alphabeta":
		d, err := strconv.Atoi(arg)
		if err != nil || d < 0 || d > MaxDepth {
			d = 0
		}
		return PlayerSpec{Kind: AlphaBetaPlayer, Depth: d}
	case "perfect":
		switch arg {
		case "bahnsen":
			return PlayerSpec{Kind: PerfectPlayer, Variant: PerfectBahnsen}
		case "trap":
			return PlayerSpec{Kind: PerfectPlayer, Variant: PerfectTrap}
		}
		return PlayerSpec{Kind: PerfectPlayer} // "perfect", and "perfect:sector" of earlier versions
	case "level":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > Levels {
			n = Levels / 2
		}
		return PlayerSpec{Kind: LevelPlayer, Level: n}
	}
	return PlayerSpec{Kind: Human}
}

// Engines makes the computer players that need the search and the
// database, and answers questions about the database. The window passes
// ui.DBEngines, backed by packages retro/play and layers; tests may pass
// their own. This package never imports the players itself.
type Engines interface {
	// AlphaBeta returns an alpha-beta player searching to depth (0: automatic).
	AlphaBeta(depth int, src rand.Source) (muehle.Player, error)
	// Perfect returns the perfect player of variant v, falling back to
	// alpha-beta outside the computed layers.
	Perfect(v PerfectVariant, src rand.Source) (muehle.Player, error)
	// Level returns difficulty level n (1 to Levels): the default perfect
	// player that plays a random move instead with the level's probability.
	Level(n int, src rand.Source) (muehle.Player, error)
	// Evaluator returns the source of perfect-move marks.
	Evaluator() (Evaluator, error)
	// StateNumber describes where pos is stored: its layer and index.
	StateNumber(pos muehle.Position) (string, error)
}

// NewPlayer returns the player for spec; nil for a person.
func NewPlayer(spec PlayerSpec, e Engines) (muehle.Player, error) {
	src := rand.NewPCG(uint64(time.Now().UnixNano()), 0x6d75656865)
	switch spec.Kind {
	case RandomPlayer:
		return muehle.NewRandom(src), nil
	case AlphaBetaPlayer:
		if e == nil {
			return nil, fmt.Errorf("game: alpha-beta player: no engines")
		}
		return e.AlphaBeta(spec.Depth, src)
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
