package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

// TestNewGameLasker: New Game offers Lasker Morris with 3 to 10 stones,
// its own ten by default; the game started is on the board, named in the
// title and the headline, and the choice is remembered after a restart.
func TestNewGameLasker(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.newGame()
	games, stones := newGameSelect(t, u, "Lasker Morris"), newGameSelect(t, u, "3")
	games.SetSelected("Lasker Morris")
	if got, want := strings.Join(stones.Options, " "), "3 4 5 6 7 8 9 10"; got != want {
		t.Errorf("stones offered for Lasker Morris: got %q, want %q", got, want)
	}
	if got, want := stones.Selected, "10"; got != want {
		t.Errorf("stones chosen with Lasker Morris: got %q, want the game's own %q", got, want)
	}
	tapDialogButton(t, u, "Start")
	if got, want := u.ctrl.Game().Position().String(), "........................ w 10 10 lasker"; got != want {
		t.Errorf("the new game: got %q, want %q", got, want)
	}
	if got, want := u.Window().Title(), "Mühle · Lasker Morris"; got != want {
		t.Errorf("window title: got %q, want %q", got, want)
	}
	if got, want := boardLines(u), 32; got != want {
		t.Errorf("lines on the board of Lasker Morris: got %d, want %d", got, want)
	}
	if got, want := u.side.turn.Text, "Lasker Morris · White to move · placing"; got != want {
		t.Errorf("headline: got %q, want %q", got, want)
	}

	u.newGame()
	stones = newGameSelect(t, u, "3")
	stones.SetSelected("4")
	tapDialogButton(t, u, "Start")
	u.ctrl.Close()
	u2 := New(u.app, Options{Do: q.Do})
	t.Cleanup(u2.ctrl.Close)
	if got, want := u2.ctrl.Game().Position().String(), "........................ w 4 4 lasker"; got != want {
		t.Errorf("the game restored: got %q, want %q", got, want)
	}
	u2.newGame()
	games, stones = newGameSelect(t, u2, "Lasker Morris"), newGameSelect(t, u2, "3")
	if got, want := games.Selected+" "+stones.Selected, "Lasker Morris 4"; got != want {
		t.Errorf("New Game after a restart: got %q, want %q", got, want)
	}
}

