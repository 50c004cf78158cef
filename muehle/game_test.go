package muehle

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// mustPosition parses a position text or fails the test.
func mustPosition(t testing.TB, s string) Position {
	t.Helper()
	p, err := ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mustGame returns a game of 9 stones from a position text.
func mustGame(t testing.TB, s string) *Game {
	t.Helper()
	g, err := NewGameFrom(mustPosition(t, s), StonesPerSide)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playAll plays moves given as text or fails the test.
func playAll(t testing.TB, g *Game, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("playing %s: %v", s, err)
		}
	}
}

// shuffle is a moving-phase position where both sides can step back and
// forth: White a7 g7 a1 g1, Black c5 e5 c3 e3.
const shuffle = "W.W...B.B......B.B...W.W w 0 0"

func TestUndoRedo(t *testing.T) {
	g := NewGame(9)
	if g.Undo() || g.Redo() {
		t.Fatal("Undo or Redo of a new game: got true, want false")
	}
	playAll(t, g, "d6", "d2", "a7")
	after := g.Positions()
	for i := range 2 {
		if !g.Undo() {
			t.Fatalf("Undo %d: got false, want true", i+1)
		}
	}
	if got := g.Position(); got != after[1] || g.Ply() != 1 {
		t.Fatalf("after two undos: got %s at ply %d, want %s at ply 1", got, g.Ply(), after[1])
	}
	if !g.CanRedo() || !g.Redo() {
		t.Fatal("Redo: got false, want true")
	}
	if got := g.Position(); got != after[2] {
		t.Fatalf("after redo: got %s, want %s", got, after[2])
	}
	playAll(t, g, "g7") // a new move drops the move that could be redone
	if g.CanRedo() {
		t.Error("CanRedo after a new move: got true, want false")
	}
	if got := g.History(); !slices.Equal(got, []Move{Place(4), Place(19), Place(2)}) {
		t.Errorf("History: got %v, want [d6 d2 g7]", got)
	}
	for g.Undo() {
	}
	if g.Position() != NewPosition(9) || g.Ply() != 0 {
		t.Errorf("after undoing all: got %s, want the start", g.Position())
	}
}

func TestThreefoldRepetition(t *testing.T) {
	g := mustGame(t, shuffle)
	cycle := []string{"a7-d7", "c5-d5", "d7-a7", "d5-c5"}
	playAll(t, g, cycle...)
	playAll(t, g, cycle[:3]...)
	if r, why := g.Result(); r != Ongoing || g.Repetitions() != 2 {
		t.Fatalf("after 7 plies: got %v (%s), %d repetitions, want Ongoing and 2", r, why, g.Repetitions())
	}
	playAll(t, g, cycle[3])
	r, why := g.Result()
	if r != Draw || !strings.Contains(why, "three times") || g.Repetitions() != 3 {
		t.Fatalf("after 8 plies: got %v (%s), %d repetitions, want a draw by repetition", r, why, g.Repetitions())
	}
	if err := g.Play(Slide(0, 1)); !errors.Is(err, ErrGameOver) {
		t.Errorf("move after the draw: got %v, want ErrGameOver", err)
	}
	if ms := g.LegalMoves(); ms != nil {
		t.Errorf("LegalMoves after the draw: got %v, want none", ms)
	}
	g.Undo()
	if r, _ := g.Result(); r != Ongoing {
		t.Errorf("after undoing the repetition: got %v, want Ongoing", r)
	}
}

func TestNoRemovalLimit(t *testing.T) {
	g := mustGame(t, shuffle)
	g.NoRemovalLimit = 5
	playAll(t, g, "a7-d7", "c5-d5", "d7-a7", "d5-c5")
	if r, _ := g.Result(); r != Ongoing {
		t.Fatalf("after 4 plies with limit 5: got %v, want Ongoing", r)
	}
	playAll(t, g, "a7-d7")
	if r, why := g.Result(); r != Draw || !strings.Contains(why, "5 moves without a removal") {
		t.Fatalf("after 5 plies with limit 5: got %v (%s), want a draw", r, why)
	}
	g.NoRemovalLimit = 0
	if r, _ := g.Result(); r != Ongoing {
		t.Errorf("with the limit off: got %v, want Ongoing", r)
	}

	// A removal starts the count again.
	g = mustGame(t, "WW..........W..BB.B...B. w 0 0")
	g.NoRemovalLimit = 2
	playAll(t, g, "e4-g7xb2", "d1-g1")
	if r, why := g.Result(); r != Ongoing {
		t.Fatalf("one ply after a removal with limit 2: got %v (%s), want Ongoing", r, why)
	}
	playAll(t, g, "g7-e4")
	if r, why := g.Result(); r != Draw {
		t.Fatalf("two plies after a removal with limit 2: got %v (%s), want Draw", r, why)
	}
}

