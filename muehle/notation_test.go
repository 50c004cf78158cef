package muehle

import (
	"errors"
	"strings"
	"testing"
)

func TestPointNames(t *testing.T) {
	names := strings.Fields("a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1")
	for i, name := range names {
		p := Point(i)
		if got := p.String(); got != name {
			t.Errorf("Point(%d).String(): got %q, want %q", i, got, name)
		}
		for _, s := range []string{name, strings.ToUpper(name), " " + name + " "} {
			if got, err := ParsePoint(s); err != nil || got != p {
				t.Errorf("ParsePoint(%q): got %d, %v, want %d", s, got, err, p)
			}
		}
	}
	for _, s := range []string{"", "d4", "a2", "h1", "a8", "a", "a11", "77", "-"} {
		if _, err := ParsePoint(s); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParsePoint(%q): got error %v, want ErrSyntax", s, err)
		}
	}
	if got := NoPoint.String(); got != "-" {
		t.Errorf("NoPoint.String(): got %q, want \"-\"", got)
	}
}

func TestMoveText(t *testing.T) {
	for _, tc := range []struct {
		text string
		move Move
	}{
		{"d6", Place(4)},
		{"d6-d5", Slide(4, 7)},
		{"b4-b6xd7", Slide(10, 3).WithRemoval(1)},
		{"d6xa1", Place(4).WithRemoval(21)},
		{"a7-g1xd4", Move{}}, // d4 is not a point
		{"a1-a1", Move{}},
		{"a1xa1", Move{}},
		{"a1-a4xa1", Move{}},
		{"", Move{}},
		{"d6-", Move{}},
		{"-d6", Move{}},
		{"d6x", Move{}},
		{"d6-d5-d4", Move{}},
	} {
		m, err := ParseMove(tc.text)
		if tc.move == (Move{}) {
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("ParseMove(%q): got %v, %v, want ErrSyntax", tc.text, m, err)
			}
			continue
		}
		if err != nil || m != tc.move {
			t.Errorf("ParseMove(%q): got %+v, %v, want %+v", tc.text, m, err, tc.move)
		}
		if got := tc.move.String(); got != tc.text {
			t.Errorf("%+v.String(): got %q, want %q", tc.move, got, tc.text)
		}
	}
}

func TestPositionText(t *testing.T) {
	start := NewPosition(9)
	after := start.Play(Place(4)).Play(Place(19))
	for _, tc := range []struct {
		text string
		pos  Position
	}{
		{"........................ w 9 9", start},
		{"....W..............B.... w 8 8", after},
		{"WWW..................BBB b 0 0", Position{Stones: [2]Bitboard{7, 7 << 21}, Turn: Black}},
		{"........................ w 12 12 twelve", Twelve.Rules().NewPosition(12)},
		{"........................ w 10 10 lasker", Lasker.Rules().NewPosition(10)},
		{"W......W........B....... b 8 9 lasker", Position{Stones: [2]Bitboard{1 | 1<<7, 1 << 16}, Hand: [2]uint8{8, 9}, Turn: Black, Game: Lasker}},
		{"WWW............. b 3 6 six", Position{Stones: [2]Bitboard{7, 0}, Hand: [2]uint8{3, 6}, Turn: Black, Game: Six}},
	} {
		if got := tc.pos.String(); got != tc.text {
			t.Errorf("String(): got %q, want %q", got, tc.text)
		}
		for _, s := range []string{tc.text, "  " + tc.text + "\n", strings.ReplaceAll(tc.text, " ", "\t ")} {
			if got, err := ParsePosition(s); err != nil || got != tc.pos {
				t.Errorf("ParsePosition(%q): got %s, %v, want %s", s, got, err, tc.pos)
			}
		}
	}
}

