package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/retrotest"
	"muehle/retro/teach"
)

// drawnExercise is one position as train prints it.
type drawnExercise struct {
	pos        muehle.Position
	goal       string // "find the win" or "hold the draw"
	keep       int    // the moves that keep the value, as printed
	moves      int
	band       string
	difficulty int
}

var (
	trainPosLine  = regexp.MustCompile(`^\d+\. position "(.*)"$`)
	trainInfoLine = regexp.MustCompile(`^   (White|Black) to move: (find the win|hold the draw) \((.*)\); (\d+) of (\d+) moves keeps? it; difficulty (\w+) \((\d+) plies\); layer \S+ slot \d+$`)
)

// parseTraining reads the positions of train's output.
func parseTraining(t *testing.T, out string) []drawnExercise {
	t.Helper()
	lines := strings.Split(out, "\n")
	var es []drawnExercise
	for i, l := range lines {
		m := trainPosLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		pos, err := muehle.ParsePosition(m[1])
		if err != nil {
			t.Fatalf("train printed %q: %v", l, err)
		}
		info := trainInfoLine.FindStringSubmatch(lines[i+1])
		if info == nil || info[1] != pos.Turn.String() {
			t.Fatalf("train printed after %q: %q, want the side to move, goal and difficulty", l, lines[i+1])
		}
		n := func(s string) int { v, _ := strconv.Atoi(s); return v }
		es = append(es, drawnExercise{pos, info[2], n(info[4]), n(info[5]), info[6], n(info[7])})
	}
	return es
}

// judgeByQuery queries pos and every move of it in db, as query does, and
// returns the position's value, the moves that keep its outcome and the
// slowest loss among the others.
func judgeByQuery(t *testing.T, db *layers.DB, pos muehle.Position) (v layers.Value, keep []muehle.Move, slowestLoss int) {
	t.Helper()
	v, err := db.Probe(pos)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range pos.Moves() {
		c := pos.Play(m)
		w := layers.LossIn(0)
		if !c.IsOver() {
			if w, err = db.Probe(c); err != nil {
				t.Fatal(err)
			}
		}
		switch w = w.Parent(); {
		case w.Outcome() == v.Outcome():
			keep = append(keep, m)
		case w.Outcome() == layers.Loss:
			slowestLoss = max(slowestLoss, w.Depth())
		}
	}
	return v, keep, slowestLoss
}

// TestTrain runs the tests of train on a copy of the solved 4-stone game.
func TestTrain(t *testing.T) {
	dir := t.TempDir()
	db := retrotest.CopyIn(t, dir, 4)
	t.Run("positions", func(t *testing.T) { testTrainPositions(t, dir, db) })
	t.Run("answer", func(t *testing.T) { testTrainAnswer(t, dir, db) })
	t.Run("skipped layers", func(t *testing.T) { testTrainSkipsLayers(t, dir) })
}

func testTrainPositions(t *testing.T, dir string, db *layers.DB) {
	base := []string{"train", "--db", dir, "--stones", "4"}

	for _, tc := range []struct {
		flags   []string
		maxKeep int
		goal    string // "" for either
		band    teach.Band
		onBoard int
	}{
		{[]string{"--count", "12", "--seed", "5", "--placement"}, 1, "", teach.BandAny, 0},
		{[]string{"--count", "6", "--seed", "9", "--goal", "draw", "--answers", "3"}, 3, "hold the draw", teach.BandAny, 0},
		{[]string{"--count", "6", "--seed", "2", "--goal", "win", "--band", "medium", "--on-board", "7"}, 1, "find the win", teach.BandMedium, 7},
		// Six on the board: the placement layers hold only reachable
		// classes, and among them seed 2 finds no easy position of one
		// answer with four or five stones in its 80,000 tries (k=4).
		{[]string{"--count", "4", "--seed", "2", "--band", "easy", "--placement", "--on-board", "6"}, 1, "", teach.BandEasy, 6},
	} {
		args := append(append([]string{}, base...), tc.flags...)
		out, errs, code := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.flags, code, errs)
		}
		es := parseTraining(t, out)
		if len(es) == 0 {
			t.Fatalf("%v: no positions in\n%s", tc.flags, out)
		}
		for _, e := range es {
			if err := e.pos.Validate(4); err != nil {
				t.Errorf("%v: %s: %v", tc.flags, e.pos, err)
				continue
			}
			v, keep, slowestLoss := judgeByQuery(t, db, e.pos)
			want, difficulty := "find the win", v.Depth()
			if v.Outcome() == layers.Draw {
				want, difficulty = "hold the draw", slowestLoss
			}
			switch {
			case v.Outcome() == layers.Loss:
				t.Errorf("%v: %s is lost for the side to move: nothing to find", tc.flags, e.pos)
			case len(keep) < 1 || len(keep) > tc.maxKeep || len(keep) == len(e.pos.Moves()):
				t.Errorf("%v: %s: %d of %d moves keep %s, want 1 to %d and a wrong move", tc.flags, e.pos, len(keep), len(e.pos.Moves()), v, tc.maxKeep)
			case e.goal != want || (tc.goal != "" && e.goal != tc.goal):
				t.Errorf("%v: %s is %s: got goal %q, want %q", tc.flags, e.pos, v, e.goal, want)
			case e.keep != len(keep) || e.moves != len(e.pos.Moves()):
				t.Errorf("%v: %s: got %d of %d moves keep it, want %d of %d", tc.flags, e.pos, e.keep, e.moves, len(keep), len(e.pos.Moves()))
			case e.difficulty != difficulty || !tc.band.Contains(difficulty) || e.band != teach.BandOf(difficulty).String():
				t.Errorf("%v: %s: got difficulty %d (%s), want %d in band %s", tc.flags, e.pos, e.difficulty, e.band, difficulty, tc.band)
			case tc.onBoard > 0 && e.pos.Stones[0].Count()+e.pos.Stones[1].Count() != tc.onBoard:
				t.Errorf("%v: %s: got %d stones on the board, want %d", tc.flags, e.pos, e.pos.Stones[0].Count()+e.pos.Stones[1].Count(), tc.onBoard)
			}
		}
		// The same seed gives the same set; another seed another one.
		if again, _, _ := runCmd(t, args...); again != out {
			t.Errorf("%v run twice: got\n%s\nthen\n%s", tc.flags, out, again)
		}
		other := append(append([]string{}, args...), "--seed", "1000")
		if o, _, _ := runCmd(t, other...); o == out {
			t.Errorf("%v with another seed: got the same positions", tc.flags)
		}
	}
}

