package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

func renderBoard(t *testing.T, v game.View) *Board {
	t.Helper()
	test.NewTempApp(t)
	b := NewBoard()
	b.Resize(fyne.NewSize(400, 475))
	b.SetView(v)
	return b
}

func TestBoardImageStart(t *testing.T) {
	b := renderBoard(t, game.EmptyView(muehle.NewPosition(9)))
	test.AssertObjectRendersToImage(t, "board_start.png", b)
}

// TestBoardImageAnnotated draws mid-game views with every kind of mark:
// the last move (a slide that closed a mill, highlighted, and removed a
// stone), the players' names, a stone
// picked up with its targets, removal targets, and perfect-move marks of all
// three outcomes. The mark values are set by hand; this test is about
// drawing them.
func TestBoardImageAnnotated(t *testing.T) {
	// White has just played d1-a1, closing a7-a4-a1, and removed g1.
	p, err := muehle.ParsePosition("W.B" + "WBW" + ".B." + "W....B" + "..." + ".W." + "W.." + " b 0 0")
	if err != nil {
		t.Fatal(err)
	}
	last, err := muehle.ParseMove("d1-a1xg1")
	if err != nil {
		t.Fatal(err)
	}
	v := game.EmptyView(p)
	v.Last = last
	v.Mill = muehle.Point(0).Bit() | muehle.Point(9).Bit() | muehle.Point(21).Bit()
	v.Players = [2]string{"Human", "Perfect"}
	v.Selected = 7 // d5
	v.Targets = muehle.Point(6).Bit() | muehle.Point(8).Bit()
	v.Marks = map[muehle.Point]layers.Value{
		6: layers.WinIn(13),
		8: layers.Drawn,
	}
	b := renderBoard(t, v)
	test.AssertObjectRendersToImage(t, "board_annotated.png", b)

	// Black slid d5-c5 and closed no mill; say it closed one: the stones
	// it may remove are ringed and marked.
	v = game.EmptyView(p)
	v.Removing = true
	v.Targets = muehle.Removable(p.Stones[muehle.White])
	v.Marks = map[muehle.Point]layers.Value{
		3:  layers.LossIn(22),
		19: layers.Drawn,
	}
	b = renderBoard(t, v)
	test.AssertObjectRendersToImage(t, "board_removing.png", b)
}

func TestBoardTapHitTest(t *testing.T) {
	b := renderBoard(t, game.EmptyView(muehle.NewPosition(9)))
	var got []muehle.Point
	b.OnTapped = func(p muehle.Point) { got = append(got, p) }
	g := b.geometry()
	test.TapAt(b, g.center(17))
	test.TapAt(b, g.center(7).AddXY(0, g.cell)) // the empty middle: nothing
	test.TapAt(b, g.center(0).AddXY(g.cell*0.3, g.cell*0.2))
	if len(got) != 2 || got[0] != 17 || got[1] != 0 {
		t.Errorf("taps: got %v, want [e3 a7]", got)
	}
}

// TestBoardImageWhy draws the perfect-move marks with the reasons: the
// drawing moves' win chances ("D 50%") and the frame around the perfect
// player's pick. The values are set by hand.
func TestBoardImageWhy(t *testing.T) {
	p, err := muehle.ParsePosition("W.B" + "WBW" + ".B." + "W....B" + "..." + ".W." + "W.." + " w 0 0")
	if err != nil {
		t.Fatal(err)
	}
	v := game.EmptyView(p)
	v.Players = [2]string{"Human", "Level 7"}
	v.Marks = map[muehle.Point]layers.Value{
		0:  layers.Drawn,
		3:  layers.Drawn,
		5:  layers.Drawn,
		21: layers.LossIn(12),
		19: layers.WinIn(9),
	}
	v.Chances = map[muehle.Point]float64{0: 0.5, 3: 0.25, 5: 0}
	v.Picks = muehle.Point(0).Bit()
	b := renderBoard(t, v)
	test.AssertObjectRendersToImage(t, "board_why.png", b)

	// The badges say the same in text and frame.
	r := test.WidgetRenderer(b).(*boardRenderer)
	for pt, want := range map[muehle.Point]string{0: "D 50%", 3: "D 25%", 5: "D 0%", 21: "L12", 19: "W9"} {
		if got := r.marks[pt].Text; got != want || !r.marks[pt].Visible() {
			t.Errorf("badge on %s: got %q (visible %v), want %q", pt, got, r.marks[pt].Visible(), want)
		}
		framed := r.badges[pt].StrokeWidth > 0 && r.badges[pt].StrokeColor == pickColor
		if framed != (pt == 0) {
			t.Errorf("badge on %s: framed %v, want %v", pt, framed, pt == 0)
		}
	}
}

