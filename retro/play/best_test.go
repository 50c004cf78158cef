package play

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro/retrotest"
)

// refRank is rank as it was before best (28d974c), the reference best is
// checked against: every move's value and every reply's read, the sector
// variant's minimax reading the values of all of a node's moves before
// it looks at the first.
func refRank(p *Perfect, pos muehle.Position, hist []muehle.Move) ([]MoveValue, error) {
	var mvs []MoveValue
	for _, m := range pos.Moves() {
		c := pos.Play(m)
		v, err := p.value(c)
		if err != nil {
			return nil, err
		}
		mv := MoveValue{Move: m, Value: v.Parent()}
		if v != layers.LossIn(0) {
			if err := refReplies(p, c, &mv); err != nil {
				return nil, err
			}
		}
		mvs = append(mvs, mv)
	}
	drawn := p.Draws != DrawTrap && bestOutcome(mvs) == layers.Draw
	p.sectorMemo = nil
	for i := range mvs {
		var err error
		switch {
		case drawn && mvs[i].Value.Outcome() == layers.Draw && p.Draws == DrawSector:
			mvs[i].Score, err = refSectorAfter(p, pos.Play(mvs[i].Move), mvs[i].Move, pos.Turn, max(p.DrawDepth, 1)-1, 0, 1)
		case drawn && mvs[i].Value.Outcome() == layers.Draw:
			mvs[i].Score, err = p.BahnsenG(pos, hist, mvs[i].Move, p.DrawDepth)
		case p.Lookahead > 0:
			mvs[i].Score, err = p.trapAhead(pos, &mvs[i], p.Lookahead)
		}
		if err != nil {
			return nil, err
		}
	}
	sortMoves(mvs) // the sort of 28d974c's rank, moved out of it unchanged
	return mvs, nil
}

// refReplies counts the replies in c to mv as refRank did.
func refReplies(p *Perfect, c muehle.Position, mv *MoveValue) error {
	for _, r := range c.Moves() {
		w, err := p.value(c.Play(r))
		if err != nil {
			return err
		}
		mv.countReply(w.Parent().Outcome())
	}
	return nil
}

// refSectorAfter is sectorAfter as it was before (28d974c): the values of
// all of a node's moves read first.
func refSectorAfter(p *Perfect, pos muehle.Position, m muehle.Move, me muehle.Color, plies int, alpha, beta float64) (float64, error) {
	if m.IsRemoval() || plies == 0 || pos.IsOver() {
		return p.sectorShare(pos, me)
	}
	ms, vs, err := p.children(pos)
	if err != nil {
		return 0, err
	}
	maxing := pos.Turn == me
	best, any := 0.0, false
	for i, c := range ms {
		if vs[i].Outcome() != layers.Draw {
			continue
		}
		s, err := refSectorAfter(p, pos.Play(c), c, me, plies-1, alpha, beta)
		if err != nil {
			return 0, err
		}
		if !any || (maxing && s > best) || (!maxing && s < best) {
			best, any = s, true
		}
		if maxing {
			alpha = max(alpha, best)
		} else {
			beta = min(beta, best)
		}
		if alpha >= beta {
			break
		}
	}
	if !any {
		return p.sectorShare(pos, me)
	}
	return best, nil
}

// refMove is Move as it was before (28d974c) on a complete database: the
// reference ranking's best, one of them drawn from rng.
func refMove(t *testing.T, p *Perfect, rng *rand.Rand, pos muehle.Position, hist []muehle.Move) muehle.Move {
	t.Helper()
	mvs, err := refRank(p, pos, hist)
	if err != nil {
		t.Fatalf("%s: reference: %v", pos, err)
	}
	if n := BestCount(mvs); rng != nil && n > 1 {
		return mvs[rng.IntN(n)].Move
	}
	return mvs[0].Move
}

