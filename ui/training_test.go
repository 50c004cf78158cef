package ui

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/retro/teach"
	"muehle/ui/game/gametest"
)

func TestTrainingOptions(t *testing.T) {
	for _, tc := range []struct {
		c       trainingChoices
		onBoard string
		band    teach.Band
		goal    teach.Goal
		seed    uint64
		err     bool
	}{
		{trainingChoices{0, 0, 0, "1"}, "any", teach.BandAny, teach.GoalAny, 1, false},
		{trainingChoices{6, 2, 1, " 42 "}, "6", teach.BandMedium, teach.FindWin, 42, false},
		{trainingChoices{18, 4, 2, "7"}, "18", teach.BandDeep, teach.HoldDraw, 7, false},
		{trainingChoices{0, 0, 0, "seven"}, "", 0, 0, 0, true},
	} {
		opt, err := trainingOptions(muehle.NineMensMorris, tc.c)
		if tc.err {
			if err == nil {
				t.Errorf("%+v: got no error, want one", tc.c)
			}
			continue
		}
		if err != nil || onBoardText(opt.Layers) != tc.onBoard || opt.Band != tc.band || opt.Goal != tc.goal ||
			opt.Seed != tc.seed || opt.Count != trainingCount || opt.MaxAnswers != 1 {
			t.Errorf("%+v: got %s stones, %s, %s, seed %d, %d positions, %v; want %s, %s, %s, seed %d",
				tc.c, onBoardText(opt.Layers), opt.Band, opt.Goal, opt.Seed, opt.Count, err, tc.onBoard, tc.band, tc.goal, tc.seed)
		}
	}
}

