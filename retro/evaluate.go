package retro

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
)

// evalPosition returns the static evaluation of p for the side to move, in
// the units of SearchResult.Score (a stone is worth 100): material on the
// board and in hand, closed mills, potential mills (two stones and an empty
// third point), mobility and blocked stones. It does not detect the end of
// the game; the search does.
func evalPosition(p *muehle.Position) int32 {
	c := p.Turn
	return evalSide(p, c) - evalSide(p, c^1)
}

// evalSide returns the terms of the evaluation that belong to side c.
func evalSide(p *muehle.Position, c muehle.Color) int32 {
	own, opp := p.Stones[c], p.Stones[c^1]
	empty := muehle.AllPoints &^ (own | opp)
	n := own.Count()
	s := int32(evalStone * (n + int(p.Hand[c])))
	for _, m := range muehle.Mills {
		switch bits.OnesCount32(uint32(own & m)) {
		case 3:
			s += evalMill
		case 2:
			if opp&m == 0 {
				s += evalPotential
			}
		}
	}
	if n == 3 && p.Hand[c] == 0 {
		return s // jumping: mobility and blocking do not apply
	}
	mob := 0
	for b := own; b != 0; b &= b - 1 {
		k := bits.OnesCount32(uint32(muehle.Neighbors[b.First()] & empty))
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
