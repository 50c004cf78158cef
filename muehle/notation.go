package muehle

import (
	"fmt"
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

// ParsePoint parses a coordinate such as "d6" (case-insensitive).
func ParsePoint(s string) (Point, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if len(t) == 2 && t[0] >= 'a' && t[0] <= 'g' && t[1] >= '1' && t[1] <= '7' {
		for p, c := range coords {
			if c[0] == int8(t[0]-'a') && c[1] == int8(t[1]-'1') {
				return Point(p), nil
			}
		}
	}
	return NoPoint, fmt.Errorf("muehle: %q is not a point (a1 to g7 on the board)", s)
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

// ParseMove parses a move in the notation of Move.String. It checks the
// syntax only; whether the move is legal is for the position to say.
func ParseMove(s string) (Move, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	m := Move{NoPoint, NoPoint, NoPoint}
	main, rem, hasRem := strings.Cut(t, "x")
	if hasRem {
		r, err := ParsePoint(rem)
		if err != nil {
			return m, fmt.Errorf("muehle: move %q: removal: %w", s, err)
		}
		m.Remove = r
	}
	from, to, slide := strings.Cut(main, "-")
	if !slide {
		to = from
	} else {
		f, err := ParsePoint(from)
		if err != nil {
			return m, fmt.Errorf("muehle: move %q: origin: %w", s, err)
		}
		m.From = f
	}
	p, err := ParsePoint(to)
	if err != nil {
		return m, fmt.Errorf("muehle: move %q: target: %w", s, err)
	}
	m.To = p
	if m.From == m.To || m.Remove == m.To || (m.Remove != NoPoint && m.Remove == m.From) {
		return m, fmt.Errorf("muehle: move %q names the same point twice", s)
	}
	return m, nil
}