func TestTrainingInTheWindow(t *testing.T) {
	e := solvedEngines(t)
	db, _ := e.database()
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	u.setPlayer(muehle.Black, play.Spec{Kind: play.KindRandom})
	_, before := endgame33(t)
	u.ctrl.SetGame(before)

	menuItem(t, u.Window().MainMenu(), "Analysis", "Training…") // the menu offers it
	opt := teach.TrainingOptions{Layers: []layers.Key{layers.Moving(3, 3)}, Count: 3, Seed: 5, MaxAnswers: 1}
	u.startTraining(muehle.NineMensMorris, opt)
	q.Drain(t, 20*time.Second, func() bool { return u.learn.train != nil })
	run := u.learn.train.run
	if run.Len() != 3 {
		t.Fatalf("got %d positions, want 3", run.Len())
	}
	first := run.Current().Pos
	if g := u.ctrl.Game(); g.Start() != first || g.Ply() != 0 || u.board.View().Pos != first {
		t.Fatalf("board: got %s, want the first training position %s", u.board.View().Pos, first)
	}
	if u.ctrl.Player(muehle.White) != nil || u.ctrl.Player(muehle.Black) != nil {
		t.Errorf("training: got computer players, want people on both sides")
	}
	bar := u.learn.trainBar
	if !bar.box.Visible() || !strings.Contains(bar.task.Text, "Position 1 of 3") || !bar.prev.Disabled() || bar.next.Disabled() {
		t.Errorf("training bar: visible %t, task %q, previous disabled %t, next disabled %t; want position 1 of 3, only Next",
			bar.box.Visible(), bar.task.Text, bar.prev.Disabled(), bar.next.Disabled())
	}

	// A wrong answer, played by taps: the database says so and the
	// refutation opens on the board.
	right, wrong := keepAndLose(t, db, first)
	gametest.TapMove(u.board.TapPoint, wrong)
	q.Drain(t, 10*time.Second, func() bool { _, ok := run.Answer(); return ok })
	a, _ := run.Answer()
	if a.Right || a.Move != wrong || !strings.HasPrefix(bar.verdict.Text, "Wrong: "+wrong.String()) {
		t.Fatalf("after the wrong %s: got right %t, verdict %q", wrong, a.Right, bar.verdict.Text)
	}
	w := u.learn.walk
	if w == nil || w.Len() != len(a.Refutation) || w.Len() == 0 {
		t.Fatalf("after the wrong %s: got line %v, want the refutation of %d moves open", wrong, w, len(a.Refutation))
	}
	after := first.Play(wrong)
	if u.board.View().Pos != after || !u.learn.walkBar.box.Visible() {
		t.Fatalf("board: got %s, want the position after the wrong answer %s and the line's bar", u.board.View().Pos, after)
	}
	// Stepping with the keys and the buttons.
	u.typedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	if step := a.Refutation[0].Move; w.At() != 1 || u.board.View().Pos != after.Play(step) || u.board.View().Last != step {
		t.Errorf("Right: got at %d, board %s; want the first move %s of the line played", w.At(), u.board.View().Pos, step)
	}
	test.Tap(u.learn.walkBar.back)
	if w.At() != 0 || u.board.View().Pos != after {
		t.Errorf("Back: got at %d, board %s; want the start of the line", w.At(), u.board.View().Pos)
	}
	u.typedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	if w.At() != w.Len() || !u.learn.walkBar.forward.Disabled() {
		t.Errorf("End: got at %d of %d, Forward enabled %t; want the end", w.At(), w.Len(), !u.learn.walkBar.forward.Disabled())
	}
	u.tapped(0)
	if !strings.Contains(u.ctrl.Status(), "Close Line") {
		t.Errorf("a tap while the line is open: status %q, want how to close it", u.ctrl.Status())
	}
	u.typedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if u.learn.walk != nil || u.board.View().Pos != after || u.learn.walkBar.box.Visible() {
		t.Errorf("Escape: got line %v, board %s; want the game again", u.learn.walk, u.board.View().Pos)
	}

	// Try Again puts the position back; another answer is not recorded.
	test.Tap(bar.again)
	gametest.TapMove(u.board.TapPoint, right)
	if a2, _ := run.Answer(); a2.Move != wrong {
		t.Errorf("a second answer replaced the first: got %s, want %s", a2.Move, wrong)
	}

	// The next position, answered right.
	test.Tap(bar.next)
	second := run.Current().Pos
	if run.Index() != 1 || u.ctrl.Game().Start() != second || u.learn.walk != nil {
		t.Fatalf("Next: got position %d, board %s; want the second position", run.Index(), u.ctrl.Game().Start())
	}
	right, _ = keepAndLose(t, db, second)
	gametest.TapMove(u.board.TapPoint, right)
	q.Drain(t, 10*time.Second, func() bool { _, ok := run.Answer(); return ok })
	if a, _ := run.Answer(); !a.Right || !strings.HasPrefix(bar.verdict.Text, "Right: "+right.String()) || u.learn.walk != nil {
		t.Errorf("after the right %s: got right %t, verdict %q, line %v", right, a.Right, bar.verdict.Text, u.learn.walk)
	}
	if !strings.Contains(bar.score.Text, "1 right, 1 wrong of 3") || !strings.Contains(bar.score.Text, "Seed 5") {
		t.Errorf("score: got %q, want seed 5, 1 right, 1 wrong of 3", bar.score.Text)
	}

	// End Training brings back the game and the players.
	test.Tap(bar.end)
	if u.learn.train != nil || u.ctrl.Game().Record() != before.Record() || bar.box.Visible() {
		t.Errorf("End Training: got training %v, game %q; want the game from before", u.learn.train, u.ctrl.Game().Record())
	}
	if u.ctrl.Player(muehle.Black) == nil || u.ctrl.Player(muehle.White) != nil {
		t.Errorf("End Training: want White a person and Black the random player again")
	}
}

func TestTrainingWithoutDatabase(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.showTraining()
	if got := u.ctrl.Status(); !strings.Contains(got, "needs the database") {
		t.Errorf("status: got %q, want that training needs the database", got)
	}
}

