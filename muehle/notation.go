package muehle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// String returns the point's coordinate on the standard board, a1 to g7,
// or "-" for NoPoint (Board.PointName names the points of every board).
func (p Point) String() string { return StandardBoard.PointName(p) }

// PointName returns the coordinate of p on b, such as "a7", or "-" for
// NoPoint and numbers off the board.
func (b *Board) PointName(p Point) string {
	if p < 0 || int(p) >= b.n {
		return "-"
	}
	c := b.coords[p]
	return string([]byte{'a' + byte(c[0]), '1' + byte(c[1])})
}

// span returns the range of coordinates of b for messages, e.g. "a1 to g7".
func (b *Board) span() string {
	var cols, rows int8
	for _, c := range b.coords {
		cols, rows = max(cols, c[0]), max(rows, c[1])
	}
	return "a1 to " + string([]byte{'a' + byte(cols), '1' + byte(rows)})
}

// ParsePoint parses a coordinate of the standard board such as "d6"
// (case-insensitive, spaces around it ignored).
func ParsePoint(s string) (Point, error) { return StandardBoard.ParsePoint(s) }

// ParsePoint parses a coordinate of b such as "d6" (case-insensitive,
// spaces around it ignored).
func (b *Board) ParsePoint(s string) (Point, error) {
	if p, ok := b.parsePoint(s); ok {
		return p, nil
	}
	return NoPoint, fmt.Errorf("%w: %q is not a point (%s on the board)", ErrSyntax, s, b.span())
}

// parsePoint is ParsePoint without the error.
func (b *Board) parsePoint(s string) (Point, bool) {
	t := strings.ToLower(strings.TrimSpace(s))
	if len(t) == 2 && t[0] >= 'a' && t[0] <= 'z' && t[1] >= '1' && t[1] <= '9' {
		for p, c := range b.coords {
			if c[0] == int8(t[0]-'a') && c[1] == int8(t[1]-'1') {
				return Point(p), true
			}
		}
	}
	return NoPoint, false
}

// String returns the move in the notation of doc.go on the standard board:
// "d6" (place), "d6-d5" (slide or jump), with "xa1" appended for a removal
// (Board.MoveString writes the moves of every board).
func (m Move) String() string { return StandardBoard.MoveString(m) }

// MoveString returns m in the notation of doc.go with the point names of b.
func (b *Board) MoveString(m Move) string {
	var s strings.Builder
	if m.From != NoPoint {
		s.WriteString(b.PointName(m.From))
		s.WriteByte('-')
	}
	s.WriteString(b.PointName(m.To))
	if m.Remove != NoPoint {
		s.WriteByte('x')
		s.WriteString(b.PointName(m.Remove))
	}
	return s.String()
}

// ParseMove parses a move of the standard board in the notation of
// Move.String ("d6", "d6-d5", "b4-b6xd7", "d6xa1"; case-insensitive). It
// checks the syntax only; whether the move is legal is for the position to
// say (Position.CheckMove).
func ParseMove(s string) (Move, error) { return StandardBoard.ParseMove(s) }

// ParseMove parses a move in the notation of Board.MoveString with the
// point names of b, as the package function ParseMove does.
func (b *Board) ParseMove(s string) (Move, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	m := NoMove
	main, rem, hasRem := strings.Cut(t, "x")
	if hasRem {
		r, ok := b.parsePoint(rem)
		if !ok {
			return m, fmt.Errorf("%w: move %q: the removed stone %q is not a point (%s)", ErrSyntax, s, rem, b.span())
		}
		m.Remove = r
	}
	from, to, slide := strings.Cut(main, "-")
	if !slide {
		to = from
	} else {
		f, ok := b.parsePoint(from)
		if !ok {
			return m, fmt.Errorf("%w: move %q: the origin %q is not a point (%s)", ErrSyntax, s, from, b.span())
		}
		m.From = f
	}
	p, ok := b.parsePoint(to)
	if !ok {
		return m, fmt.Errorf("%w: move %q: the target %q is not a point (%s)", ErrSyntax, s, to, b.span())
	}
	m.To = p
	if m.From == m.To || m.Remove == m.To || (m.Remove != NoPoint && m.Remove == m.From) {
		return m, fmt.Errorf("%w: move %q names the same point twice", ErrSyntax, s)
	}
	return m, nil
}

