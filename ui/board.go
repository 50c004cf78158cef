package ui

import (
	"image/color"
	"math"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/ui/game"
)

// stoneAnim is a stone on its way: the move, its colour and the progress
// from 0 to 1.
type stoneAnim struct {
	move  muehle.Move
	color muehle.Color
	t     float32
	anim  *fyne.Animation
}

// Board is the widget that draws the board of the game shown from its own
// geometry (the three rings, with the four diagonals in Twelve Men's
// Morris; the two of Six Men's Morris; the 3×3 grid of Three Men's Morris),
// the stones, the
// legal targets, the last move and the mill it closed, the perfect-move
// marks, and for each side its player's name and its stones in hand,
// framed when the view's Hand chose them. It scales with its size (square,
// centred). A tap near a point calls OnTapped with that point, a tap on a
// side's strip OnHandTapped with that side.
type Board struct {
	widget.BaseWidget

	// OnTapped is called with the point under a tap.
	OnTapped func(muehle.Point)
	// OnHandTapped is called with the side whose strip, its name and its
	// stones in hand, is under a tap.
	OnHandTapped func(muehle.Color)

	view    game.View
	anim    *stoneAnim
	flipped bool // turned by half a turn, Black at the bottom
}

// SetFlipped turns the board by half a turn (on) or back: with it turned,
// g1 is at the top left and Black's stones in hand below the board.
func (b *Board) SetFlipped(on bool) {
	if b.flipped != on {
		b.flipped = on
		b.Refresh()
	}
}

// Flipped reports whether the board is turned.
func (b *Board) Flipped() bool { return b.flipped }

// geometry returns the geometry of the board of the game shown at the
// widget's size.
func (b *Board) geometry() geometry {
	g := newGeometry(b.Size(), b.view.Pos.Board())
	g.flip = b.flipped
	return g
}

// NewBoard returns a board showing the empty board.
func NewBoard() *Board {
	b := &Board{view: game.EmptyView(muehle.NewPosition(muehle.StonesPerSide))}
	b.ExtendBaseWidget(b)
	return b
}

// SetView shows v at once, ending any animation.
func (b *Board) SetView(v game.View) {
	b.stopAnim()
	b.view = v
	b.Refresh()
}

// Update shows v. A running animation goes on when v shows the same
// position (new marks, say) and ends otherwise.
func (b *Board) Update(v game.View) {
	if b.anim != nil && v.Pos != b.view.Pos {
		b.stopAnim()
	}
	b.view = v
	b.Refresh()
}

// View returns what the board shows.
func (b *Board) View() game.View { return b.view }

// Animate shows v, with the stone of move m (played by c) travelling to its
// target over d. A placement grows on its point; a removed stone fades out.
func (b *Board) Animate(v game.View, m muehle.Move, c muehle.Color, d time.Duration) {
	b.stopAnim()
	b.view = v
	if d <= 0 || m.To == muehle.NoPoint {
		b.Refresh()
		return
	}
	a := &stoneAnim{move: m, color: c}
	a.anim = fyne.NewAnimation(d, func(t float32) {
		if b.anim != a {
			return
		}
		a.t = t
		if t >= 1 {
			b.anim = nil
		}
		b.Refresh()
	})
	a.anim.Curve = fyne.AnimationEaseInOut
	b.anim = a
	b.Refresh()
	a.anim.Start()
}

// Animating reports whether a stone is on its way.
func (b *Board) Animating() bool { return b.anim != nil }

func (b *Board) stopAnim() {
	if a := b.anim; a != nil {
		b.anim = nil
		a.anim.Stop()
	}
}

// Tapped hit-tests the tap and reports the point under it, or the side
// whose strip is under it.
func (b *Board) Tapped(ev *fyne.PointEvent) {
	g := b.geometry()
	if p := g.pointAt(ev.Position); p != muehle.NoPoint {
		if b.OnTapped != nil {
			b.OnTapped(p)
		}
		return
	}
	if col, ok := g.handAt(ev.Position); ok && b.OnHandTapped != nil {
		b.OnHandTapped(col)
	}
}

// TapPoint taps point p as a person would; tests and scripts use it.
func (b *Board) TapPoint(p muehle.Point) {
	b.Tapped(&fyne.PointEvent{Position: b.geometry().center(p)})
}

// TapHand taps the first of col's stones in hand (where it would lie when
// the hand is empty) as a person would; tests use it.
func (b *Board) TapHand(col muehle.Color) {
	b.Tapped(&fyne.PointEvent{Position: b.geometry().handStone(col, 0, 0)})
}

