package search

import (
	"context"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro/retrotest"
)

// A store that keeps won positions without their depth (compressed form
// 2) lets alpha-beta leave a won position's depth unread where the window
// does not need it (searcher.probeDB). keptDB plays such a store over a
// solved database; plainDB gives every value with its depth. Both count
// the depths of won positions read.

// plainDB reads db through Probe alone.
type plainDB struct {
	db  *layers.DB
	won *int // the values of won positions read
}

func (p plainDB) Probe(pos muehle.Position) (layers.Value, error) {
	v, err := p.db.Probe(pos)
	if err == nil && v.Outcome() == layers.Win {
		*p.won++
	}
	return v, err
}

// keptDB is plainDB that keeps won positions without their depth, and
// so gives outcomes apart (layers.OutcomeProber).
type keptDB struct{ plainDB }

func (k keptDB) ProbeOutcome(pos muehle.Position) (layers.Outcome, error) {
	v, err := k.db.Probe(pos)
	return v.Outcome(), err
}

func (k keptDB) ProbeKept(pos muehle.Position) (layers.Value, bool, error) {
	v, err := k.db.Probe(pos)
	if err == nil && v.Outcome() == layers.Win {
		return layers.WinIn(1), false, nil
	}
	return v, true, err
}

// keptPositions returns positions of random games of the solved game of
// three stones, every third one, that the database knows and that are not
// over.
func keptPositions(t *testing.T, db *layers.DB) []muehle.Position {
	t.Helper()
	var ps []muehle.Position
	n := 0
	randomGamePositions(53, 40, 3, func(p muehle.Position, _ muehle.Move) {
		if n++; n%3 != 0 || p.IsOver() {
			return
		}
		if v, err := db.Probe(p); err == nil && v != layers.Unused {
			ps = append(ps, p)
		}
	})
	if len(ps) < 300 {
		t.Fatalf("only %d positions", len(ps))
	}
	return ps
}

// TestProbeWindowFailSoft searches positions of a solved game a few plies
// deep in windows around draws, wins and losses, once with every depth
// and once leaving won depths out where the window allows: each result
// keeps the contract of a fail-soft search against the exact one (inside
// the window the same score, at or below alpha at or below it, at or
// above beta at or above it), and fewer won depths are read.
func TestProbeWindowFailSoft(t *testing.T) {
	db := retrotest.Solved(t, 3)
	positions := keptPositions(t, db)[:150]
	if !testenv.Full() {
		positions = positions[:60]
	}
	// The players' database, flat here, keeps every depth.
	for _, p := range positions[:50] {
		if _, kept, err := db.ProbeKept(p); err != nil || !kept {
			t.Fatalf("%s: ProbeKept of a flat layer: kept %v, %v", p, kept, err)
		}
	}
	windows := [][2]int32{
		{-infScore, infScore}, {-1, 1}, {0, 1}, {-1, 0},
		{winBound, infScore}, {-infScore, -winBound},
		{winScore - 40, winScore - 5}, {-winScore + 5, -winScore + 40},
	}
	var wonPlain, wonKept, checked int
	for _, pos := range positions {
		for depth := 1; depth <= 3; depth++ {
			for _, w := range windows {
				score := func(p layers.Prober) int32 {
					g, err := muehle.NewGameFrom(pos, 3)
					if err != nil {
						t.Fatal(err)
					}
					a := NewAlphaBeta(Limits{Depth: depth}, nil, p)
					a.SetOptions(SearchOptions{TTBits: 10})
					s := a.prepare(context.Background(), g)
					return s.node(&pos, depth, 0, w[0], w[1], true)
				}
				exact := score(plainDB{db, &wonPlain})
				got := score(keptDB{plainDB{db, &wonKept}})
				lo, hi := w[0], w[1]
				ok := got == exact
				switch {
				case exact <= lo:
					ok = got <= lo
				case exact >= hi:
					ok = got >= hi
				}
				if !ok {
					t.Fatalf("%s, depth %d, window (%d, %d): %d, with every depth %d", pos, depth, lo, hi, got, exact)
				}
				checked++
			}
		}
	}
	t.Logf("%d searches; won depths read: %d with every depth, %d where the window needs them", checked, wonPlain, wonKept)
	if wonKept >= wonPlain/2 {
		t.Errorf("won depths read: %d, with every depth %d; want fewer than half", wonKept, wonPlain)
	}
}

// TestRootReadsWonDepthsWhenLost plays alpha-beta's move on positions of a
// solved game, where the database knows every child of the root: through
// a store that keeps won positions without their depth, the same move and
// score as with every depth, and no won position's depth read unless the
// root is lost (every move leads to a position won for the opponent).
func TestRootReadsWonDepthsWhenLost(t *testing.T) {
	db := retrotest.Solved(t, 3)
	var lost, other int
	for _, pos := range keptPositions(t, db) {
		var wonPlain, wonKept int
		search := func(p layers.Prober) SearchResult {
			g, err := muehle.NewGameFrom(pos, 3)
			if err != nil {
				t.Fatal(err)
			}
			a := NewAlphaBeta(Limits{Depth: 4}, nil, p)
			a.SetOptions(SearchOptions{TTBits: 10})
			r, err := a.Search(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		want := search(plainDB{db, &wonPlain})
		got := search(keptDB{plainDB{db, &wonKept}})
		if got.Move != want.Move || got.Score != want.Score || !got.Exact {
			t.Fatalf("%s: %s scoring %d (exact %v); with every depth %s scoring %d", pos, got.Move, got.Score, got.Exact, want.Move, want.Score)
		}
		v, err := db.Probe(pos)
		if err != nil {
			t.Fatal(err)
		}
		if v.Outcome() == layers.Loss {
			lost++
			continue
		}
		other++
		if wonKept > 0 {
			t.Fatalf("%s (%v): %d won depths read, with every depth %d", pos, v, wonKept, wonPlain)
		}
	}
	if lost == 0 || other == 0 {
		t.Fatalf("%d lost roots and %d others: want both", lost, other)
	}
}
