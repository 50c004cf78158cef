package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
)

// This file draws the pictures of Help ▸ Rules of the Game (rules.go) and
// shows the rules in a dialog. A picture is drawn from the board's own data
// (the points' columns and rows, the lines), so that every board of the
// family has its pictures; it takes no taps and no scrolling, so the mouse
// wheel scrolls the text over it too.

// rulesPictureSide is the side of a picture in pixels: two fit beside the
// text in the dialog of a window 800 pixels wide.
const rulesPictureSide = 200

// draw returns the picture as a fixed-size object.
func (p *rulesPicture) draw() fyne.CanvasObject {
	b := p.board
	maxC, maxR := 0, 0
	for q := range muehle.Point(b.NumPoints()) {
		c, r := b.Coord(q)
		maxC, maxR = max(maxC, c), max(maxR, r)
	}
	side := float32(rulesPictureSide)
	cells := float32(max(maxC, maxR) + 2) // a margin of one cell for the names
	cell := side / cells
	at := func(q muehle.Point) fyne.Position {
		c, r := b.Coord(q)
		return fyne.NewPos(cell*float32(c+1), cell*float32(maxR-r+1))
	}
	bg := canvas.NewRectangle(boardColor)
	bg.SetMinSize(fyne.NewSize(side, side))
	bg.CornerRadius = 6
	objs := []fyne.CanvasObject{}
	for _, e := range b.Edges() {
		l := canvas.NewLine(lineColor)
		l.StrokeWidth = 2
		l.Position1, l.Position2 = at(e[0]), at(e[1])
		objs = append(objs, l)
	}
	circle := func(c fyne.Position, r float32, fill, stroke color.Color, width float32) {
		o := canvas.NewCircle(fill)
		o.StrokeColor, o.StrokeWidth = stroke, width
		o.Move(fyne.NewPos(c.X-r, c.Y-r))
		o.Resize(fyne.NewSize(2*r, 2*r))
		objs = append(objs, o)
	}
	stone := cell * 0.36
	cols, rows := map[int]bool{}, map[int]bool{}
	for q := range muehle.Point(b.NumPoints()) {
		c := at(q)
		switch {
		case p.white.Has(q):
			fill, rim := stoneColors(muehle.White)
			circle(c, stone, fill, rim, 1.5)
		case p.black.Has(q):
			fill, rim := stoneColors(muehle.Black)
			circle(c, stone, fill, rim, 1.5)
		default:
			circle(c, cell*0.1, lineColor, transparent, 0)
		}
		if p.from.Has(q) {
			circle(c, stone+3, transparent, selectColor, 4)
		}
		if p.targets.Has(q) {
			circle(c, stone, transparent, selectColor, 3)
		}
		if p.remove.Has(q) {
			circle(c, stone+3, transparent, removeColor, 3)
		}
		// The names of the columns below the board, of the rows left of it.
		col, row := b.Coord(q)
		name := b.PointName(q)
		if !cols[col] {
			cols[col] = true
			objs = append(objs, pictureLabel(name[:1], fyne.NewPos(c.X, side-cell/2)))
		}
		if !rows[row] {
			rows[row] = true
			objs = append(objs, pictureLabel(name[1:], fyne.NewPos(cell/2, c.Y)))
		}
	}
	return container.NewCenter(container.NewStack(bg, container.NewWithoutLayout(objs...)))
}

// pictureLabel returns a point name's letter or number centred on c.
func pictureLabel(s string, c fyne.Position) fyne.CanvasObject {
	t := canvas.NewText(s, labelColor)
	t.TextSize = 11
	sz := t.MinSize()
	t.Move(fyne.NewPos(c.X-sz.Width/2, c.Y-sz.Height/2))
	t.Resize(sz)
	return t
}

// rulesContent returns the rules of r as widgets: each section's text,
// with its picture on the left of its caption below it.
func rulesContent(r *muehle.Rules) []fyne.CanvasObject {
	var objs []fyne.CanvasObject
	for _, s := range rulesSections(r) {
		t := widget.NewRichTextFromMarkdown(s.text)
		t.Wrapping = fyne.TextWrapWord
		objs = append(objs, t)
		if s.picture != nil {
			caption := widget.NewLabel(s.picture.caption)
			caption.Wrapping = fyne.TextWrapWord
			objs = append(objs, container.NewBorder(nil, nil, s.picture.draw(), nil, caption))
		}
	}
	return objs
}

// showRules shows the rules of the game on the board; a choice above them
// shows those of any game of the family.
func (u *App) showRules() {
	body := container.NewVBox()
	scroll := container.NewVScroll(body)
	var names []string
	for _, r := range muehle.Games {
		names = append(names, r.Name)
	}
	choice := widget.NewSelect(names, func(name string) {
		if r, ok := muehle.GameByName(name); ok {
			body.Objects = rulesContent(r)
			body.Refresh()
			scroll.ScrollToTop()
		}
	})
	choice.SetSelected(u.ctrl.Variant().Rules().Name)
	top := container.NewBorder(nil, nil, widget.NewLabel("Game"), nil, choice)
	u.showDialog("Rules of the Game", container.NewBorder(top, nil, nil, nil, scroll))
}
