package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"muehle/cmd/muehlectl/analysis"
	"muehle/cmd/muehlectl/serve"
	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/retrotest"
)

// The games of three stones a side that the engine tests read from one
// folder (standard, Lasker and Twelve Men's Morris), copied there once per
// test binary from the databases retrotest solves once (other tests copy
// the same ones), removed by TestMain.
var engineGames = []string{"standard", "lasker", "twelve"}

var (
	engineOnce sync.Once
	engineDir  string
	engineErr  error
)

// engineDB returns the folder with the three games of three stones solved.
// The tests read it and must not write into it.
func engineDB(t *testing.T) string {
	t.Helper()
	engineOnce.Do(func() {
		dir, err := os.MkdirTemp("", "muehlectl-engine-")
		if err != nil {
			engineErr = err
			return
		}
		engineDir = dir
		// Should a shared solve end the test (t.Fatal), the folder stays
		// unfinished, and this error fails the tests after it.
		engineErr = errors.New("the engine tests' folder was not finished (see the first test that asked for it)")
		for _, g := range engineGames {
			r, _ := muehle.GameByName(g)
			if err := os.CopyFS(dir, os.DirFS(retrotest.SolvedGame(t, r.Game().With(3)).Dir())); err != nil {
				engineErr = fmt.Errorf("copying %s: %w", g, err)
				return
			}
		}
		engineErr = nil
	})
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	return engineDir
}

// removeEngineDBs removes engineDB's folder (TestMain).
func removeEngineDBs() {
	if engineDir != "" {
		os.RemoveAll(engineDir)
	}
}

// openEngineDB opens the database of game (three stones) in engineDB.
func openEngineDB(t *testing.T, game string) *layers.DB {
	t.Helper()
	r, _ := muehle.GameByName(game)
	db, err := layers.OpenDB(engineDB(t), r.Game().With(3))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// samplePositions returns up to n positions of db's game that the
// database answers (serve.SamplePositions), at least one.
func samplePositions(t *testing.T, db *layers.DB, n int, seed uint64) []muehle.Position {
	t.Helper()
	out := serve.SamplePositions(context.Background(), db, n, seed)
	if len(out) == 0 {
		t.Fatal("no sample positions")
	}
	return out
}

// moveRow is one move of an answer as all three front ends show it.
type moveRow struct {
	move  string
	value string // "won in 7", "lost in 2", "drawn"
}

// queryRows runs muehlectl query and returns its moves and the number of
// picks.
func queryRows(t *testing.T, dir, game string, pos muehle.Position) ([]moveRow, int) {
	t.Helper()
	code, out, stderr := muehlectl("query", "--db", dir, "--game", game, "--stones", "3", "--position", pos.String())
	if code != 0 {
		t.Fatalf("query %s: exit %d: %s", pos, code, stderr)
	}
	re := regexp.MustCompile(`^  (\S+)\s+(won in \d+|lost in \d+|drawn)\s+replies \d+/\d+/\d+\s+score \S+(  pick)?$`)
	var rows []moveRow
	picks := 0
	for line := range strings.Lines(out) {
		m := re.FindStringSubmatch(strings.TrimRight(line, "\n"))
		if m == nil {
			continue
		}
		rows = append(rows, moveRow{m[1], m[2]})
		if m[3] != "" {
			picks++
		}
	}
	return rows, picks
}

// serverRows asks the server at base for pos and returns its moves and
// picks.
func serverRows(t *testing.T, base, name string, pos muehle.Position) ([]moveRow, int) {
	t.Helper()
	var a analysis.AnswerJSON
	code := getJSON(t, base+"/api/v1/"+name+"?position="+url.QueryEscape(pos.String()), &a)
	if code != http.StatusOK {
		t.Fatalf("server %s: status %d", pos, code)
	}
	var rows []moveRow
	picks := 0
	for _, m := range a.Moves {
		rows = append(rows, moveRow{m.Move, m.Value.Text})
		if m.Pick {
			picks++
		}
	}
	if picks != a.Picks {
		t.Errorf("server %s: %d moves marked pick, picks %d", pos, picks, a.Picks)
	}
	return rows, picks
}

// sameRows reports whether a and b hold the same moves with the same
// values and list the values in the same order (moves of equal value may
// stand in another order).
func sameRows(a, b []moveRow) bool {
	if len(a) != len(b) {
		return false
	}
	set := map[moveRow]int{}
	for i := range a {
		if a[i].value != b[i].value {
			return false
		}
		set[a[i]]++
		set[b[i]]--
	}
	for _, n := range set {
		if n != 0 {
			return false
		}
	}
	return true
}

// getJSON gets u, decodes its JSON body into v and returns the status.
func getJSON(t *testing.T, u string, v any) int {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("GET %s: Content-Type %q, want JSON", u, ct)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Errorf("GET %s: %v", u, err)
	}
	return resp.StatusCode
}

