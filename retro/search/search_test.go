package search

import (
	"context"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro/playtest"
)

// refSearch is a plain negamax without pruning, table or ordering, written
// from the rules as the reference the search must agree with: a side with
// fewer stones than its rules' LoseBelow or, with an empty hand, no move has lost (score
// -winScore+ply); a position equal to an earlier one on the path is a draw;
// at the horizon the evaluation, or with quiescence the best of the
// evaluation and the removals, followed up to searchQDepth plies.
func refSearch(p muehle.Position, path []muehle.Position, depth, ply int, quiesce bool) int32 {
	for _, q := range path {
		if q == p {
			return 0
		}
	}
	if p.Rules().Lost(p.Total(p.Turn)) {
		return -winScore + int32(ply)
	}
	if depth == 0 {
		return refLeaf(p, ply, searchQDepth, quiesce)
	}
	ms := p.Moves()
	if len(ms) == 0 {
		return -winScore + int32(ply)
	}
	best := int32(-infScore)
	path = append(path, p)
	for _, m := range ms {
		best = max(best, -refSearch(p.Play(m), path, depth-1, ply+1, quiesce))
	}
	return best
}

func refLeaf(p muehle.Position, ply, qleft int, quiesce bool) int32 {
	if p.IsOver() {
		return -winScore + int32(ply)
	}
	best := evalPosition(&p)
	if !quiesce || qleft == 0 {
		return best
	}
	for _, m := range p.Moves() {
		if m.IsRemoval() {
			best = max(best, -refLeaf(p.Play(m), ply+1, qleft-1, quiesce))
		}
	}
	return best
}

// allOptionSets are the option combinations the search must agree on.
var allOptionSets = map[string]SearchOptions{
	"all":            {},
	"no table":       {NoTT: true},
	"no ordering":    {NoOrdering: true},
	"no PVS":         {NoPVS: true},
	"no aspiration":  {NoAspiration: true},
	"plain":          {NoTT: true, NoOrdering: true, NoPVS: true, NoAspiration: true},
	"no quiescence":  {NoQuiescence: true},
	"small table":    {TTBits: 10},
	"table, no rest": {NoOrdering: true, NoPVS: true, NoAspiration: true},
	"minimax":        {NoPruning: true},
}

// TestSearchMatchesReference checks that every combination of enhancements
// gives the exact score of the plain negamax at depths up to 3, where no
// position can be reached at two different depths (so the table cannot
// change a fixed-depth value) and none can repeat.
func TestSearchMatchesReference(t *testing.T) {
	var ps []muehle.Position
	ps = append(ps, playtest.Positions(1, 9, 0, 5, 12, 17, 18, 25, 40, 70)...)
	ps = append(ps, playtest.Positions(2, 5, 9, 10, 14, 30, 60)...)
	ps = append(ps, playtest.Positions(3, 3, 6, 7, 12, 30)...)
	maxDepth := 3
	if testenv.Race {
		maxDepth = 2
	}
	ctx := context.Background()
	for _, p := range ps {
		for d := 1; d <= maxDepth; d++ {
			for _, q := range []bool{true, false} {
				want := refSearch(p, nil, d, 0, q)
				for name, o := range allOptionSets {
					o.NoQuiescence = o.NoQuiescence || !q
					if o.NoQuiescence != !q {
						continue
					}
					if o.TTBits == 0 {
						o.TTBits = 14 // small: a new table for every search
					}
					a := NewAlphaBeta(Limits{Depth: d}, nil, nil)
					a.SetOptions(o)
					g, err := muehle.NewGameFrom(p, 9)
					if err != nil {
						t.Fatal(err)
					}
					r, err := a.Search(ctx, g)
					if err != nil {
						t.Fatalf("%s depth %d %s: %v", p, d, name, err)
					}
					if int32(r.Score) != want {
						t.Errorf("%s depth %d quiescence %v %s: got score %d, want %d", p, d, q, name, r.Score, want)
					}
					if (r.Depth != d && !r.Exact) || !p.IsLegal(r.Move) || len(r.PV) == 0 || r.PV[0] != r.Move {
						t.Errorf("%s depth %d %s: got depth %d move %s PV %v", p, d, name, r.Depth, r.Move, r.PV)
					}
				}
			}
		}
	}
}

