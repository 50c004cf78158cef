package muehle

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomGame plays up to plies random moves in g with a seeded player.
func randomGame(t testing.TB, g *Game, seed uint64, plies int) *Game {
	t.Helper()
	r := NewSeededRandom(seed)
	for range plies {
		if res, _ := g.Result(); res != Ongoing {
			break
		}
		m, err := r.Move(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// sameGame fails t when two games differ in start (and so in rules),
// stones, draw rule or moves.
func sameGame(t *testing.T, got, want *Game) {
	t.Helper()
	if got.Start() != want.Start() || got.Stones() != want.Stones() || got.NoRemovalLimit != want.NoRemovalLimit || got.Rules() != want.Rules() {
		t.Fatalf("game: got start %s, %d stones, limit %d; want %s, %d, %d",
			got.Start(), got.Stones(), got.NoRemovalLimit, want.Start(), want.Stones(), want.NoRemovalLimit)
	}
	if !slices.Equal(got.History(), want.History()) {
		t.Fatalf("moves: got %v, want %v", got.History(), want.History())
	}
}

func TestRecordText(t *testing.T) {
	g := NewGame(9)
	playAll(t, g, "d6", "d2", "a7")
	want := "1. d6 d2\n2. a7\n*\n"
	if got := g.Record(); got != want {
		t.Errorf("Record: got %q, want %q", got, want)
	}

	b := mustGame(t, "....W................... b 8 9")
	playAll(t, b, "a7", "g7", "g1")
	want = "[Position \"....W................... b 8 9\"]\n1. ... a7\n2. g7 g1\n*\n"
	if got := b.Record(); got != want {
		t.Errorf("Record: got %q, want %q", got, want)
	}

	s := NewGame(3)
	s.NoRemovalLimit = 20
	want = "[Stones \"3\"]\n[NoRemovalLimit \"20\"]\n*\n"
	if got := s.Record(); got != want {
		t.Errorf("Record: got %q, want %q", got, want)
	}

	w := mustGame(t, "WW..........W..BB.B..... w 0 0")
	playAll(t, w, "e4-g7xb2")
	want = "[Position \"WW..........W..BB.B..... w 0 0\"]\n1. e4-g7xb2\n1-0\n"
	if got := w.Record(); got != want {
		t.Errorf("Record: got %q, want %q", got, want)
	}
}

// TestRecordRoundTrip writes and reads back random games of every game
// from the empty board and from random start positions, with 3 stones up to
// the game's number and with and without the no-removal rule.
func TestRecordRoundTrip(t *testing.T) {
	for _, r := range Games {
		t.Run(r.ID, func(t *testing.T) { checkRecordRoundTrip(t, r) })
	}
}

func checkRecordRoundTrip(t *testing.T, r *Rules) {
	rng := rand.New(rand.NewPCG(3, 3))
	starts, ks := gamePlayouts(r, 4, 300)
	for i := range 300 {
		var g *Game
		if i%2 == 0 {
			g = r.NewGame(3 + i%(r.Stones-2))
		} else {
			var err error
			if g, err = NewGameFrom(starts[i], ks[i]); err != nil {
				t.Fatal(err)
			}
		}
		if i%3 == 0 {
			g.NoRemovalLimit = 1 + rng.IntN(60)
		}
		randomGame(t, g, uint64(i), rng.IntN(300))
		text := g.Record()
		back, err := ParseRecord(text)
		if err != nil {
			t.Fatalf("ParseRecord(%q): %v", text, err)
		}
		sameGame(t, back, g)
		if again := back.Record(); again != text {
			t.Fatalf("Record of the parsed record: got %q, want %q", again, text)
		}
	}
}

func TestParseRecordVariants(t *testing.T) {
	want := NewGame(9)
	playAll(t, want, "d6", "d2", "a7", "g7")
	for _, text := range []string{
		"1. d6 d2 2. a7 g7",
		"d6 d2 a7 g7 *",
		"  1.d6 d2\n\n2.a7 g7\n*\n",
		"1. D6 D2\r\n2. A7 G7\r\n",
		"[Stones \"9\"]\n[Position \"........................ w 9 9\"]\n1. d6 d2 2. a7 g7",
		"[Variant \"standard\"]\n1. d6 d2 2. a7 g7",
		"[Position \"........................ w 9 9 standard\"]\n1. d6 d2 2. a7 g7",
	} {
		g, err := ParseRecord(text)
		if err != nil {
			t.Fatalf("ParseRecord(%q): %v", text, err)
		}
		sameGame(t, g, want)
	}
	// The game from the Variant header, or else from the Position text;
	// a Position text without a game field is one of the Variant's.
	lasker := Lasker.Rules().NewGame(10)
	playAll(t, lasker, "d6", "d2", "d6-d5")
	for _, text := range []string{
		"[Variant \"lasker\"]\n1. d6 d2 2. d6-d5",
		"[Variant \"Lasker Morris\"]\n1. d6 d2 2. d6-d5",
		"[Position \"........................ w 10 10 lasker\"]\n1. d6 d2 2. d6-d5",
		"[Position \"........................ w 10 10\"]\n[Variant \"LASKER\"]\n1. d6 d2 2. d6-d5",
		"[Variant \"lasker\"]\n[Stones \"10\"]\n1. d6 d2 2. d6-d5",
	} {
		g, err := ParseRecord(text)
		if err != nil {
			t.Fatalf("ParseRecord(%q): %v", text, err)
		}
		sameGame(t, g, lasker)
	}
	if got, want := lasker.Record(), "[Variant \"lasker\"]\n1. d6 d2\n2. d6-d5\n*\n"; got != want {
		t.Errorf("Record: got %q, want %q", got, want)
	}
	twelve := Twelve.Rules().NewGame(5)
	playAll(t, twelve, "a7", "d7", "b6")
	if got, want := twelve.Record(), "[Variant \"twelve\"]\n[Stones \"5\"]\n1. a7 d7\n2. b6\n*\n"; got != want {
		t.Errorf("Record: got %q, want %q", got, want)
	}
}

func TestParseRecordErrors(t *testing.T) {
	for _, tc := range []struct {
		text    string
		target  error
		mention string
	}{
		{"1. d6 d6", ErrIllegalMove, "line 1, move 1 (Black)"},
		{"1. d6 d2\n2. a7 g7\n3. d5-d4", ErrSyntax, "line 3, move 3 (White)"},
		{"1. d6 d2\n2. a7 g7\n3. d5-d3", ErrIllegalMove, "must place one"},
		{"1. d6 d2 3. a7", ErrSyntax, "move number 3, want 2"},
		{"1. d6 d2 1-0", ErrSyntax, "result is 1-0"},
		{"1. d6 d2 * d5", ErrSyntax, "after the result"},
		{"[Event \"x\"]\n1. d6", ErrSyntax, "unknown header \"Event\""},
		{"[Stones \"12\"]", ErrSyntax, "stones per side"},
		{"[Stones 9]", ErrSyntax, "want [Name \"value\"]"},
		{"[Stones \"9\"", ErrSyntax, "does not end with ']'"},
		{"[NoRemovalLimit \"-1\"]", ErrSyntax, "no-removal limit"},
		{"[Position \"WW w 0 0\"]", ErrSyntax, "board has 2 characters"},
		{"[Position \"WWWWWWWWWW.............. b 0 9\"]", ErrPosition, "White has 10 stones"},
		{"[Position \"WW..........W..BB.B..... w 0 0\"]\n1. e4-g7xb2 c3-c5", ErrGameOver, "move 1 (Black)"},
		{"[Variant \"morabaraba\"]", ErrSyntax, "line 1: variant \"morabaraba\" names no game"},
		{"[Variant \"twelve\"]\n[Stones \"13\"]", ErrSyntax, "line 2: stones per side \"13\", want a number from 3 to 12"},
		{"[Variant \"six\"]\n[Position \"........................ w 9 9\"]", ErrSyntax, "line 2: muehle: syntax error: position"},
		{"[Variant \"twelve\"]\n[Position \"........................ w 10 10 lasker\"]", ErrSyntax, "one of Lasker Morris, not of Twelve Men's Morris"},
		{"[Variant \"six\"]\n1. a7", ErrSyntax, "(a1 to e5)"},
		{"[Variant \"standard\"]\n1. d6 d2 2. d6-d5", ErrIllegalMove, "must place one"},
	} {
		_, err := ParseRecord(tc.text)
		if !errors.Is(err, tc.target) || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseRecord(%q): got %v, want an error wrapping %v mentioning %q", tc.text, err, tc.target, tc.mention)
		}
	}
}

func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{
		"1. d6 d2\n2. a7 g7\n*\n",
		"[Position \"....W................... b 8 9\"]\n1. ... a7\n2. g7 g1\n*\n",
		"[Stones \"3\"]\n[NoRemovalLimit \"20\"]\n*\n",
		"[Position \"WW..........W..BB.B..... w 0 0\"]\n1. e4-g7xb2\n1-0\n",
		"1.d6 2.", "[", "[a \"\\", "1... d6",
		"1. d6 {drawn -> drawn} d2 {? won in 3 -> drawn; best a7 won in 3}\n*\n",
		"[Variant \"twelve\"]\n1. a7 d7\n2. b6\n*\n",
		"[Variant \"lasker\"]\n1. d6 d2\n2. d6-d5\n*\n",
		"[Variant \"six\"]\n[Stones \"4\"]\n1. a5 e1\n2. c5 d2\n*\n",
		"[Position \"WWW............. b 3 6 six\"]\n1. ... e1\n*\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseRecord(s)
		if err != nil {
			return
		}
		text := g.Record()
		back, err := ParseRecord(text)
		if err != nil {
			t.Fatalf("ParseRecord(%q) worked, but not on its Record %q: %v", s, text, err)
		}
		sameGame(t, back, g)
		_, comments, err := ParseRecordWithComments(s)
		if err != nil {
			t.Fatalf("ParseRecord(%q) worked, but not ParseRecordWithComments: %v", s, err)
		}
		text = g.RecordWithComments(comments)
		back, again, err := ParseRecordWithComments(text)
		if err != nil {
			t.Fatalf("ParseRecordWithComments(%q) worked, but not on its record %q: %v", s, text, err)
		}
		sameGame(t, back, g)
		if !slices.Equal(again, comments) {
			t.Fatalf("comments of %q: got %q back from %q", s, again, text)
		}
	})
}
