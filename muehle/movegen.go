package muehle

// MaxMoves bounds the number of legal moves in any position: 3 stones jumping
// to 21 points, each closing a mill and removing one of 9 stones, is the
// worst case; the constant leaves room to spare.
const MaxMoves = 3 * 21 * 9

// IsOver reports whether the side to move has lost: fewer than three stones
// on the board and in hand, or no stones in hand and no legal move.
func (p *Position) IsOver() bool {
	c := p.Turn
	if p.Total(c) < 3 {
		return true
	}
	if p.Hand[c] > 0 {
		return false
	}
	return p.Blocked()
}

// Blocked reports whether the side to move, having no stones in hand,
// cannot slide any stone. A side with three stones can always jump.
func (p *Position) Blocked() bool {
	own := p.Stones[p.Turn]
	if own.Count() <= 3 {
		return own.Count() == 0
	}
	empty := p.Empty()
	for b := own; b != 0; b &= b - 1 {
		if Neighbors[b.First()]&empty != 0 {
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
	if p.Total(c) < 3 {
		return buf
	}
	empty := AllPoints &^ (own | opp)
	removable := Removable(opp)
	if p.Hand[c] > 0 {
		closing := MillTargets(own, empty)
		if removable == 0 {
			closing = 0
		}
		for t := empty; t != 0; t &= t - 1 {
			to := t.First()
			if !closing.Has(to) {
				buf = append(buf, Move{NoPoint, to, NoPoint})
				continue
			}
			for r := removable; r != 0; r &= r - 1 {
				buf = append(buf, Move{NoPoint, to, r.First()})
			}
		}
		return buf
	}
	flying := own.Count() == 3
	for f := own; f != 0; f &= f - 1 {
		from := f.First()
		targets := empty
		if !flying {
			targets &= Neighbors[from]
		}
		rest := own &^ from.Bit()
		for t := targets; t != 0; t &= t - 1 {
			buf = appendWithRemovals(buf, Move{from, t.First(), NoPoint}, rest, removable)
		}
	}
	return buf
}

// appendWithRemovals appends m, or m with each removable stone if m.To
// closes a mill with own (the mover's other stones).
func appendWithRemovals(buf []Move, m Move, own, removable Bitboard) []Move {
	if removable == 0 || !ClosesMill(own, m.To) {
		return append(buf, m)
	}
	for r := removable; r != 0; r &= r - 1 {
		m.Remove = r.First()
		buf = append(buf, m)
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
	if p.Total(c) < 3 {
		return 0
	}
	empty := AllPoints &^ (own | opp)
	nRemove := Removable(opp).Count()
	if p.Hand[c] > 0 {
		n := empty.Count()
		if nRemove > 0 {
			n += (nRemove - 1) * MillTargets(own, empty).Count()
		}
		return n
	}
	n := 0
	flying := own.Count() == 3
	for f := own; f != 0; f &= f - 1 {
		from := f.First()
		targets := empty
		if !flying {
			targets &= Neighbors[from]
		}
		rest := own &^ from.Bit()
		for t := targets; t != 0; t &= t - 1 {
			if nRemove > 0 && ClosesMill(rest, t.First()) {
				n += nRemove
			} else {
				n++
			}
		}
	}
	return n
}
