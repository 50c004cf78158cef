package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/retro/search"
	"muehle/retro/teach"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

// boardLines returns the number of lines the board draws.
func boardLines(u *App) int {
	return shownLines(test.WidgetRenderer(u.Board()).(*boardRenderer).lines[:])
}

// newGameSelect returns the select of the open New Game dialog that offers
// option.
func newGameSelect(t *testing.T, u *App, option string) *widget.Select {
	t.Helper()
	s := findInDialog(u, func(s *widget.Select) bool { return slices.Contains(s.Options, option) })
	if s == nil {
		t.Fatalf("the New Game dialog has no choice offering %q", option)
	}
	return s
}

// TestNewGameTwelve: New Game offers every game of muehle.Games with the
// stones of the chosen game (3 to 9, 3 to 12, the game's own by default);
// Twelve Men's Morris started from the dialog is on the board, drawn with
// its diagonals, named in the title, and the choice is remembered, also
// after a restart.
func TestNewGameTwelve(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.newGame()
	games := newGameSelect(t, u, "Twelve Men's Morris")
	var names []string // every game of the family, in the order of muehle.Games
	for _, r := range muehle.Games {
		names = append(names, r.Name)
	}
	if got, want := games.Options, names; !slices.Equal(got, want) || len(want) < 11 {
		t.Errorf("games offered: got %q, want %q", got, want)
	}
	stones := newGameSelect(t, u, "3")
	if got, want := games.Selected+" "+stones.Selected, "Nine Men's Morris 9"; got != want {
		t.Errorf("the first New Game: got %q, want %q", got, want)
	}
	if got, want := len(stones.Options), 7; got != want {
		t.Errorf("stones offered for Nine Men's Morris: got %d (%q), want %d (3 to 9)", got, stones.Options, want)
	}
	games.SetSelected("Twelve Men's Morris")
	if got, want := strings.Join(stones.Options, " "), "3 4 5 6 7 8 9 10 11 12"; got != want {
		t.Errorf("stones offered for Twelve Men's Morris: got %q, want %q", got, want)
	}
	if got, want := stones.Selected, "12"; got != want {
		t.Errorf("stones chosen with Twelve Men's Morris: got %q, want the game's own %q", got, want)
	}
	tapDialogButton(t, u, "Start")

	if got, want := u.ctrl.Game().Position().String(), "........................ w 12 12 twelve"; got != want {
		t.Errorf("the new game: got %q, want %q", got, want)
	}
	if got, want := game.VariantOf(u.ctrl.Game()), muehle.Twelve.With(12); got != want {
		t.Errorf("the new game's variant: got %v, want %v", got, want)
	}
	if got, want := boardLines(u), 40; got != want {
		t.Errorf("lines on the board of Twelve Men's Morris: got %d, want %d", got, want)
	}
	if got, want := u.Window().Title(), "Mühle · Twelve Men's Morris"; got != want {
		t.Errorf("window title: got %q, want %q", got, want)
	}

	// The dialog remembers the choice, and a restart too; fewer stones.
	u.newGame()
	games, stones = newGameSelect(t, u, "Twelve Men's Morris"), newGameSelect(t, u, "3")
	if got, want := games.Selected+" "+stones.Selected, "Twelve Men's Morris 12"; got != want {
		t.Errorf("New Game after a game of Twelve: got %q, want %q", got, want)
	}
	stones.SetSelected("5")
	tapDialogButton(t, u, "Start")
	if got, want := u.ctrl.Game().Position().String(), "........................ w 5 5 twelve"; got != want {
		t.Errorf("Twelve Men's Morris with 5 stones: got %q, want %q", got, want)
	}
	// Five stones in hand lie as far apart as nine do, not squeezed as twelve.
	hand := test.WidgetRenderer(u.Board()).(*boardRenderer).hand[muehle.White]
	if got, want := hand[0].Position().X-hand[1].Position().X, handStep*u.Board().geometry().cell; got-want > 0.01 || want-got > 0.01 {
		t.Errorf("stones in hand with 5 a side: got %v pixels apart, want %v", got, want)
	}
	u.ctrl.Close()
	u2 := New(u.app, Options{Do: q.Do})
	t.Cleanup(u2.ctrl.Close)
	u2.newGame()
	games, stones = newGameSelect(t, u2, "Twelve Men's Morris"), newGameSelect(t, u2, "3")
	if got, want := games.Selected+" "+stones.Selected, "Twelve Men's Morris 5"; got != want {
		t.Errorf("New Game after a restart: got %q, want %q", got, want)
	}
	if got, want := u2.ctrl.Game().Position().String(), "........................ w 5 5 twelve"; got != want {
		t.Errorf("the game restored: got %q, want %q", got, want)
	}
	// Back to Nine Men's Morris: its own stones, its 32 lines.
	games.SetSelected("Nine Men's Morris")
	if got, want := stones.Selected+" of "+strings.Join(stones.Options, " "), "9 of 3 4 5 6 7 8 9"; got != want {
		t.Errorf("stones with Nine Men's Morris chosen again: got %q, want %q", got, want)
	}
	tapDialogButton(t, u2, "Start")
	if got, want := u2.ctrl.Game().Position().String(), "........................ w 9 9"; got != want {
		t.Errorf("Nine Men's Morris again: got %q, want %q", got, want)
	}
	if got, want := boardLines(u2), 32; got != want {
		t.Errorf("lines on the board of Nine Men's Morris: got %d, want %d", got, want)
	}
	if got, want := u2.Window().Title(), "Mühle"; got != want {
		t.Errorf("window title: got %q, want %q", got, want)
	}
}

