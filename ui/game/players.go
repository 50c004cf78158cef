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
)

// MaxDepth is the deepest fixed alpha-beta depth the menus offer.
const MaxDepth = 8

// PlayerSpec says who plays a side: the kind, and for alpha-beta the depth
// (0: automatic, by time).
type PlayerSpec struct {
	Kind  Kind
	Depth int
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
		return "Perfect"
	}
	return "Human"
}

// Encode returns the spec as a preference string: "human", "random",
// "alphabeta:4", "perfect".
func (s PlayerSpec) Encode() string {
	switch s.Kind {
	case RandomPlayer:
		return "random"
	case AlphaBetaPlayer:
		return "alphabeta:" + strconv.Itoa(s.Depth)
	case PerfectPlayer:
		return "perfect"
	}
	return "human"
}

// DecodeSpec reads a preference string written by Encode; anything else
// is a person.
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
		return PlayerSpec{Kind: PerfectPlayer}
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
	// Perfect returns the perfect player, falling back to alpha-beta
	// outside the computed layers.
	Perfect(src rand.Source) (muehle.Player, error)
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
		return e.Perfect(src)
	}
	return nil, nil
}
