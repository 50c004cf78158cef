package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"muehle/muehle"
)

func TestGeometryCentres(t *testing.T) {
	tests := []struct {
		size fyne.Size
		p    muehle.Point
		want fyne.Position
	}{
		// 800×950: cells of 100, the square from y=75 to y=875 between the strips.
		{fyne.NewSize(800, 950), 0, fyne.NewPos(100, 175)},   // a7 top left
		{fyne.NewSize(800, 950), 23, fyne.NewPos(700, 775)},  // g1 bottom right
		{fyne.NewSize(800, 950), 7, fyne.NewPos(400, 375)},   // d5
		{fyne.NewSize(1000, 950), 0, fyne.NewPos(200, 175)},  // wide: centred horizontally
		{fyne.NewSize(800, 1150), 23, fyne.NewPos(700, 875)}, // tall: centred vertically
		{fyne.NewSize(800, 950), 12, fyne.NewPos(500, 475)},  // e4
		{fyne.NewSize(800, 950), 19, fyne.NewPos(400, 675)},  // d2
	}
	for _, tt := range tests {
		got := newGeometry(tt.size, muehle.StandardBoard).center(tt.p)
		if got != tt.want {
			t.Errorf("center(%s) at %v: got %v, want %v", tt.p, tt.size, got, tt.want)
		}
	}
}

func TestGeometryHandStrips(t *testing.T) {
	g := newGeometry(fyne.NewSize(800, 950), muehle.StandardBoard)
	tests := []struct {
		name      string
		got, want float32
	}{
		{"Black's strip", g.handY(muehle.Black), 37.5},
		{"White's strip", g.handY(muehle.White), 912.5},
		{"first stone in hand", g.handStone(muehle.White, 0, g.handStep(9, 100)).X, 755},
		{"ninth stone in hand", g.handStone(muehle.White, 8, g.handStep(9, 100)).X, 483},
		{"fifth of five stones in hand", g.handStone(muehle.White, 4, g.handStep(5, 100)).X, 619},
		{"twelfth of twelve stones in hand", g.handStone(muehle.White, 11, g.handStep(12, 100)).X, 483},
		{"second of twelve stones in hand", g.handStone(muehle.White, 1, g.handStep(12, 100)).X, 755 - 272.0/11},
		// A name up to x = 500 leaves the centres 755 - (500 + 34*100) = 221 pixels.
		{"ninth stone in hand beside a long name", g.handStone(muehle.White, 8, g.handStep(9, 500)).X, 755 - 221},
		{"the least distance beside a longer name", g.handStep(9, 700), 10},
	}
	for _, tt := range tests {
		if d := tt.got - tt.want; d > 0.01 || d < -0.01 {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	pos, size := g.panel()
	if pos != fyne.NewPos(0, 0) || size != fyne.NewSize(800, 950) {
		t.Errorf("panel: got %v %v, want the whole widget", pos, size)
	}
}

func TestGeometryHitTest(t *testing.T) {
	for _, size := range []fyne.Size{fyne.NewSize(700, 700), fyne.NewSize(333, 517), fyne.NewSize(1024, 600)} {
		g := newGeometry(size, muehle.StandardBoard)
		for p := range muehle.Point(muehle.NumPoints) {
			c := g.center(p)
			off := g.cell * 0.3
			for _, q := range []fyne.Position{c, c.AddXY(off, 0), c.AddXY(0, -off), c.AddXY(-off, off*0.5)} {
				if got := g.pointAt(q); got != p {
					t.Errorf("size %v: pointAt(%v) got %s, want %s", size, q, got, p)
				}
			}
		}
		// The centre of the board and the corners of the widget are no point.
		for _, q := range []fyne.Position{g.center(7).AddXY(0, g.cell), {}, {X: size.Width - 1, Y: size.Height - 1}} {
			if got := g.pointAt(q); got != muehle.NoPoint {
				t.Errorf("size %v: pointAt(%v) got %s, want none", size, q, got)
			}
		}
	}
}
