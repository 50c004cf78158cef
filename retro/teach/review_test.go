package teach

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/playtest"
)

// mapDB is a fake database holding the values of a few positions exactly
// as given (no symmetry); every other position's layer is missing.
type mapDB map[muehle.Position]layers.Value

func (m mapDB) Probe(p muehle.Position) (layers.Value, error) {
	if v, ok := m[p]; ok {
		return v, nil
	}
	return layers.Unused, fmt.Errorf("fake layer of %s: %w", p, layers.ErrMissing)
}

// reviewDB returns a fake database for the first move of a 3-stone game:
// every placement gives the opponent a draw, except a7, after which the
// opponent is lost in 4 (so a7 wins in 5), and the empty board reads
// before. Without is a placement whose position is left out.
func reviewDB(before layers.Value, without muehle.Point) mapDB {
	start := muehle.NewPosition(3)
	db := mapDB{start: before}
	var buf [muehle.MaxMoves]muehle.Move
	for _, m := range start.AppendMoves(buf[:0]) {
		if m.To == without {
			continue
		}
		v := layers.Drawn
		if m.To == 0 {
			v = layers.LossIn(4)
		}
		db[start.Play(m)] = v
	}
	return db
}

func TestJudge(t *testing.T) {
	a7, d7 := muehle.Place(0), muehle.Place(1)
	for _, tc := range []struct {
		name          string
		db            mapDB
		move          muehle.Move
		before, after layers.Value
		best          muehle.Move
		bestValue     layers.Value
		mark          Mark
		errMention    string // "" for no error
	}{
		{"best move", reviewDB(layers.WinIn(5), muehle.NoPoint), a7, layers.WinIn(5), layers.WinIn(5), a7, layers.WinIn(5), MarkKept, ""},
		{"win given up", reviewDB(layers.WinIn(5), muehle.NoPoint), d7, layers.WinIn(5), layers.Drawn, a7, layers.WinIn(5), MarkWorse, ""},
		{"an alternative missing", reviewDB(layers.WinIn(5), 23), d7, layers.WinIn(5), layers.Drawn, muehle.NoMove, layers.Unused, MarkWorse, "alternative g1"},
		{"the move's position missing", reviewDB(layers.WinIn(5), 1), d7, layers.WinIn(5), layers.Unused, muehle.NoMove, layers.Unused, MarkUnknown, "after d7"},
		{"the position missing", func() mapDB {
			db := reviewDB(layers.WinIn(5), muehle.NoPoint)
			delete(db, muehle.NewPosition(3))
			return db
		}(),
			d7, layers.Unused, layers.Drawn, a7, layers.WinIn(5), MarkUnknown, "before d7"},
		{"inconsistent", reviewDB(layers.Drawn, muehle.NoPoint), d7, layers.Unused, layers.Unused, muehle.NoMove, layers.Unused, MarkUnknown, "inconsistent"},
		{"illegal", reviewDB(layers.WinIn(5), muehle.NoPoint), muehle.Slide(0, 1), layers.Unused, layers.Unused, muehle.NoMove, layers.Unused, MarkUnknown, "not a legal move"},
	} {
		v := Judge(tc.db, muehle.NewPosition(3), tc.move)
		if v.Move != tc.move || v.Mover != muehle.White || v.Before != tc.before || v.After != tc.after ||
			v.Best != tc.best || v.BestValue != tc.bestValue || v.Mark != tc.mark {
			t.Errorf("%s: got %s %v: %s -> %s, best %s %s, mark %q; want %s -> %s, best %s %s, mark %q", tc.name,
				v.Move, v.Mover, v.Before, v.After, v.Best, v.BestValue, v.Mark, tc.before, tc.after, tc.best, tc.bestValue, tc.mark)
		}
		switch {
		case tc.errMention == "" && v.Err != nil:
			t.Errorf("%s: got error %v, want none", tc.name, v.Err)
		case tc.errMention != "" && (v.Err == nil || !strings.Contains(v.Err.Error(), tc.errMention)):
			t.Errorf("%s: got error %v, want one mentioning %q", tc.name, v.Err, tc.errMention)
		}
	}
}