// gamePositions returns up to n positions, each with the moves of its
// game before it, from random games of k stones of rules r from the start
// (seeded), every position of each game with a legal move until the game
// ends or reaches maxPly plies: placement, moving and flying positions.
func gamePositions(r *muehle.Rules, k int, seed uint64, n, maxPly int) ([]muehle.Position, [][]muehle.Move) {
	rng := rand.New(rand.NewPCG(seed, 77))
	var ps []muehle.Position
	var hs [][]muehle.Move
	for len(ps) < n {
		g := r.NewGame(k)
		for g.Ply() < maxPly && len(ps) < n {
			if res, _ := g.Result(); res != muehle.Ongoing {
				break
			}
			ms := g.LegalMoves()
			ps, hs = append(ps, g.Position()), append(hs, g.History())
			if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
				panic(err)
			}
		}
	}
	return ps, hs
}

// checkBest checks best against the reference on each position: the same
// moves in the same order, with the same values and scores; and rank
// (Evaluate) too: every move, with the same values, replies and scores.
func checkBest(t *testing.T, name string, p *Perfect, ps []muehle.Position, hs [][]muehle.Move) {
	t.Helper()
	for i, pos := range ps {
		want, err := refRank(p, pos, hs[i])
		if err != nil {
			t.Fatalf("%s %s: reference: %v", name, pos, err)
		}
		all, err := p.rank(pos, hs[i])
		if err != nil {
			t.Fatalf("%s %s: %v", name, pos, err)
		}
		if !slices.Equal(all, want) {
			t.Fatalf("%s %s: got ranking %v, want %v", name, pos, brief(all), brief(want))
		}
		want = want[:BestCount(want)]
		got, err := p.best(pos, hs[i])
		if err != nil {
			t.Fatalf("%s %s: %v", name, pos, err)
		}
		same := len(got) == len(want)
		for j := 0; same && j < len(got); j++ {
			same = got[j].Move == want[j].Move && got[j].Value == want[j].Value && got[j].Score == want[j].Score
		}
		if !same {
			t.Fatalf("%s %s: got best %v, want %v", name, pos, brief(got), brief(want))
		}
	}
}

// brief shows moves with their values and scores.
func brief(mvs []MoveValue) string {
	s := ""
	for _, mv := range mvs {
		s += fmt.Sprintf(" %v:%s:%g", mv.Move, mv.Value, mv.Score)
	}
	return s
}

// TestBestAsBefore checks that best, which reads outcomes first, depths
// only for the best outcome and replies only where a score needs them,
// picks among the very moves the player picked among before (28d974c:
// Evaluate's first BestCount), with the same values and scores: for every
// draw rule and lookahead, on the fake databases over placement, moving
// and flying positions of Nine Men's Morris, and on the solved game of
// three stones.
func TestBestAsBefore(t *testing.T) {
	testenv.SlowUnderRace(t, "compares best with the player before on about 1,800 positions, on one goroutine")
	nine := muehle.Standard.Rules()
	ps, hs := gamePositions(nine, 9, 1, 240, 120)
	for _, tc := range []struct {
		name  string
		db    layers.Prober
		look  int
		draws DrawRule
		n     int // positions checked
	}{
		{"sector", headedDB{}, 1, DrawSector, 240},
		{"sector/outcomes", outcomeDB{}, 1, DrawSector, 240},
		{"trap", headedDB{}, 1, DrawTrap, 240},
		{"trap/outcomes", outcomeDB{}, 1, DrawTrap, 240},
		{"lookahead 0", outcomeDB{}, 0, DrawSector, 240},
		{"lookahead 2", headedDB{}, 2, DrawTrap, 40},
	} {
		p := NewPerfect(tc.db, nil, nil)
		p.Lookahead, p.Draws, p.DrawDepth = tc.look, tc.draws, SectorPlies
		if tc.draws == DrawBahnsen {
			p.DrawDepth = BahnsenDepth
		}
		t.Run(tc.name, func(t *testing.T) { checkBest(t, tc.name, p, ps[:tc.n], hs[:tc.n]) })
	}
	db := retrotest.Solved(t, 3)
	ps, hs = gamePositions(db.Variant().Rules(), 3, 2, 300, 60)
	t.Run("k=3", func(t *testing.T) { checkBest(t, "k=3", NewPerfect(db, nil, nil), ps, hs) })
	t.Run("k=3 bahnsen", func(t *testing.T) {
		p := NewPerfect(db, nil, nil)
		p.Draws, p.DrawDepth = DrawBahnsen, BahnsenDepth
		checkBest(t, "k=3 bahnsen", p, ps, hs)
	})
	t.Run("k=3 lookahead 2", func(t *testing.T) {
		p := NewPerfect(outcomeDB{db: db}, nil, nil)
		p.Draws, p.Lookahead = DrawTrap, 2
		checkBest(t, "k=3 trap, lookahead 2, outcomes", p, ps[:12], hs[:12])
	})
}

