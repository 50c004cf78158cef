package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/teach"
	"muehle/ui/game/gametest"
)

func TestRowTextsWithVerdicts(t *testing.T) {
	g := muehle.NewGame(9)
	for _, m := range []muehle.Move{muehle.Place(4), muehle.Place(19)} {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	kept := teach.Verdict{Mark: teach.MarkKept, Before: layers.Drawn, After: layers.Drawn}
	worse := teach.Verdict{Mark: teach.MarkWorse, Before: layers.Drawn, After: layers.LossIn(12),
		Best: muehle.Place(1), BestValue: layers.Drawn}
	unknown := teach.Verdict{Mark: teach.MarkUnknown, Err: errors.New("layer missing")}
	gaveWin := teach.Verdict{Mover: muehle.Black, Mark: teach.MarkWorse, Before: layers.WinIn(13), After: layers.Drawn,
		Best: muehle.Place(1), BestValue: layers.WinIn(13)}
	for _, tc := range []struct {
		vs   []teach.Verdict
		want string
	}{
		{nil, "    Start|  1. d6|  1… d2"},
		{[]teach.Verdict{kept, worse}, "    Start|  1. d6|  1… d2          ?  best d7 (drawn)"},
		{[]teach.Verdict{unknown, kept}, "    Start|  1. d6          (not judged)|  1… d2"},
		{[]teach.Verdict{kept, gaveWin}, "    Start|  1. d6|  1… d2          ?  best d7 (won in 13 for Black)"},
	} {
		if got := strings.Join(rowTexts(g, tc.vs), "|"); got != tc.want {
			t.Errorf("rowTexts: got %q, want %q", got, tc.want)
		}
	}
	if marked([]teach.Verdict{kept, worse}, 1) || !marked([]teach.Verdict{kept, worse}, 2) || marked(nil, 1) {
		t.Errorf("marked: only row 2 of kept, worse is marked")
	}
}

func TestReviewGameInTheWindow(t *testing.T) {
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
	menuItem(t, u.Window().MainMenu(), "Analysis", "Review Game").Action()
	q.Drain(t, 10*time.Second, func() bool { return u.verdicts() != nil })
	rows := strings.Split(u.side.moves.Text(), "\n")
	if len(rows) != 2 || !strings.Contains(rows[1], bad.String()) || !strings.Contains(rows[1], "?  best ") {
		t.Fatalf("move list after the review: got %q, want the blunder %s marked with the best move", rows, bad)
	}
	if !marked(u.side.verdicts, 1) {
		t.Errorf("the blunder's row is not marked")
	}
	if l := u.side.refutation; !l.Visible() || !strings.Contains(l.Text, "gave up value") || !strings.Contains(l.Text, "Black's answer: ") {
		t.Errorf("side panel after the review: got %q (visible %t), want what the move gave up and Black's answer", l.Text, l.Visible())
	}
	// The board draws the best move as an arrow.
	best := u.side.verdicts[0].Best
	if got := u.board.View().Best; got != best || best.From == muehle.NoPoint {
		t.Errorf("the board's best move: got %s, want the review's %s (a jump)", got, best)
	}
	r := test.WidgetRenderer(u.board).(*boardRenderer)
	if !r.best[0].Visible() || !r.bestTo.Visible() || r.best[0].Position1 == r.best[0].Position2 {
		t.Errorf("the arrow of the best move is not drawn")
	}

	// Saved with the verdicts, opened again: the marks come back.
	rec := u.recordText()
	if !strings.Contains(rec, "{? ") {
		t.Fatalf("record after the review: got %q, want a marked verdict", rec)
	}
	path := filepath.Join(t.TempDir(), "game.txt")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	u.ctrl.SetGame(muehle.NewGame(9))
	if u.verdicts() != nil || strings.Contains(u.side.moves.Text(), "?") || u.board.View().Best.To != muehle.NoPoint {
		t.Fatalf("a new game keeps the old verdicts: %q, best %s", u.side.moves.Text(), u.board.View().Best)
	}
	if u.side.refutation.Visible() {
		t.Errorf("the refutation stays in the side panel of a new game: %q", u.side.refutation.Text)
	}
	if r.best[0].Visible() || r.bestTo.Visible() {
		t.Errorf("the arrow stays on the board of a new game")
	}
	if err := u.OpenFile(path); err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(u.side.moves.Text(), "\n"); len(got) != 2 || got[1] != rows[1] {
		t.Errorf("move list of the opened record: got %q, want %q", got, rows)
	}
	// The refutation comes from the database, in the background.
	q.Drain(t, 10*time.Second, func() bool { return u.review.lines != nil })
	if l := u.side.refutation; !l.Visible() || !strings.Contains(l.Text, "Black's answer: ") {
		t.Errorf("side panel of the opened record: got %q (visible %t), want Black's answer", l.Text, l.Visible())
	}
}

func TestReviewGameWithoutDatabase(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.ctrl.SetGame(muehle.NewGame(9))
	u.reviewGame()
	if got := u.ctrl.Status(); !strings.Contains(got, "needs the database") {
		t.Errorf("status: got %q, want that the review needs the database", got)
	}
}

func TestRefutationText(t *testing.T) {
	kept := teach.Verdict{Mark: teach.MarkKept, Move: muehle.Slide(1, 0), Mover: muehle.White}
	worse := teach.Verdict{Mark: teach.MarkWorse, Move: muehle.Slide(1, 0), Mover: muehle.White,
		Before: layers.WinIn(19), After: layers.LossIn(8), Best: muehle.Slide(1, 16), BestValue: layers.WinIn(19)}
	line := []teach.Step{{Move: muehle.Slide(14, 5), Value: layers.WinIn(7)}, {Move: muehle.Slide(0, 20), Value: layers.LossIn(6)}}
	for _, tc := range []struct {
		vs    []teach.Verdict
		lines [][]teach.Step
		p     int
		want  string
	}{
		{[]teach.Verdict{kept}, nil, 1, ""},
		{[]teach.Verdict{worse}, nil, 0, ""},
		{[]teach.Verdict{worse}, nil, 1, "Review: d7-a7 by White gave up value: won in 19 before, lost in 8 after it. " +
			"The best move was d7-d3 (won in 19, the green arrow)."},
		{[]teach.Verdict{worse}, [][]teach.Step{line}, 1, "Review: d7-a7 by White gave up value: won in 19 before, lost in 8 after it. " +
			"The best move was d7-d3 (won in 19, the green arrow). Black's answer: g4-f6 a7-f2 (won in 7 for Black)."},
	} {
		if got := refutationText(muehle.StandardBoard, tc.vs, tc.lines, tc.p); got != tc.want {
			t.Errorf("refutationText(p=%d): got %q, want %q", tc.p, got, tc.want)
		}
	}
}
