package ui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"muehle/muehle"
	"muehle/ui/game"
)

func TestCheckSetup(t *testing.T) {
	pos := func(s string) muehle.Position {
		p, err := muehle.ParsePosition(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		p    muehle.Position
		want string // "" for a possible position
	}{
		{"start", muehle.NewPosition(9), ""},
		{"after one placement", pos("W....................... b 8 9"), ""},
		{"moving phase", pos("WWB" + "WBW" + "BB." + "......" + "..." + "..." + "..." + " w 0 0"), ""},
		{"White to move after White placed", pos("W....................... w 8 9"), "White must have placed 0 stones"},
		{"Black to move, nobody placed", pos("........................ b 9 9"), "White must have placed 1 stones"},
		{"moving phase, Black to move", pos("WWB" + "WBW" + "BB." + "......" + "..." + "..." + "..." + " b 0 0"), ""},
		{"White placed all, Black one left", pos("WWB" + "WBW" + "BB." + "W....." + "..." + "..." + "..." + " b 0 1"), ""},
		{"ten white stones", pos("WWWWWWWWWW.............. w 0 0"), "White has 10 stones"},
		{"too many with hand", pos("WWWW....BBB............. w 6 6"), "White has 10 stones"},
		{"side that moved has two", pos("WWWW....BB.............. w 0 0"), "Black has only 2 stones"},
	}
	for _, tt := range tests {
		err := checkSetup(tt.p, 9)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: got %v, want no error", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		case tt.want != "" && !errors.Is(err, muehle.ErrPosition):
			t.Errorf("%s: got %v, want it to wrap ErrPosition", tt.name, err)
		}
	}
}

func TestEditorRefusesImpossiblePosition(t *testing.T) {
	test.NewTempApp(t)
	var got *muehle.Position
	e := newEditor(muehle.NewPosition(9), 9, func(p muehle.Position) { got = &p })
	w := test.NewTempWindow(t, e.content)
	w.Resize(fyne.NewSize(800, 460))

	// Four white stones with nine still in hand: thirteen stones.
	for _, p := range []muehle.Point{0, 1, 2, 9} {
		e.board.TapPoint(p)
	}
	if e.ok() || got != nil {
		t.Fatal("the editor accepted 4 stones on the board and 9 in hand")
	}
	if !strings.Contains(e.message.Text, "White has 13 stones") {
		t.Errorf("reason: got %q, want it to name 13 stones", e.message.Text)
	}

	// Hands that do not fit the side to move: with 9 and 8 in hand Black
	// has placed first, but White always places first.
	e.pos.Stones = [2]muehle.Bitboard{}
	e.hands[muehle.White].SetSelected("9")
	e.hands[muehle.Black].SetSelected("8")
	if e.ok() || !strings.Contains(e.message.Text, "White must have placed 1 stones") {
		t.Errorf("hands 9/8, White to move: accepted or wrong reason %q", e.message.Text)
	}

	// Moving phase: no stones in hand. Tapping a point cycles empty →
	// White → Black, so a7 twice is Black.
	e.hands[muehle.White].SetSelected("0")
	e.hands[muehle.Black].SetSelected("0")
	for _, p := range []muehle.Point{1, 2, 9} {
		e.board.TapPoint(p)
	}
	for _, p := range []muehle.Point{0, 21, 22} {
		e.board.TapPoint(p)
		e.board.TapPoint(p)
	}
	e.turn.SetSelected("Black")
	if !e.ok() {
		t.Fatalf("refused a possible position %v: %s", e.pos, e.message.Text)
	}
	if got == nil || got.Stones[muehle.Black] != 1<<0|1<<21|1<<22 || got.Stones[muehle.White] != 1<<1|1<<2|1<<9 || got.Turn != muehle.Black {
		t.Errorf("accepted position: got %v", got)
	}
}

// TestSetupAllowsUnreachableWithWarning checks that the set-up dialog and
// Paste accept a position that passes Validate but that no game reaches
// (White has lost a stone that Black cannot have removed), each with the
// warning that it cannot arise in a game (issue 28).
func TestSetupAllowsUnreachableWithWarning(t *testing.T) {
	test.NewTempApp(t)
	var got *muehle.Position
	e := newEditor(muehle.NewPosition(9), 9, func(p muehle.Position) { got = &p })
	w := test.NewTempWindow(t, e.content)
	w.Resize(fyne.NewSize(800, 460))
	e.hands[muehle.White].SetSelected("8")
	e.hands[muehle.Black].SetSelected("8")
	e.turn.SetSelected("White")
	if !strings.Contains(e.message.Text, "cannot arise in a game") {
		t.Errorf("message: got %q, want the warning that it cannot arise in a game", e.message.Text)
	}
	if !e.ok() || got == nil {
		t.Fatalf("the editor refused %v: %s", e.pos, e.message.Text)
	}

	g, what, err := parsePasted("........................ w 8 8", muehle.NineMensMorris)
	if err != nil || g == nil {
		t.Fatalf("paste: got %v, want the position accepted", err)
	}
	if !strings.Contains(what, "cannot arise in a game") {
		t.Errorf("paste: got %q, want the warning that it cannot arise in a game", what)
	}
	if _, what, _ := parsePasted("........................ w 9 9", muehle.NineMensMorris); what != "a position" {
		t.Errorf("paste of the start: got %q, want %q", what, "a position")
	}
}

