package ui

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/play"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

// solvedDB is a database folder holding the moving layers of at most
// stones stones of variant (the standard game with nine stones when
// zero), and with placement its layers with stones in hand too, solved
// once for the tests that need it and removed by TestMain.
type solvedDB struct {
	stones    int
	variant   muehle.Variant
	placement bool
	once      sync.Once
	dir       string
	err       error
}

// solved33 holds layer 3-3; solved43 also 4-3 and 3-4, where a drawing
// line can reach a removal (into 3-3); solvedTwelve33 layer 3-3 of Twelve
// Men's Morris with twelve stones; solvedLasker3 the whole of Lasker
// Morris with three stones a side (16 layers, about a second); solvedThree
// the whole of Three Men's Morris (a fraction of a second).
var (
	solved33       = &solvedDB{stones: 6}
	solved43       = &solvedDB{stones: 7}
	solvedTwelve33 = &solvedDB{stones: 6, variant: muehle.Twelve.With(12)}
	solvedLasker3  = &solvedDB{stones: 6, variant: muehle.Lasker.With(3), placement: true}
	solvedThree    = &solvedDB{stones: 6, variant: muehle.Three.With(3), placement: true}
)

// solvedDBs returns the databases above, whose folders TestMain removes.
func solvedDBs() []*solvedDB {
	return []*solvedDB{solved33, solved43, solvedTwelve33, solvedLasker3, solvedThree}
}

// engines returns engines on the database, solving it on first use.
func (s *solvedDB) engines(t *testing.T) *DBEngines {
	t.Helper()
	s.once.Do(func() {
		start := time.Now()
		s.dir, s.err = os.MkdirTemp("", "muehle-ui-test-")
		if s.err != nil {
			return
		}
		v := s.variant
		if v == (muehle.Variant{}) {
			v = muehle.NineMensMorris
		}
		db, err := layers.OpenDB(s.dir, v)
		if err != nil {
			s.err = err
			return
		}
		defer db.Close()
		s.err = retro.Solve(context.Background(), db, retro.SolveOptions{MaxStones: s.stones, Placement: s.placement, SkipVerify: true})
		// The players read verified layers only (docs/records.md): these
		// are right by construction, recorded so without the verifier's
		// time.
		for _, k := range layers.OrderIn(v, true) {
			if s.err == nil && db.Has(k) {
				s.err = db.MarkVerified(k)
			}
		}
		t.Logf("layers of %s of up to %d stones solved in %v", v.Name(), s.stones, time.Since(start))
	})
	if s.err != nil {
		t.Fatal(s.err)
	}
	e := NewEngines(s.dir)
	if s.variant != (muehle.Variant{}) {
		e.SetVariant(s.variant)
	}
	db, _, err := e.gameDatabase()
	if err != nil {
		t.Fatal(err)
	}
	if !db.Has(layers.Moving(3, 3)) {
		t.Fatal("layer 3-3 missing after solving")
	}
	return e
}

// solvedEngines returns engines on a database holding the 3-3 layer.
func solvedEngines(t *testing.T) *DBEngines { return solved33.engines(t) }

func TestPerfectMarksAndPlayer(t *testing.T) {
	e := solvedEngines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	// A 3-3 position, White to move.
	p, g := endgame33(t)
	u.ctrl.SetGame(g)
	marks := shownMarks(t, u, q)
	if len(marks) != len(p.Moves()) {
		t.Errorf("marks for %d moves, want all %d legal moves", len(marks), len(p.Moves()))
	}
	// Each mark is the database value of the child seen from the mover.
	db, _ := e.database()
	for _, m := range marks {
		child, err := db.Probe(p.Play(m.Move))
		if err != nil {
			t.Fatal(err)
		}
		if want := child.Parent(); m.Value != want {
			t.Errorf("mark of %s: got %s, want %s", m.Move, m.Value, want)
		}
	}
	// The board marks every stone White may move with its best move's value.
	v := u.Board().View()
	for _, pt := range p.Stones[muehle.White].Points() {
		if _, ok := v.Marks[pt]; !ok {
			t.Errorf("no mark on the White stone on %s", pt)
		}
	}
	if want := game.OutcomeWords(marks[0].Value); marks[0].Value.Outcome() != layers.Win || !strings.Contains(u.side.value.Text, "White "+want) {
		t.Errorf("side panel value: got %q, want it to contain %q", u.side.value.Text, want)
	}
	if !strings.Contains(u.side.perfect.Text, marks[0].Move.String()) {
		t.Errorf("side panel table lacks the best move %s:\n%s", marks[0].Move, u.side.perfect.Text)
	}
	// Picking up a stone narrows the marks to its targets.
	from := marks[0].Move.From
	u.Board().TapPoint(from)
	v = u.Board().View()
	for pt := range v.Marks {
		if !v.Targets.Has(pt) {
			t.Errorf("mark on %s, which is not a target of %s", pt, from)
		}
	}

	// The perfect player as Black answers with a move of the position's value.
	u.setSpeed(100 * time.Millisecond)
	u.setPlayer(muehle.Black, play.DefaultPerfect)
	gametest.TapMove(u.Board().TapPoint, marks[0].Move)
	q.Drain(t, 10*time.Second, func() bool { return g.Ply() == 2 })
	checkBestReply(t, db, g, "perfect")
}

