package play

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"muehle/retro/search"
)

// Kind is the kind of computer player a Spec names.
type Kind int

// The kinds of computer players (the zero Kind names none).
const (
	KindRandom    Kind = iota + 1 // random: a uniformly random legal move
	KindAlphaBeta                 // ab: AlphaBeta
	KindFallible                  // fallible: AlphaBeta erring at a rate (Fallible)
	KindPerfect                   // perfect: the shipped perfect player (NewShipped)
	KindLevel                     // level: a difficulty level (Level)
	KindCCNS                      // ccns: the conspiracy number player (CCNS)
)

// Spec is a computer player as a name gives it: the one grammar of player
// names, read by muehlectl's match, play and levels and written into the
// desktop program's preferences.
//
//	random                   KindRandom
//	ab:DEPTH                 KindAlphaBeta, Limits.Depth 1 to 64
//	ab:auto, ab:auto:DUR     KindAlphaBeta by time: Limits.MoveTime DUR (a
//	                         Go duration), the player's default without it
//	fallible:DEPTH:PERCENT   KindFallible: ab:DEPTH playing a random move
//	                         instead in PERCENT (0 to 100) of its moves
//	perfect                  KindPerfect, the default: the sector variant
//	                         SectorPlies deep among drawing moves, the trap
//	                         share with Lookahead 1 elsewhere
//	perfect:sector[:PLIES]   the same, PLIES 1 to 8 deep
//	perfect:trap             the trap share among drawing moves too
//	perfect:LOOKAHEAD        the trap share looking LOOKAHEAD 0 to 3 own
//	                         moves ahead (0: at random among the best moves)
//	perfect:bahnsen[:DEPTH]  Bahnsen's win probability among drawing moves,
//	                         DEPTH 1 to 4 own moves (BahnsenDepth by default)
//	level:N                  KindLevel N, 1 to Levels
//	ccns, ccns:DUR           KindCCNS: controlled conspiracy number search
//	                         with Limits.MoveTime DUR (a Go duration) per
//	                         move, the player's default without it
//
// String gives the canonical name; ParseSpec(s.String()) returns s.
type Spec struct {
	Kind Kind
	// Limits are the alpha-beta player's; a fallible player's depth is
	// Limits.Depth; the conspiracy number player's time is Limits.MoveTime.
	Limits search.Limits
	// Percent is the share of a fallible player's moves played at random.
	Percent int
	// Lookahead, Draws and DrawDepth are the perfect player's fields of
	// the same names.
	Lookahead int
	Draws     DrawRule
	DrawDepth int
	// Level is a difficulty level's number, 1 to Levels.
	Level int
}

// DefaultPerfect is the default perfect player's Spec ("perfect").
var DefaultPerfect = Spec{Kind: KindPerfect, Lookahead: 1, Draws: DrawSector, DrawDepth: SectorPlies}

// specGrammar lists the names for error messages.
const specGrammar = "random, ab:DEPTH, ab:auto[:DURATION], fallible:DEPTH:PERCENT, perfect[:sector[:PLIES]], perfect:trap, perfect:LOOKAHEAD, perfect:bahnsen[:DEPTH], level:N, ccns[:DURATION]"

// ParseSpec reads a player name (see Spec). The error names s and what
// was wanted.
func ParseSpec(s string) (Spec, error) {
	name, arg, _ := strings.Cut(s, ":")
	switch name {
	case "random":
		if arg != "" {
			return Spec{}, fmt.Errorf("player %q: random takes no argument", s)
		}
		return Spec{Kind: KindRandom}, nil
	case "ab":
		lim, err := parseLimits(arg)
		if err != nil {
			return Spec{}, fmt.Errorf("player %q: %w", s, err)
		}
		return Spec{Kind: KindAlphaBeta, Limits: lim}, nil
	case "fallible":
		d, pct, ok := strings.Cut(arg, ":")
		depth, err1 := strconv.Atoi(d)
		rate, err2 := strconv.Atoi(pct)
		if !ok || err1 != nil || err2 != nil || depth < 1 || depth > 64 || rate < 0 || rate > 100 {
			return Spec{}, fmt.Errorf("player %q: want fallible:DEPTH:PERCENT, depth 1 to 64, percent 0 to 100", s)
		}
		return Spec{Kind: KindFallible, Limits: search.Limits{Depth: depth}, Percent: rate}, nil
	case "perfect":
		sp, err := parsePerfect(arg)
		if err != nil {
			return Spec{}, fmt.Errorf("player %q: %w", s, err)
		}
		return sp, nil
	case "level":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > Levels {
			return Spec{}, fmt.Errorf("player %q: want level:N, N 1 to %d", s, Levels)
		}
		return Spec{Kind: KindLevel, Level: n}, nil
	case "ccns":
		if s == "ccns" {
			return Spec{Kind: KindCCNS}, nil
		}
		t, err := time.ParseDuration(arg)
		if err != nil || t <= 0 {
			return Spec{}, fmt.Errorf("player %q: bad time per move %q (want ccns or ccns:DURATION)", s, arg)
		}
		return Spec{Kind: KindCCNS, Limits: search.Limits{MoveTime: t}}, nil
	}
	return Spec{}, fmt.Errorf("unknown player %q (want %s)", s, specGrammar)
}