func TestParsePositionErrors(t *testing.T) {
	for _, tc := range []struct {
		text, mention string // the error must mention this
	}{
		{"", "4 fields"},
		{"........................ w 9", "4 fields"},
		{"........................ w 9 9 9", "names no game"},
		{"........................ w 9 9 twelve x", "4 fields"},
		{"....................... w 9 9", "23 characters"},
		{"......................... w 9 9", "25 characters"},
		{"....x................... w 9 9", "character 5 (point d6)"},
		{"....w................... w 9 9", "character 5 (point d6)"},
		{"........................ W 9 9", "side to move"},
		{"........................ x 9 9", "side to move"},
		{"........................ w 10 9", "White's stones in hand"},
		{"........................ w 9 -1", "Black's stones in hand"},
		{"........................ w 9 a", "Black's stones in hand"},
		{"........................ w 10 10", "want a number from 0 to 9"},
		{"........................ w 13 12 twelve", "want a number from 0 to 12"},
		{"........................ w 012 12 twelve", "White's stones in hand"},
		{"........................ w +1 1 twelve", "White's stones in hand"},
		{"........................ w 6 6 six", "board has 24 characters, want 16 (one per point, a5 first, e1 last)"},
		{"................ w 9 9", "board has 16 characters, want 24"},
		{"........................ w 9 9 morabaraba", "names no game (want one of standard, twelve, lasker, six, three"},
	} {
		_, err := ParsePosition(tc.text)
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParsePosition(%q): got error %v, want ErrSyntax mentioning %q", tc.text, err, tc.mention)
		}
	}
}

// TestRulesParsePosition checks that a rule set's parser takes a text of
// four fields as its own and refuses one of another game.
func TestRulesParsePosition(t *testing.T) {
	r := Twelve.Rules()
	for _, text := range []string{"........................ w 12 12", "........................ w 12 12 twelve", "........................ w 12 12 Twelve Men's Morris"} {
		if text == "........................ w 12 12 Twelve Men's Morris" {
			continue // a name with spaces is not one field
		}
		if p, err := r.ParsePosition(text); err != nil || p != r.NewPosition(12) {
			t.Errorf("twelve: ParsePosition(%q): got %s, %v", text, p, err)
		}
	}
	if _, err := r.ParsePosition("........................ w 9 9 lasker"); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "one of Lasker Morris, not of Twelve Men's Morris") {
		t.Errorf("twelve: ParsePosition of a Lasker position: got %v", err)
	}
	if p, err := Six.Rules().ParsePosition("................ w 6 6"); err != nil || p != Six.Rules().NewPosition(6) {
		t.Errorf("six: ParsePosition: got %s, %v", p, err)
	}
}

// TestValidateRejects checks that positions that parse but cannot occur
// are rejected by Validate with a reason.
func TestValidateRejects(t *testing.T) {
	for _, tc := range []struct {
		text    string
		k       int
		mention string
	}{
		{"WWWWWWWWWW.............. b 0 9", 9, "White has 10 stones"},
		{"WWWW.................... w 5 9", 9, "White must have placed 0 stones"},
		{"WWWW.................... w 5 5", 8, "White has 9 stones"},
		{"WWWW.BBBB............... w 5 5", 9, ""}, // fine for 9 stones
		{"WW...................... w 0 0", 9, "Black has only 0 stones"},
		{"WWW........B............ w 0 0", 9, "Black has only 1 stones"},
		{"........................ w 9 9", 2, "2 stones per side"},
		// The hands must fit the side to move: White places first.
		{"........................ b 3 3", 3, "with Black to move White must have placed 1 stones"},
		{"........................ w 2 3", 3, "with White to move White must have placed 0 stones"},
		{"........................ w 8 9", 9, "with White to move White must have placed 0 stones"},
		{"W....................... w 8 9", 9, "with White to move White must have placed 0 stones"},
		{"W....................... b 8 9", 9, ""},
		{"W..........B............ w 8 8", 9, ""},
		{"WWW.BBB................. w 0 1", 9, "with White to move White must have placed 8 stones"},
		{"WWW.BBB................. b 0 1", 9, ""},
		{"WWW.BBB................. b 1 0", 9, "with Black to move White must have placed 10 stones"},
		{"WWW.BBB................. b 0 0", 9, ""}, // the moving phase: either side
		{"WWW.BBB................. w 0 0", 9, ""},
		{"WW..BBB................. w 0 0", 9, ""}, // White has lost: a possible end
		{"W.W.BB.................. w 1 1", 3, ""}, // one white stone removed
		// Other games: their stones, their boards.
		{"........................ w 12 12 twelve", 12, ""},
		{"........................ w 12 12 twelve", 13, "13 stones per side (want 3 to 12)"},
		{"........................ w 10 10 lasker", 10, ""},
		{"........................ w 10 9 lasker", 10, "with White to move, 10 and 9 stones in hand out of 10 cannot be"},
		{"................ w 6 6 six", 6, ""},
		{"WWWWWW.......... w 1 1 six", 6, "White has 7 stones"},
		{"................ w 6 6 six", 7, "7 stones per side (want 3 to 6)"},
	} {
		p, err := ParsePosition(tc.text)
		if err != nil {
			t.Fatalf("ParsePosition(%q): %v", tc.text, err)
		}
		err = p.Validate(tc.k)
		switch {
		case tc.mention == "":
			if err != nil {
				t.Errorf("Validate(%d) of %s: got %v, want nil", tc.k, p, err)
			}
		case !errors.Is(err, ErrPosition) || !strings.Contains(err.Error(), tc.mention):
			t.Errorf("Validate(%d) of %s: got %v, want ErrPosition mentioning %q", tc.k, p, err, tc.mention)
		}
	}
}

