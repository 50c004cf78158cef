package search

import (
	"math/bits"

	"muehle/muehle"
)

// The weights of the evaluation, in score units (a stone is 100).
const (
	evalStone     = 100 // a stone on the board or in hand
	evalMill      = 12  // a closed mill (it can be opened and closed again)
	evalPotential = 20  // two stones of a mill and its third point empty
	evalMobility  = 3   // one slide (not counted for a side that jumps)
	evalBlocked   = 6   // penalty for a stone with no empty neighbour
	evalNoMove    = 150 // bonus when the opponent, in the moving phase, has no slide at all
	evalThreats   = 80  // the opponent threatens to close mills on two points or more
)

// evalBoard is what the evaluation and the move ordering read of a game:
// its board's points, mills and each point's neighbours, and the stones on
// the board with which a side flies: from its rules' LoseBelow to FlyAt
// (none in a game without flying; fewer have lost).
type evalBoard struct {
	all       muehle.Bitboard
	mills     []muehle.Bitboard
	neighbors [muehle.MaxPoints]muehle.Bitboard
	flyFrom   int
	flyAt     int
}

// flies reports whether a side with n stones on the board and none in hand
// flies.
func (b *evalBoard) flies(n int) bool { return n >= b.flyFrom && n <= b.flyAt }

// evalBoards holds the board of each game by muehle.GameID, built once
// from muehle.Games, so that a position reaches its board by its Game
// byte alone.
var evalBoards = func() (t [256]*evalBoard) {
	for _, r := range muehle.Games {
		b := &evalBoard{all: r.Board.All(), mills: r.Board.Mills(), flyFrom: r.LoseBelow, flyAt: r.FlyAt}
		for p := range muehle.Point(r.Board.NumPoints()) {
			b.neighbors[p] = r.Board.Neighbors(p)
		}
		t[r.Game()] = b
	}
	return t
}()

// evalPosition returns the static evaluation of p for the side to move, in
// the units of SearchResult.Score (a stone is worth 100): material on the
// board and in hand, closed mills, potential mills (two stones and an empty
// third point), mobility and blocked stones, and a penalty when the
// opponent can close a mill on two points or more while the side to move
// can close none (it can stop only one). It does not detect the end of the
// game; the search does.
func evalPosition(p *muehle.Position) int32 {
	c := p.Turn
	s := evalSide(p, c) - evalSide(p, c^1)
	if t := millTargets(p, c^1); t&(t-1) != 0 && millTargets(p, c) == 0 {
		s -= evalThreats
	}
	return s
}

// millTargets returns the empty points on which side c could close a mill
// with its next move: the third point of a mill holding two of its stones,
// reachable by a placement, a jump (when the game's rules let the side fly),
// or a slide of a stone from outside that mill. It ignores whether the
// opponent has a stone to remove.
func millTargets(p *muehle.Position, c muehle.Color) muehle.Bitboard {
	b := evalBoards[p.Game]
	own := p.Stones[c]
	empty := b.all &^ (own | p.Stones[c^1])
	anywhere := p.Hand[c] > 0 || b.flies(own.Count())
	var t muehle.Bitboard
	for _, m := range b.mills {
		e := m & empty
		if e == 0 || e&(e-1) != 0 || own&m != m&^e || t&e != 0 {
			continue
		}
		if anywhere || b.neighbors[e.First()]&own&^m != 0 {
			t |= e
		}
	}
	return t
}

// evalSide returns the terms of the evaluation that belong to side c.
func evalSide(p *muehle.Position, c muehle.Color) int32 {
	bd := evalBoards[p.Game]
	own, opp := p.Stones[c], p.Stones[c^1]
	empty := bd.all &^ (own | opp)
	n := own.Count()
	s := int32(evalStone * (n + int(p.Hand[c])))
	for _, m := range bd.mills {
		switch bits.OnesCount32(uint32(own & m)) {
		case 3:
			s += evalMill
		case 2:
			if opp&m == 0 {
				s += evalPotential
			}
		}
	}
	if p.Hand[c] == 0 && bd.flies(n) {
		return s // flying: mobility and blocking do not apply
	}
	mob := 0
	for b := own; b != 0; b &= b - 1 {
		k := bits.OnesCount32(uint32(bd.neighbors[b.First()] & empty))
		mob += k
		if k == 0 {
			s -= evalBlocked
		}
	}
	s += int32(evalMobility * mob)
	if mob == 0 && p.Hand[c] == 0 && n > 0 {
		s -= evalNoMove
	}
	return s
}
