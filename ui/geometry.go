package ui

import (
	"math"

	"fyne.io/fyne/v2"

	"muehle/muehle"
)

// geometry maps the points of a board to pixels and back for one widget
// size, from the board's own coordinates (muehle.Board.Coord). The board
// is a square; its points lie on an n×n grid (n = 7 for the boards of 24
// points, 5 for the one of 16, 3 for Three Men's Morris), step pixels
// apart, with a margin of one step around it for the coordinate labels (a7
// one step from the top left corner of the standard board, g1 one from the
// bottom right). The unit of the strips, the text and the marks is the
// cell, an eighth of the square whatever the board, so a small board has
// the same strips and larger gaps between its points. Above the square is
// a strip for Black's name and stones in hand, below it one for White's;
// square and strips are centred in the widget.
type geometry struct {
	board  *muehle.Board
	n      int           // the points' grid: columns a.. and rows 1..n
	origin fyne.Position // top left corner of the board square
	side   float32       // side length of the board square
	cell   float32       // side / 8
	step   float32       // side / (n+1): the distance of neighbouring grid lines
	// flip turns the board by half a turn: g1 at the top left, Black's
	// strip below the square, White's above.
	flip bool
}

// handStrip is the height of a strip with a side's name and stones in
// hand, in cells.
const handStrip = 0.75

// maxGrid bounds the grid of every board: point names run from a1 to z9,
// and the renderer has a label for each of 9 columns and rows.
const maxGrid = 9

// gridSize returns the size of the smallest square grid that holds the
// points of b: one more than its largest column or row.
func gridSize(b *muehle.Board) int {
	n := 1
	for p := range muehle.Point(b.NumPoints()) {
		col, row := b.Coord(p)
		n = max(n, col+1, row+1)
	}
	return n
}

// newGeometry returns the geometry of board b drawn in a widget of size s.
func newGeometry(s fyne.Size, b *muehle.Board) geometry {
	cell := max(0, min(s.Width/8, s.Height/(8+2*handStrip)))
	side := 8 * cell
	top := (s.Height - (8+2*handStrip)*cell) / 2
	n := gridSize(b)
	return geometry{
		board:  b,
		n:      n,
		origin: fyne.NewPos((s.Width-side)/2, top+handStrip*cell),
		side:   side,
		cell:   cell,
		step:   side / float32(n+1),
	}
}

// panel returns the top left corner and the size of the wooden panel: the
// square and both strips.
func (g geometry) panel() (fyne.Position, fyne.Size) {
	return fyne.NewPos(g.origin.X, g.origin.Y-handStrip*g.cell), fyne.NewSize(g.side, g.side+2*handStrip*g.cell)
}

// handY returns the vertical centre of col's strip: Black's above the
// square, White's below.
func (g geometry) handY(col muehle.Color) float32 {
	if (col == muehle.Black) != g.flip {
		return g.origin.Y - handStrip*g.cell/2
	}
	return g.origin.Y + g.side + handStrip*g.cell/2
}

// The stones in hand, in cells: the radius of one, the distance of two
// stones' centres, the most a full hand's centres span (nine stones
// handStep apart), the least distance when the name leaves little room,
// and the first stone's centre from the right edge.
const (
	handRadius  = 0.24
	handStep    = 0.34
	handSpan    = 8 * handStep
	handStepMin = 0.1
	handRight   = 0.45
)

// handStep returns the distance in pixels of two stones' centres in a
// hand of at most n stones whose strip holds the player's name up to x:
// handStep cells; closer for more than nine stones (Twelve Men's Morris),
// which span what nine do; and closer still, down to handStepMin, when the
// name leaves less room, so that no stone covers it.
func (g geometry) handStep(n int, x float32) float32 {
	step := float32(handStep) * g.cell
	if n > 1 {
		room := g.origin.X + g.side - handRight*g.cell - (x + (0.1+handRadius)*g.cell)
		step = min(step, handSpan*g.cell/float32(n-1), room/float32(n-1))
	}
	return max(step, handStepMin*g.cell)
}