func TestPerfectFallsBackOutsideLayers(t *testing.T) {
	e := solvedEngines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	u.setSpeed(100 * time.Millisecond)
	u.setShowPerfect(true)
	u.setPlayer(muehle.Black, play.DefaultPerfect)
	g := u.ctrl.Game()
	gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, "d6"))
	q.Drain(t, 20*time.Second, func() bool { return g.Ply() == 2 })
	q.Drain(t, 10*time.Second, func() bool { _, err := u.ctrl.Marks(); return err != nil })
	// The placement search tried first and needed moving layers of the
	// 9-stone game that this folder lacks.
	if !strings.Contains(u.status.Text, "placement search needs moving layers that are not computed") {
		t.Errorf("status after a fallback move: %q", u.status.Text)
	}
	if want := "placement phase after 2 stones placed is not in the database yet"; !strings.Contains(u.side.value.Text, want) {
		t.Errorf("perfect moves outside the database: side panel says %q, want %q", u.side.value.Text, want)
	}
	if want := "in the opening it searches the placements itself"; !strings.Contains(u.side.value.Text, want) {
		t.Errorf("perfect moves in the opening: side panel says %q, want that the player searches (%q)", u.side.value.Text, want)
	}
	if want := "State number: layer p1+8-1+8"; !strings.HasPrefix(u.side.state.Text, want) {
		t.Errorf("state number in the panel: got %q, want it to start with %q", u.side.state.Text, want)
	}
}

func TestMissingWords(t *testing.T) {
	nine, twelve := muehle.NineMensMorris, muehle.Twelve.With(12)
	tests := []struct {
		key  string
		v    muehle.Variant
		want string
	}{
		{"p0+9-0+9", nine, "the opening is not in the database yet (the Database tab computes it)"},
		{"p4+5-4+5", nine, "the placement phase after 8 stones placed"},
		{"5-4", nine, "the endgame of 5 against 4 stones"},
		{"p4+8-4+8", twelve, "the placement phase after 8 stones placed is not in the database of Twelve Men's Morris yet " +
			"(the Database tab computes it, as does muehlectl solve --game twelve --stones 12 --all-phases --db /x/db)"},
		{"p2+3-2+3", muehle.Twelve.With(5), "the placement phase after 4 stones placed is not in the database of Twelve Men's Morris with 5 stones yet"},
		{"4-3", twelve, "the endgame of 4 against 3 stones, or one it leads to, is not in the database of Twelve Men's Morris yet"},
	}
	for _, tt := range tests {
		k, err := layers.ParseKey(tt.key)
		if err != nil {
			t.Fatal(err)
		}
		if got := missingWords(k, tt.v, "/x/db"); !strings.HasPrefix(got, tt.want) {
			t.Errorf("layer %s of %v: got %q, want it to start with %q", tt.key, tt.v, got, tt.want)
		}
	}
}

// TestResponsiveWhileAlphaBetaThinks plays a person against alpha-beta
// (automatic, a second a move): while the computer thinks, the UI thread
// keeps answering taps: at least five return while the search still runs.
func TestResponsiveWhileAlphaBetaThinks(t *testing.T) {
	e := NewEngines(t.TempDir())
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	u.setSpeed(100 * time.Millisecond)
	u.setPlayer(muehle.Black, play.Spec{Kind: play.KindAlphaBeta})
	g := u.ctrl.Game()
	gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, "d6"))
	if !u.ctrl.Thinking() || u.side.busy.Hidden {
		t.Fatalf("after White's move: thinking %v, busy bar hidden %v; want thinking with the bar shown", u.ctrl.Thinking(), u.side.busy.Hidden)
	}
	// A tap is answered without waiting for the search when the search is
	// still running after the tap returns; how long a tap takes depends on
	// the machine's load and is only logged.
	var slowest time.Duration
	taps, answeredWhileThinking := 0, 0
	for u.ctrl.Thinking() {
		start := time.Now()
		u.Board().TapPoint(0)
		slowest = max(slowest, time.Since(start))
		taps++
		if u.ctrl.Thinking() {
			answeredWhileThinking++
		}
		if !strings.Contains(u.status.Text, "please wait") {
			t.Fatalf("tap while thinking: status %q", u.status.Text)
		}
		q.Drain(t, 10*time.Second, func() bool { return true })
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%d taps while alpha-beta thought, %d answered before it finished, the slowest in %v", taps, answeredWhileThinking, slowest)
	if answeredWhileThinking < 5 {
		t.Errorf("%d taps answered while alpha-beta thought (of %d); want at least 5", answeredWhileThinking, taps)
	}
	if g.Ply() != 2 {
		t.Errorf("after thinking: %d plies, want 2", g.Ply())
	}
}

// TestCCNSFromMenu: the players' menus offer the conspiracy number
// player; chosen for Black, it answers White's first move with a legal
// move of its own.
func TestCCNSFromMenu(t *testing.T) {
	e := NewEngines(t.TempDir())
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	m := u.Window().MainMenu()
	it := menuItem(t, m, "Black", "Conspiracy numbers")
	if it.Disabled {
		t.Fatal("conspiracy numbers disabled with engines")
	}
	it.Action()
	if got := u.ctrl.Player(muehle.Black); got == nil || !strings.HasPrefix(got.Name(), "Conspiracy numbers") || !menuItem(t, m, "Black", "Conspiracy numbers").Checked {
		t.Fatalf("Black after choosing conspiracy numbers: got %v, want the CCNS player, checked in the menu", got)
	}
	g := u.ctrl.Game()
	gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, "d6"))
	q.Drain(t, 20*time.Second, func() bool { return g.Ply() == 2 })
	if ps := g.Positions(); len(ps) != 3 || ps[2].Turn != muehle.White {
		t.Fatalf("after Black's answer: got positions %v, want three, White to move", ps)
	}
}