func TestMarkText(t *testing.T) {
	for _, tc := range []struct {
		v      layers.Value
		chance float64
		ok     bool
		want   string
	}{
		{layers.WinIn(7), 0, false, "W7"},
		{layers.LossIn(12), 0, false, "L12"},
		{layers.Drawn, 0, false, "D"},
		{layers.Drawn, 1.0 / 3, true, "D 33%"},
		{layers.Drawn, 0, true, "D 0%"},
		{layers.Drawn, 0.001, true, "D 1%"},
		{layers.Drawn, 0.999, true, "D 99%"},
		{layers.Drawn, 1, true, "D 100%"},
	} {
		if got := markText(tc.v, tc.chance, tc.ok); got != tc.want {
			t.Errorf("markText(%s, %v, %v): got %q, want %q", tc.v, tc.chance, tc.ok, got, tc.want)
		}
	}
}

// TestBoardBestRemoval: a best move that removes a stone (a hint, the
// review's best move) rings the stone it removes.
func TestBoardBestRemoval(t *testing.T) {
	b := NewBoard()
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(400, 480))
	v := game.EmptyView(b.View().Pos)
	v.Best = gametest.MustMove(t, "d6-a1xg4")
	b.SetView(v)
	r := test.WidgetRenderer(b).(*boardRenderer)
	g4 := gametest.MustMove(t, "g4").To
	c := b.geometry().center(g4)
	ring := r.bestRemove
	got := fyne.NewPos(ring.Position().X+ring.Size().Width/2, ring.Position().Y+ring.Size().Height/2)
	if !ring.Visible() || got != c {
		t.Errorf("the removal of %s: ring visible %t at %v, want visible at g4 %v", v.Best, ring.Visible(), got, c)
	}
	v.Best = gametest.MustMove(t, "d6-d5")
	b.SetView(v)
	if ring.Visible() {
		t.Errorf("a best move without removal: the removal ring is shown")
	}
}

// shownLines counts the visible lines among ls.
func shownLines(ls []*canvas.Line) int {
	n := 0
	for _, l := range ls {
		if l.Visible() {
			n++
		}
	}
	return n
}

// TestBoardLinesFollowGame: the board draws the edges of the board of the
// game shown: 32 lines for Nine Men's Morris, 40 for Twelve Men's Morris
// (its four diagonals are two edges each), among them a7-b6; and a mill
// closed on a diagonal is drawn over its two edges.
func TestBoardLinesFollowGame(t *testing.T) {
	b := renderBoard(t, game.EmptyView(muehle.NewPosition(9)))
	r := test.WidgetRenderer(b).(*boardRenderer)
	if got, want := shownLines(r.lines[:]), 32; got != want {
		t.Errorf("Nine Men's Morris: got %d lines, want %d", got, want)
	}
	// White has just closed the diagonal mill a7-b6-c5.
	p, err := muehle.ParsePosition("W..W..W.............B... b 9 10 twelve")
	if err != nil {
		t.Fatal(err)
	}
	v := game.EmptyView(p)
	v.Last = gametest.MustMove(t, "c5xg1")
	v.Mill = muehle.Point(0).Bit() | muehle.Point(3).Bit() | muehle.Point(6).Bit()
	b.SetView(v)
	if got, want := shownLines(r.lines[:]), 40; got != want {
		t.Errorf("Twelve Men's Morris: got %d lines, want %d", got, want)
	}
	g := b.geometry()
	a7, b6 := g.center(0), g.center(3)
	diagonal := false
	for _, l := range r.lines {
		if l.Visible() && (l.Position1 == a7 && l.Position2 == b6 || l.Position1 == b6 && l.Position2 == a7) {
			diagonal = true
		}
	}
	if !diagonal {
		t.Errorf("Twelve Men's Morris: no line from a7 %v to b6 %v", a7, b6)
	}
	if got, want := shownLines(r.millLines[:]), 2; got != want {
		t.Errorf("the diagonal mill a7-b6-c5: got %d edges highlighted, want %d", got, want)
	}
	b.SetView(game.EmptyView(muehle.NewPosition(9)))
	if got, want := shownLines(r.lines[:]), 32; got != want {
		t.Errorf("Nine Men's Morris again: got %d lines, want %d", got, want)
	}
}

