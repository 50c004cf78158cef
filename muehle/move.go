package muehle

// Move is one ply: a placement (From == NoPoint), a slide or a jump, with the
// removal of an opponent stone (Remove != NoPoint) when it closes a mill.
type Move struct {
	From, To, Remove Point
}

// NoMove is the move that stands for none: all three points are NoPoint.
// It is never legal; a search stores it where it has no move, a view where
// no move was played.
var NoMove = Move{From: NoPoint, To: NoPoint, Remove: NoPoint}

// Place returns the placement on to, without removal.
func Place(to Point) Move { return Move{From: NoPoint, To: to, Remove: NoPoint} }

// Slide returns the move from from to to (a slide or a jump), without removal.
func Slide(from, to Point) Move { return Move{From: from, To: to, Remove: NoPoint} }

// WithRemoval returns m removing the opponent stone on r.
func (m Move) WithRemoval(r Point) Move { m.Remove = r; return m }

// IsPlacement reports whether m places a stone from the hand.
func (m Move) IsPlacement() bool { return m.From == NoPoint }

// IsRemoval reports whether m removes an opponent stone.
func (m Move) IsRemoval() bool { return m.Remove != NoPoint }

// Play returns the position after m. It does not check legality: m must
// come from Moves or be checked with IsLegal. The old position is what undoes it.
func (p Position) Play(m Move) Position {
	c := p.Turn
	if m.From == NoPoint {
		p.Hand[c]--
	} else {
		p.Stones[c] &^= m.From.Bit()
	}
	p.Stones[c] |= m.To.Bit()
	if m.Remove != NoPoint {
		p.Stones[c^1] &^= m.Remove.Bit()
	}
	p.Turn = c ^ 1
	return p
}

// IsLegal reports whether m is one of the legal moves in p.
func (p *Position) IsLegal(m Move) bool {
	var buf [MaxMoves]Move
	for _, l := range p.AppendMoves(buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}