// TestPasteOtherGames: a position or a game record of Twelve Men's Morris
// or Lasker Morris, Six or Three Men's Morris starts a game of that one (a
// position of the game on the board keeps its stones per side); a position
// string of the wrong length for its game is refused with a sentence
// saying what was expected.
func TestPasteOtherGames(t *testing.T) {
	nine, twelve5 := muehle.NineMensMorris, muehle.Twelve.With(5)
	for _, tc := range []struct {
		text     string
		cur      muehle.Variant
		want     muehle.Variant
		wantWhat string
	}{
		{"........................ w 12 12 twelve", nine, muehle.Twelve.With(12), "a position of Twelve Men's Morris"},
		{"W....................... b 11 12 twelve", nine, muehle.Twelve.With(12), "a position of Twelve Men's Morris"},
		{"W....................... b 4 5 twelve", twelve5, twelve5, "a position of Twelve Men's Morris"},
		{"[Variant \"twelve\"]\n\n1. d7 d6 *\n", nine, muehle.Twelve.With(12), "a game of Twelve Men's Morris (2 plies)"},
		{"[Variant \"twelve\"]\n[Stones \"5\"]\n\n1. a7 *\n", nine, twelve5, "a game of Twelve Men's Morris with 5 stones (1 ply)"},
		{"........................ w 10 10 lasker", nine, muehle.Lasker.With(10), "a position of Lasker Morris"},
		{"W....................... b 2 3 lasker", muehle.Lasker.With(3), muehle.Lasker.With(3), "a position of Lasker Morris"},
		{"[Variant \"lasker\"]\n\n1. d7 d6 2. d7-a7 *\n", twelve5, muehle.Lasker.With(10), "a game of Lasker Morris (3 plies)"},
		{"................ w 6 6 six", nine, muehle.Six.With(6), "a position of Six Men's Morris"},
		{"W........ b 2 3 three", nine, muehle.Three.With(3), "a position of Three Men's Morris"},
		{"[Variant \"five\"]\n\n1. a5 c5 *\n", nine, muehle.Five.With(5), "a game of Five Men's Morris (2 plies)"},
	} {
		g, what, err := parsePasted(tc.text, tc.cur)
		if err != nil {
			t.Errorf("pasting %q: got %v, want a game of %v", tc.text, err, tc.want)
			continue
		}
		if got := game.VariantOf(g); got != tc.want || g.Position().Game != tc.want.Game {
			t.Errorf("pasting %q: got a game of %v (position of %v), want %v", tc.text, got, g.Position().Game, tc.want)
		}
		if what != tc.wantWhat {
			t.Errorf("pasting %q: got %q, want %q", tc.text, what, tc.wantWhat)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"........ w 3 3 three", "board has 8 characters, want 9 (one per point, a3 first, c1 last)"},
	} {
		if _, _, err := parsePasted(tc.text, nine); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("pasting %q: got %v, want a refusal saying %q", tc.text, err, tc.want)
		}
	}
}

// TestEditorClearForAnEndgame: Clear board empties the hands too, so that
// three stones a side tapped on the empty board are a possible position
// (with nine left in each hand they were "White has 12 stones").
func TestEditorClearForAnEndgame(t *testing.T) {
	test.NewTempApp(t)
	var got *muehle.Position
	e := newEditor(muehle.NewPosition(9), 9, func(p muehle.Position) { got = &p })
	test.NewTempWindow(t, e.content).Resize(fyne.NewSize(800, 460))
	test.Tap(e.clear)
	for _, p := range []muehle.Point{0, 1, 9} {
		e.tap(p) // White
	}
	for _, p := range []muehle.Point{21, 22, 14} {
		e.tap(p)
		e.tap(p) // Black
	}
	if !e.ok() || got == nil || got.Hand != [2]uint8{} || got.Stones[muehle.White].Count() != 3 || got.Stones[muehle.Black].Count() != 3 {
		t.Errorf("three stones a side on a cleared board: %q, got %v; want the position taken, nothing in hand", e.message.Text, got)
	}
}

// TestEditorChoosesTheGame: Set Up offers the games the window plays and
// their stones per side; another game starts from its empty board with
// its own stones, fewer stones per side cap the hands.
func TestEditorChoosesTheGame(t *testing.T) {
	test.NewTempApp(t)
	var got *muehle.Position
	e := newEditor(muehle.NewPosition(9), 9, func(p muehle.Position) { got = &p })
	test.NewTempWindow(t, e.content).Resize(fyne.NewSize(800, 520))
	twelve := muehle.Twelve.Rules()
	if !slices.Contains(e.game.Options, twelve.Name) || e.game.Selected != "Nine Men's Morris" {
		t.Fatalf("games offered %v, chosen %q; want Twelve Men's Morris offered, Nine chosen", e.game.Options, e.game.Selected)
	}
	e.game.SetSelected(twelve.Name)
	if e.pos != twelve.NewPosition(12) || e.stones != 12 || len(e.hands[muehle.White].Options) != 13 {
		t.Fatalf("Twelve chosen: position %s, %d stones, hands %v; want its empty board with 12 in hand", e.pos, e.stones, e.hands[muehle.White].Options)
	}
	e.perSide.SetSelected("5")
	if e.stones != 5 || e.pos.Hand != [2]uint8{5, 5} || e.hands[muehle.Black].Selected != "5" {
		t.Fatalf("5 stones per side: got %d, hands %v", e.stones, e.pos.Hand)
	}
	if !e.ok() || got == nil || got.Game != muehle.Twelve || got.Hand != [2]uint8{5, 5} {
		t.Errorf("Use position: %q, got %v; want the empty board of Twelve with 5 a side", e.message.Text, got)
	}
}