// handStone returns the centre of the i-th stone in col's hand, counted
// from the right edge, step pixels apart (handStep); the stones overlap a
// little, as a pile would.
func (g geometry) handStone(col muehle.Color, i int, step float32) fyne.Position {
	return fyne.NewPos(g.origin.X+g.side-handRight*g.cell-step*float32(i), g.handY(col))
}

// handAt returns the side whose strip (its name and its stones in hand)
// holds pos, and false when pos is in neither.
func (g geometry) handAt(pos fyne.Position) (muehle.Color, bool) {
	if g.cell <= 0 || pos.X < g.origin.X || pos.X > g.origin.X+g.side {
		return muehle.White, false
	}
	for col := muehle.White; col <= muehle.Black; col++ {
		if y := g.handY(col); pos.Y >= y-handStrip*g.cell/2 && pos.Y <= y+handStrip*g.cell/2 {
			return col, true
		}
	}
	return muehle.White, false
}

// gridOf returns the column (0 = a) and the row counted from the top (0 =
// the highest rank) of p on the screen, turned when the board is.
func (g geometry) gridOf(p muehle.Point) (col, row int) {
	col, rank := g.board.Coord(p)
	row = g.n - 1 - rank
	if g.flip {
		col, row = g.n-1-col, g.n-1-row
	}
	return col, row
}

// center returns the pixel position of point p.
func (g geometry) center(p muehle.Point) fyne.Position {
	col, row := g.gridOf(p)
	return fyne.NewPos(
		g.origin.X+float32(col+1)*g.step,
		g.origin.Y+float32(row+1)*g.step,
	)
}

// spot returns the size around a point that its stone and its hit area
// scale with: the cell on the boards of 24 points, up to 1.4 cells on the
// smaller boards, whose points lie further apart.
func (g geometry) spot() float32 { return min(g.step, 1.4*g.cell) }

// stoneRadius returns the radius of a stone.
func (g geometry) stoneRadius() float32 { return g.spot() * 0.36 }

// labelGap returns the distance of the coordinate labels' centres from the
// outer grid lines: 0.55 cells beside the stones of the boards of 24
// points, further beside the larger stones of the smaller boards.
func (g geometry) labelGap() float32 { return 0.55*g.cell + g.stoneRadius() - 0.36*g.cell }

// labelPos returns the centre of coordinate label i: the columns' letters
// below the lowest row (i < n), then the ranks' digits left of the first
// column, each labelGap from the grid, and its text; on a turned board
// the letters and digits run the other way.
func (g geometry) labelPos(i int) (fyne.Position, string) {
	if i < g.n {
		col := i
		if g.flip {
			col = g.n - 1 - i
		}
		return fyne.NewPos(g.origin.X+float32(i+1)*g.step, g.origin.Y+float32(g.n)*g.step+g.labelGap()), string(rune('a' + col))
	}
	r := i - g.n
	rank := g.n - 1 - r
	if g.flip {
		rank = r
	}
	return fyne.NewPos(g.origin.X+g.step-g.labelGap(), g.origin.Y+float32(r+1)*g.step), string(rune('1' + rank))
}

// pointAt returns the point whose stone would cover pos, or NoPoint when
// pos is not near any point.
func (g geometry) pointAt(pos fyne.Position) muehle.Point {
	if g.cell <= 0 {
		return muehle.NoPoint
	}
	best, bestD := muehle.NoPoint, float32(math.MaxFloat32)
	for p := range muehle.Point(g.board.NumPoints()) {
		c := g.center(p)
		dx, dy := pos.X-c.X, pos.Y-c.Y
		if d := dx*dx + dy*dy; d < bestD {
			best, bestD = p, d
		}
	}
	r := g.spot() * 0.45
	if bestD > r*r {
		return muehle.NoPoint
	}
	return best
}

// lerp returns the position a fraction t of the way from a to b.
func lerp(a, b fyne.Position, t float32) fyne.Position {
	return fyne.NewPos(a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t)
}