// TestMoveAsBefore checks that the shipped perfect player's moves are
// those it played before (28d974c), its random source seeded alike: on
// the solved game of three stones, of four (long), and on the folder
// MUEHLE_BENCH_DB (the game of MUEHLE_BENCH_STONES stones, 6 when unset)
// when it names one, over 400 positions of its random games.
func TestMoveAsBefore(t *testing.T) {
	type game struct {
		name string
		db   *layers.DB
		n    int
	}
	games := []game{{"k=3", retrotest.Solved(t, 3), 300}}
	if testenv.Full() {
		games = append(games, game{"k=4", retrotest.Solved(t, 4), 400})
	}
	if dir := os.Getenv("MUEHLE_BENCH_DB"); dir != "" {
		k := 6
		if s, err := strconv.Atoi(os.Getenv("MUEHLE_BENCH_STONES")); err == nil {
			k = s
		}
		db, err := layers.OpenDB(dir, muehle.Standard.With(k))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		games = append(games, game{dir, db, 400})
	}
	for _, gm := range games {
		k := gm.db.Stones()
		ps, hs := gamePositions(gm.db.Variant().Rules(), k, 3, gm.n, 200)
		phases := map[string]int{}
		for i, pos := range ps {
			g, err := muehle.NewGameFrom(pos, k)
			if err != nil {
				t.Fatal(err)
			}
			p := NewShipped(gm.db, nil, rand.NewPCG(uint64(i), 1), rand.NewPCG(uint64(i), 2))
			p.Placement = nil
			got, err := p.Move(context.Background(), g)
			if err != nil || p.LastFellBack() {
				t.Fatalf("%s %s: %v (fell back: %v)", gm.name, pos, err, p.LastFellBack())
			}
			ref := NewShipped(gm.db, nil, nil, nil)
			want := refMove(t, ref, rand.New(rand.NewPCG(uint64(i), 1)), pos, hs[i])
			if got != want {
				t.Fatalf("%s %s: played %s, before %s", gm.name, pos, pos.Board().MoveString(got), pos.Board().MoveString(want))
			}
			switch {
			case pos.Hand[pos.Turn] > 0:
				phases["placement"]++
			case pos.Stones[pos.Turn].Count() == 3:
				phases["flying"]++
			default:
				phases["moving"]++
			}
		}
		t.Logf("%s: %d positions the same (%v)", gm.name, len(ps), phases)
	}
}

// outcomeDB is a database with layer headers (headedDB when db is nil)
// that gives outcomes apart (an OutcomeProber) and counts the probes of
// each kind.
type outcomeDB struct {
	db    prober
	count *probeCount
}

// prober is a database with layer headers.
type prober interface {
	layers.Prober
	LayerSource
}

// probeCount counts an outcomeDB's probes: values by outcome, and
// outcomes.
type probeCount struct {
	values   [3]int // by outcome: Loss, Draw, Win
	outcomes int
}

func (o outcomeDB) under() prober {
	if o.db == nil {
		return headedDB{}
	}
	return o.db
}

