package muehle

// MaxMoves bounds the number of legal moves in any position of any game: 3
// stones jumping to 21 points, each closing a mill and removing one of 9
// stones, is far more than the worst case of the standard game, where of
// each stone's jumps at most one closes a mill. In the other games the
// moves that close a mill are as few: Twelve Men's Morris has at most
// 3×21 jumps of which 3 close a mill, with at most 12 stones to remove, and
// a Lasker position at most 4 slides per stone on the board and a placement
// on each empty point, together fewer than 45 targets times at most 10
// removals (TestMaxMoves checks every game's sample).
const MaxMoves = 3 * 21 * 9

// IsOver reports whether the side to move has lost: fewer than three stones
// on the board and in hand, or no stones in hand and no legal move. A
// position drawn by the rules alone (IsDrawn) is not over in this sense.
func (p *Position) IsOver() bool {
	c := p.Turn
	if p.Total(c) < 3 {
		return true
	}
	if p.Hand[c] > 0 {
		return false // 2×Stones ≤ points: a side with stones in hand can place
	}
	return p.Blocked() && !p.IsDrawn()
}

// IsDrawn reports whether the game has ended drawn by its rules alone: in a
// game with FullBoardDraw, every point holds a stone. Such a position has
// no moves and is not over (IsOver) for the side to move.
func (p *Position) IsDrawn() bool {
	r := rulesOf[p.Game]
	return r.FullBoardDraw && p.Stones[0]|p.Stones[1] == r.Board.all
}

// Blocked reports whether the side to move cannot slide or jump any of its
// stones on the board (stones in hand aside). A side with three stones can
// always jump in a game with flying, unless no point is empty.
func (p *Position) Blocked() bool {
	c := p.Turn
	own := p.Stones[c]
	r := rulesOf[p.Game]
	b := r.Board
	empty := b.all &^ (own | p.Stones[c^1])
	if r.Flying && own.Count()+int(p.Hand[c]) <= 3 {
		return own == 0 || empty == 0
	}
	for f := own; f != 0; f &= f - 1 {
		if b.neighbors[f.First()]&empty != 0 {
			return false
		}
	}
	return true
}

// AppendMoves appends the legal moves of p to buf and returns it. A move that
// closes a mill appears once for each stone it may remove. A position whose
// side to move has lost has no moves. With a buffer of MaxMoves capacity it
// does not allocate.
func (p *Position) AppendMoves(buf []Move) []Move {
	c := p.Turn
	own, opp := p.Stones[c], p.Stones[c^1]
	total := own.Count() + int(p.Hand[c])
	if total < 3 {
		return buf
	}
	r := rulesOf[p.Game]
	b := r.Board
	empty := b.all &^ (own | opp)
	removable := b.Removable(opp)
	if p.Hand[c] > 0 {
		closing := b.MillTargets(own, empty)
		if removable == 0 {
			closing = 0
		}
		for t := empty; t != 0; t &= t - 1 {
			to := t.First()
			if !closing.Has(to) {
				buf = append(buf, Move{NoPoint, to, NoPoint})
				continue
			}
			for x := removable; x != 0; x &= x - 1 {
				buf = append(buf, Move{NoPoint, to, x.First()})
			}
		}
		if !r.Mixed {
			return buf
		}
	}
	flying := total == 3 && r.Flying
	for f := own; f != 0; f &= f - 1 {
		from := f.First()
		targets := empty
		if !flying {
			targets &= b.neighbors[from]
		}
		rest := own &^ from.Bit()
		for t := targets; t != 0; t &= t - 1 {
			// The move, or the move with each removable stone when it
			// closes a mill with the mover's other stones.
			to := t.First()
			if removable == 0 || !b.ClosesMill(rest, to) {
				buf = append(buf, Move{from, to, NoPoint})
				continue
			}
			for x := removable; x != 0; x &= x - 1 {
				buf = append(buf, Move{from, to, x.First()})
			}
		}
	}
	return buf
}

// Moves returns the legal moves of p in a new slice.
func (p *Position) Moves() []Move {
	return p.AppendMoves(make([]Move, 0, 32))
}

// CountMoves returns len(p.Moves()) without generating the moves.
func (p *Position) CountMoves() int {
	c := p.Turn
	own, opp := p.Stones[c], p.Stones[c^1]
	total := own.Count() + int(p.Hand[c])
	if total < 3 {
		return 0
	}
	r := rulesOf[p.Game]
	b := r.Board
	empty := b.all &^ (own | opp)
	nRemove := b.Removable(opp).Count()
	n := 0
	if p.Hand[c] > 0 {
		n = empty.Count()
		if nRemove > 0 {
			n += (nRemove - 1) * b.MillTargets(own, empty).Count()
		}
		if !r.Mixed {
			return n
		}
	}
	flying := total == 3 && r.Flying
	for f := own; f != 0; f &= f - 1 {
		from := f.First()
		targets := empty
		if !flying {
			targets &= b.neighbors[from]
		}
		rest := own &^ from.Bit()
		for t := targets; t != 0; t &= t - 1 {
			if nRemove > 0 && b.ClosesMill(rest, t.First()) {
				n += nRemove
			} else {
				n++
			}
		}
	}
	return n
}
