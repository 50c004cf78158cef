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

// IsOver reports whether the side to move has lost: fewer stones on the
// board and in hand than its rules' LoseBelow (three), or no stones in
// hand and no legal move. A
// position drawn by the rules alone (IsDrawn) is not over in this sense.
func (p *Position) IsOver() bool {
	c := p.Turn
	if p.Total(c) < engines[p.Game].loseBelow {
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
	e := &engines[p.Game]
	return e.fullBoardDraw && p.Stones[0]|p.Stones[1] == e.all
}

// Blocked reports whether the side to move cannot slide or jump any of its
// stones on the board (stones in hand aside). A side that flies (FlyAt)
// can always jump, unless no point is empty.
func (p *Position) Blocked() bool {
	c := p.Turn
	own := p.Stones[c]
	e := &engines[p.Game]
	empty := e.all &^ (own | p.Stones[c^1])
	if own.Count()+int(p.Hand[c]) <= e.flyAt {
		return own == 0 || empty == 0
	}
	for f := own; f != 0; f &= f - 1 {
		if e.neighbors[f.First()]&empty != 0 {
			return false
		}
	}
	return true
}

// AppendMoves appends the legal moves of p to buf and returns it. A move that
// closes a mill appears once for each stone it may remove. A position whose
// side to move has lost has no moves. With a buffer of MaxMoves capacity it
// does not allocate. The removable stones are computed at the first move
// that closes a mill, not for every position (most have none).
func (p *Position) AppendMoves(buf []Move) []Move {
	e := &engines[p.Game]
	c := p.Turn
	own, opp := p.Stones[c], p.Stones[c^1]
	total := own.Count() + int(p.Hand[c])
	if total < e.loseBelow {
		return buf
	}
	// removable is 0 until computed: removableOf(opp) is 0 only when opp
	// is, and then no move removes a stone.
	var removable Bitboard
	empty := e.all &^ (own | opp)
	if p.Hand[c] > 0 {
		closing := e.millTargets(own, empty)
		if opp == 0 {
			closing = 0
		} else if closing != 0 {
			removable = e.removableOf(opp)
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
		if !e.mixed {
			return buf
		}
	}
	steps, mp, third := e.steps(total), &e.partners, e.third
	for f := own; f != 0; f &= f - 1 {
		from := f.First()
		rest := own &^ from.Bit()
		for t := empty & steps[from]; t != 0; t &= t - 1 {
			// The move, or the move with each removable stone when it
			// closes a mill with the mover's other stones.
			to := t.First()
			if opp == 0 || !closes(&mp[to], rest, third) {
				buf = append(buf, Move{from, to, NoPoint})
				continue
			}
			if removable == 0 {
				removable = e.removableOf(opp)
			}
			for x := removable; x != 0; x &= x - 1 {
				buf = append(buf, Move{from, to, x.First()})
			}
		}
	}
	return buf
}

// AppendRemovalMoves appends to buf the legal moves of p that remove a
// stone, each once for each stone it may remove as in AppendMoves, and
// returns them with the number of p's other moves, which it counts
// without generating them: AppendMoves for a caller that needs only the
// removals and how many moves there are besides (the solver's count
// phase). It walks the moves as AppendMoves does, in a loop of its own,
// since a flag in AppendMoves's loop made that 12 % slower (benchstat,
// BenchmarkAppendMoves); TestMovesAgainstNaive holds the two to the
// naive generator.
func (p *Position) AppendRemovalMoves(buf []Move) ([]Move, int) {
	e := &engines[p.Game]
	c := p.Turn
	own, opp := p.Stones[c], p.Stones[c^1]
	total := own.Count() + int(p.Hand[c])
	if total < e.loseBelow {
		return buf, 0
	}
	// removable is 0 until computed, as in AppendMoves: at the first move
	// that closes a mill.
	var removable Bitboard
	n := 0 // the moves without removal
	empty := e.all &^ (own | opp)
	if p.Hand[c] > 0 {
		closing := e.millTargets(own, empty)
		if opp == 0 {
			closing = 0
		} else if closing != 0 {
			removable = e.removableOf(opp)
		}
		n += (empty &^ closing).Count()
		for t := closing; t != 0; t &= t - 1 {
			for x := removable; x != 0; x &= x - 1 {
				buf = append(buf, Move{NoPoint, t.First(), x.First()})
			}
		}
		if !e.mixed {
			return buf, n
		}
	}
	// Only a target where a stone would complete a mill with the mover's
	// stones (the one moved among them) may close one: the others are
	// counted at once.
	steps, mp, third := e.steps(total), &e.partners, e.third
	closing := e.millTargets(own, empty)
	if opp == 0 {
		closing = 0
	}
	for f := own; f != 0; f &= f - 1 {
		from := f.First()
		targets := empty & steps[from]
		n += (targets &^ closing).Count()
		targets &= closing
		if targets == 0 {
			continue
		}
		rest := own &^ from.Bit()
		for t := targets; t != 0; t &= t - 1 {
			to := t.First()
			if !closes(&mp[to], rest, third) {
				n++
				continue
			}
			if removable == 0 {
				removable = e.removableOf(opp)
			}
			for x := removable; x != 0; x &= x - 1 {
				buf = append(buf, Move{from, to, x.First()})
			}
		}
	}
	return buf, n
}

// Moves returns the legal moves of p in a new slice.
func (p *Position) Moves() []Move {
	return p.AppendMoves(make([]Move, 0, 32))
}

// CountMoves returns len(p.Moves()) without generating the moves.
func (p *Position) CountMoves() int {
	e := &engines[p.Game]
	c := p.Turn
	nRemove := e.removableOf(p.Stones[c^1]).Count() // first, while few values are live
	own, opp := p.Stones[c], p.Stones[c^1]
	total := own.Count() + int(p.Hand[c])
	if total < e.loseBelow {
		return 0
	}
	empty := e.all &^ (own | opp)
	n := 0
	if p.Hand[c] > 0 {
		n = empty.Count()
		if nRemove > 0 {
			n += (nRemove - 1) * e.millTargets(own, empty).Count()
		}
		if !e.mixed {
			return n
		}
	}
	steps, mp, third := e.steps(total), &e.partners, e.third
	for f := own; f != 0; f &= f - 1 {
		from := f.First()
		rest := own &^ from.Bit()
		for t := empty & steps[from]; t != 0; t &= t - 1 {
			if nRemove > 0 && closes(&mp[t.First()], rest, third) {
				n += nRemove
			} else {
				n++
			}
		}
	}
	return n
}