// TestTextRoundTripRandom checks String and Parse round trips on random
// positions of every game and their moves, with the board's point names.
func TestTextRoundTripRandom(t *testing.T) {
	var buf [MaxMoves]Move
	for _, r := range Games {
		b := r.Board
		for _, p := range gameTestPositions(t, r, 2000) {
			if q, err := ParsePosition(p.String()); err != nil || q != p {
				t.Fatalf("ParsePosition(%q): got %s, %v", p.String(), q, err)
			}
			if q, err := r.ParsePosition(p.String()); err != nil || q != p {
				t.Fatalf("%s: ParsePosition(%q): got %s, %v", r.ID, p.String(), q, err)
			}
			for _, m := range p.AppendMoves(buf[:0]) {
				if got, err := b.ParseMove(b.MoveString(m)); err != nil || got != m {
					t.Fatalf("%s: ParseMove(%q): got %+v, %v, want %+v", r.ID, b.MoveString(m), got, err, m)
				}
				if b.NumPoints() == NumPoints && m.String() != b.MoveString(m) {
					t.Fatalf("%s: %+v: Move.String %q, MoveString %q", r.ID, m, m.String(), b.MoveString(m))
				}
			}
		}
	}
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{"........................ w 9 9", "....W..............B.... w 8 8", "WWW..................BBB b 0 0", "", " w 9 9", "........................ w 9 99",
		"........................ w 12 12 twelve", "W......W........B....... b 8 9 lasker", "WWW............. b 3 6 six", "........................ w 9 9 standard", "........................ w 9 9 x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("ParsePosition(%q): error %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		text := p.String()
		q, err := ParsePosition(text)
		if err != nil || q != p || q.String() != text {
			t.Fatalf("ParsePosition(%q) = %s; parsing that again: %s, %v", s, text, q, err)
		}
		_ = p.Validate(p.Rules().Stones) // must not panic
		_ = p.Diagram()
	})
}

// FuzzRulesParsePosition checks each rule set's parser: it never panics,
// what it accepts is a position of that game that reads back the same,
// and it agrees with the package's parser on texts that name the game.
func FuzzRulesParsePosition(f *testing.F) {
	f.Add(uint8(Twelve), "........................ w 12 12")
	f.Add(uint8(Lasker), "W......W........B....... b 8 9 lasker")
	f.Add(uint8(Six), "WWW............. b 3 6")
	f.Add(uint8(Six), "WWW............. b 3 6 twelve")
	f.Add(uint8(Standard), "........................ w 9 9 standard")
	f.Fuzz(func(t *testing.T, game uint8, s string) {
		r := GameID(game).Rules()
		if r == nil {
			return
		}
		p, err := r.ParsePosition(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%s: ParsePosition(%q): error %v does not wrap ErrSyntax", r.ID, s, err)
			}
			return
		}
		if p.Game != r.Game() {
			t.Fatalf("%s: ParsePosition(%q) gives a position of %s", r.ID, s, p.Game)
		}
		q, err := ParsePosition(p.String())
		if err != nil || q != p {
			t.Fatalf("%s: ParsePosition(%q) = %s; the package's parser on that: %s, %v", r.ID, s, p, q, err)
		}
		_ = p.Validate(r.Stones) // must not panic
		_ = p.Diagram()
	})
}

