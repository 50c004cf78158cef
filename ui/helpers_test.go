package ui

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/play"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, s := range solvedDBs() {
		if s.dir != "" {
			os.RemoveAll(s.dir)
		}
	}
	os.Exit(code)
}

// newTestApp returns the main window on a test app, sized for the board to
// be 560 pixels square, with the UI queue q.
func newTestApp(t *testing.T, q *gametest.Queue, e game.Engines) *App {
	t.Helper()
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.Do, Engines: e})
	u.Window().Resize(fyne.NewSize(1000, 700))
	t.Cleanup(u.ctrl.Close)
	return u
}

func layersKeyOf(p muehle.Position) layers.Key { return layers.KeyOf(p) }

func itoa(i uint64) string { return strconv.FormatUint(i, 10) }

// endgame33 returns a 3-3 position with White to move and a 9-stone game
// that starts there.
func endgame33(t *testing.T) (muehle.Position, *muehle.Game) {
	t.Helper()
	g := gametest.MustGame(t, "WWB"+"W.."+"..."+"....B."+"B.."+"..."+"..."+" w 0 0", 9)
	return g.Position(), g
}

// layersKey parses a layer key or fails the test.
func layersKey(t *testing.T, s string) layers.Key {
	t.Helper()
	k, err := layers.ParseKey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// shownMarks switches the perfect-move marks on and returns them once the
// evaluation is done.
func shownMarks(t *testing.T, u *App, q *gametest.Queue) []game.MoveMark {
	t.Helper()
	u.setShowPerfect(true)
	q.Drain(t, 10*time.Second, func() bool { m, err := u.ctrl.Marks(); return len(m) > 0 || err != nil })
	marks, err := u.ctrl.Marks()
	if err != nil {
		t.Fatal(err)
	}
	return marks
}

// checkBestReply checks that the computer's reply, the last move of g,
// kept the best value the database gives the position before it.
func checkBestReply(t *testing.T, db layers.Prober, g *muehle.Game, who string) {
	t.Helper()
	before := g.Positions()[g.Ply()-1]
	best, err := retro.BestChild(db, before)
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Probe(g.Position())
	if err != nil {
		t.Fatal(err)
	}
	if got.Parent() != best {
		t.Errorf("%s reply %s: value %s, want the best %s", who, g.History()[g.Ply()-1], got.Parent(), best)
	}
}

// checkHintAndReview checks, with game g on the board and marks its
// moves' marks (best first), that a hint shows the best move from→to, and
// that Review Game marks the worst marked move as giving up value with the
// best move (its text in the move list, e.g. "g7x"); it leaves g on the
// board.
func checkHintAndReview(t *testing.T, u *App, q *gametest.Queue, g *muehle.Game, marks []game.MoveMark, from, to muehle.Point, best string) {
	t.Helper()
	u.hint()
	q.Drain(t, 10*time.Second, func() bool { return u.board.View().Best.To != muehle.NoPoint })
	if b := u.board.View().Best; b.From != from || b.To != to {
		t.Errorf("hint: got %s, want %s and a removal", b, best)
	}
	// The status line names what the board draws: a ring on the point of
	// a placement, an arrow for a move.
	if shape := map[bool]string{true: "the green ring", false: "the green arrow"}[from == muehle.NoPoint]; !strings.Contains(u.ctrl.Status(), shape) {
		t.Errorf("hint: status %q, want it to name %s", u.ctrl.Status(), shape)
	}
	bad := marks[len(marks)-1].Move
	reviewed := g.Clone()
	if err := reviewed.Play(bad); err != nil {
		t.Fatal(err)
	}
	u.ctrl.SetGame(reviewed)
	menuItem(t, u.Window().MainMenu(), "Analysis", "Review Game").Action()
	q.Drain(t, 10*time.Second, func() bool { return u.verdicts() != nil })
	if rows := strings.Split(u.side.moves.Text(), "\n"); len(rows) != 2 || !strings.Contains(rows[1], "?  best "+best) {
		t.Errorf("move list after the review: got %q, want %s marked with the best move %s…", rows, bad, best)
	}
	u.ctrl.SetGame(g)
}

// checkPerfectOutside puts g, a game whose layers the database lacks, on
// the board and checks that the marks say so (missing: part of the side
// panel's text) and that the perfect player, as White, plays alpha-beta
// within wait and says so.
func checkPerfectOutside(t *testing.T, u *App, q *gametest.Queue, g *muehle.Game, missing string, wait time.Duration) {
	t.Helper()
	u.ctrl.SetGame(g)
	q.Drain(t, 10*time.Second, func() bool { _, err := u.ctrl.Marks(); return err != nil })
	if !strings.Contains(u.side.value.Text, missing) {
		t.Errorf("marks outside the database: side panel says %q, want %q", u.side.value.Text, missing)
	}
	u.setPlayer(muehle.White, play.DefaultPerfect)
	q.Drain(t, wait, func() bool { return g.Ply() == 1 })
	for _, want := range []string{"White (Perfect) played its last move outside the database", "so it played alpha-beta"} {
		if !strings.Contains(u.status.Text, want) {
			t.Errorf("status after the perfect player's move outside the database: got %q, want it to contain %q", u.status.Text, want)
		}
	}
}
