package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
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
)

// The games of three stones a side that the engine tests solve once per
// test binary into one folder (standard, Lasker and Twelve Men's Morris:
// a few seconds each), removed by TestMain.
var engineGames = []string{"standard", "lasker", "twelve"}

var (
	engineOnce sync.Once
	engineDir  string
	engineErr  error
)

// engineDB returns the folder with the three games of three stones solved.
func engineDB(t *testing.T) string {
	t.Helper()
	engineOnce.Do(func() {
		if engineDir, engineErr = os.MkdirTemp("", "h54-engine-"); engineErr != nil {
			return
		}
		for _, g := range engineGames {
			if code, _, stderr := muehlectl("solve", "--db", engineDir, "--game", g, "--stones", "3", "--all-phases"); code != 0 {
				engineErr = fmt.Errorf("solve %s: exit %d: %s", g, code, stderr)
				return
			}
		}
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
// database answers, from random games from the empty board (seeded).
func samplePositions(t *testing.T, db *layers.DB, n int, seed uint64) []muehle.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 54))
	var out []muehle.Position
	for tries := 0; len(out) < n && tries < 50*n; tries++ {
		pos := db.Variant().NewPosition()
		for range rng.IntN(30) {
			ms := pos.AppendMoves(nil)
			if len(ms) == 0 || pos.IsOver() {
				break
			}
			pos = pos.Play(ms[rng.IntN(len(ms))])
		}
		if a, err := analysis.Of(db, pos); err == nil && !a.Over {
			out = append(out, pos)
		}
	}
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
	pvRe := regexp.MustCompile(`^info multipv \d+ (?:depth (\d+) score mate (-?\d+)|score cp 0) pv (\S+)$`)
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
		rows = append(rows, moveRow{m[3], v})
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
	ts := httptest.NewServer(serve.New(dbs, t.Logf).Handler())
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
			}
		})
	}
}
