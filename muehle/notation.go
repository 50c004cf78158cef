package muehle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// String returns the point's coordinate, a1 to g7, or "-" for NoPoint.
func (p Point) String() string {
	if p < 0 || p >= NumPoints {
		return "-"
	}
	c := coords[p]
	return string([]byte{'a' + byte(c[0]), '1' + byte(c[1])})
}

// ParsePoint parses a coordinate such as "d6" (case-insensitive, spaces
// around it ignored).
func ParsePoint(s string) (Point, error) {
	if p, ok := parsePoint(s); ok {
		return p, nil
	}
	return NoPoint, fmt.Errorf("%w: %q is not a point (a1 to g7 on the board)", ErrSyntax, s)
}

// parsePoint is ParsePoint without the error.
func parsePoint(s string) (Point, bool) {
	t := strings.ToLower(strings.TrimSpace(s))
	if len(t) == 2 && t[0] >= 'a' && t[0] <= 'g' && t[1] >= '1' && t[1] <= '7' {
		for p, c := range coords {
			if c[0] == int8(t[0]-'a') && c[1] == int8(t[1]-'1') {
				return Point(p), true
			}
		}
	}
	return NoPoint, false
}

// String returns the move in the notation of doc.go: "d6" (place),
// "d6-d5" (slide or jump), with "xa1" appended for a removal.
func (m Move) String() string {
	var b strings.Builder
	if m.From != NoPoint {
		b.WriteString(m.From.String())
		b.WriteByte('-')
	}
	b.WriteString(m.To.String())
	if m.Remove != NoPoint {
		b.WriteByte('x')
		b.WriteString(m.Remove.String())
	}
	return b.String()
}

// ParseMove parses a move in the notation of Move.String ("d6", "d6-d5",
// "b4-b6xd7", "d6xa1"; case-insensitive). It checks the syntax only;
// whether the move is legal is for the position to say (Position.CheckMove).
func ParseMove(s string) (Move, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	m := NoMove
	main, rem, hasRem := strings.Cut(t, "x")
	if hasRem {
		r, ok := parsePoint(rem)
		if !ok {
			return m, fmt.Errorf("%w: move %q: the removed stone %q is not a point (a1 to g7)", ErrSyntax, s, rem)
		}
		m.Remove = r
	}
	from, to, slide := strings.Cut(main, "-")
	if !slide {
		to = from
	} else {
		f, ok := parsePoint(from)
		if !ok {
			return m, fmt.Errorf("%w: move %q: the origin %q is not a point (a1 to g7)", ErrSyntax, s, from)
		}
		m.From = f
	}
	p, ok := parsePoint(to)
	if !ok {
		return m, fmt.Errorf("%w: move %q: the target %q is not a point (a1 to g7)", ErrSyntax, s, to)
	}
	m.To = p
	if m.From == m.To || m.Remove == m.To || (m.Remove != NoPoint && m.Remove == m.From) {
		return m, fmt.Errorf("%w: move %q names the same point twice", ErrSyntax, s)
	}
	return m, nil
}

// String returns the one-line position text of doc.go: the 24 points in
// order 0 to 23 as 'W', 'B' or '.', the side to move 'w' or 'b', and the
// stones in hand of White and of Black, e.g. "........................ w 9 9".
func (p Position) String() string {
	var b [24 + 1 + 1 + 1 + 3 + 1 + 3]byte
	s := b[:0]
	for i := range Point(NumPoints) {
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
	return string(s)
}

// ErrSyntax is wrapped by every error of the parsers of this package
// (ParsePosition, ParseRecord) that reports malformed text.
var ErrSyntax = errors.New("muehle: syntax error")

// ParsePosition parses the one-line position text of Position.String,
// ignoring spaces around it and between the fields. It checks the syntax
// and that each hand holds 0 to 9 stones; whether the position can occur
// in a game of k stones is for Position.Validate to say. Errors name the
// character or field that is wrong.
func ParsePosition(s string) (Position, error) {
	var p Position
	f := strings.Fields(s)
	if len(f) != 4 {
		return p, fmt.Errorf("%w: position %q: want 4 fields (board, side to move, White's and Black's stones in hand), got %d", ErrSyntax, s, len(f))
	}
	board := f[0]
	if len(board) != NumPoints {
		return p, fmt.Errorf("%w: position %q: board has %d characters, want 24 (one per point, a7 first, g1 last)", ErrSyntax, s, len(board))
	}
	for i := range Point(NumPoints) {
		switch c := board[i]; c {
		case 'W':
			p.Stones[White] |= i.Bit()
		case 'B':
			p.Stones[Black] |= i.Bit()
		case '.':
		default:
			return p, fmt.Errorf("%w: position %q: board character %d (point %s) is %q, want 'W', 'B' or '.'", ErrSyntax, s, i+1, i, c)
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
		if len(h) != 1 || h[0] < '0' || h[0] > '9' {
			return p, fmt.Errorf("%w: position %q: %s's stones in hand are %q, want a number from 0 to 9", ErrSyntax, s, c, h)
		}
		p.Hand[c] = h[0] - '0'
	}
	return p, nil
}