func TestResults(t *testing.T) {
	for _, tc := range []struct {
		name, start string
		moves       []string
		result      Result
		reason      string
	}{
		{"running", "........................ w 9 9", []string{"d6"}, Ongoing, ""},
		{"blocked", "WWW.B....WB...B......B.. w 0 0", nil, BlackWins, "White cannot move"},
		{"too few stones", "WW..........W..BB.B..... w 0 0", []string{"e4-g7xb2"}, WhiteWins, "Black has fewer than three stones"},
		{"blocked after the last placement", "WWW.B....WB...B...BB.B.. b 0 1", []string{"e3"}, BlackWins, "White cannot move"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGame(t, tc.start)
			playAll(t, g, tc.moves...)
			r, why := g.Result()
			if r != tc.result || why != tc.reason {
				t.Errorf("Result: got %v (%q), want %v (%q)", r, why, tc.result, tc.reason)
			}
			p := g.Position()
			if over := r != Ongoing; p.IsOver() != over {
				t.Errorf("IsOver of %s: got %v, want %v", p, p.IsOver(), over)
			}
		})
	}
}

func TestCloneIndependence(t *testing.T) {
	g := NewGame(9)
	playAll(t, g, "d6", "d2", "a7")
	g.Undo()
	g.NoRemovalLimit = 30
	c := g.Clone()
	playAll(t, c, "g7", "g1")
	if g.Ply() != 2 || !g.CanRedo() {
		t.Fatalf("original after playing on the clone: ply %d, CanRedo %v; want 2, true", g.Ply(), g.CanRedo())
	}
	if !g.Redo() || g.Position() == c.Position() {
		t.Fatal("redo on the original: want the original's own move")
	}
	if c.NoRemovalLimit != 30 || c.Stones() != 9 || c.Start() != g.Start() {
		t.Errorf("clone settings: got limit %d, %d stones, want 30, 9", c.NoRemovalLimit, c.Stones())
	}
	playAll(t, g, "b6")
	if c.Ply() != 4 {
		t.Errorf("clone after playing on the original: ply %d, want 4", c.Ply())
	}
}

func TestIllegalMoves(t *testing.T) {
	for _, tc := range []struct {
		start, move, reason string
	}{
		{"........................ w 9 9", "d6-d5", "must place one"},
		{shuffle, "d6", "must move a stone"},
		{shuffle, "d7-d6", "no White stone on d7"},
		{shuffle, "a7-a1", "a1 is not empty"},
		{shuffle, "a7-d6", "not adjacent"},
		{"WW..........W..BB.B..... w 0 0", "e4-g7", "closes a mill; name a Black stone"},
		{"WW..........W..BB.B..... w 0 0", "e4-g7xa1", "no Black stone on a1"},
		{"WW..........W..BB.B..... w 0 0", "a7-a4xb2", "does not close a mill"},
		{"WW..........W..BBBB..... w 0 0", "e4-g7xc3", "in a mill and Black has stones outside mills"},
		{"WWW.B....WB...B......B.. w 0 0", "a7-d6", "cannot move"},
	} {
		g := mustGame(t, tc.start)
		m, err := ParseMove(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		before := g.Position()
		err = g.Play(m)
		if err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: playing %s: got %v, want an error saying %q", tc.start, tc.move, err, tc.reason)
		}
		if !errors.Is(err, ErrIllegalMove) && !errors.Is(err, ErrGameOver) {
			t.Errorf("%s: playing %s: error %v wraps neither ErrIllegalMove nor ErrGameOver", tc.start, tc.move, err)
		}
		if g.Position() != before || g.Ply() != 0 {
			t.Errorf("%s: an illegal move changed the game", tc.start)
		}
	}
}

