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

// MaxUnmoves bounds the number of un-moves of any position of any game: a
// side with three stones in a mill, each of which may have been placed or
// may have jumped from any of at most 21 empty points, with or without any
// of at most 21 removals undone. Un-moves outnumber moves; size their
// buffers with this.
const MaxUnmoves = 3 * 22 * 22

// AppendUnmoves appends to buf every move m that leads to p from a
// position q = p.Unplay(m) in which m is legal and which a game of
// K = p.Rules().Stones stones can hold, and returns it: placements back
// into the hand, slides and jumps back, removals undone. q's hands fit its
// side to move (Rules.HandsFit with K); q can hold at most K stones per
// side and the side that has just moved in q has at least LoseBelow; for a game of
// k < K stones the caller drops the un-moves whose parent fails Validate(k).
// When p passes Validate, this is the exact inverse of AppendMoves: every q
// that passes Validate(K) and has p as a child is found, with each move
// that leads there. It does not allocate when buf has room (MaxUnmoves).
func (p *Position) AppendUnmoves(buf []Move) []Move {
	e := &engines[p.Game]
	r := e.rules
	K := r.Stones
	s := p.Turn
	o := s ^ 1
	own, opp := p.Stones[o], p.Stones[s] // own: the previous mover's stones
	empty := e.all &^ (own | opp)
	L := e.loseBelow
	to3 := p.Total(o)
	if to3 < L {
		return buf // the previous mover would have had no move
	}
	// In q the side to move now (s) has just moved, so it held at least L
	// stones (LoseBelow), and never more than K: a removal gave back one.
	ts := p.Total(s)
	plain, removal := ts >= L && ts <= K, ts >= L-1 && ts < K
	if !plain && !removal {
		return buf
	}
	// In q the previous mover is to move; its hands must fit that (White
	// moves first): after a placement it held one stone more, after a slide
	// or jump both hands were as now, and with separate phases a side with
	// stones in hand places.
	placeHand := p.Hand
	placeHand[o]++
	placed := r.HandsFit(placeHand, o, K)
	slid := (p.Hand[o] == 0 || e.mixed) && r.HandsFit(p.Hand, o, K)
	steps := e.steps(to3) // o's stones, on the board and in hand, are as many in q
	// The un-moves are written by index into out, which has room for all
	// of them (MaxUnmoves): no growth check per un-move, and no call in
	// the loop that would make the compiler keep its values on the stack.
	out, n := room(buf, MaxUnmoves)
	closers := e.inMill(own) // the stones of own that stand in a mill: moving there closed it
	for t := own; t != 0; t &= t - 1 {
		to := t.First()
		if closers&to.Bit() != 0 {
			n = appendUnmovesClosing(out, n, e, to, placed, slid, plain, removal, opp, empty, steps)
			continue
		}
		if !plain {
			continue // without a removal the side to move had too many or too few stones
		}
		if placed { // the stone came from the hand
			out[n] = Move{NoPoint, to, NoPoint}
			n++
		}
		if !slid {
			continue
		}
		for f := empty & steps[to]; f != 0; f &= f - 1 {
			out[n] = Move{f.First(), to, NoPoint}
			n++
		}
	}
	return out[:n]
}

// room returns buf's backing array with room for k more moves after its
// len(buf) moves (a copy when buf has less), and len(buf): the generators
// write their moves by index from there and return out[:n].
func room(buf []Move, k int) (out []Move, n int) {
	n = len(buf)
	if cap(buf)-n < k {
		buf = append(make([]Move, 0, n+k), buf...)
	}
	return buf[:cap(buf)], n
}

// appendUnmovesClosing writes to out from n the un-moves of a stone of
// the previous mover's that stands on to in a mill (so its move there
// closed the mill), as AppendUnmoves gives them, and returns the new n.
func appendUnmovesClosing(out []Move, n int, e *engine, to Point, placed, slid, plain, removal bool, opp, empty Bitboard, steps *[MaxPoints]Bitboard) int {
	if placed {
		n = appendUnremovals(out, n, e, Move{NoPoint, to, NoPoint}, plain, removal, opp, empty)
	}
	if slid {
		for f := empty & steps[to]; f != 0; f &= f - 1 {
			from := f.First()
			n = appendUnremovals(out, n, e, Move{from, to, NoPoint}, plain, removal, opp, empty&^from.Bit())
		}
	}
	return n
}