// MinSize keeps the board large enough to hit a point.
func (b *Board) MinSize() fyne.Size { return fyne.NewSize(280, 280*(8+2*handStrip)/8) }

// CreateRenderer builds the canvas objects of the board.
func (b *Board) CreateRenderer() fyne.WidgetRenderer {
	r := &boardRenderer{board: b, bg: canvas.NewRectangle(boardColor)}
	r.objects = append(r.objects, r.bg)
	for i := range r.lines {
		r.lines[i] = canvas.NewLine(lineColor)
		r.objects = append(r.objects, r.lines[i])
	}
	for i := range r.millLines {
		r.millLines[i] = canvas.NewLine(millColor)
		r.objects = append(r.objects, r.millLines[i])
	}
	r.handFrame = canvas.NewRectangle(transparent)
	r.handFrame.StrokeColor = selectColor
	r.handFrame.Hide()
	r.objects = append(r.objects, r.handFrame)
	for col := range r.names {
		r.names[col] = canvas.NewText("", labelColor)
		r.objects = append(r.objects, r.names[col])
		for i := range r.hand[col] {
			r.hand[col][i] = canvas.NewCircle(transparent)
			r.objects = append(r.objects, r.hand[col][i])
		}
	}
	for i := range r.labels {
		r.labels[i] = canvas.NewText("", labelColor)
		r.labels[i].Alignment = fyne.TextAlignCenter
		r.objects = append(r.objects, r.labels[i])
	}
	for i := range r.dots {
		r.dots[i] = canvas.NewCircle(lineColor)
		r.objects = append(r.objects, r.dots[i])
	}
	r.lastFrom = ring(lastMoveColor)
	r.lastTo = ring(lastMoveColor)
	r.objects = append(r.objects, r.lastFrom, r.lastTo)
	for i := range r.stones {
		r.stones[i] = canvas.NewCircle(transparent)
		r.objects = append(r.objects, r.stones[i])
	}
	r.ghost = canvas.NewCircle(transparent)
	r.flying = canvas.NewCircle(transparent)
	r.selected = ring(selectColor)
	r.lastRemoved = canvas.NewText("×", lastMoveColor)
	r.lastRemoved.Alignment = fyne.TextAlignCenter
	r.lastRemoved.TextStyle.Bold = true
	r.objects = append(r.objects, r.ghost, r.flying, r.selected, r.lastRemoved)
	for i := range r.best {
		r.best[i] = canvas.NewLine(bestColor)
		r.best[i].Hide()
		r.objects = append(r.objects, r.best[i])
	}
	r.bestTo = ring(bestColor)
	r.bestRemove = ring(removeColor)
	r.objects = append(r.objects, r.bestTo, r.bestRemove)
	for i := range r.targets {
		r.targets[i] = canvas.NewCircle(transparent)
		r.objects = append(r.objects, r.targets[i])
	}
	for i := range r.badges {
		r.badges[i] = canvas.NewRectangle(transparent)
		r.marks[i] = canvas.NewText("", markTextOnDark)
		r.marks[i].Alignment = fyne.TextAlignCenter
		r.marks[i].TextStyle.Bold = true
		r.objects = append(r.objects, r.badges[i], r.marks[i])
	}
	r.update()
	return r
}

func ring(c color.Color) *canvas.Circle {
	o := canvas.NewCircle(transparent)
	o.StrokeColor = c
	o.Hide()
	return o
}

// maxEdges is the most edges a board has (the diagonal board of Twelve
// Men's Morris: 40); the renderer has a line for each.
const maxEdges = 40

// boardRenderer lays out and refreshes the board's objects; all drawing
// decisions come from the board's view and animation.
type boardRenderer struct {
	board     *Board
	objects   []fyne.CanvasObject
	bg        *canvas.Rectangle
	lines     [maxEdges]*canvas.Line // the board's edges; those of a board with fewer hidden
	millLines [maxEdges]*canvas.Line // the edges of the mill just closed, drawn over lines
	names     [2]*canvas.Text        // "White · Human" in the strips
	hand      [2][muehle.MaxStones]*canvas.Circle
	handFrame *canvas.Rectangle         // around the stones in hand of the side to move when the view's Hand chose them
	labels    [2 * maxGrid]*canvas.Text // a..g along the bottom, 7..1 along the left (geometry.labelPos)
	// One of each for every point a board may have; those of a board with
	// fewer points hidden.
	dots     [muehle.MaxPoints]*canvas.Circle
	stones   [muehle.MaxPoints]*canvas.Circle
	targets  [muehle.MaxPoints]*canvas.Circle
	badges   [muehle.MaxPoints]*canvas.Rectangle
	marks    [muehle.MaxPoints]*canvas.Text
	lastFrom *canvas.Circle
	lastTo   *canvas.Circle
	selected *canvas.Circle
	ghost    *canvas.Circle // a removed stone fading out
	flying   *canvas.Circle // the stone on its way

	lastRemoved *canvas.Text
	best        [3]*canvas.Line // the view's Best move: shaft and two barbs
	bestTo      *canvas.Circle  // its target point
	bestRemove  *canvas.Circle  // the stone it removes
}