func (o outcomeDB) Probe(p muehle.Position) (layers.Value, error) {
	v, err := o.under().Probe(p)
	if o.count != nil && err == nil && v != layers.Unused {
		o.count.values[v.Outcome()+1]++
	}
	return v, err
}

func (o outcomeDB) ProbeOutcome(p muehle.Position) (layers.Outcome, error) {
	v, err := o.under().Probe(p)
	if o.count != nil {
		o.count.outcomes++
	}
	return v.Outcome(), err
}

func (o outcomeDB) Header(k layers.Key) (layers.Header, error) { return o.under().Header(k) }

// TestBestAsksDepthsWhereNeeded checks, on a database that gives outcomes
// apart, that a move asks for depths only where the choice needs them: in
// a drawn position none, in a won one only of lost children (the won
// children's depths, which a store keeping one outcome's depth finds by
// a ply of moves, never), in a lost one of the won children.
func TestBestAsksDepthsWhereNeeded(t *testing.T) {
	var c probeCount
	seen := map[layers.Outcome]int{}
	check := func(p *Perfect, ps []muehle.Position, hs [][]muehle.Move) {
		for i, pos := range ps {
			c = probeCount{}
			best, err := p.best(pos, hs[i])
			if err != nil {
				t.Fatal(err)
			}
			o := best[0].Value.Outcome()
			seen[o]++
			n := 0 // the children that are not the end of the game
			for _, m := range pos.Moves() {
				if c := pos.Play(m); !c.IsOver() {
					n++
				}
			}
			switch {
			case o == layers.Draw && c.values != [3]int{}:
				t.Errorf("%s, drawn: got values read %v (lost, drawn, won), want none", pos, c.values)
			case o == layers.Win && (c.values[2] != 0 || c.values[1] != 0 || c.values[0] > n):
				t.Errorf("%s, won: got values read %v (lost, drawn, won), want only lost children's, at most %d", pos, c.values, n)
			case o == layers.Loss && (c.values[0] != 0 || c.values[1] != 0 || c.values[2] != n):
				t.Errorf("%s, lost: got values read %v (lost, drawn, won), want the %d won children's", pos, c.values, n)
			}
		}
	}
	ps, hs := gamePositions(muehle.Standard.Rules(), 9, 4, 240, 120)
	check(NewPerfect(outcomeDB{count: &c}, nil, nil), ps, hs)
	db := retrotest.Solved(t, 3)
	ps, hs = gamePositions(db.Variant().Rules(), 3, 5, 300, 60)
	check(NewPerfect(outcomeDB{db: db, count: &c}, nil, nil), ps, hs)
	if seen[layers.Win] == 0 || seen[layers.Draw] == 0 || seen[layers.Loss] == 0 {
		t.Errorf("got positions by outcome %v, want some of each", seen)
	}
}

// TestLayerByMoveKind checks what sectorLast relies on: in every game, the
// moves of a position that are alike in placing a stone or not and in
// removing one or not lead to the same layer.
func TestLayerByMoveKind(t *testing.T) {
	moves := 0
	for _, r := range muehle.Games {
		ps, _ := gamePositions(r, r.Stones, 6, 300, 3*r.Stones+30)
		for _, pos := range ps {
			moves += len(pos.Moves())
			var keys [4]layers.Key
			var seen [4]bool
			for _, m := range pos.Moves() {
				k := 0
				if m.IsPlacement() {
					k = 2
				}
				if m.IsRemoval() {
					k |= 1
				}
				c := layers.KeyOf(pos.Play(m))
				if seen[k] && keys[k] != c {
					t.Fatalf("%s %s: move %s leads to layer %v, another of its kind to %v", r.Name, pos, pos.Board().MoveString(m), c, keys[k])
				}
				keys[k], seen[k] = c, true
			}
		}
	}
	if want := 300 * len(muehle.Games) * 5; moves < want {
		t.Errorf("got %d moves of %d games, want at least %d", moves, len(muehle.Games), want)
	}
}