// appendUnremovals writes to out from n the un-move m, which closed a
// mill, as it was played before p, and returns the new n: with each
// possible removal of a stone on a point of free that was removable next
// to the stones opp, and without removal when opp is empty. plain and
// removal say whether un-moves without and with a removal give a possible
// parent.
func appendUnremovals(out []Move, n int, e *engine, m Move, plain, removal bool, opp, free Bitboard) int {
	if opp == 0 && plain {
		out[n] = m // a mill closed against no stones removes none
		n++
	}
	if !removal {
		return n
	}
	oppFree := opp &^ e.inMill(opp) // opp's stones outside its mills
	for r := free; r != 0; r &= r - 1 {
		rm := r.First()
		// rm was removable from opp+rm unless it stood in a mill there
		// while some stone of opp+rm stood outside every mill.
		mp := &e.partners[rm]
		var completed Bitboard // the mills through rm that opp completes
		if opp&mp[0] == mp[0] {
			completed |= mp[0]
		}
		if opp&mp[1] == mp[1] {
			completed |= mp[1]
		}
		if e.third && opp&mp[2] == mp[2] {
			completed |= mp[2]
		}
		if e.third && opp&mp[3] == mp[3] {
			completed |= mp[3]
		}
		if completed == 0 || oppFree&^completed == 0 || e.takeFromMills {
			m.Remove = rm
			out[n] = m
			n++
		}
	}
	return n
}

// maxUnslides bounds the un-slides of any position: each stone of the
// previous mover's from at most each empty point, a stones and b points
// with a + b ≤ MaxPoints, so at most (MaxPoints/2)² of them.
const maxUnslides = MaxPoints / 2 * MaxPoints / 2

// AppendUnslides appends the un-moves of p that are slides or jumps without
// removal: the parents of p in which the previous mover slid or jumped and
// which stay in the same layer (the same stones on the board and in hand).
// It is the solver's hot loop and does not allocate when buf has room for
// MaxMoves more (TestUnslidesRoom). Like AppendUnmoves, it
// gives only parents in which the side that has just moved holds at least
// three stones; with separate phases only positions without stones in hand
// have un-slides. In a game whose phases mix it gives them whatever the
// hands, also parents whose hands do not fit (Rules.HandsFit): the solver
// computes every split of the hands, and AppendUnmoves gives those of its
// results whose hands fit.
func (p *Position) AppendUnslides(buf []Move) []Move {
	movable, empty, steps := p.unslides()
	out, n := room(buf, maxUnslides)
	for t := movable; t != 0; t &= t - 1 {
		to := t.First()
		for f := empty & steps[to]; f != 0; f &= f - 1 {
			out[n] = Move{f.First(), to, NoPoint}
			n++
		}
	}
	return out[:n]
}

// AppendUnslideSums appends, for each un-slide u of p in the order of
// AppendUnslides, base + w[u.From] - w[u.To] to buf: a sum over the points
// the un-slide touches, such as the change it makes to a position's code
// in an index, without the moves made first. It has room for MaxUnmoves
// more when buf has.
func (p *Position) AppendUnslideSums(buf []uint64, base uint64, w *[32]uint64) []uint64 {
	movable, empty, steps := p.unslides()
	for t := movable; t != 0; t &= t - 1 {
		to := t.First()
		b := base - w[to&31]
		for f := empty & steps[to]; f != 0; f &= f - 1 {
			buf = append(buf, b+w[f.First()&31])
		}
	}
	return buf
}

// unslides returns what the un-slides of p are made of: the stones of the
// previous mover that can have slid or jumped (none when p has no
// un-slides), the empty points, and the points a stone can have come from
// to each point (steps).
func (p *Position) unslides() (movable, empty Bitboard, steps *[MaxPoints]Bitboard) {
	s := p.Turn
	o := s ^ 1
	own, opp := p.Stones[o], p.Stones[s]
	e := &engines[p.Game]
	if !e.mixed && p.Hand[o]|p.Hand[s] != 0 {
		return 0, 0, &e.neighbors // slides happen only when both hands are empty (HandsFit)
	}
	to3 := p.Total(o)
	if to3 < e.loseBelow || p.Total(s) < e.loseBelow {
		return 0, 0, &e.neighbors
	}
	movable = own
	if opp != 0 {
		// A stone in a mill: its move closed the mill and must have
		// removed a stone.
		movable &^= e.inMill(own)
	}
	return movable, e.all &^ (own | opp), e.steps(to3)
}

// UnplacementPoints returns the points from which the previous mover's
// stone may go back into its hand: the parents of p in which that side
// placed a stone there and removed none. Like AppendUnmoves, it admits
// only parents whose hands fit (Rules.HandsFit) and in which the side
// that has just moved holds LoseBelow to K stones. A stone that stands in
// a mill is left out while the side to move has stones: placing it closed
// the mill, which removed one. The placement verifier tries these parents
// one at a time, before those with a removal undone, and stops at the
// first it finds stored: most placement positions have such a parent.
func (p *Position) UnplacementPoints() Bitboard {
	e := &engines[p.Game]
	K := e.rules.Stones
	s := p.Turn
	o := s ^ 1
	own, opp := p.Stones[o], p.Stones[s]
	if ts := p.Total(s); p.Total(o) < e.loseBelow || ts < e.loseBelow || ts > K {
		return 0
	}
	hand := p.Hand
	hand[o]++
	if !e.rules.HandsFit(hand, o, K) {
		return 0
	}
	if opp == 0 {
		return own
	}
	return own &^ e.inMill(own)
}
