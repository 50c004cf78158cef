package teach

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

func TestBands(t *testing.T) {
	for _, tc := range []struct {
		depth int
		want  Band
	}{
		{0, BandEasy}, {1, BandEasy}, {5, BandEasy}, {6, BandMedium}, {15, BandMedium},
		{16, BandHard}, {35, BandHard}, {36, BandDeep}, {204, BandDeep},
	} {
		if got := BandOf(tc.depth); got != tc.want {
			t.Errorf("BandOf(%d): got %s, want %s", tc.depth, got, tc.want)
		}
		if !BandAny.Contains(tc.depth) {
			t.Errorf("BandAny.Contains(%d): got false, want true", tc.depth)
		}
	}
	// The bands other than BandAny cover 0..MaxDepth without gaps or overlaps.
	for d := 0; d <= layers.MaxDepth; d++ {
		n := 0
		for _, b := range Bands()[1:] {
			if b.Contains(d) {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("depth %d lies in %d bands, want 1", d, n)
		}
	}
	for _, b := range Bands() {
		got, err := ParseBand(b.String())
		if err != nil || got != b {
			t.Errorf("ParseBand(%q): got %s, %v; want %s", b.String(), got, err, b)
		}
	}
	if _, err := ParseBand("tricky"); err == nil {
		t.Error("ParseBand(\"tricky\"): got no error, want one")
	}
	for _, tc := range []struct {
		s    string
		want Goal
	}{{"any", GoalAny}, {"win", FindWin}, {"draw", HoldDraw}} {
		if got, err := ParseGoal(tc.s); err != nil || got != tc.want {
			t.Errorf("ParseGoal(%q): got %s, %v; want %s", tc.s, got, err, tc.want)
		}
	}
	if _, err := ParseGoal("loss"); err == nil {
		t.Error("ParseGoal(\"loss\"): got no error, want one")
	}
}

// holdDB returns a fake database for the first move of a 3-stone game
// where only d7 keeps the draw: after a placement on point p ≠ d7 the
// opponent wins in 2p+1 (so the move loses in 2p+2).
func holdDB() mapDB {
	start := muehle.NewPosition(3)
	db := mapDB{start: layers.Drawn}
	for _, m := range start.Moves() {
		v := layers.Drawn
		if m.To != 1 {
			v = layers.WinIn(2*int(m.To) + 1)
		}
		db[start.Play(m)] = v
	}
	return db
}

func TestExercise(t *testing.T) {
	start := muehle.NewPosition(3)
	allDrawn := mapDB{start: layers.Drawn}
	for _, m := range start.Moves() {
		allDrawn[start.Play(m)] = layers.Drawn
	}
	for _, tc := range []struct {
		name       string
		db         mapDB
		value      layers.Value
		ok         bool
		goal       Goal
		answers    []muehle.Move
		difficulty int
	}{
		{"a win to find", reviewDB(layers.WinIn(5), muehle.NoPoint), layers.WinIn(5), true, FindWin, []muehle.Move{muehle.Place(0)}, 5},
		{"the only drawing move", holdDB(), layers.Drawn, true, HoldDraw, []muehle.Move{muehle.Place(1)}, 2*23 + 2},
		{"every move draws", allDrawn, layers.Drawn, true, GoalAny, start.Moves(), 0},
		{"a move's layer missing", reviewDB(layers.WinIn(5), 5), layers.WinIn(5), false, GoalAny, nil, 0},
		{"the stored value disagrees", reviewDB(layers.WinIn(5), muehle.NoPoint), layers.WinIn(7), false, GoalAny, nil, 0},
	} {
		e, ok := exercise(tc.db, start, tc.value)
		if ok != tc.ok {
			t.Errorf("%s: got ok %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if e.Goal != tc.goal || !slices.Equal(e.Answers, tc.answers) || e.Difficulty != tc.difficulty || e.Moves != 24 {
			t.Errorf("%s: got goal %s, answers %v, difficulty %d, %d moves; want %s, %v, %d, 24",
				tc.name, e.Goal, e.Answers, e.Difficulty, e.Moves, tc.goal, tc.answers, tc.difficulty)
		}
	}
}

func TestCheckAnswer(t *testing.T) {
	start := muehle.NewPosition(3)
	// After the wrong d7 the opponent's line: a drawn fake beyond.
	db := reviewDB(layers.WinIn(5), muehle.NoPoint)
	a, err := CheckAnswer(db, start, muehle.Place(0), 10)
	if err != nil || !a.Right || a.Refutation != nil {
		t.Errorf("CheckAnswer a7: got right %v, line %v, %v; want right, no line", a.Right, a.Refutation, err)
	}
	a, err = CheckAnswer(db, start, muehle.Place(1), 10)
	if err != nil || a.Right || a.After != layers.Drawn || a.Best != muehle.Place(0) {
		t.Errorf("CheckAnswer d7: got right %v, after %s, best %s, %v; want wrong, drawn, best a7", a.Right, a.After, a.Best, err)
	}
	// The fake holds no position two plies on: the line stops with ErrMissing.
	if !errors.Is(a.LineErr, layers.ErrMissing) {
		t.Errorf("CheckAnswer d7: got line error %v, want ErrMissing", a.LineErr)
	}
	if _, err := CheckAnswer(db, start, muehle.Slide(0, 1), 10); err == nil {
		t.Error("CheckAnswer with an illegal move: got no error, want one")
	}
	if _, err := CheckAnswer(reviewDB(layers.WinIn(5), 1), start, muehle.Place(1), 10); !errors.Is(err, ErrNotJudged) {
		t.Errorf("CheckAnswer without the move's layer: got %v, want ErrNotJudged", err)
	}
}

func TestDrawTrainingSkipsAbsentAndDamagedLayers(t *testing.T) {
	dir := t.TempDir()
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := layers.Moving(3, 3)
	if err := db.Write(k, make([]byte, db.Indexer().Layer(k).Size())); err != nil {
		t.Fatal(err)
	}
	// Damage the body: the checksum no longer fits.
	f, err := os.OpenFile(db.Path(k), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	if _, err := f.WriteAt([]byte{7}, fi.Size()-1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tr, err := DrawTraining(context.Background(), db, TrainingOptions{Layers: TrainingLayers(muehle.Standard.With(3), 0, true), Count: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Exercises) != 0 {
		t.Errorf("got %d exercises, want none", len(tr.Exercises))
	}
	if want := len(TrainingLayers(muehle.Standard.With(3), 0, true)); len(tr.Skipped) != want {
		t.Fatalf("got %d skipped layers, want %d", len(tr.Skipped), want)
	}
	for _, s := range tr.Skipped {
		_, damaged := layers.Damaged(s.Err)
		if damaged != (s.Key == k) || !errors.Is(s.Err, layers.ErrMissing) {
			t.Errorf("layer %s skipped with %v: got damaged %v, want %v", s.Key, s.Err, damaged, s.Key == k)
		}
	}
}

func TestTrainingLayers(t *testing.T) {
	for _, tc := range []struct {
		stones, onBoard int
		placement       bool
		want            []string
	}{
		{4, 0, false, []string{"3-3", "3-4", "4-3", "4-4"}},
		{4, 7, false, []string{"3-4", "4-3"}},
		{3, 5, true, []string{"p2+1-3+0"}},
		{4, 9, false, nil},
	} {
		var got []string
		for _, k := range TrainingLayers(muehle.Standard.With(tc.stones), tc.onBoard, tc.placement) {
			got = append(got, k.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("TrainingLayers(%d, %d, %v): got %v, want %v", tc.stones, tc.onBoard, tc.placement, got, tc.want)
		}
	}
}

func TestTrainingRun(t *testing.T) {
	start := muehle.NewPosition(3)
	win, db := reviewDB(layers.WinIn(5), muehle.NoPoint), holdDB()
	e1, ok1 := exercise(win, start, layers.WinIn(5))
	e2, ok2 := exercise(db, start, layers.Drawn)
	if !ok1 || !ok2 {
		t.Fatal("the fake positions are no exercises")
	}
	r := NewTrainingRun(TrainingOptions{Seed: 4}, []Exercise{e1, e2})
	if r.Len() != 2 || r.Index() != 0 || r.Verdict() != "" {
		t.Fatalf("new run: got %d positions, at %d, verdict %q; want 2, at 0, none", r.Len(), r.Index(), r.Verdict())
	}
	if want := "Position 1 of 2 (easy, 5 plies): White to move, find the win (won in 5; one move keeps it)."; r.Task() != want {
		t.Errorf("Task: got %q, want %q", r.Task(), want)
	}
	a, err := CheckAnswer(win, start, muehle.Place(1), 5)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Record(a) || r.Record(Answer{Right: true}) {
		t.Error("Record: the first answer must be kept, the second not")
	}
	if got, ok := r.Answer(); !ok || got.Right || got.Move != muehle.Place(1) {
		t.Errorf("Answer: got %+v, %v; want the wrong d7", got, ok)
	}
	if want := "Wrong: d7 gives up the value: drawn for White after it. The best move was a7 (won in 5)."; !strings.HasPrefix(r.Verdict(), want) {
		t.Errorf("Verdict: got %q, want it to start with %q", r.Verdict(), want)
	}
	if !r.Go(5) || r.Index() != 1 || r.Go(1) {
		t.Errorf("Go(5), Go(1): got index %d, want 1 and the second Go false", r.Index())
	}
	if want := "find the only drawing move (drawn; one move keeps it)"; !strings.Contains(r.Task(), want) {
		t.Errorf("Task of the draw: got %q, want it to mention %q", r.Task(), want)
	}
	b, err := CheckAnswer(db, start, muehle.Place(1), 5)
	if err != nil {
		t.Fatal(err)
	}
	r.Record(b)
	if right, wrong := r.Score(); right != 1 || wrong != 1 {
		t.Errorf("Score: got %d right, %d wrong; want 1, 1", right, wrong)
	}
	if want := "Right: d7 keeps the value (drawn)."; r.Verdict() != want {
		t.Errorf("Verdict: got %q, want %q", r.Verdict(), want)
	}
}
