package muehle

// Unplay returns the position before m was played in p, where m is one of
// the un-moves of p (see AppendUnmoves): the previous mover's stone goes back
// from m.To to m.From (or into the hand), and a removed stone returns.
func (p Position) Unplay(m Move) Position {
	o := p.Turn ^ 1
	p.Stones[o] &^= m.To.Bit()
	if m.From == NoPoint {
		p.Hand[o]++
	} else {
		p.Stones[o] |= m.From.Bit()
	}
	if m.Remove != NoPoint {
		p.Stones[p.Turn] |= m.Remove.Bit()
	}
	p.Turn = o
	return p
}

// AppendUnmoves appends to buf every move m such that some position q has m
// among its legal moves and q.Play(m) == p, and returns it; q is p.Unplay(m).
// It is the exact inverse of AppendMoves: placements back into the hand,
// slides and jumps back, and removals undone. It does not allocate when buf
// has room.
func (p *Position) AppendUnmoves(buf []Move) []Move {
	s := p.Turn
	o := s ^ 1
	own, opp := p.Stones[o], p.Stones[s] // own: the previous mover's stones
	empty := AllPoints &^ (own | opp)
	if p.Total(o) < 3 {
		return buf // the previous mover would have had no move
	}
	for t := own; t != 0; t &= t - 1 {
		to := t.First()
		rest := own &^ to.Bit()
		mill := ClosesMill(rest, to)
		// Placement: the stone came from the hand.
		buf = appendUnremovals(buf, Move{NoPoint, to, NoPoint}, mill, opp, empty)
		if p.Hand[o] > 0 {
			continue // a side with stones in hand places; it cannot have slid
		}
		froms := empty
		if own.Count() > 3 {
			froms &= Neighbors[to]
		}
		for f := froms; f != 0; f &= f - 1 {
			from := f.First()
			buf = appendUnremovals(buf, Move{from, to, NoPoint}, mill, opp, empty&^from.Bit())
		}
	}
	return buf
}

// appendUnremovals appends the un-move m as it was played before p: without
// removal unless m closed a mill, and then with each possible removal of a
// stone on a point of free that was removable next to the stones opp.
func appendUnremovals(buf []Move, m Move, mill bool, opp, free Bitboard) []Move {
	if !mill {
		return append(buf, m)
	}
	if opp == 0 {
		buf = append(buf, m) // a mill closed against no stones removes none
	}
	for r := free; r != 0; r &= r - 1 {
		rm := r.First()
		before := opp | rm.Bit()
		if Removable(before).Has(rm) {
			m.Remove = rm
			buf = append(buf, m)
		}
	}
	return buf
}

// AppendUnslides appends the un-moves of p that are slides or jumps without
// removal: the parents of p in the moving phase that stay in the same pair of
// layers. It is the solver's hot loop and allocates nothing.
func (p *Position) AppendUnslides(buf []Move) []Move {
	s := p.Turn
	o := s ^ 1
	own := p.Stones[o]
	if p.Hand[o] > 0 || p.Total(o) < 3 {
		return buf
	}
	empty := AllPoints &^ (own | p.Stones[s])
	flying := own.Count() == 3
	for t := own; t != 0; t &= t - 1 {
		to := t.First()
		if ClosesMill(own&^to.Bit(), to) && p.Stones[s] != 0 {
			continue // that move closed a mill and must have removed a stone
		}
		froms := empty
		if !flying {
			froms &= Neighbors[to]
		}
		for f := froms; f != 0; f &= f - 1 {
			buf = append(buf, Move{f.First(), to, NoPoint})
		}
	}
	return buf
}
