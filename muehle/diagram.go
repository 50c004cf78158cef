package muehle

import (
	"strconv"
	"strings"
)

// diagramTemplate is the board drawn as in docs/rules.md, with a '*' where each
// point's stone goes, points in order 0 to 23.
const diagramTemplate = `7 *-----------*-----------*
  |           |           |
6 |   *-------*-------*   |
  |   |       |       |   |
5 |   |   *---*---*   |   |
  |   |   |       |   |   |
4 *---*---*       *---*---*
  |   |   |       |   |   |
3 |   |   *---*---*   |   |
  |   |       |       |   |
2 |   *-------*-------*   |
  |           |           |
1 *-----------*-----------*
  a   b   c   d   e   f   g
`

// Diagram returns a drawing of the board in several lines, with 'W' and
// 'B' for the stones, '.' for empty points and the coordinates at the
// edges, followed by a line with the side to move and the stones in hand.
func (p Position) Diagram() string {
	var b strings.Builder
	i := Point(0)
	for _, r := range diagramTemplate {
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
	b.WriteByte('\n')
	return b.String()
}
