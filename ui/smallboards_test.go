package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

// TestBoardsGeometry checks the geometry of every board of the family at
// several window sizes: every point lies inside the board's square, two
// points are at least one grid step apart, a tap on a point or a little off
// it hits that point, and a tap halfway between two neighbours hits none
// of the two wrongly (it is either no point or one of them).
func TestBoardsGeometry(t *testing.T) {
	for _, b := range muehle.Boards {
		for _, size := range []fyne.Size{fyne.NewSize(700, 700), fyne.NewSize(333, 517), fyne.NewSize(1024, 600)} {
			for _, flip := range []bool{false, true} {
				g := newGeometry(size, b)
				g.flip = flip
				n := muehle.Point(b.NumPoints())
				for p := range n {
					c := g.center(p)
					if c.X <= g.origin.X || c.X >= g.origin.X+g.side || c.Y <= g.origin.Y || c.Y >= g.origin.Y+g.side {
						t.Errorf("%s at %v: %s at %v, outside the square", b, size, b.PointName(p), c)
					}
					off := g.spot() * 0.3
					for _, q := range []fyne.Position{c, c.AddXY(off, 0), c.AddXY(0, -off), c.AddXY(-off, off*0.5)} {
						if got := g.pointAt(q); got != p {
							t.Errorf("%s at %v (flip %v): pointAt(%v) got %s, want %s", b, size, flip, q, b.PointName(got), b.PointName(p))
						}
					}
					for q := p + 1; q < n; q++ {
						d := g.center(q).Subtract(c)
						if d.X*d.X+d.Y*d.Y < g.step*g.step*0.99 {
							t.Errorf("%s at %v: %s and %s closer than a grid step", b, size, b.PointName(p), b.PointName(q))
						}
					}
				}
			}
		}
	}
	// The 3×3 board fills the square: a3 one step from the top left
	// corner, c1 one from the bottom right, b2 in the middle.
	g := newGeometry(fyne.NewSize(800, 950), muehle.ThreeBoard)
	for _, tt := range []struct {
		name string
		want fyne.Position
	}{{"a3", fyne.NewPos(200, 275)}, {"b2", fyne.NewPos(400, 475)}, {"c1", fyne.NewPos(600, 675)}} {
		p, err := muehle.ThreeBoard.ParsePoint(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.center(p); got != tt.want {
			t.Errorf("Three Men's Morris: center(%s) got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestBoardTapsSmallBoards taps every point of a Three and a Six Men's
// Morris board in a window: each tap places a stone on the point tapped,
// and the widget draws the board's own lines, dots and labels.
func TestBoardTapsSmallBoards(t *testing.T) {
	for _, tt := range []struct {
		v             muehle.Variant
		lines, labels int
		first         string // the label of the first column
	}{
		{muehle.Three.With(3), 16, 6, "a"},
		{muehle.ThreePlain.With(3), 12, 6, "a"},
		{muehle.Six.With(6), 20, 10, "a"},
	} {
		q := gametest.NewQueue()
		u := newTestApp(t, q, nil)
		startGame(t, u, tt.v)
		b := u.ctrl.Game().Rules().Board
		if got := boardLines(u); got != tt.lines {
			t.Errorf("%s: %d lines drawn, want %d", tt.v.Name(), got, tt.lines)
		}
		r := test.WidgetRenderer(u.Board()).(*boardRenderer)
		labels := 0
		for _, l := range r.labels {
			if l.Visible() {
				labels++
			}
		}
		if labels != tt.labels || r.labels[0].Text != tt.first {
			t.Errorf("%s: %d labels shown, the first %q, want %d and %q", tt.v.Name(), labels, r.labels[0].Text, tt.labels, tt.first)
		}
		dots := 0
		for _, d := range r.dots {
			if d.Visible() {
				dots++
			}
		}
		if dots != b.NumPoints() {
			t.Errorf("%s: %d dots, want %d", tt.v.Name(), dots, b.NumPoints())
		}
		// Tap the points one by one, a stone for each side in turn, until
		// the hands are empty or a mill asks for a removal.
		g := u.Board().geometry()
		tapped := 0
		for p := range muehle.Point(b.NumPoints()) {
			pos := u.ctrl.Game().Position()
			if pos.Hand[pos.Turn] == 0 || u.Board().View().Removing {
				break
			}
			test.TapAt(u.Board(), g.center(p).AddXY(g.spot()*0.2, -g.spot()*0.1))
			if got := u.ctrl.Game().Position(); !got.Stones[pos.Turn].Has(p) {
				t.Errorf("%s: tap on %s: got %s, want a %s stone there", tt.v.Name(), b.PointName(p), got, pos.Turn)
			}
			tapped++
		}
		if tapped < 5 {
			t.Errorf("%s: %d points tapped before the hands ran out or a mill closed, want at least 5", tt.v.Name(), tapped)
		}
		t.Logf("%s: %d points tapped: %s", tt.v.Name(), tapped, u.ctrl.Game().Position())
		// In the moving phase a stone picked up is named on the board in
		// the status line, and a tap on its target slides it there.
		if pos := u.ctrl.Game().Position(); pos.Hand[pos.Turn] == 0 && !u.Board().View().Removing {
			m := u.ctrl.Game().LegalMoves()[0]
			test.TapAt(u.Board(), g.center(m.From))
			if want := "the stone on " + b.PointName(m.From); !strings.Contains(u.status.Text, want) {
				t.Errorf("%s: status after picking up %s: got %q, want it to contain %q", tt.v.Name(), b.PointName(m.From), u.status.Text, want)
			}
			test.TapAt(u.Board(), g.center(m.To))
			if got := u.ctrl.Game().Position(); !got.Stones[pos.Turn].Has(m.To) || got.Stones[pos.Turn].Has(m.From) {
				t.Errorf("%s: after the slide %s: got %s", tt.v.Name(), b.MoveString(m), got)
			}
		}
		if got, want := rowTexts(u.ctrl.Game(), nil)[1], "  1. "+b.PointName(0); got != want {
			t.Errorf("%s: the move list's first move: got %q, want %q", tt.v.Name(), got, want)
		}
	}
}

// TestThreeMensMorrisAgainstPerfect starts Three Men's Morris with an
// empty database folder: the window offers to compute the game's
// database, computes it on Yes (under a second), and White, tapping the
// best of the perfect-move marks, beats the perfect player as Black in 9
// plies, with b2 first, as docs/games.md has it.
func TestThreeMensMorrisAgainstPerfect(t *testing.T) {
	if !slices.Contains(playedGames(), muehle.Three.Rules()) || len(playedGames()) != len(muehle.Games) {
		t.Errorf("New Game's games: got %d, want every one of muehle.Games (%d), Three Men's Morris among them", len(playedGames()), len(muehle.Games))
	}
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	a.Preferences().SetBool(prefChosen, true)
	e := NewEngines(t.TempDir())
	u := New(a, Options{Do: q.Do, Engines: e, Database: e})
	u.Window().Resize(fyne.NewSize(1000, 700))
	t.Cleanup(u.ctrl.Close)
	u.db.free = func(string) (uint64, error) { return 1e12, nil }

	three := muehle.Three.With(3)
	startGame(t, u, three)
	q.Drain(t, 10*time.Second, func() bool { return openDialog(u) })
	if got, want := dialogText(u), "There is no database of Three Men's Morris in\n"; !strings.Contains(got, want) {
		t.Fatalf("the offer: got\n%s\nwant it to contain %q", got, want)
	}
	tapDialogButton(t, u, "Yes")
	q.Drain(t, 60*time.Second, func() bool { return u.db.stop == nil && strings.HasPrefix(u.db.progress.Text, "Done") })
	if got := u.db.progress.Text; got != "Done." {
		t.Fatalf("computing Three Men's Morris: got %q, want Done.", got)
	}
	if !strings.Contains(u.db.summary.Text, "complete") {
		t.Errorf("the Database tab after computing: got\n%s\nwant the layers complete", u.db.summary.Text)
	}

	u.setSpeed(10 * time.Millisecond)
	u.setPlayer(muehle.Black, play.DefaultPerfect)
	g := u.ctrl.Game()
	for ply := 0; g.Ply() < 30; ply++ {
		if r, _ := g.Result(); r != muehle.Ongoing {
			break
		}
		marks := shownMarks(t, u, q)
		best := marks[0]
		if ply == 0 && g.Rules().Board.MoveString(best.Move) != "b2" {
			t.Errorf("the best first move: got %s, want b2", g.Rules().Board.MoveString(best.Move))
		}
		// The marks sit on the board's points, each the target of a move.
		v := u.Board().View()
		for p := range v.Marks {
			if int(p) >= g.Rules().Board.NumPoints() {
				t.Errorf("a mark on point %d, off the 9-point board", p)
			}
		}
		if _, ok := v.Marks[best.Move.To]; !ok && best.Move.From == muehle.NoPoint {
			t.Errorf("no mark on %s, the best move's target", g.Rules().Board.PointName(best.Move.To))
		}
		n := g.Ply()
		gametest.TapMove(u.Board().TapPoint, best.Move)
		q.Drain(t, 20*time.Second, func() bool {
			r, _ := g.Result()
			return g.Ply() >= n+2 || (r != muehle.Ongoing && !u.Board().Animating())
		})
	}
	r, why := g.Result()
	if r != muehle.WhiteWins || g.Ply() != 9 {
		t.Errorf("the game: got %v (%s) after %d plies, want White wins after 9", r, why, g.Ply())
	}
	if !strings.Contains(u.status.Text, "White wins") {
		t.Errorf("status at the end: got %q, want the result", u.status.Text)
	}
	for _, row := range rowTexts(g, nil)[1:] {
		for _, f := range strings.Fields(row)[1:] {
			if _, err := muehle.ThreeBoard.ParseMove(f); err != nil {
				t.Errorf("move list row %q: %v", row, err)
			}
		}
	}
}

// TestBoardImageSmallBoards draws a Three Men's Morris position with
// perfect-move marks, the last move's rings and a best-move arrow, and a
// Six Men's Morris position with a stone to remove, each on its own board
// (golden images in testdata). The values are set by hand.
func TestBoardImageSmallBoards(t *testing.T) {
	three := muehle.ThreeBoard
	pt := func(b *muehle.Board, s string) muehle.Point {
		p, err := b.ParsePoint(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p, err := muehle.ParsePosition("BW." + ".W." + "B.B" + " w 0 0 three")
	if err != nil {
		t.Fatal(err)
	}
	v := game.EmptyView(p)
	v.Last = muehle.Move{From: pt(three, "b3"), To: pt(three, "c1"), Remove: muehle.NoPoint}
	v.Best = muehle.Move{From: pt(three, "b3"), To: pt(three, "c3"), Remove: muehle.NoPoint}
	v.Marks = map[muehle.Point]layers.Value{pt(three, "b3"): layers.WinIn(3), pt(three, "b2"): layers.Drawn}
	test.AssertObjectRendersToImage(t, "board_three.png", renderBoard(t, v))

	p, err = muehle.ParsePosition("WWW" + "B.B" + ".........." + " w 3 4 six")
	if err != nil {
		t.Fatal(err)
	}
	v = game.EmptyView(p)
	v.Removing = true
	v.Targets = p.Board().Removable(p.Stones[muehle.Black])
	v.Mill = p.Stones[muehle.White]
	test.AssertObjectRendersToImage(t, "board_six.png", renderBoard(t, v))
}

// TestEditorThreeMensMorris: Set Up on a Three Men's Morris position draws
// the 3×3 board, and a tap on b2 puts a white stone there.
func TestEditorThreeMensMorris(t *testing.T) {
	test.NewTempApp(t)
	e := newEditor(muehle.Three.With(3).NewPosition(), 3, func(muehle.Position) {})
	w := test.NewTempWindow(t, e.content)
	w.Resize(fyne.NewSize(800, 460))
	b2, err := muehle.ThreeBoard.ParsePoint("b2")
	if err != nil {
		t.Fatal(err)
	}
	test.TapAt(e.board, e.board.geometry().center(b2))
	if !e.pos.Stones[muehle.White].Has(b2) || e.pos.Stones[muehle.White].Count() != 1 {
		t.Errorf("after a tap on b2: got %s, want a white stone on b2 only", e.pos)
	}
	if got := shownLines(test.WidgetRenderer(e.board).(*boardRenderer).lines[:]); got != 16 {
		t.Errorf("the editor's board: %d lines drawn, want the 16 of the 3×3 board with diagonals", got)
	}
}

// TestTrainingThreeMensMorris: with Three Men's Morris on the board and its
// database computed, Analysis ▸ Training… offers positions of Three Men's
// Morris (its 8 symmetries, moves named on the 3×3 board); Start draws them,
// a right answer tapped on the board is judged right, a wrong one wrong with
// its refutation on the board, titled on the 3×3 board, and ending training
// brings back the game.
func TestTrainingThreeMensMorris(t *testing.T) {
	e := solvedThree.engines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	three := muehle.Three.With(3)
	startGame(t, u, three)
	before := u.ctrl.Game()
	if got := e.TrainingStones(three); !slices.Equal(got, []int{6}) {
		t.Fatalf("stones on the board to train with: got %v, want [6]", got)
	}
	u.showTraining()
	if want := "Positions of Three Men's Morris from its database"; !strings.Contains(dialogText(u), want) {
		t.Fatalf("Training dialog: got %q, want it to contain %q", dialogText(u), want)
	}
	tapDialogButton(t, u, "Start")
	q.Drain(t, 20*time.Second, func() bool { return u.learn.train != nil })
	run, bar := u.learn.train.run, u.learn.trainBar
	if run.Len() < 2 {
		t.Fatalf("got %d training positions, want at least 2", run.Len())
	}
	db, err := e.databaseOf(three)
	if err != nil {
		t.Fatal(err)
	}
	b := muehle.ThreeBoard
	for i := range 2 {
		ex := run.Current()
		if ex.Pos.Game != muehle.Three || u.ctrl.Game().Start() != ex.Pos || u.board.View().Pos != ex.Pos {
			t.Fatalf("position %d: got %v on the board, want the training position %v of Three Men's Morris", i+1, u.board.View().Pos, ex.Pos)
		}
		right, wrong := keepAndLose(t, db, ex.Pos)
		m, want := right, "Right: "+b.MoveString(right)+" keeps the value"
		if i == 1 {
			m, want = wrong, "Wrong: "+b.MoveString(wrong)+" gives up the value"
		}
		gametest.TapMove(u.board.TapPoint, m)
		q.Drain(t, 10*time.Second, func() bool { _, ok := run.Answer(); return ok && u.learn.train.shown != nil })
		if !strings.HasPrefix(bar.verdict.Text, want) {
			t.Errorf("position %d %s, answer %s: verdict %q, want it to start with %q", i+1, ex.Pos, b.MoveString(m), bar.verdict.Text, want)
		}
		if i == 1 {
			q.Drain(t, 10*time.Second, func() bool { return u.learn.walk != nil })
			if want := "answer to " + b.MoveString(wrong) + " ("; !strings.Contains(u.learn.walkBar.text.Text, want) {
				t.Errorf("the refutation's bar: got %q, want it to contain %q", u.learn.walkBar.text.Text, want)
			}
		}
		if i == 0 {
			test.Tap(bar.next)
		}
	}
	test.Tap(bar.end)
	if u.learn.train != nil || u.ctrl.Game() != before {
		t.Errorf("End Training: got training %v, game %v; want the game of Three Men's Morris back", u.learn.train, u.ctrl.Game().Position())
	}
}