// TestSearchDeepNoTable compares the search without table (where no
// transposition can change the value) with the reference at depth 4, where
// the start position can recur on the path in the moving phase.
func TestSearchDeepNoTable(t *testing.T) {
	testenv.SlowUnderRace(t, "the reference search")
	ps := playtest.Positions(4, 9, 40, 60, 90)
	ps = append(ps, playtest.Positions(5, 4, 20, 40)...)
	for _, p := range ps {
		want := refSearch(p, nil, 4, 0, true)
		for name, o := range map[string]SearchOptions{"enhanced": {NoTT: true}, "plain": {NoTT: true, NoOrdering: true, NoPVS: true, NoAspiration: true}} {
			a := NewAlphaBeta(Limits{Depth: 4}, nil, nil)
			a.SetOptions(o)
			g, _ := muehle.NewGameFrom(p, 9)
			r, err := a.Search(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if int32(r.Score) != want {
				t.Errorf("%s depth 4 %s: got %d, want %d", p, name, r.Score, want)
			}
		}
	}
}

// mustPos parses a position of the text format or fails the test.
func TestSearchWins(t *testing.T) {
	for _, tc := range []struct {
		name, pos string
		depth     int
		score     int // WinScore - plies to the win, or -(WinScore - plies)
		move      string
	}{
		// White jumps b6 to g7 closing a7-d7-g7 and removes one of Black's three stones.
		{"win in 1 by removal", "WW.W.........BBB........ w 0 0", 3, WinScore - 1, ""},
		// White slides d2-d1 and Black's four corner stones cannot move.
		{"win in 1 by blocking", "BWB......W....W....W.B.B w 0 0", 3, WinScore - 1, "d2-d1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := playtest.Position(t, tc.pos)
			g, err := muehle.NewGameFrom(p, 9)
			if err != nil {
				t.Fatal(err)
			}
			a := NewAlphaBeta(Limits{Depth: tc.depth}, nil, nil)
			r, err := a.Search(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if r.Score != tc.score || !r.Exact {
				t.Errorf("got score %d exact %v, want %d exact", r.Score, r.Exact, tc.score)
			}
			if tc.move != "" && r.Move.String() != tc.move {
				t.Errorf("got move %s, want %s", r.Move, tc.move)
			}
			if r.Depth != 1 {
				t.Errorf("got depth %d, want the search to stop after depth 1 with a proven win", r.Depth)
			}
		})
	}
}

func TestSearchCancel(t *testing.T) {
	a := NewAlphaBeta(Limits{Depth: 40}, nil, nil)
	g := muehle.NewGame(9)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := a.Search(ctx, g)
	if err != context.Canceled {
		t.Errorf("got error %v, want context.Canceled", err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("search took %s after cancel at 50ms", el)
	}
}

func TestSearchMoveTime(t *testing.T) {
	a := NewAlphaBeta(Limits{MoveTime: 100 * time.Millisecond}, nil, nil)
	g := muehle.NewGame(9)
	start := time.Now()
	r, err := a.Search(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("search with 100ms took %s", el)
	}
	p := g.Position()
	if r.Depth < 1 || !p.IsLegal(r.Move) {
		t.Errorf("got depth %d move %s", r.Depth, r.Move)
	}
}

// TestSearchBench pins the node count of the benchmark searches (depth 6,
// all enhancements, a new player for each position), like Stockfish's
// "Bench: N": any change to the search or the evaluation changes it, and a
// change that should not must not. Update the number only on purpose.
func TestSearchBench(t *testing.T) {
	const want = 154087
	var nodes uint64
	for _, p := range benchPositions() {
		a := NewAlphaBeta(Limits{Depth: 6}, nil, nil)
		g, _ := muehle.NewGameFrom(p, 9)
		r, err := a.Search(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		nodes += r.Nodes
	}
	if nodes != want {
		t.Errorf("Bench: got %d nodes, want %d", nodes, want)
	}
}

// TestSearchProbe checks that with a database knowing every child of the
// root the search returns the exact best child value after one iteration,
// converted to a score by its depth.
func TestSearchProbe(t *testing.T) {
	db := playtest.HashDB{}
	for _, p := range playtest.Positions(21, 9, 4, 19, 44, 70) {
		want := int32(-infScore)
		for _, m := range p.Moves() {
			c := p.Play(m)
			want = max(want, -probeOrEnd(playtest.Value(t, db, c)))
		}
		a := NewAlphaBeta(Limits{Depth: 5}, nil, db)
		g, _ := muehle.NewGameFrom(p, 9)
		r, err := a.Search(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if int32(r.Score) != want || !r.Exact || r.Depth != 1 {
			t.Errorf("%s: got score %d exact %v depth %d, want %d exact at depth 1", p, r.Score, r.Exact, r.Depth, want)
		}
		if v := playtest.Value(t, db, p.Play(r.Move)); -probeOrEnd(v) != want {
			t.Errorf("%s: played %s (child %s), not a best move", p, r.Move, v)
		}
	}
}

// probeOrEnd is the score, for its side to move, of a position at ply 1
// with database value v: a win in d is WinScore-1-d, a loss the negative.
func probeOrEnd(v layers.Value) int32 {
	switch v.Outcome() {
	case layers.Win:
		return winScore - 1 - int32(v.Depth())
	case layers.Loss:
		return -(winScore - 1 - int32(v.Depth()))
	}
	return 0
}