func TestReviewRefutationOnTheBoard(t *testing.T) {
	e := solvedEngines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	p, g := endgame33(t)
	db, _ := e.database()
	_, bad := keepAndLose(t, db, p)
	if err := g.Play(bad); err != nil {
		t.Fatal(err)
	}
	u.ctrl.SetGame(g)
	u.reviewGame()
	q.Drain(t, 10*time.Second, func() bool { return u.verdicts() != nil })
	line := u.review.lines[0]
	b := u.side.refuteWalk
	if len(line) == 0 || !b.Visible() {
		t.Fatalf("after the review: line %v, button visible %t; want the refutation and the button", line, b.Visible())
	}
	u.typedKey(&fyne.KeyEvent{Name: fyne.KeyR}) // as the button does
	w := u.learn.walk
	after := p.Play(bad)
	if w == nil || w.Len() != len(line) || u.board.View().Pos != after || b.Visible() {
		t.Fatalf("the refutation on the board: got line %v, board %s, button visible %t; want %d moves from %s",
			w, u.board.View().Pos, b.Visible(), len(line), after)
	}
	if !strings.Contains(u.learn.walkBar.text.Text, "Black's answer to "+bad.String()) {
		t.Errorf("line bar: got %q, want Black's answer to %s", u.learn.walkBar.text.Text, bad)
	}
	for i, s := range line {
		test.Tap(u.learn.walkBar.forward)
		after = after.Play(s.Move)
		if w.At() != i+1 || u.board.View().Pos != after {
			t.Fatalf("Forward %d: got at %d, board %s; want %s after %s", i+1, w.At(), u.board.View().Pos, after, s.Move)
		}
		// The side panel describes the line's position, not the game's.
		if want := stateText(e, after); u.side.state.Text != want || !strings.Contains(u.side.turn.Text, after.Turn.String()+" to move") {
			t.Errorf("Forward %d: side panel %q, %q; want %q and %s to move", i+1, u.side.turn.Text, u.side.state.Text, want, after.Turn)
		}
	}
	// A click on the move list closes the line and shows the game.
	u.side.onReview(0)
	if u.learn.walk != nil || u.board.View().Pos != p || u.side.state.Text != stateText(e, p) {
		t.Errorf("move list click: got line %v, board %s, %q; want the game's start %s", u.learn.walk, u.board.View().Pos, u.side.state.Text, p)
	}
	u.side.onReview(1)
	test.Tap(b)
	if u.learn.walk == nil || u.learn.walk.At() != 0 || u.board.View().Pos != p.Play(bad) {
		t.Errorf("the button: got line %v, board %s; want the refutation at its start", u.learn.walk, u.board.View().Pos)
	}
}

// TestTrainingHidesTheAnswer: with Show Perfect Moves on, a training
// position shows no marks, no value, no table and no value in the state
// number until it is answered, and says so; after the answer they return.
func TestTrainingHidesTheAnswer(t *testing.T) {
	e := solvedEngines(t)
	db, _ := e.database()
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	_, g := endgame33(t)
	u.ctrl.SetGame(g)
	if marks := shownMarks(t, u, q); len(marks) == 0 {
		t.Fatal("no marks before training")
	}
	opt := teach.TrainingOptions{Layers: []layers.Key{layers.Moving(3, 3)}, Count: 2, Seed: 9, MaxAnswers: 1}
	u.startTraining(muehle.NineMensMorris, opt)
	q.Drain(t, 20*time.Second, func() bool { return u.learn.train != nil })
	// Let the evaluation of the training position finish: the marks exist
	// in the controller and must still not be shown.
	q.Drain(t, 10*time.Second, func() bool { m, err := u.ctrl.Marks(); return len(m) > 0 || err != nil })
	first := u.learn.train.run.Current().Pos
	if v := u.board.View(); len(v.Marks) != 0 || v.Picks != 0 {
		t.Errorf("board before the answer: got %d marks, picks %v; want none", len(v.Marks), v.Picks)
	}
	if u.side.value.Text != hiddenText || u.side.perfect.Text != "" {
		t.Errorf("side panel before the answer: got %q and table %q; want %q and no table", u.side.value.Text, u.side.perfect.Text, hiddenText)
	}
	if st := u.side.state.Text; strings.Contains(st, "(") || !strings.HasPrefix(st, "State number: layer 3-3, index ") {
		t.Errorf("state number before the answer: got %q, want the layer and index without the value", st)
	}
	if !strings.Contains(u.learn.trainBar.task.Text, "stay hidden until you have answered") {
		t.Errorf("training bar: got %q, want that the marks stay hidden", u.learn.trainBar.task.Text)
	}
	u.stateNumber()
	if st := u.ctrl.Status(); strings.Contains(st, " for ") || !strings.Contains(st, "hidden") {
		t.Errorf("Ctrl+I before the answer: got %q, want no value", st)
	}
	u.hint()
	if st := u.ctrl.Status(); !strings.Contains(st, "No hints in training") || u.board.View().Best.To != muehle.NoPoint {
		t.Errorf("Hint before the answer: got %q and arrow %v, want it refused", st, u.board.View().Best)
	}

	right, _ := keepAndLose(t, db, first)
	gametest.TapMove(u.board.TapPoint, right)
	q.Drain(t, 10*time.Second, func() bool {
		m, err := u.ctrl.Marks()
		_, ok := u.learn.train.run.Answer()
		return ok && (len(m) > 0 || err != nil)
	})
	if u.side.value.Text == hiddenText || !strings.Contains(u.side.state.Text, "(") {
		t.Errorf("side panel after the answer: got %q, %q; want the database's verdict and the value", u.side.value.Text, u.side.state.Text)
	}
	if r, _ := u.ctrl.Game().Result(); r == muehle.Ongoing && len(u.board.View().Marks) == 0 {
		t.Errorf("board after the answer: got no marks, want them back")
	}
}