// String returns the one-line position text of doc.go: the points of the
// board in order from 0 as 'W', 'B' or '.', the side to move 'w' or 'b',
// the stones in hand of White and of Black, and, unless the game is the
// standard one, its ID, e.g. "........................ w 9 9" and
// "........................ w 12 12 twelve".
func (p Position) String() string {
	n := NumPoints
	if r := p.Rules(); r != nil {
		n = r.Board.n
	}
	var b [MaxPoints + 16]byte
	s := b[:0]
	for i := range Point(n) {
		switch {
		case p.Stones[White].Has(i) && p.Stones[Black].Has(i):
			s = append(s, '?') // impossible, but visible rather than hidden
		case p.Stones[White].Has(i):
			s = append(s, 'W')
		case p.Stones[Black].Has(i):
			s = append(s, 'B')
		default:
			s = append(s, '.')
		}
	}
	s = append(s, ' ', "wb"[p.Turn&1], ' ')
	s = strconv.AppendUint(s, uint64(p.Hand[White]), 10)
	s = append(s, ' ')
	s = strconv.AppendUint(s, uint64(p.Hand[Black]), 10)
	if p.Game != Standard {
		s = append(s, ' ')
		s = append(s, p.Game.String()...)
	}
	return string(s)
}

// ErrSyntax is wrapped by every error of the parsers of this package
// (ParsePosition, ParseRecord) that reports malformed text.
var ErrSyntax = errors.New("muehle: syntax error")

// ParsePosition parses the one-line position text of Position.String,
// ignoring spaces around it and between the fields: a text of four fields
// is a position of the standard game, a fifth names the game. It checks the
// syntax and that each hand holds 0 to the game's stones; whether the
// position can occur in a game of k stones is for Position.Validate to say.
// Errors name the character or field that is wrong.
func ParsePosition(s string) (Position, error) { return parsePosition(s, nil) }

// ParsePosition parses a position text as the package function does, but
// takes a text of four fields as a position of r, and refuses one whose
// fifth field names another game.
func (r *Rules) ParsePosition(s string) (Position, error) { return parsePosition(s, r) }

// parsePosition parses a position text; def is the game of a text without
// a game field (nil: the standard game, and any game field is accepted).
func parsePosition(s string, def *Rules) (Position, error) {
	var p Position
	f := strings.Fields(s)
	if len(f) != 4 && len(f) != 5 {
		return p, fmt.Errorf("%w: position %q: want 4 fields (board, side to move, White's and Black's stones in hand) and optionally a fifth naming the game, got %d", ErrSyntax, s, len(f))
	}
	r := def
	if r == nil {
		r = Standard.Rules()
	}
	if len(f) == 5 {
		g, ok := GameByName(f[4])
		if !ok {
			return p, fmt.Errorf("%w: position %q: the fifth field %q names no game (want one of %s)", ErrSyntax, s, f[4], GameIDs())
		}
		if def != nil && g != def {
			return p, fmt.Errorf("%w: position %q is one of %s, not of %s", ErrSyntax, s, g.Name, def.Name)
		}
		r = g
	}
	p.Game = r.game
	b := r.Board
	board := f[0]
	if len(board) != b.n {
		return p, fmt.Errorf("%w: position %q: board has %d characters, want %d (one per point, %s first, %s last)",
			ErrSyntax, s, len(board), b.n, b.PointName(0), b.PointName(Point(b.n-1)))
	}
	for i := range Point(b.n) {
		switch c := board[i]; c {
		case 'W':
			p.Stones[White] |= i.Bit()
		case 'B':
			p.Stones[Black] |= i.Bit()
		case '.':
		default:
			return p, fmt.Errorf("%w: position %q: board character %d (point %s) is %q, want 'W', 'B' or '.'", ErrSyntax, s, i+1, b.PointName(i), c)
		}
	}
	switch f[1] {
	case "w":
		p.Turn = White
	case "b":
		p.Turn = Black
	default:
		return p, fmt.Errorf("%w: position %q: side to move is %q, want \"w\" or \"b\"", ErrSyntax, s, f[1])
	}
	for c := White; c <= Black; c++ {
		h := f[2+int(c)]
		n, err := strconv.Atoi(h)
		if err != nil || n < 0 || n > r.Stones || len(h) != len(strconv.Itoa(n)) {
			return p, fmt.Errorf("%w: position %q: %s's stones in hand are %q, want a number from 0 to %d", ErrSyntax, s, c, h, r.Stones)
		}
		p.Hand[c] = uint8(n)
	}
	return p, nil
}
