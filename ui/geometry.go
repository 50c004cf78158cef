package ui

import (
	"math"

	"fyne.io/fyne/v2"

	"muehle/muehle"
)

// geometry maps board points to pixels and back for one widget size. The
// board is a square divided into an 8×8 grid of cells; the points sit on the
// inner grid crossings (a7 one cell from the top left corner, g1 one cell
// from the bottom right), leaving a margin of one cell for the coordinate
// labels. Above the square is a strip for Black's name and stones in hand,
// below it one for White's; square and strips are centred in the widget.
type geometry struct {
	origin fyne.Position // top left corner of the board square
	side   float32       // side length of the board square
	cell   float32       // side / 8
	// flip turns the board by half a turn: g1 at the top left, Black's
	// strip below the square, White's above.
	flip bool
}

// handStrip is the height of a strip with a side's name and stones in
// hand, in cells.
const handStrip = 0.75

// newGeometry returns the geometry of a board drawn in a widget of size s.
func newGeometry(s fyne.Size) geometry {
	cell := max(0, min(s.Width/8, s.Height/(8+2*handStrip)))
	side := 8 * cell
	top := (s.Height - (8+2*handStrip)*cell) / 2
	return geometry{
		origin: fyne.NewPos((s.Width-side)/2, top+handStrip*cell),
		side:   side,
		cell:   cell,
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

// gridOf returns the column (0 = a) and row (0 = top, row 7) of p.
func gridOf(p muehle.Point) (col, row int) {
	s := p.String()
	return int(s[0] - 'a'), int('7' - s[1])
}

// center returns the pixel position of point p.
func (g geometry) center(p muehle.Point) fyne.Position {
	col, row := gridOf(p)
	if g.flip {
		col, row = 6-col, 6-row
	}
	return fyne.NewPos(
		g.origin.X+float32(col+1)*g.cell,
		g.origin.Y+float32(row+1)*g.cell,
	)
}

// stoneRadius returns the radius of a stone.
func (g geometry) stoneRadius() float32 { return g.cell * 0.36 }

// pointAt returns the point whose stone would cover pos, or NoPoint when
// pos is not near any point.
func (g geometry) pointAt(pos fyne.Position) muehle.Point {
	if g.cell <= 0 {
		return muehle.NoPoint
	}
	best, bestD := muehle.NoPoint, float32(math.MaxFloat32)
	for p := range muehle.Point(muehle.NumPoints) {
		c := g.center(p)
		dx, dy := pos.X-c.X, pos.Y-c.Y
		if d := dx*dx + dy*dy; d < bestD {
			best, bestD = p, d
		}
	}
	r := g.cell * 0.45
	if bestD > r*r {
		return muehle.NoPoint
	}
	return best
}

// lerp returns the position a fraction t of the way from a to b.
func lerp(a, b fyne.Position, t float32) fyne.Position {
	return fyne.NewPos(a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t)
}