func testTrainAnswer(t *testing.T, dir string, db *layers.DB) {
	out, errs, code := runCmd(t, "train", "--db", dir, "--stones", "4", "--count", "3", "--seed", "11", "--goal", "win")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	for _, e := range parseTraining(t, out) {
		_, keep, _ := judgeByQuery(t, db, e.pos)
		var wrong muehle.Move
		for _, m := range e.pos.Moves() {
			if m != keep[0] {
				wrong = m
				break
			}
		}
		check := []string{"train", "--db", dir, "--stones", "4", "--position", e.pos.String(), "--answer"}
		right, errs, code := runCmd(t, append(check, keep[0].String())...)
		if code != 0 || !strings.Contains(right, "right: "+keep[0].String()) {
			t.Errorf("answer %s in %s: exit %d, %q %s; want right", keep[0], e.pos, code, right, errs)
		}
		ref, errs, code := runCmd(t, append(check, wrong.String())...)
		if code != 0 || !strings.Contains(ref, "wrong: "+wrong.String()+" gives up the win") {
			t.Fatalf("answer %s in %s: exit %d, %q %s; want wrong", wrong, e.pos, code, ref, errs)
		}
		// The refutation is a line of the opponent's best moves from the
		// position after the wrong answer, to a removal or the end.
		pos := e.pos.Play(wrong)
		steps := regexp.MustCompile(`(?m)^\s+\d+\.(?:\.\.)? (\S+)\s+(White|Black)\s+(.+)$`).FindAllStringSubmatch(ref, -1)
		if len(steps) == 0 {
			t.Fatalf("answer %s in %s: no refutation in\n%s", wrong, e.pos, ref)
		}
		for i, s := range steps {
			m, err := muehle.ParseMove(s[1])
			if err != nil || !pos.IsLegal(m) || s[2] != pos.Turn.String() {
				t.Fatalf("refutation step %d %q in %s: not a legal move of the side to move (%v)", i, s[0], pos, err)
			}
			best := layers.Unused
			for _, c := range pos.Moves() {
				if w := childValue(t, db, pos.Play(c)); best == layers.Unused || w.Better(best) {
					best = w
				}
			}
			got := childValue(t, db, pos.Play(m))
			if got != best || s[3] != got.String() {
				t.Errorf("refutation step %d %s in %s: printed %s, its value %s, want the best %s", i, m, pos, s[3], got, best)
			}
			// A removal or the end of the game ends the line; a drawn one is cut at refuteMax.
			last := i == len(steps)-1
			if pos = pos.Play(m); m.IsRemoval() != last && !pos.IsOver() && !(last && len(steps) == refuteMax && got == layers.Drawn) {
				t.Errorf("refutation step %d %s (%s): a removal, and only a removal, ends the line", i, m, got)
			}
		}
	}
	if _, errs, code := runCmd(t, "train", "--db", dir, "--stones", "4", "--position", "........................ w 4 4", "--answer", "a1-a4"); code != 1 || !strings.Contains(errs, "not a legal move") {
		t.Errorf("an illegal answer: exit %d, %q; want 1 and the reason", code, errs)
	}
	if _, errs, code := runCmd(t, "train", "--db", dir, "--answer", "a1"); code != 2 || !strings.Contains(errs, "go together") {
		t.Errorf("--answer without --position: exit %d, %q; want 2", code, errs)
	}
}

// childValue returns the value of the move to c for the side that made it.
func childValue(t *testing.T, db *layers.DB, c muehle.Position) layers.Value {
	t.Helper()
	if c.IsOver() {
		return layers.WinIn(1)
	}
	v, err := db.Probe(c)
	if err != nil {
		t.Fatal(err)
	}
	return v.Parent()
}

// testTrainSkipsLayers copies the database of solved, removes a layer and
// damages another: train draws from the rest and names both.
func testTrainSkipsLayers(t *testing.T, solved string) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(solved)); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "k4")
	if err := os.Remove(filepath.Join(sub, "m4-4.layer")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(sub, "m3-4.layer")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCmd(t, "train", "--db", dir, "--stones", "4", "--count", "5", "--layers", "4-4,3-4,3-3")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	for _, want := range []string{"layer 4-4 skipped: layer missing", "layer 3-4 skipped: layer 3-4 damaged"} {
		if !strings.Contains(out, want) {
			t.Errorf("train without 4-4 and with 3-4 damaged: output lacks %q:\n%s", want, out)
		}
	}
	for _, e := range parseTraining(t, out) {
		if k := layers.KeyOf(e.pos); k != layers.Moving(3, 3) {
			t.Errorf("got %s from layer %s, want only layer 3-3", e.pos, k)
		}
	}
}