func TestReviewGame(t *testing.T) {
	g := muehle.NewGame(3)
	if err := g.Play(muehle.Place(1)); err != nil {
		t.Fatal(err)
	}
	vs, err := Review(context.Background(), reviewDB(layers.WinIn(5), muehle.NoPoint), g)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Ply != 0 || vs[0].Mark != MarkWorse || vs[0].Best != muehle.Place(0) {
		t.Fatalf("Review: got %+v, want one verdict marking d7 with best a7", vs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Review(ctx, mapDB{}, g); !errors.Is(err, context.Canceled) {
		t.Errorf("Review with a cancelled context: got %v, want context.Canceled", err)
	}
}

func TestLineEndsAtRemoval(t *testing.T) {
	// White (a7 d7 a4) can jump to close a mill and remove one of Black's
	// three stones: the game is over. Every other position reads drawn.
	pos := playtest.Position(t, "WW.B.....W....B.......B. w 0 0")
	db := drawnDB{}
	line, err := Line(db, pos, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(line) != 1 || line[0].Value != layers.WinIn(1) || !line[0].Move.IsRemoval() {
		t.Fatalf("Line: got %v, want one move with a removal, won in 1", line)
	}
	// With no removal in reach the line stops at max.
	if line, err := Line(db, muehle.NewPosition(9), 3); err != nil || len(line) != 3 {
		t.Errorf("Line from the empty board: got %v, %v; want 3 moves", line, err)
	}
	if _, err := Line(mapDB{}, muehle.NewPosition(9), 3); !errors.Is(err, layers.ErrMissing) {
		t.Errorf("Line without a database: got %v, want ErrMissing", err)
	}
}

// drawnDB is a fake database in which every position is drawn.
type drawnDB struct{}

func (drawnDB) Probe(muehle.Position) (layers.Value, error) { return layers.Drawn, nil }

func TestVerdictComment(t *testing.T) {
	a7, d7 := muehle.Place(0), muehle.Place(1)
	for _, tc := range []struct {
		v    Verdict
		want string
	}{
		{Verdict{Move: a7, Before: layers.WinIn(5), After: layers.WinIn(5), Best: a7, BestValue: layers.WinIn(5), Mark: MarkKept},
			"won in 5 -> won in 5"},
		{Verdict{Move: d7, Before: layers.WinIn(5), After: layers.LossIn(6), Best: a7, BestValue: layers.WinIn(5), Mark: MarkWorse},
			"? won in 5 -> lost in 6; best a7 won in 5"},
		{Verdict{Move: d7, Before: layers.WinIn(7), After: layers.WinIn(9), Best: a7, BestValue: layers.WinIn(7), Mark: MarkKept},
			"won in 7 -> won in 9; best a7 won in 7"},
		{Verdict{Move: d7, Before: layers.Drawn, After: layers.Unused, Best: muehle.NoMove, BestValue: layers.Unused, Mark: MarkUnknown,
			Err: errors.New("after d7: layer 3-3\nmissing")},
			"drawn -> unknown; note after d7: layer 3-3 missing"},
	} {
		got := tc.v.Comment(muehle.StandardBoard)
		if got != tc.want {
			t.Errorf("Comment: got %q, want %q", got, tc.want)
			continue
		}
		back, err := ParseComment(muehle.StandardBoard, got)
		if err != nil {
			t.Fatalf("ParseComment(%q): %v", got, err)
		}
		if back.Best == muehle.NoMove && back.BestValue != layers.Unused {
			back.Best = tc.v.Move
		}
		if back.Before != tc.v.Before || back.After != tc.v.After || back.Best != tc.v.Best ||
			back.BestValue != tc.v.BestValue || back.Mark != tc.v.Mark || (back.Err == nil) != (tc.v.Err == nil) {
			t.Errorf("ParseComment(%q): got %+v, want %+v", got, back, tc.v)
		}
	}
}

func TestParseCommentErrors(t *testing.T) {
	for _, tc := range []struct{ text, mention string }{
		{"a good move", "want \"BEFORE -> AFTER\""},
		{"won in 4 -> drawn", "wins have odd depths"},
		{"won in 5 -> lost in 6", "the mark \"?\""},
		{"? drawn -> won in 3", "the mark \"?\""},
		{"? drawn -> unknown", "needs both values"},
		{"drawn -> drawn; best zz drawn", "best"},
		{"drawn -> drawn; best a7", "want \"best MOVE VALUE\""},
		{"sometimes -> drawn", "before"},
	} {
		if _, err := ParseComment(muehle.StandardBoard, tc.text); err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseComment(%q): got %v, want an error mentioning %q", tc.text, err, tc.mention)
		}
	}
}

func TestVerdictsFromComments(t *testing.T) {
	g := muehle.NewGame(3)
	for _, m := range []muehle.Move{muehle.Place(1), muehle.Place(2)} {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	vs, err := VerdictsFromComments(g, []string{"? won in 5 -> drawn; best a7 won in 5", ""})
	if err != nil {
		t.Fatal(err)
	}
	if vs[0].Mark != MarkWorse || vs[0].Best != muehle.Place(0) || vs[0].Mover != muehle.White || vs[0].Move != muehle.Place(1) {
		t.Errorf("first verdict: got %+v, want d7 by White marked ?, best a7", vs[0])
	}
	if vs[1].Mark != MarkUnknown || vs[1].Mover != muehle.Black || vs[1].Err == nil {
		t.Errorf("second verdict: got %+v, want Black's g7 unknown with a reason", vs[1])
	}
	if _, err := VerdictsFromComments(g, []string{"nice"}); err == nil || !strings.Contains(err.Error(), "move 1 (d7)") {
		t.Errorf("VerdictsFromComments with a free comment: got %v, want an error naming move 1 (d7)", err)
	}
}

// TestCommentSmallBoard: a verdict of a game on the 16-point board names
// its best move on that board ("best e5", not the standard board's name of
// the same point) and reads back from it.
func TestCommentSmallBoard(t *testing.T) {
	b := muehle.SixBoard
	e5, err := b.ParseMove("e5")
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := b.ParseMove("c2")
	v := Verdict{Move: c2, Before: layers.WinIn(5), After: layers.Drawn, Best: e5, BestValue: layers.WinIn(5), Mark: MarkWorse}
	got := v.Comment(b)
	if want := "? won in 5 -> drawn; best e5 won in 5"; got != want {
		t.Fatalf("Comment: got %q, want %q", got, want)
	}
	back, err := ParseComment(b, got)
	if err != nil || back.Best != e5 {
		t.Errorf("ParseComment(%q): got best %v, %v; want e5", got, back.Best, err)
	}
}
