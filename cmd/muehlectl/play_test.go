package main

import (
	"context"
	"strings"
	"testing"

	"muehle/muehle"
)

// playScript runs the play command with the given input lines.
func playScript(t *testing.T, input string, args ...string) (string, string, int) {
	t.Helper()
	old := playInput
	playInput = strings.NewReader(input)
	defer func() { playInput = old }()
	return runCmd(t, append([]string{"play"}, args...)...)
}

func TestPlayInputErrors(t *testing.T) {
	out, errs, code := playScript(t, "d6\nfoo\nd6\nd6-d5\nmoves\nhelp\nposition\nundo\nundo\nquit\n", "--seed", "5")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"You play White against Random (seed 5)",
		"Random plays",
		`Not a move: move "foo": the target "foo" is not a point`,
		"Illegal move d6: d6 is not empty",
		"must place one",
		"Legal moves: a7 d7 g7",
		"closes a mill",   // from help
		" w 8 8\n",        // position after one move each
		"Nothing to undo", // the second undo
		"You stop. The game so far:\n*\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "a   b   c   d   e   f   g"); n < 5 {
		t.Errorf("boards printed: got %d, want one after each move and command", n)
	}
}

func TestPlayToTheEnd(t *testing.T) {
	// White (the person) closes a mill and takes Black's third stone.
	out, _, code := playScript(t, "e4-g7\ne4-g7xb2\n", "--position", "WW..........W..BB.B..... w 0 0")
	if code != 0 || !strings.Contains(out, "closes a mill; name a Black stone") ||
		!strings.Contains(out, "Game over: White wins (Black has fewer than three stones).") ||
		!strings.Contains(out, "1. e4-g7xb2\n1-0\n") {
		t.Errorf("got status %d and output\n%s", code, out)
	}

	// The person plays Black; the computer as White is blocked from the start.
	out, _, code = playScript(t, "", "--color", "black", "--position", "WWW.B....WB...B......B.. w 0 0")
	if code != 0 || !strings.Contains(out, "Game over: Black wins (White cannot move).") {
		t.Errorf("got status %d and output\n%s", code, out)
	}

	// Input that ends before the game does.
	out, _, code = playScript(t, "d6\n", "--seed", "1")
	if code != 0 || !strings.Contains(out, "End of input; the game so far:\n1. d6 ") {
		t.Errorf("got status %d and output\n%s", code, out)
	}
}

// TestPlayWholeGame plays a game between two seeded random players, then
// types White's moves into play against the same Black player: the game
// must go the same way to the end, so every kind of move passes the text
// interface.
func TestPlayWholeGame(t *testing.T) {
	ctx := context.Background()
	want := muehle.NewGame(9)
	want.NoRemovalLimit = 60
	white, black := muehle.NewSeededRandom(11), muehle.NewSeededRandom(12)
	var typed strings.Builder
	for {
		if r, _ := want.Result(); r != muehle.Ongoing {
			break
		}
		player := black
		if want.Position().Turn == muehle.White {
			player = white
		}
		m, err := player.Move(ctx, want)
		if err != nil {
			t.Fatal(err)
		}
		if player == white {
			typed.WriteString(m.String() + "\n")
		}
		if err := want.Play(m); err != nil {
			t.Fatal(err)
		}
	}

	g := muehle.NewGame(9)
	g.NoRemovalLimit = 60
	var out strings.Builder
	if err := playGame(ctx, g, muehle.White, muehle.NewSeededRandom(12), lines(ctx, strings.NewReader(typed.String())), &out); err != nil {
		t.Fatal(err)
	}
	if got := g.Record(); got != want.Record() {
		t.Fatalf("record: got\n%s\nwant\n%s", got, want.Record())
	}
	if strings.Contains(out.String(), "Illegal") || !strings.Contains(out.String(), "Game over: ") {
		t.Errorf("output ends %q", out.String()[max(0, out.Len()-300):])
	}
	t.Logf("%d plies: %s", g.Ply(), out.String()[strings.LastIndex(out.String(), "Game over"):])
}

func TestPlayFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		code    int
		mention string
	}{
		{[]string{"--color", "green"}, 2, "--color must be white or black"},
		{[]string{"--position", "WWWWWWWWWW.............. b 0 9"}, 1, "White has 10 stones"},
		{[]string{"--position", "x"}, 1, "want 4 fields"},
		{[]string{"--stones", "2"}, 2, "--stones 2: want 3 to 9"},
		{[]string{"--no-removal-limit", "-1"}, 2, "--no-removal-limit -1"},
	} {
		_, errs, code := playScript(t, "quit\n", tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.mention) {
			t.Errorf("play %v: got status %d, stderr %q; want %d mentioning %q", tc.args, code, errs, tc.code, tc.mention)
		}
	}
}

func TestPlayInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out strings.Builder
	err := playGame(ctx, muehle.NewGame(9), muehle.White, muehle.NewSeededRandom(1), make(chan inputLine), &out)
	if err != context.Canceled {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func TestPlayAgainstALevel(t *testing.T) {
	db := solvedCopy(t, 3)
	dir := db.Dir()
	// The person, Black, has no stone left to place; level 10 as White
	// plays first from a 3-3 position it wins (d7 closes a7-d7-g7).
	pos := "W.W.........BB.B......W. w 0 0"
	out, errs, code := playScript(t, "quit\n", "--color", "black", "--opponent", "level:10", "--db", dir, "--stones", "3", "--position", pos, "--seed", "2")
	if code != 0 || !strings.Contains(out, "You play Black against Level 10 (seed 2)") || !strings.Contains(out, "Level 10 plays") {
		t.Errorf("got status %d, stderr %q, output\n%s", code, errs, out)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--opponent", "level:11", "--db", dir, "--stones", "3"}, "want level:N, N 1 to 10"},
		{[]string{"--opponent", "level:3", "--db", t.TempDir(), "--stones", "3"}, "needs a database"},
	} {
		if _, errs, code := playScript(t, "quit\n", tc.args...); code != 1 || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: got status %d, stderr %q; want 1 and %q", tc.args, code, errs, tc.msg)
		}
	}
}

// TestPlayLongLine checks that a line of more than 64 KiB ends play with
// an error, exit 1, instead of ending its input silently with exit 0
// (issue 48, item 11).
func TestPlayLongLine(t *testing.T) {
	out, errs, code := playScript(t, "d6\n"+strings.Repeat("x", 70<<10)+"\nquit\n", "--seed", "5")
	if code != 1 || !strings.Contains(errs, "more than 64 KiB") || strings.Contains(out, "End of input") {
		t.Errorf("a long line: got exit %d, stderr %q, output ending %q; want exit 1 and the reason", code, errs, out[max(0, len(out)-200):])
	}
}
