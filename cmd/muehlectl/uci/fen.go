package uci

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"muehle/muehle"
)

// The mill FEN of Sanmill, the engine whose UCI-like protocol this one
// follows, as its Position::set and Position::fen write it:
//
//	@*O*****/********/******** b p p 1 8 1 8 0 0 2
//
// three rings of eight points, the inner ring first, each from its top
// middle point clockwise ('O' White, '@' Black, '*' empty, 'X' a banned
// point), then the side to move, the phase (r ready, p placing, m moving,
// o over), the action (p place, s select, r remove), the stones on the
// board and in hand of both sides, the stones to remove, and the counters
// of plies without a removal and of full moves. Sanmill's versions list
// the counts in two orders, Black's first (on board, in hand, White's on
// board, in hand, to remove) or White's first (on board, in hand, Black's
// on board, in hand, then further fields); fenPosition takes the order
// whose counts of stones on the board agree with the board.
var fenRings = [3][8]string{
	{"d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"},
	{"d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6"},
	{"d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"},
}

// isMillFEN reports whether the fields of a position command look like
// the mill FEN (the board as three rings separated by '/').
func isMillFEN(f []string) bool {
	return len(f) > 0 && strings.Count(f[0], "/") == 2
}

// fenPosition returns the position of a mill FEN in a game of v, whose
// board must have the 24 points the FEN's rings name (the standard board,
// also with diagonals). A position waiting for a removal ("r" as the
// action), banned points and counts that do not agree with the board
// cannot be said in our position text and are refused.
func fenPosition(f []string, v muehle.Variant) (muehle.Position, error) {
	var pos muehle.Position
	b := v.Rules().Board
	for _, ring := range fenRings {
		for _, name := range ring {
			if _, err := b.ParsePoint(name); err != nil {
				return pos, fmt.Errorf("the mill FEN describes the 24 points of the standard board; the board of %s (%s) has no %s", v.Rules().Name, b.Name(), name)
			}
		}
	}
	if len(f) < 8 {
		return pos, fmt.Errorf("mill FEN %q: want the rings, side, phase, action and the counts of stones", strings.Join(f, " "))
	}
	rings := strings.Split(f[0], "/")
	pos = v.NewPosition()
	pos.Hand = [2]uint8{}
	var onBoard [2]int
	for r, ring := range rings {
		if len(ring) != 8 {
			return pos, fmt.Errorf("mill FEN: ring %d is %q, want 8 points", r+1, ring)
		}
		for i, c := range []byte(ring) {
			p, err := b.ParsePoint(fenRings[r][i])
			if err != nil {
				return pos, err
			}
			switch c {
			case 'O':
				pos.Stones[muehle.White] |= p.Bit()
				onBoard[muehle.White]++
			case '@':
				pos.Stones[muehle.Black] |= p.Bit()
				onBoard[muehle.Black]++
			case '*':
			case 'X':
				return pos, errors.New("mill FEN: a banned point (X) has no place in these rules")
			default:
				return pos, fmt.Errorf("mill FEN: point %s is %q, want O, @ or *", fenRings[r][i], c)
			}
		}
	}
	switch f[1] {
	case "w":
		pos.Turn = muehle.White
	case "b":
		pos.Turn = muehle.Black
	default:
		return pos, fmt.Errorf("mill FEN: side to move %q, want w or b", f[1])
	}
	if f[3] == "r" {
		return pos, errors.New("mill FEN: a position waiting for a removal cannot be said in this engine's positions; send the position before the move that closed the mill, and the move")
	}
	var n [5]int
	for i := range n {
		if 4+i >= len(f) {
			break
		}
		x, err := strconv.Atoi(f[4+i])
		if err != nil || x < 0 || x > muehle.MaxStones {
			return pos, fmt.Errorf("mill FEN: count %q, want 0 to %d", f[4+i], muehle.MaxStones)
		}
		n[i] = x
	}
	switch {
	case n[0] == onBoard[muehle.White] && n[2] == onBoard[muehle.Black]:
		pos.Hand = [2]uint8{uint8(n[1]), uint8(n[3])} // White's counts first
	case n[0] == onBoard[muehle.Black] && n[2] == onBoard[muehle.White]:
		pos.Hand = [2]uint8{uint8(n[3]), uint8(n[1])} // Black's counts first
	default:
		return pos, fmt.Errorf("mill FEN: the counts %d and %d of stones on the board are not the board's, %d White and %d Black",
			n[0], n[2], onBoard[muehle.White], onBoard[muehle.Black])
	}
	return pos, nil
}
