package muehle

import (
	"strconv"
	"strings"
)

// Diagram returns a drawing of the board in several lines (docs/rules.md
// draws each), with 'W' and 'B' for the stones, '.' for empty points and
// the coordinates at the edges, followed by a line with the side to move,
// the stones in hand and, unless it is the standard game, the game's name.
func (p Position) Diagram() string {
	var b strings.Builder
	i := Point(0)
	rules := p.Rules()
	if rules == nil {
		rules = Standard.Rules()
	}
	for _, r := range rules.Board.diagram {
		if r != '*' {
			b.WriteRune(r)
			continue
		}
		switch {
		case p.Stones[White].Has(i):
			b.WriteByte('W')
		case p.Stones[Black].Has(i):
			b.WriteByte('B')
		default:
			b.WriteByte('.')
		}
		i++
	}
	b.WriteString(p.Turn.String())
	b.WriteString(" to move; in hand: White ")
	b.WriteString(strconv.Itoa(int(p.Hand[White])))
	b.WriteString(", Black ")
	b.WriteString(strconv.Itoa(int(p.Hand[Black])))
	if p.Game != Standard {
		b.WriteString(" (")
		b.WriteString(rules.Name)
		b.WriteByte(')')
	}
	b.WriteByte('\n')
	return b.String()
}