// TestTrainingHidesAgainAfterTryAgain: before the answer, and again after
// Try Again, nothing in the window tells the answer: no marks, value, table
// or value in the state number, no hint, no search tree (its trees carry
// the database's values), no verdict of the earlier try, no computer
// player; a second answer shows its verdict but does not count.
func TestTrainingHidesAgainAfterTryAgain(t *testing.T) {
	e := solvedEngines(t)
	db, _ := e.database()
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	u.setShowPerfect(true)
	u.startTraining(muehle.NineMensMorris, teach.TrainingOptions{Layers: []layers.Key{layers.Moving(3, 3)}, Count: 2, Seed: 3, MaxAnswers: 1})
	q.Drain(t, 20*time.Second, func() bool { return u.learn.train != nil })
	run, bar := u.learn.train.run, u.learn.trainBar
	first := run.Current().Pos
	menuItem(t, u.Window().MainMenu(), "Analysis", "Search Tree…").Action()
	tree := u.treeWin
	if tree == nil {
		t.Fatal("Search Tree opened no window")
	}
	// hidden checks that nothing shows the answer to the position on the board.
	hidden := func(when string) {
		t.Helper()
		q.Drain(t, 10*time.Second, func() bool { m, err := u.ctrl.Marks(); return len(m) > 0 || err != nil })
		if v := u.board.View(); len(v.Marks) != 0 || v.Picks != 0 || v.Best.To != muehle.NoPoint {
			t.Errorf("%s: the board shows %d marks, picks %v, arrow %v; want none", when, len(v.Marks), v.Picks, v.Best)
		}
		if u.side.value.Text != hiddenText || u.side.perfect.Text != "" || strings.Contains(u.side.state.Text, "(") {
			t.Errorf("%s: the side panel shows %q, table %q, %q; want the value hidden", when, u.side.value.Text, u.side.perfect.Text, u.side.state.Text)
		}
		if bar.verdict.Text != "" || u.learn.walk != nil {
			t.Errorf("%s: verdict %q, line %v; want neither", when, bar.verdict.Text, u.learn.walk)
		}
		u.hint()
		if !strings.Contains(u.ctrl.Status(), "No hints in training") {
			t.Errorf("%s: Hint says %q, want it refused", when, u.ctrl.Status())
		}
		tree.search() // Search Again
		if tree.trees[0] != nil || tree.trees[1] != nil || tree.cn != nil || tree.counts.Text != treeTrainingText {
			t.Errorf("%s: the search tree shows %q and trees; want none until the answer", when, tree.counts.Text)
		}
		u.setPlayer(muehle.White, play.Spec{Kind: play.KindPerfect})
		if u.ctrl.Player(muehle.White) != nil {
			t.Errorf("%s: White ▸ Perfect made a computer play the answer", when)
		}
	}
	hidden("before the answer")

	right, wrong := keepAndLose(t, db, first)
	gametest.TapMove(u.board.TapPoint, wrong)
	q.Drain(t, 10*time.Second, func() bool { _, ok := run.Answer(); return ok && u.learn.walk != nil })
	if !strings.HasPrefix(bar.verdict.Text, "Wrong: ") || u.side.value.Text == hiddenText {
		t.Fatalf("after the wrong answer: verdict %q, side panel %q; want the verdict shown", bar.verdict.Text, u.side.value.Text)
	}

	test.Tap(bar.again)
	if u.ctrl.Game().Start() != first || u.ctrl.Game().Ply() != 0 {
		t.Fatalf("Try Again: got %s, want the position %s back", u.ctrl.Game().Position(), first)
	}
	hidden("after Try Again")

	gametest.TapMove(u.board.TapPoint, right)
	q.Drain(t, 10*time.Second, func() bool { return u.learn.train.shown != nil })
	if !strings.HasPrefix(bar.verdict.Text, "Another try: "+right.String()+" keeps the value") || u.side.value.Text == hiddenText {
		t.Errorf("after a right second try: verdict %q, side panel %q; want it shown", bar.verdict.Text, u.side.value.Text)
	}
	if a, _ := run.Answer(); a.Move != wrong || !strings.Contains(bar.score.Text, "0 right, 1 wrong") {
		t.Errorf("the second try counted: recorded %s, score %q; want %s, 0 right, 1 wrong", a.Move, bar.score.Text, wrong)
	}
	tree.search()
	if tree.counts.Text == treeTrainingText {
		t.Errorf("after the answer the search tree still waits")
	}

	// Next and Previous: the answered position shows its answer at once.
	test.Tap(bar.next)
	hidden("the next position")
	test.Tap(bar.prev)
	if u.trainingHides() || !strings.HasPrefix(bar.verdict.Text, "Wrong: "+wrong.String()) {
		t.Errorf("back at the answered position: hidden %t, verdict %q; want the recorded answer", u.trainingHides(), bar.verdict.Text)
	}
	tree.win.Close()
}