// FuzzBoardParseMove checks the move parser of every board: no panic, and
// what it accepts writes back to a text it reads as the same move.
func FuzzBoardParseMove(f *testing.F) {
	for i, s := range []string{"a5", "a5-c5", "c4-c5xa1", "e1xa5", "a7-b6", "g7", "d4", "x"} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, board uint8, s string) {
		b := Boards[int(board)%len(Boards)]
		m, err := b.ParseMove(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%s: ParseMove(%q): error %v does not wrap ErrSyntax", b, s, err)
			}
			return
		}
		text := b.MoveString(m)
		if got, err := b.ParseMove(text); err != nil || got != m || b.MoveString(got) != text {
			t.Fatalf("%s: ParseMove(%q) = %+v (%q); parsing that again: %+v, %v", b, s, m, text, got, err)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"d6", "d6-d5", "b4-b6xd7", "d6xa1", "A1-G7", "x", "-", "d6-d5-d4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("ParseMove(%q): error %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		text := m.String()
		if got, err := ParseMove(text); err != nil || got != m || got.String() != text {
			t.Fatalf("ParseMove(%q) = %+v (%q); parsing that again: %+v, %v", s, m, text, got, err)
		}
		p := NewPosition(9)
		_ = p.CheckMove(m) // must not panic
	})
}

// FuzzValidate checks Validate on arbitrary positions: it never panics, a
// position it accepts has the properties it promises, and every child of an
// accepted position that is not over is accepted too.
func FuzzValidate(f *testing.F) {
	f.Add(uint32(0), uint32(0), uint8(9), uint8(9), uint8(0), uint8(9), uint8(0))
	f.Add(uint32(0b111), uint32(0b111000), uint8(0), uint8(0), uint8(1), uint8(3), uint8(0))
	f.Add(uint32(1), uint32(0), uint8(8), uint8(9), uint8(1), uint8(9), uint8(0))
	f.Add(uint32(0), uint32(0), uint8(12), uint8(12), uint8(0), uint8(12), uint8(Twelve))
	f.Add(uint32(1), uint32(1<<7), uint8(9), uint8(8), uint8(1), uint8(10), uint8(Lasker))
	f.Add(uint32(7), uint32(0), uint8(3), uint8(6), uint8(1), uint8(6), uint8(Six))
	f.Add(uint32(0), uint32(0), uint8(3), uint8(3), uint8(0), uint8(3), uint8(77))
	f.Fuzz(func(t *testing.T, w, b uint32, hw, hb, turn, k, game uint8) {
		p := Position{Stones: [2]Bitboard{Bitboard(w), Bitboard(b)}, Hand: [2]uint8{hw, hb}, Turn: Color(turn), Game: GameID(game)}
		err := p.Validate(int(k))
		if err != nil {
			if !errors.Is(err, ErrPosition) {
				t.Fatalf("Validate(%d) of %+v: error %v does not wrap ErrPosition", k, p, err)
			}
			return
		}
		r := p.Rules()
		if r == nil || int(k) > r.Stones || p.Stones[0]&p.Stones[1] != 0 || (p.Stones[0]|p.Stones[1])&^r.Board.All() != 0 || p.Turn > Black ||
			p.Total(White) > int(k) || p.Total(Black) > int(k) || !r.HandsFit(p.Hand, p.Turn, int(k)) || p.Total(p.Turn.Other()) < 3 {
			t.Fatalf("Validate(%d) accepts %s", k, p)
		}
		if p.Total(p.Turn) < 3 {
			return // the side to move has lost
		}
		for _, m := range p.Moves() {
			if c := p.Play(m); c.Validate(int(k)) != nil {
				t.Fatalf("Validate(%d) accepts %s but not its child %s after %s: %v", k, p, c, m, c.Validate(int(k)))
			}
		}
	})
}