// gui drives a muehlectl uci process as a GUI does.
type gui struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

// startUCI starts `muehlectl uci` with args in a process of its own.
func startUCI(t *testing.T, args ...string) *gui {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"uci"}, args...)...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g := &gui{t: t, cmd: cmd, in: in, lines: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			g.lines <- sc.Text()
		}
		close(g.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("muehlectl uci did not end after its input closed")
		}
	})
	return g
}

// send writes command lines.
func (g *gui) send(lines ...string) {
	g.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(g.in, l+"\n"); err != nil {
			g.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// until reads lines up to and including the first that starts with
// prefix, and returns them; it fails after 30 s.
func (g *gui) until(prefix string) []string {
	g.t.Helper()
	var got []string
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-g.lines:
			if !ok {
				g.t.Fatalf("the engine ended before %q; got %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-timeout:
			g.t.Fatalf("no %q within 30 s; got %q", prefix, got)
		}
	}
}

// uciRows asks the engine for every move of pos (MultiPV) and returns
// them and the number of picks from its value line.
func (g *gui) rows(pos muehle.Position) ([]moveRow, int) {
	g.t.Helper()
	g.send("position fen "+pos.String(), "go")
	lines := g.until("bestmove")
	var rows []moveRow
	picks := -1
	valueRe := regexp.MustCompile(`^info string value .* (\d+) of \d+ moves picked\)$`)
	pvRe := regexp.MustCompile(`^info multipv \d+ (?:depth (\d+) score mate (-?\d+)|score cp 0) pv (\S+(?: x\S+)?)$`)
	for _, l := range lines {
		if m := valueRe.FindStringSubmatch(l); m != nil {
			picks, _ = strconv.Atoi(m[1])
		}
		m := pvRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		v := "drawn"
		if m[1] != "" {
			if strings.HasPrefix(m[2], "-") {
				v = "lost in " + m[1]
			} else {
				v = "won in " + m[1]
			}
		}
		rows = append(rows, moveRow{strings.ReplaceAll(m[3], " x", "x"), v}) // the removal as a move of its own
	}
	return rows, picks
}

// TestAnswersAgree holds the answers of query, the protocol and the
// server equal on sample positions of each game: the same moves in the
// same order with the same values, and the same number of picks.
func TestAnswersAgree(t *testing.T) {
	dir := engineDB(t)
	dbs, err := serve.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, d := range dbs {
			d.DB.Close()
		}
	}()
	ts := httptest.NewServer(serve.New(dbs, 0, t.Logf).Handler())
	defer ts.Close()
	for _, game := range engineGames {
		t.Run(game, func(t *testing.T) {
			db := openEngineDB(t, game)
			g := startUCI(t, "--db", dir, "--game", game, "--stones", "3")
			g.send("setoption name MultiPV value 1000", "isready")
			g.until("readyok")
			name := serve.VariantName(db.Variant())
			compared := 0
			defer func() { t.Logf("%d moves compared", compared) }()
			for _, pos := range samplePositions(t, db, 12, 7) {
				q, qp := queryRows(t, dir, game, pos)
				s, sp := serverRows(t, ts.URL, name, pos)
				u, up := g.rows(pos)
				if len(q) == 0 || fmt.Sprint(q) != fmt.Sprint(s) || fmt.Sprint(q) != fmt.Sprint(u) || qp != sp || qp != up {
					t.Errorf("%s:\nquery  %v picks %d\nserver %v picks %d\nuci    %v picks %d", pos, q, qp, s, sp, u, up)
				}
				compared += len(q)
				// ties=0: the same moves and values, by value, no picks.
				var v analysis.AnswerJSON
				if code := getJSON(t, ts.URL+"/api/v1/"+name+"?ties=0&position="+url.QueryEscape(pos.String()), &v); code != 200 || v.Ties || v.Picks != 0 {
					t.Errorf("%s ties=0: status %d, ties %t, picks %d", pos, code, v.Ties, v.Picks)
				}
				var vr []moveRow
				for _, m := range v.Moves {
					vr = append(vr, moveRow{m.Move, m.Value.Text})
				}
				if !sameRows(vr, s) {
					t.Errorf("%s ties=0:\n%v\nwith ties:\n%v", pos, vr, s)
				}
			}
		})
	}
}

// TestUCIProtocol drives muehlectl uci as a GUI does: the handshake,
// isready, options, unknown commands ignored, a bad position and an
// illegal move reported without dying, isready answered while thinking
// under go infinite, stop, and a removal written as a move of its own.
func TestUCIProtocol(t *testing.T) {
	dir := engineDB(t)
	g := startUCI(t, "--db", dir, "--stones", "3")
	g.send("uci")
	hello := g.until("uciok")
	for _, want := range []string{"id name ", "option name Player type string default perfect", "option name Game type combo", "option name Database type string default " + dir} {
		if !strings.Contains(strings.Join(hello, "\n"), want) {
			t.Errorf("uci: no %q in %q", want, hello)
		}
	}
	g.send("xyzzy 1 2 3", "isready")
	if got := g.until("readyok"); len(got) != 1 {
		t.Errorf("an unknown command answered %q; want nothing", got[:len(got)-1])
	}
	// A bad position and an illegal move: an info string, then no position.
	for _, bad := range []string{"position fen WWWW.................... w 0 0", "position fen xyz", "position startpos moves d6 d6", "position startpos moves a1-a4"} {
		g.send(bad, "go")
		got := g.until("bestmove")
		if !strings.HasPrefix(got[0], "info string position: ") || got[len(got)-1] != "bestmove none" {
			t.Errorf("%s: got %q; want an info string and bestmove none", bad, got)
		}
	}
	// The perfect player wins a won position at once: White jumps a4-g7,
	// closes a mill and takes a stone; Black is left with two.
	const won = "WW.BB....W.............B w 0 0"
	g.send("setoption name SplitRemoval value false", "position fen "+won, "go movetime 100")
	got := g.until("bestmove")
	if !slicesHas(got, "info string value won in 1") || !strings.HasPrefix(got[len(got)-1], "bestmove a4-g7x") {
		t.Errorf("won position: got %q", got)
	}
	// The mill FEN of the same position, and of the empty board; a FEN
	// waiting for a removal cannot be said.
	for fen, want := range map[string]string{
		"********/@******@/O**@**OO w m s 3 0 3 0 0 0 12": won,
		"********/********/******** w p p 0 3 0 3 0 0 1":  "........................ w 3 3",
	} {
		g.send("position fen "+fen, "d")
		if got := g.until("info string position"); got[len(got)-1] != "info string position "+want {
			t.Errorf("mill FEN %s: got %q, want %s", fen, got, want)
		}
	}
	// The FEN names the points of the 24-point boards: Twelve Men's
	// Morris's board has them, Three Men's Morris's not.
	g.send("setoption name Game value twelve", "position fen ********/********/******** w p p 0 3 0 3 0 0 1", "d")
	if got := g.until("info string position"); got[len(got)-1] != "info string position ........................ w 3 3 twelve" {
		t.Errorf("mill FEN of Twelve Men's Morris's empty board: got %q", got)
	}
	g.send("setoption name Game value three", "position fen ********/********/******** w p p 0 3 0 3 0 0 1", "go")
	if got := g.until("bestmove"); !strings.Contains(got[0], "mill FEN describes the 24 points of the standard board; the board of Three") || got[len(got)-1] != "bestmove none" {
		t.Errorf("mill FEN in Three Men's Morris: got %q", got)
	}
	g.send("setoption name Game value standard")
	g.send("position fen ********/@******@/O**@**OO w m r 3 0 3 0 1 0 12", "go")
	if got := g.until("bestmove"); !strings.Contains(got[0], "waiting for a removal") || got[len(got)-1] != "bestmove none" {
		t.Errorf("mill FEN waiting for a removal: got %q", got)
	}
	// go infinite: isready answers while thinking, bestmove waits for stop.
	g.send("setoption name Player value ab:3", "position startpos moves d6 d2", "go infinite", "isready")
	if got := g.until("readyok"); slicesHas(got, "bestmove") {
		t.Errorf("go infinite sent bestmove before stop: %q", got)
	}
	g.send("stop")
	if got := g.until("bestmove"); got[len(got)-1] == "bestmove none" {
		t.Errorf("stop: got %q; want a move", got)
	}
	// SplitRemoval, the default: the move, then after the GUI played it,
	// the removal.
	g.send("setoption name Player value perfect", "setoption name SplitRemoval value true", "position fen "+won, "go")
	got = g.until("bestmove")
	first := strings.TrimPrefix(got[len(got)-1], "bestmove ")
	if strings.Contains(first, "x") {
		t.Fatalf("SplitRemoval: bestmove %q names the removal", first)
	}
	g.send("position fen "+won+" moves "+first, "go")
	got = g.until("bestmove")
	rem := strings.TrimPrefix(got[len(got)-1], "bestmove ")
	if !strings.HasPrefix(rem, "x") {
		t.Fatalf("SplitRemoval: after %s, bestmove %q; want xPOINT", first, rem)
	}
	g.send("position fen "+won+" moves "+first+" "+rem, "d")
	if got := g.until("info string position"); !strings.HasSuffix(got[len(got)-1], " b 0 0") {
		t.Errorf("after %s %s: %q", first, rem, got)
	}
	g.send("quit")
}

// slicesHas reports whether some line starts with prefix.
func slicesHas(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// TestUCISelfPlay plays the perfect player against itself through the
// protocol in each game of three stones, as a GUI would, and checks after
// every move that the value of the position follows the database: a win
// in d becomes a loss in d-1 for the other side, a draw stays a draw,
// until the game ends (or 60 plies of a draw).
func TestUCISelfPlay(t *testing.T) {
	dir := engineDB(t)
	for _, game := range engineGames {
		t.Run(game, func(t *testing.T) {
			db := openEngineDB(t, game)
			g := startUCI(t, "--db", dir, "--game", game, "--stones", "3")
			g.send("uci")
			g.until("uciok")
			g.send("isready")
			g.until("readyok")
			g.send("ucinewgame")
			gm := db.Variant().Rules().NewGame(3)
			var moves []string
			prev := layers.Unused
			for ply := 0; ply < 60; ply++ {
				if r, _ := gm.Result(); r != muehle.Ongoing {
					break
				}
				pos := gm.Position()
				a, err := analysis.Of(db, pos)
				if err != nil {
					t.Fatalf("ply %d %s: %v", ply, pos, err)
				}
				if prev != layers.Unused && a.Value.Parent() != prev {
					t.Fatalf("ply %d %s: value %s after a position of %s: the move gave up value", ply, pos, a.Value, prev)
				}
				prev = a.Value
				cmd := "position startpos"
				if len(moves) > 0 {
					cmd += " moves " + strings.Join(moves, " ")
				}
				g.send(cmd, "go movetime 50")
				got := g.until("bestmove")
				if want := "info string value " + a.Value.String() + " "; !slicesHas(got, want) {
					t.Errorf("ply %d %s: got %q; want %q", ply, pos, got, want)
				}
				ms := strings.TrimPrefix(got[len(got)-1], "bestmove ")
				m, err := pos.Board().ParseMove(ms)
				if err != nil {
					t.Fatalf("ply %d: bestmove %q: %v", ply, ms, err)
				}
				if pos.CheckMove(m) != nil {
					// A mill closed: the removal comes as a move of its
					// own, asked for after the GUI has played the move.
					g.send(cmd+" "+ifMoves(moves)+ms, "go movetime 50")
					got := g.until("bestmove")
					rem := strings.TrimPrefix(got[len(got)-1], "bestmove ")
					if m.Remove, err = pos.Board().ParsePoint(strings.TrimPrefix(rem, "x")); err != nil || !strings.HasPrefix(rem, "x") {
						t.Fatalf("ply %d %s: after %s, bestmove %q; want xPOINT", ply, pos, ms, rem)
					}
					moves = append(moves, ms)
					ms = rem
				}
				if err := gm.Play(m); err != nil {
					t.Fatalf("ply %d %s: bestmove %s: %v", ply, pos, ms, err)
				}
				moves = append(moves, ms)
			}
			r, why := gm.Result()
			t.Logf("%s: %d plies, %s (%s), start %s", game, gm.Ply(), r, why, mustValue(t, db, db.Variant().NewPosition()))
			if r == muehle.Ongoing && prev.Outcome() != layers.Draw {
				t.Errorf("the game of a decided value did not end in 60 plies: %s", prev)
			}
		})
	}
}

// ifMoves returns "moves " when the list of moves is empty (the position
// command then needs it before the first move), else "".
func ifMoves(moves []string) string {
	if len(moves) == 0 {
		return "moves "
	}
	return ""
}

// mustValue returns the database's value of pos.
func mustValue(t *testing.T, db *layers.DB, pos muehle.Position) layers.Value {
	a, err := analysis.Of(db, pos)
	if err != nil {
		t.Fatal(err)
	}
	return a.Value
}

// BenchmarkAnalysisOf measures analysis.Of, the answer the server
// computes afresh, on 300 positions of the database in $BENCH_DB (the
// standard game of $BENCH_STONES stones, 5 by default; docs/engine.md);
// skipped without it.
func BenchmarkAnalysisOf(b *testing.B) {
	dir := os.Getenv("BENCH_DB")
	if dir == "" {
		b.Skip("set BENCH_DB to a database folder (and BENCH_STONES, 5 by default)")
	}
	k := 5
	if s := os.Getenv("BENCH_STONES"); s != "" {
		k, _ = strconv.Atoi(s)
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(k))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ps := serve.SamplePositions(context.Background(), db, 300, 1)
	if len(ps) == 0 {
		b.Fatal("no positions")
	}
	i := 0
	for b.Loop() {
		if _, err := analysis.Of(db, ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