// TestLaskerByTapsInWindow plays Lasker Morris by taps on the board and on
// the stones in hand: White places by a tap on an empty point; picks up a
// stone, puts it down with a second tap, picks it up again and slides it
// with nine stones still in hand; Black chooses its hand (framed), takes
// the choice back, chooses it again and places; a slide closes a mill and
// a tap removes a stone; a random computer player answers a slide with a
// legal move.
func TestLaskerByTapsInWindow(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.startNewGame(muehle.Lasker.With(10), game.Human, game.Human, false)
	b := u.Board()
	r := test.WidgetRenderer(b).(*boardRenderer)
	g := u.ctrl.Game()
	b.TapPoint(4)  // White d6
	b.TapPoint(23) // Black g1
	if got, want := g.Position().String(), "....W..................B w 9 9 lasker"; got != want {
		t.Fatalf("after the taps on d6 and g1: got %q, want %q", got, want)
	}
	if got, want := u.side.turn.Text, "Lasker Morris · White to move · placing or moving"; got != want {
		t.Errorf("headline: got %q, want %q", got, want)
	}
	if want := "White to move: tap an empty point to place a stone (9 in hand), or pick up a stone to slide it."; u.status.Text != want {
		t.Errorf("status: got %q, want %q", u.status.Text, want)
	}
	if !r.targets[4].Visible() || r.targets[1].Visible() {
		t.Errorf("targets: got d6 %v, d7 %v; want the stone that can move, d6, marked and no empty point", r.targets[4].Visible(), r.targets[1].Visible())
	}

	b.TapPoint(4)
	if !r.selected.Visible() || !r.targets[1].Visible() {
		t.Errorf("d6 picked up: got ring %v, target d7 %v; want both", r.selected.Visible(), r.targets[1].Visible())
	}
	b.TapPoint(4)
	if r.selected.Visible() {
		t.Errorf("d6 tapped again: the selection ring is still shown")
	}
	b.TapPoint(4)
	b.TapPoint(1) // d6-d7
	if got, want := g.History()[2], gametest.MustMove(t, "d6-d7"); got != want {
		t.Fatalf("White's slide: got %s, want %s", got, want)
	}
	if got, want := g.Position().Hand[muehle.White], uint8(9); got != want {
		t.Errorf("White's stones in hand after the slide: got %d, want %d", got, want)
	}

	b.TapHand(muehle.Black)
	if !r.handFrame.Visible() {
		t.Errorf("Black's hand tapped: no frame around it")
	}
	if want := "Black to move: tap an empty point to place a stone (9 in hand); tap the stones in hand again to move a stone on the board instead."; u.status.Text != want {
		t.Errorf("status with the hand chosen: got %q, want %q", u.status.Text, want)
	}
	b.TapHand(muehle.Black)
	if r.handFrame.Visible() {
		t.Errorf("Black's hand tapped again: the frame is still shown")
	}
	b.TapHand(muehle.Black)
	b.TapPoint(21) // a1 from the hand
	if got, want := g.History()[3], gametest.MustMove(t, "a1"); got != want {
		t.Fatalf("Black's placement: got %s, want %s", got, want)
	}
	if r.handFrame.Visible() {
		t.Errorf("after the placement: the frame is still shown")
	}

	// White places a7 and g4 and slides g4-g7 into the mill a7-d7-g7.
	for _, s := range []string{"a7", "b2", "g4", "f2", "g4-g7"} {
		gametest.TapMove(b.TapPoint, gametest.MustMove(t, s))
	}
	if got, want := u.side.turn.Text, "Lasker Morris · White removes a stone"; got != want {
		t.Errorf("after g4-g7: headline got %q, want %q", got, want)
	}
	if got, want := shownLines(r.millLines[:]), 2; got != want {
		t.Errorf("mill edges highlighted: got %d, want %d (a7-d7, d7-g7)", got, want)
	}
	b.TapPoint(23) // g1
	if got, want := g.Position().String(), "WWW...............B.BB.. b 7 6 lasker"; got != want {
		t.Fatalf("after g4-g7xg1: got %q, want %q", got, want)
	}

	u.setSpeed(100 * time.Millisecond)
	u.setPlayer(muehle.White, play.Spec{Kind: play.KindRandom})
	gametest.TapMove(b.TapPoint, gametest.MustMove(t, "f2-f4")) // Black slides with six in hand
	q.Drain(t, 10*time.Second, func() bool { return g.Ply() == 11 })
	if got, want := g.History()[9], gametest.MustMove(t, "f2-f4"); got != want {
		t.Errorf("Black's slide: got %s, want %s", got, want)
	}
	before := g.Positions()[10]
	if m := g.History()[10]; !slices.Contains(before.Moves(), m) {
		t.Errorf("White's random reply %s is not a legal move of %v", m, before)
	}
}