func (r *boardRenderer) Destroy()                     {}
func (r *boardRenderer) Layout(fyne.Size)             { r.update() }
func (r *boardRenderer) MinSize() fyne.Size           { return r.board.MinSize() }
func (r *boardRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *boardRenderer) Refresh()                     { r.update(); canvas.Refresh(r.board) }

// place puts a circle of radius rad around centre c.
func place(o fyne.CanvasObject, c fyne.Position, rad float32) {
	o.Move(fyne.NewPos(c.X-rad, c.Y-rad))
	o.Resize(fyne.NewSquareSize(2 * rad))
}

// update positions and colours every object for the current size and
// view: the fixed drawing of the board, then the state of every point, then
// the stone on its way.
func (r *boardRenderer) update() {
	g := r.board.geometry()
	r.layoutBoard(g)
	r.updatePoints(g)
	r.updateAnimation(g)
}

// layoutBoard places what depends on the size and the board alone: the
// background, the lines (the edges of the board of the game shown: the
// diagonals of Twelve Men's Morris too), the coordinates and the dots of
// the points.
func (r *boardRenderer) layoutBoard(g geometry) {
	pos, size := g.panel()
	r.bg.Move(pos)
	r.bg.Resize(size)
	r.bg.CornerRadius = g.cell * 0.15

	width := max(1.5, g.cell*0.05)
	edges := r.board.view.Pos.Board().Edges()
	for i, l := range r.lines {
		if i >= len(edges) {
			l.Hide()
			continue
		}
		l.StrokeWidth = width
		l.Position1, l.Position2 = g.center(edges[i][0]), g.center(edges[i][1])
		l.Show()
	}
	for i, l := range r.labels {
		if i >= 2*g.n {
			l.Hide()
			continue
		}
		var c fyne.Position
		c, l.Text = g.labelPos(i)
		l.TextSize = max(8, g.cell*0.3)
		sz := l.MinSize()
		l.Move(fyne.NewPos(c.X-sz.Width/2, c.Y-sz.Height/2))
		l.Resize(sz)
		l.Show()
	}
	n := muehle.Point(g.board.NumPoints())
	for p, d := range r.dots {
		if muehle.Point(p) >= n {
			d.Hide()
			continue
		}
		place(d, g.center(muehle.Point(p)), max(2, g.cell*0.09))
		d.Show()
	}
}

// updatePoints shows the view's state of every point: its stone (hidden
// while a stone travels there), whether a tap may choose it, its
// perfect-move mark (not while a stone travels), and the rings of the last
// move and the selected stone and the cross of the last removal.
func (r *boardRenderer) updatePoints(g geometry) {
	v, a := r.board.view, r.board.anim
	rad := g.stoneRadius()
	n := muehle.Point(g.board.NumPoints())
	for p := range muehle.Point(muehle.MaxPoints) {
		if p >= n {
			r.stones[p].Hide()
			r.targets[p].Hide()
			r.badges[p].Hide()
			r.marks[p].Hide()
			continue
		}
		c := g.center(p)
		r.updateStone(g, p, c, rad, a != nil && p == a.move.To)
		r.updateTarget(g, p, c, rad)
		r.updateMark(g, p, c, rad, a != nil)
	}

	showRing := func(o *canvas.Circle, p muehle.Point, f float32) {
		if p == muehle.NoPoint {
			o.Hide()
			return
		}
		o.StrokeWidth = max(2, g.cell*0.06)
		place(o, g.center(p), rad*f)
		o.Show()
	}
	r.updateMill(g, a != nil)
	r.updateHands(g)
	showRing(r.lastFrom, v.Last.From, 0.55)
	showRing(r.lastTo, v.Last.To, 1.12)
	showRing(r.selected, v.Selected, 1.15)
	showRing(r.bestTo, v.Best.To, 0.8)
	bestRemove := v.Best.Remove
	if v.Best.To == muehle.NoPoint || a != nil {
		bestRemove = muehle.NoPoint
	}
	showRing(r.bestRemove, bestRemove, 1.2)
	r.updateBest(g)
	if v.Last.Remove != muehle.NoPoint && a == nil {
		lr := r.lastRemoved
		lr.TextSize = g.cell * 0.5
		sz := lr.MinSize()
		c := g.center(v.Last.Remove)
		lr.Move(fyne.NewPos(c.X-sz.Width/2, c.Y-sz.Height/2))
		lr.Resize(sz)
		lr.Show()
	} else {
		r.lastRemoved.Hide()
	}
}

