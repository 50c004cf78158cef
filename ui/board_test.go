package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
	"muehle/ui/game"
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
	g := newGeometry(b.Size())
	test.TapAt(b, g.center(17))
	test.TapAt(b, g.center(7).AddXY(0, g.cell)) // the empty middle: nothing
	test.TapAt(b, g.center(0).AddXY(g.cell*0.3, g.cell*0.2))
	if len(got) != 2 || got[0] != 17 || got[1] != 0 {
		t.Errorf("taps: got %v, want [e3 a7]", got)
	}
}
