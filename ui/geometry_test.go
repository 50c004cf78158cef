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
		{fyne.NewSize(800, 800), 0, fyne.NewPos(100, 100)},   // a7 top left
		{fyne.NewSize(800, 800), 23, fyne.NewPos(700, 700)},  // g1 bottom right
		{fyne.NewSize(800, 800), 7, fyne.NewPos(400, 300)},   // d5
		{fyne.NewSize(1000, 800), 0, fyne.NewPos(200, 100)},  // wide: centred horizontally
		{fyne.NewSize(800, 1100), 23, fyne.NewPos(700, 850)}, // tall: centred vertically
		{fyne.NewSize(800, 800), 12, fyne.NewPos(500, 400)},  // e4
		{fyne.NewSize(800, 800), 19, fyne.NewPos(400, 600)},  // d2
	}
	for _, tt := range tests {
		got := newGeometry(tt.size).center(tt.p)
		if got != tt.want {
			t.Errorf("center(%s) at %v: got %v, want %v", tt.p, tt.size, got, tt.want)
		}
	}
}

func TestGeometryHitTest(t *testing.T) {
	for _, size := range []fyne.Size{fyne.NewSize(700, 700), fyne.NewSize(333, 517), fyne.NewSize(1024, 600)} {
		g := newGeometry(size)
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