// TestTwelveByTapsInWindow: taps on the board play Twelve Men's Morris: a
// mill on a diagonal (a7-b6-c5) asks for a removal, and a random computer
// player answers a placement with a legal move.
func TestTwelveByTapsInWindow(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.startNewGame(muehle.Twelve.With(12), game.Human, game.Human, false)
	for _, s := range []string{"a7", "g1", "b6", "f2"} {
		gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, s))
	}
	u.Board().TapPoint(6) // c5
	if got, want := u.side.turn.Text, "Twelve Men's Morris · White removes a stone"; got != want {
		t.Errorf("after c5: headline got %q, want %q", got, want)
	}
	if got, want := shownLines(test.WidgetRenderer(u.Board()).(*boardRenderer).millLines[:]), 2; got != want {
		t.Errorf("mill edges highlighted: got %d, want %d (a7-b6, b6-c5)", got, want)
	}
	u.Board().TapPoint(23) // g1
	if got, want := u.ctrl.Game().Position().String(), "W..W..W.............B... b 9 10 twelve"; got != want {
		t.Fatalf("after a7 g1 b6 f2 c5xg1: got %q, want %q", got, want)
	}

	u.setSpeed(100 * time.Millisecond)
	u.setPlayer(muehle.White, play.Spec{Kind: play.KindRandom})
	g := u.ctrl.Game()
	u.Board().TapPoint(17) // Black places on e3
	q.Drain(t, 10*time.Second, func() bool { return g.Ply() == 7 })
	if got, want := g.History()[5], gametest.MustMove(t, "e3"); got != want {
		t.Errorf("Black's tap on e3: got %s, want %s", got, want)
	}
	before := g.Positions()[6]
	if m := g.History()[6]; !slices.Contains(before.Moves(), m) {
		t.Errorf("White's random reply %s is not a legal move of %v", m, before)
	}
	if got := g.Position().Game; got != muehle.Twelve {
		t.Errorf("the game after the computer's move: got game %v, want twelve", got)
	}
}