// TestPasteAndOpenLasker: a position of Lasker Morris pasted, or a record
// with [Variant "lasker"] opened, starts a game of Lasker Morris with its
// ten stones a side, named in the title.
func TestPasteAndOpenLasker(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.app.Clipboard().SetContent("W.W.B..B..W..........B.. w 7 7 lasker")
	u.paste()
	if got, want := u.ctrl.Game().Position().String(), "W.W.B..B..W..........B.. w 7 7 lasker"; got != want {
		t.Errorf("pasted: got %q, want %q", got, want)
	}
	if got, want := u.status.Text, "Pasted a position of Lasker Morris."; got != want {
		t.Errorf("status after the paste: got %q, want %q", got, want)
	}
	if got, want := u.ctrl.Variant(), muehle.Lasker.With(10); got != want {
		t.Errorf("variant after the paste: got %v, want %v", got, want)
	}
	if got, want := u.Window().Title(), "Mühle · Lasker Morris"; got != want {
		t.Errorf("window title after the paste: got %q, want %q", got, want)
	}

	u.ctrl.NewGame(muehle.NineMensMorris)
	path := filepath.Join(t.TempDir(), "lasker.txt")
	if err := os.WriteFile(path, []byte("[Variant \"lasker\"]\n\n1. d7 d6 2. d7-a7 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := u.OpenFile(path); err != nil {
		t.Fatal(err)
	}
	if got, want := u.ctrl.Game().Position().String(), "W...B................... b 9 9 lasker"; got != want {
		t.Errorf("opened: got %q, want %q", got, want)
	}
	if got, want := u.side.turn.Text, "Lasker Morris · Black to move · placing or moving"; got != want {
		t.Errorf("headline after opening: got %q, want %q", got, want)
	}
}

// TestLaskerPerfectPlayer: on the database of Lasker Morris with three
// stones a side, solved for the test, the marks and the perfect player
// read it: with stones in hand and on the board, the placement that
// closes a mill wins, and the marks of the moves sit on their stones; the
// hint and the review find it too; the state number names the layer, the
// Database tab the game's folder; training says it is of Nine Men's
// Morris. With
// four stones a side, whose database the folder lacks, the perfect player
// plays alpha-beta and says so.
func TestLaskerPerfectPlayer(t *testing.T) {
	e := solvedLasker3.engines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	// White a7, d7 and one in hand; Black b6, f6 and one in hand. White
	// wins by placing on g7 (a mill; Black is left with two stones), and
	// loses if it does not, to Black's placement on d6.
	start := "WW.B.B.................. w 1 1 lasker"
	g := gametest.MustGame(t, start, 3)
	p := g.Position()
	u.ctrl.SetGame(g)
	if got, want := e.Variant(), muehle.Lasker.With(3); got != want {
		t.Fatalf("engines' variant after a game of Lasker: got %v, want %v", got, want)
	}
	marks := shownMarks(t, u, q)
	if got, want := len(marks), len(p.Moves()); got != want {
		t.Errorf("marks: got %d, want one for each of the %d legal moves", got, want)
	}
	if m := marks[0]; m.Value != layers.WinIn(1) || m.Move.From != muehle.NoPoint || m.Move.To != 2 {
		t.Errorf("best mark: got %s %s, want the placement on g7 winning in 1", m.Move, m.Value)
	}
	v := u.board.View()
	if got, want := v.Marks[2], layers.WinIn(1); got != want {
		t.Errorf("mark on g7: got %s, want %s", got, want)
	}
	for _, pt := range []muehle.Point{0, 1} {
		if _, ok := v.Marks[pt]; !ok {
			t.Errorf("no mark on White's stone on %s: its moves are marked on it", pt)
		}
	}
	if want := "State number: layer p2+1-2+1, index"; !strings.HasPrefix(u.side.state.Text, want) {
		t.Errorf("state number: got %q, want it to start with %q", u.side.state.Text, want)
	}
	e.SetGame(muehle.Lasker.With(3))
	for _, want := range []string{"In " + filepath.Join(e.Dir(), "lasker", "k3"), "- Moving phase: complete",
		"15 of 15 layers with stones in hand complete", "- Stones in hand: complete"} {
		if s := e.Summary(); !strings.Contains(s, want) {
			t.Errorf("Database tab: got %q, want it to contain %q", s, want)
		}
	}

	// A hint shows the winning placement; Review Game marks a move that
	// gives the win away, with the placement as the best move.
	checkHintAndReview(t, u, q, g, marks, muehle.NoPoint, 2, "g7x")

	// Training draws positions of the game on the board from its
	// database, complete here, and says so.
	u.showTraining()
	if got := e.TrainingStones(muehle.Lasker.With(3)); !slices.Equal(got, []int{6}) {
		t.Errorf("training's stones on the board in Lasker Morris with 3 stones: got %v, want [6]", got)
	}
	if text := dialogText(u); !strings.Contains(text, "Positions of "+muehle.Lasker.With(3).Name()+" from its database") {
		t.Errorf("Training dialog: got %q, want it to say the positions are of Lasker Morris with 3 stones", text)
	}
	tapDialogButton(t, u, "Cancel")

	db, _, err := e.gameDatabase()
	if err != nil {
		t.Fatal(err)
	}
	u.setSpeed(100 * time.Millisecond)
	u.setPlayer(muehle.White, play.DefaultPerfect)
	q.Drain(t, 10*time.Second, func() bool { return g.Ply() == 1 })
	checkBestReply(t, db, g, "perfect")
	if m := g.History()[0]; m.From != muehle.NoPoint || m.To != 2 || m.Remove == muehle.NoPoint {
		t.Errorf("the perfect player's move: got %s, want the placement on g7 and a removal", m)
	}

	// Four stones a side: the folder has no database of them.
	u.setPlayer(muehle.White, game.Human)
	g4 := gametest.MustGame(t, "WW.B.B.................. w 2 2 lasker", 4)
	checkPerfectOutside(t, u, q, g4, "is not in the database of "+muehle.Lasker.With(4).Name()+" yet (the Database tab computes it, as does muehlectl solve --game lasker --stones 4", 30*time.Second)
	if m, before := g4.History()[0], g4.Positions()[0]; !slices.Contains(before.Moves(), m) {
		t.Errorf("the fallback's move %s is not legal in %v", m, before)
	}
}