// TestCheckMoveMatchesIsLegal checks on random positions and many
// candidate moves, legal or not, that CheckMove accepts exactly the legal
// moves and always gives a specific reason for the others.
func TestCheckMoveMatchesIsLegal(t *testing.T) {
	pts := []Point{NoPoint}
	for q := range Point(NumPoints) {
		pts = append(pts, q)
	}
	checked := 0
	for i, p := range testPositions(t, 150) {
		for _, from := range pts {
			for _, to := range pts[1:] {
				rem := pts[(i*7+int(from)*3+int(to)+3)%len(pts)] // one removal per pair, varied
				for _, m := range []Move{{from, to, NoPoint}, {from, to, rem}} {
					err := p.CheckMove(m)
					if (err == nil) != p.IsLegal(m) {
						t.Fatalf("%s: CheckMove(%s) = %v, IsLegal = %v", p, m, err, p.IsLegal(m))
					}
					if err != nil && strings.Contains(err.Error(), "not a legal move here") {
						t.Fatalf("%s: CheckMove(%s) has no specific reason: %v", p, m, err)
					}
					checked++
				}
			}
		}
		var buf [MaxMoves]Move
		for _, m := range p.AppendMoves(buf[:0]) {
			if err := p.CheckMove(m); err != nil {
				t.Fatalf("%s: CheckMove(%s) of a legal move: %v", p, m, err)
			}
		}
	}
	t.Logf("%d candidate moves checked", checked)
}

func TestRandomPlayer(t *testing.T) {
	ctx := context.Background()
	play := func(seed uint64) *Game {
		g := NewGame(9)
		g.NoRemovalLimit = 100
		r := NewSeededRandom(seed)
		for {
			if res, _ := g.Result(); res != Ongoing {
				break
			}
			m, err := r.Move(ctx, g)
			if err != nil {
				t.Fatalf("Random.Move: %v", err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("Random played an illegal move: %v", err)
			}
		}
		return g
	}
	a, b := play(7), play(7)
	if !slices.Equal(a.History(), b.History()) {
		t.Error("two games with the same seed differ")
	}
	if c := play(8); slices.Equal(a.History(), c.History()) {
		t.Error("games with seeds 7 and 8 are the same")
	}
	if _, err := NewSeededRandom(1).Move(ctx, a); !errors.Is(err, ErrNoMove) {
		t.Errorf("Move in a finished game: got %v, want ErrNoMove", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NewSeededRandom(1).Move(cancelled, NewGame(9)); !errors.Is(err, context.Canceled) {
		t.Errorf("Move with a cancelled context: got %v, want context.Canceled", err)
	}
	if got := NewSeededRandom(1).Name(); got != "Random" {
		t.Errorf("Name: got %q, want \"Random\"", got)
	}
}

func TestEnumStrings(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{White.String(), "White"}, {Black.String(), "Black"},
		{Placing.String(), "placing"}, {Moving.String(), "moving"}, {Flying.String(), "flying"},
		{Ongoing.String(), "Ongoing"}, {WhiteWins.String(), "White wins"}, {BlackWins.String(), "Black wins"}, {Draw.String(), "Draw"},
		{Color(2).String(), "Color(2)"}, {Phase(3).String(), "Phase(3)"}, {Result(4).String(), "Result(4)"},
		{Symmetry(8).String(), "rings"}, {Symmetry(9).String(), "rot90+rings"}, {Symmetry(16).String(), "Symmetry(16)"},
		{Ongoing.Token(), "*"}, {WhiteWins.Token(), "1-0"}, {BlackWins.Token(), "0-1"}, {Draw.Token(), "1/2-1/2"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// FuzzCheckMove feeds any parsable position and move to CheckMove and
// Game.Play: no panic, and CheckMove accepts exactly the legal moves.
func FuzzCheckMove(f *testing.F) {
	f.Add("........................ w 9 9", "d6")
	f.Add(shuffle, "a7-d7")
	f.Add("WW..........W..BB.B..... w 0 0", "e4-g7xb2")
	f.Add("WWWWWWWWWW.............. b 0 9", "a1")
	f.Fuzz(func(t *testing.T, pos, move string) {
		p, err := ParsePosition(pos)
		if err != nil {
			return
		}
		m, err := ParseMove(move)
		if err != nil {
			return
		}
		err = p.CheckMove(m)
		if (err == nil) != p.IsLegal(m) {
			t.Fatalf("%s: CheckMove(%s) = %v, IsLegal = %v", p, m, err, p.IsLegal(m))
		}
		if g, gerr := NewGameFrom(p, StonesPerSide); gerr == nil {
			perr := g.Play(m)
			if (perr == nil) != (err == nil) && !errors.Is(perr, ErrGameOver) {
				t.Fatalf("%s: Game.Play(%s) = %v, CheckMove = %v", p, m, perr, err)
			}
		}
	})
}