// TestPasteAndOpenTwelve: a position text of Twelve Men's Morris pasted,
// or a record with [Variant "twelve"] opened, starts a game of Twelve; a
// position of Three Men's Morris of the wrong length is refused with a
// sentence, and the game stays.
func TestPasteAndOpenTwelve(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.app.Clipboard().SetContent("W....................... b 11 12 twelve")
	u.paste()
	if got, want := u.ctrl.Game().Position().String(), "W....................... b 11 12 twelve"; got != want {
		t.Errorf("pasted: got %q, want %q", got, want)
	}
	if got, want := u.status.Text, "Pasted a position of Twelve Men's Morris."; got != want {
		t.Errorf("status after the paste: got %q, want %q", got, want)
	}
	if got, want := boardLines(u), 40; got != want {
		t.Errorf("lines after pasting Twelve: got %d, want %d", got, want)
	}

	u.app.Clipboard().SetContent("........ w 3 3 three")
	u.paste()
	if got, want := u.ctrl.Game().Position().String(), "W....................... b 11 12 twelve"; got != want {
		t.Errorf("after pasting a short position of Three Men's Morris: got %q, want the game kept, %q", got, want)
	}
	for _, want := range []string{"Paste: ", "board has 8 characters, want 9"} {
		if !strings.Contains(u.status.Text, want) {
			t.Errorf("status after pasting a short position of Three Men's Morris: got %q, want it to contain %q", u.status.Text, want)
		}
	}

	u.ctrl.NewGame(muehle.NineMensMorris)
	path := filepath.Join(t.TempDir(), "twelve.txt")
	if err := os.WriteFile(path, []byte("[Variant \"twelve\"]\n\n1. a7 d7\n2. b6 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := u.OpenFile(path); err != nil {
		t.Fatal(err)
	}
	if got, want := u.ctrl.Game().Position().String(), "WB.W.................... b 10 11 twelve"; got != want {
		t.Errorf("opened: got %q, want %q", got, want)
	}
	if got, want := u.Window().Title(), "Mühle · Twelve Men's Morris"; got != want {
		t.Errorf("window title after opening: got %q, want %q", got, want)
	}
}

// TestTwelvePerfectPlayer: on a database holding layer 3-3 of Twelve
// Men's Morris, the marks and the perfect player read it (the jump that
// closes the diagonal mill wins), as do the hint and the review; the state
// number names its layer, and the Database tab's text says which database
// the game reads; in a layer
// it lacks the player plays alpha-beta and the status says so, and the
// marks say what computes it.
func TestTwelvePerfectPlayer(t *testing.T) {
	e := solvedTwelve33.engines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	// White a7, b6, g4; Black d2, e3, a1: White jumps g4-c5 into the mill
	// a7-b6-c5 and takes a stone, leaving Black two.
	start := "W..W..........W..B.BB... w 0 0 twelve"
	p, err := muehle.ParsePosition(start)
	if err != nil {
		t.Fatal(err)
	}
	g, err := muehle.NewGameFrom(p, 12)
	if err != nil {
		t.Fatal(err)
	}
	u.ctrl.SetGame(g)
	if got, want := e.Variant(), muehle.Twelve.With(12); got != want {
		t.Fatalf("engines' variant after a game of Twelve: got %v, want %v", got, want)
	}
	marks := shownMarks(t, u, q)
	if got, want := len(marks), len(p.Moves()); got != want {
		t.Errorf("marks: got %d, want one for each of the %d legal moves", got, want)
	}
	if m := marks[0]; m.Value != layers.WinIn(1) || m.Move.From != 14 || m.Move.To != 6 {
		t.Errorf("best mark: got %s %s, want g4-c5 (closing a7-b6-c5) winning in 1", m.Move, m.Value)
	}
	if want := "State number: layer 3-3, index"; !strings.HasPrefix(u.side.state.Text, want) {
		t.Errorf("state number: got %q, want it to start with %q", u.side.state.Text, want)
	}
	e.SetGame(muehle.Twelve.With(12))
	for _, want := range []string{"In " + filepath.Join(e.Dir(), "twelve", "k12"), "       3  4  5  6  7  8  9 10 11 12\n  3    #  ·",
		"Moving phase: 1 of 100 layers", "0 of 1215 layers complete"} {
		if s := e.Summary(); !strings.Contains(s, want) {
			t.Errorf("Database tab: got %q, want it to contain %q", s, want)
		}
	}

	// A hint shows the winning jump; Review Game marks a move that gives
	// the win away, with the jump as the best move.
	checkHintAndReview(t, u, q, g, marks, 14, 6, "g4-c5x")

	db, _, err := e.gameDatabase()
	if err != nil {
		t.Fatal(err)
	}
	u.setSpeed(100 * time.Millisecond)
	u.setPlayer(muehle.White, play.DefaultPerfect)
	q.Drain(t, 10*time.Second, func() bool { return g.Ply() == 1 })
	checkBestReply(t, db, g, "perfect")

	// Four White stones: layer 4-3 is not in the folder.
	u.setPlayer(muehle.White, game.Human)
	p, err = muehle.ParsePosition("W..W.........WW..B.BB... w 0 0 twelve")
	if err != nil {
		t.Fatal(err)
	}
	if g, err = muehle.NewGameFrom(p, 12); err != nil {
		t.Fatal(err)
	}
	checkPerfectOutside(t, u, q, g, "the endgame of 4 against 3 stones, or one it leads to, is not in the database of Twelve Men's Morris yet (the Database tab computes it, as does muehlectl solve --game twelve", 20*time.Second)
	if m := g.History()[0]; !slices.Contains(p.Moves(), m) {
		t.Errorf("the fallback's move %s is not legal in %v", m, p)
	}
}

// TestTrainingFromTwelve: training draws positions of the game on the
// board, Twelve Men's Morris, from its database and says so; the positions
// are of Twelve, the engines stay on its database, and ending training
// brings back the game of Twelve and its computer player.
func TestTrainingFromTwelve(t *testing.T) {
	e := solvedTwelve33.engines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	v := muehle.Twelve.With(12)
	u.startNewGame(v, game.Human, play.Spec{Kind: play.KindAlphaBeta, Limits: search.Limits{Depth: 1}}, false)
	twelve := u.ctrl.Game()
	u.showTraining()
	if want := "Positions of Twelve Men's Morris from its database"; !strings.Contains(dialogText(u), want) ||
		!strings.Contains(dialogText(u), "The game on the board waits until training ends.") {
		t.Errorf("Training dialog: got %q, want it to say the positions are of Twelve Men's Morris and the game waits", dialogText(u))
	}
	tapDialogButton(t, u, "Cancel")
	u.startTraining(v, teach.TrainingOptions{Layers: []layers.Key{layers.Moving(3, 3)}, Count: 1, Seed: 5, MaxAnswers: 1})
	q.Drain(t, 20*time.Second, func() bool { return u.learn.train != nil })
	if got := e.Variant(); got != v {
		t.Errorf("engines in training: got %v, want %v", got, v)
	}
	first := u.learn.train.run.Current().Pos
	if first.Game != muehle.Twelve {
		t.Errorf("training position %v: want one of Twelve Men's Morris", first)
	}
	gametest.TapMove(u.board.TapPoint, first.Moves()[0])
	q.Drain(t, 10*time.Second, func() bool { _, ok := u.learn.train.run.Answer(); return ok })
	u.endTraining()
	if u.ctrl.Game() != twelve {
		t.Errorf("after training: got the game %v, want the game of Twelve back", u.ctrl.Game().Position())
	}
	if got := e.Variant(); got != v {
		t.Errorf("engines after training: got %v, want %v", got, v)
	}
	if p := u.ctrl.Player(muehle.Black); p == nil || p.Name() != "Alpha-beta (depth 1)" {
		t.Errorf("Black after training: got %v, want alpha-beta depth 1 again", p)
	}
}