// parsePerfect reads the perfect player's argument: empty, "sector" or
// "sector:PLIES", "trap", a lookahead 0 to 3 of the trap share, or
// "bahnsen" or "bahnsen:DEPTH". Outside drawn positions all but lookahead
// 0 break ties by the trap share, lookahead 1.
func parsePerfect(arg string) (Spec, error) {
	name, n, hasN := strings.Cut(arg, ":")
	switch name {
	case "", "sector", "bahnsen":
		sp, maxDepth := DefaultPerfect, 8
		if name == "bahnsen" {
			sp.Draws, sp.DrawDepth, maxDepth = DrawBahnsen, BahnsenDepth, 4
		}
		if hasN {
			d, err := strconv.Atoi(n)
			if err != nil || d < 1 || d > maxDepth {
				return Spec{}, fmt.Errorf("%s depth %q: want 1 to %d", name, n, maxDepth)
			}
			sp.DrawDepth = d
		}
		return sp, nil
	case "trap":
		if hasN {
			break
		}
		return Spec{Kind: KindPerfect, Lookahead: 1, Draws: DrawTrap}, nil
	}
	look, err := strconv.Atoi(arg)
	if err != nil || look < 0 || look > 3 {
		return Spec{}, fmt.Errorf("want sector[:PLIES], trap, a lookahead 0 to 3 (of the trap share) or bahnsen[:DEPTH]")
	}
	return Spec{Kind: KindPerfect, Lookahead: look, Draws: DrawTrap}, nil
}

// parseLimits reads the alpha-beta argument: a depth, "auto" or
// "auto:DURATION".
func parseLimits(arg string) (search.Limits, error) {
	if a, d, ok := strings.Cut(arg, ":"); ok && a == "auto" {
		t, err := time.ParseDuration(d)
		if err != nil || t <= 0 {
			return search.Limits{}, fmt.Errorf("bad time per move %q", d)
		}
		return search.Limits{MoveTime: t}, nil
	}
	if arg == "auto" {
		return search.Limits{}, nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > 64 {
		return search.Limits{}, fmt.Errorf("depth %q: want 1 to 64, auto or auto:DURATION", arg)
	}
	return search.Limits{Depth: n}, nil
}

// String returns the canonical name of s: "random", "ab:4", "ab:auto",
// "ab:auto:1.5s", "fallible:4:10", "perfect", "perfect:sector:6",
// "perfect:trap", "perfect:2", "perfect:bahnsen", "perfect:bahnsen:3",
// "level:7", "ccns", "ccns:100ms"; "" for the zero Spec.
func (s Spec) String() string {
	switch s.Kind {
	case KindRandom:
		return "random"
	case KindAlphaBeta:
		switch {
		case s.Limits.Depth > 0:
			return "ab:" + strconv.Itoa(s.Limits.Depth)
		case s.Limits.MoveTime > 0:
			return "ab:auto:" + s.Limits.MoveTime.String()
		}
		return "ab:auto"
	case KindFallible:
		return fmt.Sprintf("fallible:%d:%d", s.Limits.Depth, s.Percent)
	case KindPerfect:
		switch {
		case s.Draws == DrawSector && s.DrawDepth == SectorPlies:
			return "perfect"
		case s.Draws == DrawSector:
			return "perfect:sector:" + strconv.Itoa(s.DrawDepth)
		case s.Draws == DrawBahnsen && s.DrawDepth == BahnsenDepth:
			return "perfect:bahnsen"
		case s.Draws == DrawBahnsen:
			return "perfect:bahnsen:" + strconv.Itoa(s.DrawDepth)
		case s.Lookahead == 1:
			return "perfect:trap"
		}
		return "perfect:" + strconv.Itoa(s.Lookahead)
	case KindLevel:
		return "level:" + strconv.Itoa(s.Level)
	case KindCCNS:
		if s.Limits.MoveTime > 0 {
			return "ccns:" + s.Limits.MoveTime.String()
		}
		return "ccns"
	}
	return ""
}

// NeedsDB reports whether the player reads the database (a perfect
// player, a level): without one it cannot be made.
func (s Spec) NeedsDB() bool { return s.Kind == KindPerfect || s.Kind == KindLevel }

// WithMoveTime returns s with time d per move and true when s plays by
// time: an alpha-beta player by time (ab:auto, ab:auto:DUR) or the
// conspiracy number player. Any other s (random, a fixed depth, fallible,
// perfect, a level) is returned unchanged with false.
func (s Spec) WithMoveTime(d time.Duration) (Spec, bool) {
	if s.Kind == KindCCNS || (s.Kind == KindAlphaBeta && s.Limits.Depth == 0) {
		s.Limits.MoveTime = d
		return s, true
	}
	return s, false
}

// OfferedDepth is the deepest fixed alpha-beta depth Offered lists.
const OfferedDepth = 8

// Offered returns the computer players the desktop program offers, in the
// order of its menus: random, alpha-beta by time and at depths 1 to
// OfferedDepth, the conspiracy number player, the levels 1 to Levels, and
// the perfect player with each of its rules among drawing moves (the
// default sector variant, the trap share, Bahnsen's). The White and Black
// menus and the New Game dialog are built from this one list; a person is
// the zero Spec, which it does not hold.
func Offered() []Spec {
	specs := []Spec{{Kind: KindRandom}, {Kind: KindAlphaBeta}}
	for d := 1; d <= OfferedDepth; d++ {
		specs = append(specs, Spec{Kind: KindAlphaBeta, Limits: search.Limits{Depth: d}})
	}
	specs = append(specs, Spec{Kind: KindCCNS})
	for n := 1; n <= Levels; n++ {
		specs = append(specs, Spec{Kind: KindLevel, Level: n})
	}
	trap, bahnsen := DefaultPerfect, DefaultPerfect
	trap.Draws, trap.DrawDepth = DrawTrap, 0
	bahnsen.Draws, bahnsen.DrawDepth = DrawBahnsen, BahnsenDepth
	return append(specs, DefaultPerfect, trap, bahnsen)
}