// TestBoardTwelveInHand: twelve stones in hand are all drawn in the strip,
// right of the player's name, however long, and inside the board's panel.
func TestBoardTwelveInHand(t *testing.T) {
	v := game.EmptyView(muehle.Twelve.Rules().NewPosition(12))
	v.Players = [2]string{"Alpha-beta (automatic)", "Perfect (trap share)"}
	b := renderBoard(t, v)
	test.AssertObjectRendersToImage(t, "board_twelve.png", b)
	r := test.WidgetRenderer(b).(*boardRenderer)
	pos, size := b.geometry().panel()
	for col := range r.hand {
		name := r.names[col]
		shown := 0
		for i, s := range r.hand[col] {
			if !s.Visible() {
				continue
			}
			shown++
			left, right := s.Position().X, s.Position().X+s.Size().Width
			if left <= name.Position().X+name.Size().Width || right > pos.X+size.Width {
				t.Errorf("%s's stone %d in hand spans x %v to %v; want it right of the name (ends at %v) and inside the panel (ends at %v)",
					muehle.Color(col), i+1, left, right, name.Position().X+name.Size().Width, pos.X+size.Width)
			}
		}
		if shown != 12 {
			t.Errorf("%s: got %d stones drawn in hand, want 12", muehle.Color(col), shown)
		}
	}
}

// TestBoardHandTaps: a tap on a side's strip, on its name or its stones in
// hand, reports that side (on a flipped board too); a tap beside the
// panel reports nothing, and a tap on a point only the point.
func TestBoardHandTaps(t *testing.T) {
	v := game.EmptyView(gametest.MustGame(t, "....W..................B w 9 9 lasker", 10).Position())
	b := renderBoard(t, v)
	var hands []muehle.Color
	var points []muehle.Point
	b.OnHandTapped = func(c muehle.Color) { hands = append(hands, c) }
	b.OnTapped = func(p muehle.Point) { points = append(points, p) }
	g := b.geometry()
	test.TapAt(b, g.handStone(muehle.White, 0, 0))                       // White's first stone in hand
	test.TapAt(b, fyne.NewPos(g.origin.X+g.cell, g.handY(muehle.Black))) // Black's name
	test.TapAt(b, fyne.NewPos(g.origin.X-2, g.handY(muehle.White)))      // left of the panel
	test.TapAt(b, g.center(4))
	if want := []muehle.Color{muehle.White, muehle.Black}; len(hands) != 2 || hands[0] != want[0] || hands[1] != want[1] {
		t.Errorf("hands tapped: got %v, want %v", hands, want)
	}
	if len(points) != 1 || points[0] != 4 {
		t.Errorf("points tapped: got %v, want [d6]", points)
	}
	b.SetFlipped(true)
	hands = nil
	b.TapHand(muehle.Black)
	if len(hands) != 1 || hands[0] != muehle.Black {
		t.Errorf("Black's hand tapped on the flipped board: got %v, want [Black]", hands)
	}
}

// TestBoardImageLasker draws a position of Lasker Morris whose side to
// move, White, has stones on the board and in hand and chose its hand:
// the stones in hand are framed in the selection's colour; a stone picked
// up instead is ringed, and the frame goes.
func TestBoardImageLasker(t *testing.T) {
	p := gametest.MustGame(t, "W.W.B..B..W..........B.. w 7 7 lasker", 10).Position()
	v := game.EmptyView(p)
	v.Players = [2]string{"Human", "Perfect"}
	v.Hand = true
	b := renderBoard(t, v)
	test.AssertObjectRendersToImage(t, "board_lasker.png", b)
	r := test.WidgetRenderer(b).(*boardRenderer)
	g := b.geometry()
	first, last := g.handStone(muehle.White, 0, 0), g.handStone(muehle.White, 0, 0)
	for i := range 7 {
		if s := r.hand[muehle.White][i]; i == 6 {
			last = s.Position().AddXY(s.Size().Width/2, s.Size().Height/2)
		} else if i == 0 {
			first = s.Position().AddXY(s.Size().Width/2, s.Size().Height/2)
		}
	}
	f := r.handFrame
	if !f.Visible() || f.Position().X > last.X-g.cell*handRadius || f.Position().X+f.Size().Width < first.X+g.cell*handRadius ||
		f.Position().Y > first.Y-g.cell*handRadius || f.Position().Y+f.Size().Height < first.Y+g.cell*handRadius {
		t.Errorf("frame of White's hand: got visible %v at %v size %v, want it around the stones from %v to %v",
			f.Visible(), f.Position(), f.Size(), last, first)
	}
	v.Hand, v.Selected = false, 0
	b.SetView(v)
	if f.Visible() || !r.selected.Visible() {
		t.Errorf("a7 picked up instead: got frame visible %v, selection ring visible %v; want no frame and the ring", f.Visible(), r.selected.Visible())
	}
}