// TestTrainingKeepsTheWindowSize: in a window of 800×600, the smallest
// size the window's content asks for stays within the window in training:
// with the question, with a wrong answer's refutation open, after Try
// Again and after End Training. (The desktop driver grows a window to its
// content's smallest size and does not shrink it back.)
func TestTrainingKeepsTheWindowSize(t *testing.T) {
	e := solvedEngines(t)
	db, _ := e.database()
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	size := fyne.NewSize(800, 600)
	u.Window().Resize(size)
	// The menu bar and the window's frame take about 40 pixels of a
	// screen 600 high.
	fits := func(when string) {
		t.Helper()
		if m := u.Window().Content().MinSize(); m.Width > size.Width || m.Height > size.Height-40 {
			t.Errorf("%s: the content asks for %v, more than the window of %v", when, m, size)
		}
		if got := u.Window().Canvas().Size(); got != size {
			t.Errorf("%s: the window is %v, want %v", when, got, size)
		}
	}
	fits("before training")
	u.startTraining(muehle.NineMensMorris, teach.TrainingOptions{Layers: []layers.Key{layers.Moving(3, 3)}, Count: 2, Seed: 3, MaxAnswers: 1})
	q.Drain(t, 20*time.Second, func() bool { return u.learn.train != nil })
	fits("the question")
	_, wrong := keepAndLose(t, db, u.learn.train.run.Current().Pos)
	gametest.TapMove(u.board.TapPoint, wrong)
	q.Drain(t, 10*time.Second, func() bool { return u.learn.walk != nil })
	fits("the refutation")
	// The line's bar, below the training bar, is scrolled into view.
	if bars, _ := u.learn.barsScroll(); bars.Offset.Y+bars.Size().Height < bars.Content.MinSize().Height-1 {
		t.Errorf("the refutation's bar is below the visible part: offset %v of %v in %v", bars.Offset, bars.Content.MinSize(), bars.Size())
	}
	// The bars take at most two thirds of the column and scroll beyond.
	if bars := u.learn.column.Objects[0]; bars.Size().Height > u.learn.column.Size().Height*2/3+1 {
		t.Errorf("the training bars take %v of a column of %v, want at most two thirds", bars.Size(), u.learn.column.Size())
	}
	test.Tap(u.learn.trainBar.again)
	fits("Try Again")
	test.Tap(u.learn.trainBar.end)
	fits("End Training")
}

// TestTrainingOffersTheDatabasesStones: the Training dialog offers only
// the stone counts the database holds layers of (it offered all, then
// found no position in layers it did not have).
func TestTrainingOffersTheDatabasesStones(t *testing.T) {
	e := solvedEngines(t)
	db, _ := e.database()
	ns := e.TrainingStones(muehle.NineMensMorris)
	if len(ns) == 0 || slices.Contains(ns, 18) {
		t.Fatalf("stones on the board offered: got %v, want some, and not 18 (the test database has small layers only)", ns)
	}
	for _, n := range ns {
		if !slices.ContainsFunc(teach.TrainingLayers(muehle.NineMensMorris, n, true), db.Has) {
			t.Errorf("%d stones offered, but the database holds no layer of them", n)
		}
	}
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	u.showTraining()
	top := u.Window().Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Training: no dialog")
	}
	var first *widget.Select
	var find func(o fyne.CanvasObject)
	find = func(o fyne.CanvasObject) {
		if s, ok := o.(*widget.Select); ok && first == nil {
			first = s
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, x := range c.Objects {
				find(x)
			}
		} else if w, ok := o.(fyne.Widget); ok {
			for _, x := range test.WidgetRenderer(w).Objects() {
				find(x)
			}
		}
	}
	find(top)
	if first == nil || len(first.Options) != len(ns)+1 {
		t.Fatalf("the stones' choice: got %v, want Any and %v", first, ns)
	}
	for i, n := range ns {
		if !strings.HasPrefix(first.Options[i+1], strconv.Itoa(n)) {
			t.Errorf("option %d: got %q, want %d", i+1, first.Options[i+1], n)
		}
	}
}
