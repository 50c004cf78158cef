package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/muehle"
	"muehle/retro/retrotest"
)

// TestTwelveEndToEnd: --game twelve solves Twelve Men's Morris in its own
// folder, verify and report read it there, query takes the game from the
// position text, and a position of one game is not looked up in the
// database of another. (The values are checked against the reference
// solver in package retro: TestReferenceTwelve and
// TestPlacementReferenceTwelve.)
func TestTwelveEndToEnd(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := muehlectl("solve", "--db", dir, "--game", "twelve", "--stones", "3", "--all-phases"); code != 0 {
		t.Fatalf("solve --game twelve: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "twelve", "k3", "p0+3-0+3.layer")); err != nil {
		t.Errorf("the empty board's layer is not in twelve/k3: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "k3")); !os.IsNotExist(err) {
		t.Errorf("solving twelve made the standard game's folder k3 (%v)", err)
	}
	if code, out, stderr := muehlectl("verify", "--db", dir, "--game", "twelve", "--stones", "3", "--all-phases"); code != 0 || !strings.Contains(out, "all 7 layers verified") {
		t.Errorf("verify --game twelve: exit %d: %s %s", code, out, stderr)
	}
	if code, out, stderr := muehlectl("report", "--db", dir, "--game", "twelve", "--stones", "3"); code != 0 || !strings.Contains(out, "# The database of Twelve Men's Morris with 3 stones") {
		t.Errorf("report --game twelve: exit %d: %.200s %s", code, out, stderr)
	}
	// placement draws its positions from the game's own empty board.
	if code, out, stderr := muehlectl("placement", "--db", dir, "--game", "twelve", "--stones", "3", "--player", "perfect", "--positions", "30"); code != 0 ||
		!strings.Contains(out, "k=3, perfect: 30 positions") || !strings.Contains(out, "; 0 moves that give up value, 0 fallbacks, 0 positions the database does not hold") {
		t.Errorf("placement --game twelve --player perfect: exit %d: %s %s", code, out, stderr)
	}
	if code, out, stderr := muehlectl("placement", "--db", dir, "--game", "twelve", "--stones", "3", "--check", "--positions", "30"); code != 0 || !strings.Contains(out, "0 mismatches") {
		t.Errorf("placement --game twelve --check: exit %d: %s %s", code, out, stderr)
	}
	const empty = "........................ w 3 3 twelve"
	code, out, stderr := muehlectl("query", "--db", dir, "--stones", "3", "--book", "", "--position", empty)
	if code != 0 || !strings.Contains(out, "layer    p0+3-0+3 index 0\nvalue    won in") {
		t.Errorf("query of the empty board of twelve: exit %d: %s %s", code, out, stderr)
	}
	code, _, stderr = muehlectl("query", "--db", dir, "--game", "twelve", "--stones", "3", "--position", "........................ w 3 3")
	if code != 2 || !strings.Contains(stderr, "the position is of standard, and --game names twelve") {
		t.Errorf("query of a standard position with --game twelve: exit %d: %s", code, stderr)
	}
	code, _, stderr = muehlectl("query", "--db", dir, "--stones", "3", "--book", "", "--position", "........................ w 3 3")
	if code != 1 || !strings.Contains(stderr, "layer missing") {
		t.Errorf("query of the standard game in a folder of twelve only: exit %d: %s; want a missing layer", code, stderr)
	}
}

// TestSlurmTwelve: the job scripts of Twelve Men's Morris go to its
// folder, name the game in the jobs' names and pass --game to solve.
func TestSlurmTwelve(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := muehlectl("slurm", "--db", dir, "--game", "twelve", "--stones", "3", "--all-phases", "--muehlectl", "/bin/muehlectl")
	if code != 0 || !strings.Contains(out, "--job-name=muehle-twelve-k3-m3-3") {
		t.Fatalf("slurm --game twelve: exit %d: %s %s", code, out, stderr)
	}
	script, err := os.ReadFile(filepath.Join(dir, "twelve", "slurm-k3", "m3-3.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "solve --db '" + dir + "' --game twelve --stones 3 --unit m3-3"; !strings.Contains(string(script), want) {
		t.Errorf("m3-3.sh: got %q, want it to contain %q", script, want)
	}
}

// TestMatchTwelve: match --game plays Twelve Men's Morris with its
// database: the perfect player beats random and gives up no value.
func TestMatchTwelve(t *testing.T) {
	dir := t.TempDir()
	retrotest.CopyGameIn(t, dir, muehle.Twelve.With(3)).Close()
	code, out, stderr := muehlectl("match", "--db", dir, "--game", "twelve", "--stones", "3", "--white", "perfect", "--black", "random", "--games", "6")
	if code != 0 || !strings.Contains(out, "6 games of Twelve Men's Morris with 3 stones") ||
		!strings.Contains(out, "perfect             6 won    0 drawn    0 lost") || !strings.Contains(out, "perfect          blunders: 0 of") {
		t.Errorf("match --game twelve: exit %d: %s %s", code, out, stderr)
	}
}

// TestLaskerEndToEnd: --game lasker solves Lasker Morris with its layers
// of stones in hand solved in pairs, verify passes, query answers the
// empty board from the layer of the full hands, and the perfect player
// gives up no value against random. (The values are checked against the
// reference solver in package retro: TestReferenceLasker.)
func TestLaskerEndToEnd(t *testing.T) {
	dir := t.TempDir()
	if code, out, stderr := muehlectl("solve", "--db", dir, "--game", "lasker", "--stones", "3", "--all-phases"); code != 0 || !strings.Contains(out, "(lasker k=3): 10 units to compute, 0 to verify only\nno layer of it is here yet") {
		t.Fatalf("solve --game lasker: exit %d: %s %s", code, out, stderr)
	}
	if code, out, stderr := muehlectl("verify", "--db", dir, "--game", "lasker", "--stones", "3", "--all-phases"); code != 0 || !strings.Contains(out, "all 16 layers verified") {
		t.Errorf("verify --game lasker: exit %d: %s %s", code, out, stderr)
	}
	code, out, stderr := muehlectl("query", "--db", dir, "--stones", "3", "--book", "", "--position", "........................ w 3 3 lasker")
	if code != 0 || !strings.Contains(out, "layer    p0+3-0+3 index 0\nvalue    won in") {
		t.Errorf("query of the empty board of lasker: exit %d: %s %s", code, out, stderr)
	}
	code, out, stderr = muehlectl("match", "--db", dir, "--game", "lasker", "--stones", "3", "--white", "perfect", "--black", "random", "--games", "4")
	if code != 0 || !strings.Contains(out, "perfect          blunders: 0 of") || !strings.Contains(out, "0 moves by the fallback") {
		t.Errorf("match --game lasker: exit %d: %s %s", code, out, stderr)
	}
}

// TestExportImportGames: a package of Twelve Men's Morris and one of
// Lasker Morris (whose layer names include p3+0-2+1) install byte for
// byte into their games' folders; import --game refuses another game's.
func TestExportImportGames(t *testing.T) {
	for _, g := range []muehle.GameID{muehle.Twelve, muehle.Lasker} {
		game := g.String()
		src, dst := t.TempDir(), t.TempDir()
		pkg := filepath.Join(t.TempDir(), game+".mpk")
		retrotest.CopyGameIn(t, src, g.With(3)).Close()
		if code, _, stderr := muehlectl("export", "--db", src, "--game", game, "--stones", "3", "--all-phases", "--out", pkg); code != 0 {
			t.Fatalf("export --game %s: exit %d: %s", game, code, stderr)
		}
		other := map[string]string{"twelve": "lasker", "lasker": "twelve"}[game]
		if code, _, stderr := muehlectl("import", pkg, "--db", dst, "--game", other, "--stones", "3"); code != 1 || !strings.Contains(stderr, "package for other rules") {
			t.Errorf("import of %s as %s: exit %d: %s", game, other, code, stderr)
		}
		if code, _, stderr := muehlectl("import", pkg, "--db", dst, "--game", game, "--stones", "3"); code != 0 {
			t.Fatalf("import --game %s: exit %d: %s", game, code, stderr)
		}
		files, _ := filepath.Glob(filepath.Join(src, game, "k3", "*.layer"))
		if len(files) < 7 {
			t.Fatalf("%s: %d layer files solved, want 7 or more", game, len(files))
		}
		for _, f := range files {
			a, _ := os.ReadFile(f)
			b, err := os.ReadFile(filepath.Join(dst, game, "k3", filepath.Base(f)))
			if err != nil || string(a) != string(b) {
				t.Errorf("%s: %s not installed byte for byte (%v)", game, filepath.Base(f), err)
			}
		}
	}
}

// TestReviewTwelve: review reads a record's game from its [Variant]
// header and judges its moves with that game's database.
func TestReviewTwelve(t *testing.T) {
	dir := t.TempDir()
	retrotest.CopyGameIn(t, dir, muehle.Twelve.With(3)).Close()
	rec := filepath.Join(t.TempDir(), "game.txt")
	if err := os.WriteFile(rec, []byte("[Variant \"twelve\"]\n[Stones \"3\"]\n\n1. a7 d7 2. b6 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := muehlectl("review", "--db", dir, rec)
	if code != 0 || !strings.Contains(out, "1. a7              White  won in 9") || !strings.Contains(out, "not judged: 0 of 3") {
		t.Errorf("review of a game of Twelve Men's Morris: exit %d: %s %s", code, out, stderr)
	}
}

// TestStonesDefaultBeforeCheck: commands that read the layers they are
// given before checking the database flags take --stones 0 as the game's
// own count (searcherrors once read it as a 0-stone game), and verify
// takes a layer of Lasker Morris by its name.
func TestStonesDefaultBeforeCheck(t *testing.T) {
	code, _, stderr := muehlectl("searcherrors", "--db", filepath.Join(t.TempDir(), "none"), "--layer", "9-9")
	if code != 1 || !strings.Contains(stderr, "no database in") {
		t.Errorf("searcherrors with the default stones: exit %d: %s; want the missing folder named", code, stderr)
	}
	dir := t.TempDir()
	retrotest.CopyGameIn(t, dir, muehle.Lasker.With(3)).Close()
	if code, out, stderr := muehlectl("verify", "--db", dir, "--game", "lasker", "--stones", "3", "--layer", "p3+0-2+1"); code != 0 || !strings.Contains(out, "all 1 layers verified") {
		t.Errorf("verify --layer p3+0-2+1: exit %d: %s %s", code, out, stderr)
	}
}

// TestVerifySampleCommand re-derives samples of the 3-stone game's layers
// with verify --sample: every layer "sampled", nothing recorded, and a
// layer list of two.
func TestVerifySampleCommand(t *testing.T) {
	dir := solvedK3(t)
	record := filepath.Join(dir, "k3", "m3-3.verified")
	if err := os.Remove(record); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := muehlectl("verify", "--db", dir, "--stones", "3", "--sample", "100")
	if code != 0 || !strings.Contains(out, "3-3        sampled           100 slots re-derived") || !strings.Contains(out, "nothing recorded") {
		t.Errorf("verify --sample 100: exit %d: %s %s", code, out, stderr)
	}
	if _, err := os.Stat(record); !os.IsNotExist(err) {
		t.Errorf("a sample recorded the layer as verified (stat: %v)", err)
	}
	if code, _, stderr := muehlectl("verify", "--db", dir, "--stones", "3", "--sample", "-1"); code != 2 || !strings.Contains(stderr, "--sample") {
		t.Errorf("verify --sample -1: exit %d: %s; want 2 and the flag named", code, stderr)
	}
}