// updateMill draws the edges of the view's mill over the lines, unless a
// stone is still on its way to close it.
func (r *boardRenderer) updateMill(g geometry, animating bool) {
	mill := r.board.view.Mill
	edges := r.board.view.Pos.Board().Edges()
	for i, l := range r.millLines {
		if i >= len(edges) || animating || !mill.Has(edges[i][0]) || !mill.Has(edges[i][1]) {
			l.Hide()
			continue
		}
		l.StrokeWidth = max(4, g.cell*0.14)
		l.Position1, l.Position2 = g.center(edges[i][0]), g.center(edges[i][1])
		l.Show()
	}
}

// updateHands writes each side's player in its strip (bold for the side
// to move) and draws its stones in hand, spaced for the most a hand holds
// in the game shown and the room the name leaves, framed when the view's
// Hand chose them.
func (r *boardRenderer) updateHands(g geometry) {
	r.handFrame.Hide()
	v := r.board.view
	most := v.Stones
	if most == 0 {
		most = v.Pos.Rules().Stones
	}
	for col := muehle.White; col <= muehle.Black; col++ {
		t := r.names[col]
		t.Text = col.String()
		if v.Players[col] != "" {
			t.Text += " · " + v.Players[col]
		}
		t.TextStyle.Bold = v.Pos.Turn == col
		t.TextSize = max(8, g.cell*0.28)
		sz := t.MinSize()
		t.Move(fyne.NewPos(g.origin.X+g.cell*0.3, g.handY(col)-sz.Height/2))
		t.Resize(sz)
		step := g.handStep(most, t.Position().X+sz.Width)
		fill, rim := stoneColors(col)
		for i, s := range r.hand[col] {
			if i >= int(v.Pos.Hand[col]) {
				s.Hide()
				continue
			}
			s.FillColor, s.StrokeColor = fill, rim
			s.StrokeWidth = max(1, g.cell*0.03)
			place(s, g.handStone(col, i, step), g.cell*handRadius)
			s.Show()
		}
		if n := int(v.Pos.Hand[col]); v.Hand && col == v.Pos.Turn && n > 0 {
			r.frameHand(g, g.handStone(col, n-1, step), g.handStone(col, 0, step))
		}
	}
}

// frameHand draws the frame around the stones in hand from the centre of
// the leftmost, left, to that of the rightmost, right.
func (r *boardRenderer) frameHand(g geometry, left, right fyne.Position) {
	f := r.handFrame
	pad := g.cell * (handRadius + 0.07)
	f.StrokeWidth = max(2, g.cell*0.06)
	f.CornerRadius = pad
	f.Move(fyne.NewPos(left.X-pad, left.Y-pad))
	f.Resize(fyne.NewSize(right.X-left.X+2*pad, 2*pad))
	f.Show()
}

// updateStone shows the stone on p, centred at c, unless p is empty or
// the stone is still travelling there.
func (r *boardRenderer) updateStone(g geometry, p muehle.Point, c fyne.Position, rad float32, arriving bool) {
	s := r.stones[p]
	col, ok := stoneAt(r.board.view.Pos, p)
	if !ok || arriving {
		s.Hide()
		return
	}
	s.FillColor, s.StrokeColor = stoneColors(col)
	s.StrokeWidth = max(1, g.cell*0.04)
	place(s, c, rad)
	s.Show()
}

// updateTarget marks p when a tap may choose it: a ring around an opponent
// stone to remove, else a dot.
func (r *boardRenderer) updateTarget(g geometry, p muehle.Point, c fyne.Position, rad float32) {
	t, v := r.targets[p], r.board.view
	switch {
	case !v.Targets.Has(p):
		t.Hide()
	case v.Removing:
		t.FillColor = transparent
		t.StrokeColor = removeColor
		t.StrokeWidth = max(2, g.cell*0.07)
		place(t, c, rad*1.12)
		t.Show()
	default:
		t.FillColor = targetColor
		t.StrokeColor = transparent
		t.StrokeWidth = 0
		place(t, c, g.cell*0.16)
		t.Show()
	}
}

