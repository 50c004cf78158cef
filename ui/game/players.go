package game

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"muehle/muehle"
	"muehle/retro/play"
)

// The players of a side are named by play.Spec, the one list of player
// kinds: the zero Spec is a person, play.Offered the computer players the
// menus and the New Game dialog offer.

// Human is the Spec of a person: the zero Spec.
var Human = play.Spec{}

// NeedsEngines reports whether the player sp needs the search or the
// database (alpha-beta, conspiracy numbers, perfect, a level): any
// computer player but the random one.
func NeedsEngines(sp play.Spec) bool { return sp != Human && sp.Kind != play.KindRandom }

// Title returns the name of sp shown in menus and the side panel:
// "Human", "Random", "Alpha-beta (automatic)", "Alpha-beta (depth 4)",
// "Conspiracy numbers", "Level 3", "Perfect", "Perfect (trap share)",
// "Perfect (Bahnsen)".
func Title(sp play.Spec) string {
	switch sp.Kind {
	case play.KindRandom:
		return "Random"
	case play.KindAlphaBeta:
		if sp.Limits.Depth == 0 {
			return "Alpha-beta (automatic)"
		}
		return fmt.Sprintf("Alpha-beta (depth %d)", sp.Limits.Depth)
	case play.KindPerfect:
		switch sp.Draws {
		case play.DrawBahnsen:
			return "Perfect (Bahnsen)"
		case play.DrawTrap:
			return "Perfect (trap share)"
		}
		return "Perfect"
	case play.KindLevel:
		return fmt.Sprintf("Level %d", sp.Level)
	case play.KindCCNS:
		return "Conspiracy numbers"
	}
	return "Human"
}

// Encode returns sp as a preference string: the player's name as
// muehlectl takes it ("random", "ab:4", "ab:auto", "perfect",
// "perfect:trap", "perfect:bahnsen", "level:3", "ccns"), or "human".
func Encode(sp play.Spec) string {
	if sp == Human {
		return "human"
	}
	return sp.String()
}

// DecodeSpec reads a preference string written by Encode, or by earlier
// versions ("alphabeta:4", "alphabeta:0" for automatic, "perfect:sector"),
// as one of play.Offered or Human. A player the menus do not offer reads
// as the nearest one they do (a deeper or timed alpha-beta as automatic,
// another perfect variant by its rule among drawing moves, a timed
// conspiracy number player as the menus' one); an unreadable perfect
// player as the default, an unreadable level as the middle level;
// anything else is a person.
func DecodeSpec(s string) play.Spec {
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
			return play.DefaultPerfect
		case "level":
			return play.Spec{Kind: play.KindLevel, Level: play.Levels / 2}
		case "alphabeta", "ab":
			return play.Spec{Kind: play.KindAlphaBeta}
		}
		return Human
	}
	offered := play.Offered()
	switch sp.Kind {
	case play.KindAlphaBeta:
		if d := sp.Limits.Depth; d > play.OfferedDepth {
			sp.Limits.Depth = 0
		}
		sp.Limits.MoveTime = 0
	case play.KindPerfect:
		for _, o := range offered {
			if o.Kind == play.KindPerfect && o.Draws == sp.Draws {
				return o
			}
		}
	case play.KindCCNS:
		sp.Limits.MoveTime = 0
	}
	for _, o := range offered {
		if o == sp {
			return o
		}
	}
	return Human // a fallible player: not offered
}

// Engines makes the computer players that need the search and the
// database, and answers questions about the database. The window passes
// ui.DBEngines, backed by the players' packages and layers; tests may
// pass their own. This package takes only the names of players from
// retro/play (play.Spec), and makes none that needs the search or the
// database itself.
type Engines interface {
	// Player returns the computer player sp (NeedsEngines): alpha-beta and
	// conspiracy numbers reading the database where it has the layer, the
	// perfect player and the levels on the database, falling back to
	// alpha-beta outside its layers.
	Player(sp play.Spec, src rand.Source) (muehle.Player, error)
	// Evaluator returns the source of perfect-move marks.
	Evaluator() (Evaluator, error)
	// StateNumber describes where pos is stored: its layer and index.
	StateNumber(pos muehle.Position) (string, error)
}

// NewPlayer returns the player sp, its random choices drawn from src (the
// caller seeds it); nil for a person.
func NewPlayer(sp play.Spec, e Engines, src rand.Source) (muehle.Player, error) {
	switch {
	case sp == Human:
		return nil, nil
	case sp.Kind == play.KindRandom:
		return muehle.NewRandom(src), nil
	case e == nil:
		return nil, fmt.Errorf("game: %s: no engines", Title(sp))
	}
	return e.Player(sp, src)
}
