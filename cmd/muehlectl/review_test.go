package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/retrotest"
)

// blunderGame plays a 3-stone game from the empty board in which the moves
// at the plies in blunders (from 0) give up value and all others keep it,
// choosing the moves by probing db directly, and returns its record and the
// plies (from 1, as review numbers them) that are blunders: where the
// mover has no move that gives up value (a lost position), it keeps the
// value instead. It stops when the game ends or after plies moves.
func blunderGame(t *testing.T, db *layers.DB, plies int, blunders []int) (string, []int) {
	t.Helper()
	g := muehle.NewGame(3)
	var made []int
	for ply := 0; ply < plies; ply++ {
		pos := g.Position()
		if pos.IsOver() {
			break
		}
		before, err := db.Probe(pos)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Contains(blunders, ply)
		chosen, keep := muehle.NoMove, muehle.NoMove
		for _, m := range g.LegalMoves() {
			c := pos.Play(m)
			after := layers.LossIn(0)
			if !c.IsOver() {
				if after, err = db.Probe(c); err != nil {
					t.Fatal(err)
				}
			}
			worse := after.Parent().Outcome() < before.Outcome()
			if !worse && keep == muehle.NoMove {
				keep = m
			}
			if worse == want {
				chosen = m
				break
			}
		}
		if chosen == muehle.NoMove {
			want, chosen = false, keep // a lost position has no blunder
		}
		if want {
			made = append(made, ply+1)
		}
		if err := g.Play(chosen); err != nil {
			t.Fatal(err)
		}
	}
	return g.Record(), made
}

// markedPlies returns the numbers of the table lines of review output that
// carry the mark "?".
func markedPlies(out string) []int {
	var got []int
	re := regexp.MustCompile(`^\s*(\d+)\s.*-> \S+( in \d+)?\s+\?`)
	for _, line := range strings.Split(out, "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			got = append(got, n)
		}
	}
	return got
}

func TestReviewFindsBlunders(t *testing.T) {
	dir := t.TempDir()
	retrotest.CopyIn(t, dir, 3).Close()
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	for _, blunders := range [][]int{{}, {2}, {1, 4}, {2, 3, 7}} {
		record, made := blunderGame(t, db, 10, blunders)
		if len(made) == 0 && len(blunders) > 0 {
			t.Fatalf("blunders %v: none could be made in %q", blunders, record)
		}
		game := filepath.Join(t.TempDir(), "game.txt")
		if err := os.WriteFile(game, []byte(record), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, stderr := muehlectl("review", "--db", dir, game)
		if code != 0 {
			t.Fatalf("review of %q: exit %d: %s", record, code, stderr)
		}
		if got := markedPlies(out); !slices.Equal(got, made) {
			t.Errorf("review of %q: got marks at %v, want %v\n%s", record, got, made, out)
		}
		if len(made) == 0 {
			// A move that gave up nothing has a principal line, no refutation.
			code, line, stderr := muehlectl("review", "--db", dir, "--refute", "1", game)
			if code != 0 || !strings.Contains(line, "principal line after 1. ") {
				t.Errorf("review --refute 1 of a good move: exit %d, %q %s; want its principal line", code, line, stderr)
			}
			continue
		}

		// The refutation of the first blunder is the opponent's line.
		n := made[0]
		code, ref, stderr := muehlectl("review", "--db", dir, "--refute", strconv.Itoa(n), game)
		if code != 0 || !strings.Contains(ref, "refutation after ") {
			t.Fatalf("review --refute %d: exit %d, %q %s", n, code, ref, stderr)
		}
		steps := strings.Split(strings.TrimSpace(ref[strings.Index(ref, "refutation after "):]), "\n")[1:]
		if len(steps) == 0 || !(strings.Contains(steps[len(steps)-1], "game is over") || strings.Contains(steps[len(steps)-1], "x")) {
			t.Errorf("review --refute %d: the line ends neither with a removal nor the end:\n%s", n, ref)
		}

		// Written with verdicts and read back without the database: the same table.
		reviewed := filepath.Join(t.TempDir(), "reviewed.txt")
		if code, _, stderr := muehlectl("review", "--db", dir, "--write", reviewed, game); code != 0 {
			t.Fatalf("review --write: exit %d: %s", code, stderr)
		}
		text, err := os.ReadFile(reviewed)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), "{? ") {
			t.Errorf("the reviewed record has no marked verdict:\n%s", text)
		}
		code, stored, stderr := muehlectl("review", "--stored", "--db", filepath.Join(dir, "nowhere"), reviewed)
		if code != 0 || stored != out {
			t.Errorf("review --stored: got exit %d (%s)\n%s\nwant the review from the database:\n%s", code, stderr, stored, out)
		}
	}
}