// updateMark shows the perfect-move badge of p, if the view has one and no
// stone is travelling.
func (r *boardRenderer) updateMark(g geometry, p muehle.Point, c fyne.Position, rad float32, animating bool) {
	bg, txt := r.badges[p], r.marks[p]
	val, ok := r.board.view.Marks[p]
	if !ok || animating {
		bg.Hide()
		txt.Hide()
		return
	}
	chance, hasChance := r.board.view.Chances[p]
	txt.Text = markText(val, chance, hasChance)
	txt.TextSize = max(7, g.cell*0.24)
	sz := txt.MinSize()
	sz.Width += g.cell * 0.08
	pos := fyne.NewPos(c.X+rad*0.55, c.Y-rad*1.25)
	bg.FillColor = valueColor(val)
	bg.StrokeColor, bg.StrokeWidth = transparent, 0
	if r.board.view.Picks.Has(p) {
		bg.StrokeColor, bg.StrokeWidth = pickColor, max(2, g.cell*0.05)
	}
	bg.CornerRadius = sz.Height * 0.3
	bg.Move(pos)
	bg.Resize(sz)
	txt.Move(pos)
	txt.Resize(sz)
	bg.Show()
	txt.Show()
}

// updateAnimation draws the stone on its way: a placement grows on its
// point, a slide or jump travels from its origin, and a removed stone fades
// out. Without an animation both are hidden.
func (r *boardRenderer) updateAnimation(g geometry) {
	a := r.board.anim
	if a == nil {
		r.flying.Hide()
		r.ghost.Hide()
		return
	}
	rad := g.stoneRadius()
	f := r.flying
	f.FillColor, f.StrokeColor = stoneColors(a.color)
	f.StrokeWidth = max(1, g.cell*0.04)
	if a.move.From == muehle.NoPoint {
		place(f, g.center(a.move.To), rad*max(0.05, a.t))
	} else {
		place(f, lerp(g.center(a.move.From), g.center(a.move.To), a.t), rad)
	}
	f.Show()
	if a.move.Remove == muehle.NoPoint {
		r.ghost.Hide()
		return
	}
	fill, rim := stoneColors(a.color.Other())
	r.ghost.FillColor = fade(fill, 1-a.t)
	r.ghost.StrokeColor = fade(rim, 1-a.t)
	r.ghost.StrokeWidth = f.StrokeWidth
	place(r.ghost, g.center(a.move.Remove), rad)
	r.ghost.Show()
}

// stoneAt returns the colour of the stone on p, if any.
func stoneAt(pos muehle.Position, p muehle.Point) (muehle.Color, bool) {
	switch {
	case pos.Stones[muehle.White].Has(p):
		return muehle.White, true
	case pos.Stones[muehle.Black].Has(p):
		return muehle.Black, true
	}
	return muehle.White, false
}

// fade returns c with its opacity multiplied by f.
func fade(c color.Color, f float32) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = uint8(float32(n.A) * max(0, min(1, f)))
	return n
}

// updateBest draws the view's Best move as an arrow from its stone to its
// target, or, for a placement, only the ring on the target (updatePoints).
func (r *boardRenderer) updateBest(g geometry) {
	b := r.board.view.Best
	if b.To == muehle.NoPoint || b.From == muehle.NoPoint || r.board.anim != nil {
		for _, l := range r.best {
			l.Hide()
		}
		return
	}
	from, to := g.center(b.From), g.center(b.To)
	dx, dy := to.X-from.X, to.Y-from.Y
	n := float32(math.Hypot(float64(dx), float64(dy)))
	if n == 0 {
		return
	}
	ux, uy := dx/n, dy/n
	rad := g.stoneRadius()
	tip := fyne.NewPos(to.X-ux*rad*0.8, to.Y-uy*rad*0.8)
	head := g.cell * 0.25
	width := max(2, g.cell*0.07)
	r.best[0].Position1 = fyne.NewPos(from.X+ux*rad*0.6, from.Y+uy*rad*0.6)
	r.best[0].Position2 = tip
	for i, s := range []float32{1, -1} {
		// The barbs: back from the tip, turned 30 degrees either way.
		bx := -ux*0.866 - s*uy*0.5
		by := -uy*0.866 + s*ux*0.5
		r.best[i+1].Position1 = tip
		r.best[i+1].Position2 = fyne.NewPos(tip.X+bx*head, tip.Y+by*head)
	}
	for _, l := range r.best {
		l.StrokeWidth = width
		l.Show()
	}
}