func TestReviewUnknownLayers(t *testing.T) {
	dir := solvedK3(t) // only the moving layers: every placement position is unknown
	game := filepath.Join(t.TempDir(), "game.txt")
	if err := os.WriteFile(game, []byte("[Stones \"3\"]\n1. d6 d2\n2. a7 g7\n3. g1 a1\n4. d6-d5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := muehlectl("review", "--db", dir, game)
	if code != 1 || !strings.Contains(stderr, "6 of 7 moves could not be judged") {
		t.Errorf("review with the placement layers missing: got exit %d, %q; want exit 1, 6 of 7 not judged", code, stderr)
	}
	// The last placement leads into the solved moving layer: its value after is known.
	if !strings.Contains(out, "unknown: before d6: ") || !strings.Contains(out, "layer missing") ||
		!strings.Contains(out, "unknown      -> lost in ") || !slices.Equal(markedPlies(out), []int{7}) {
		t.Errorf("review with the placement layers missing: the table does not say why, or guesses:\n%s", out)
	}
}

func TestReviewUsage(t *testing.T) {
	game := filepath.Join(t.TempDir(), "game.txt")
	if err := os.WriteFile(game, []byte("1. d6 d2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"review"}, 2, "want one game file, got 0"},
		{[]string{"review", game, game}, 2, "want one game file, got 2"},
		{[]string{"review", "--refute", "3", game}, 2, "--refute 3: the game has 2 moves"},
		{[]string{"review", "--stored", "--refute", "1", game}, 2, "--stored reads no database"},
		{[]string{"review", "--stored", game}, 1, "not judged: 2 of 2"},
		{[]string{"review", "--db", filepath.Join(t.TempDir(), "none"), game}, 1, "the folder does not exist"},
		{[]string{"review", filepath.Join(t.TempDir(), "none.txt")}, 1, "reading the game"},
	} {
		code, out, stderr := muehlectl(tc.args...)
		if code != tc.code || !strings.Contains(out+stderr, tc.want) {
			t.Errorf("%v: got exit %d, %q %q; want exit %d and %q", tc.args, code, out, stderr, tc.code, tc.want)
		}
	}
}

// FuzzGameRecordStart puts arbitrary bytes before a game record and reads
// it as review does (readRecordFile, then the parser): no panic, and a
// UTF-8 byte-order mark first reads as the record without it (issue 48,
// item 12: it was read as part of the first header).
func FuzzGameRecordStart(f *testing.F) {
	const record = "[Stones \"3\"]\n1. d6 {drawn -> drawn} d2 *\n"
	for _, s := range []string{"", "\uFEFF", "\xef\xbb", "\uFEFF\uFEFF", "\x00", "\r\n", "[", "{", "\uFEFF{x}"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, start []byte) {
		path := filepath.Join(dir, "game.txt")
		if err := os.WriteFile(path, append(append([]byte(nil), start...), record...), 0o644); err != nil {
			t.Fatal(err)
		}
		text, err := readRecordFile(path)
		if err != nil {
			t.Fatalf("readRecordFile: %v", err)
		}
		g, _, err := muehle.ParseRecordWithComments(string(text))
		if string(start) == "\uFEFF" && (err != nil || g.Ply() != 2) {
			t.Errorf("a record after a byte-order mark: got %v, want its 2 moves", err)
		}
	})
}
