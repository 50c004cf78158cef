package play

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/playtest"
)

// wantShare is the share of replies that give up value, from the counts.
func wantShare(mv MoveValue) float64 {
	n := mv.Replies[0] + mv.Replies[1] + mv.Replies[2]
	switch {
	case n == 0:
		return 0
	case mv.Value.Outcome() == layers.Draw:
		return float64(mv.Replies[2]) / float64(n)
	case mv.Value.Outcome() == layers.Loss:
		return float64(mv.Replies[1]+mv.Replies[2]) / float64(n)
	}
	return 0
}

func TestPerfectEvaluate(t *testing.T) {
	db := playtest.HashDB{}
	pl := NewPerfect(db, nil, nil)
	ps := playtest.Positions(11, 9, 0, 7, 16, 17, 30, 60, 100)
	ps = append(ps, playtest.Positions(12, 4, 20, 40)...)
	checked := 0
	defer func() {
		if checked < 100 {
			t.Errorf("only %d moves checked", checked)
		}
	}()
	for _, p := range ps {
		mvs, err := pl.Evaluate(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		legal := p.Moves()
		if len(mvs) != len(legal) {
			t.Fatalf("%s: got %d moves, want %d", p, len(mvs), len(legal))
		}
		seen := map[muehle.Move]bool{}
		for i, mv := range mvs {
			if seen[mv.Move] || !p.IsLegal(mv.Move) {
				t.Fatalf("%s: move %s listed twice or illegal", p, mv.Move)
			}
			seen[mv.Move] = true
			checked++
			c := p.Play(mv.Move)
			if want := playtest.Value(t, db, c).Parent(); mv.Value != want {
				t.Errorf("%s %s: got value %s, want %s", p, mv.Move, mv.Value, want)
			}
			var want [3]int
			if !c.IsOver() {
				for _, r := range c.Moves() {
					switch playtest.Value(t, db, c.Play(r)).Parent().Outcome() {
					case layers.Win:
						want[0]++
					case layers.Draw:
						want[1]++
					default:
						want[2]++
					}
				}
			}
			if mv.Replies != want {
				t.Errorf("%s %s: got replies %v, want %v", p, mv.Move, mv.Replies, want)
			}
			if s := wantShare(mv); mv.Score != s {
				t.Errorf("%s %s: got score %v, want the share %v", p, mv.Move, mv.Score, s)
			}
			if i > 0 {
				prev := mvs[i-1]
				if mv.Value.Better(prev.Value) || (mv.Value == prev.Value && wantShare(mv) > wantShare(prev)) {
					t.Errorf("%s: %s (%s, share %.3f) after %s (%s, share %.3f)", p,
						mv.Move, mv.Value, wantShare(mv), prev.Move, prev.Value, wantShare(prev))
				}
			}
		}
	}
}

func TestPerfectMove(t *testing.T) {
	db := playtest.HashDB{}
	ps := playtest.Positions(13, 9, 3, 12, 20, 33, 50, 80)
	for _, look := range []int{1, 2} {
		for seed := range uint64(4) {
			pl := NewPerfect(db, rand.NewPCG(seed, 9), nil)
			pl.Lookahead = look
			for _, p := range ps {
				g, err := muehle.NewGameFrom(p, 9)
				if err != nil {
					t.Fatal(err)
				}
				m, err := pl.Move(context.Background(), g)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				best := layers.Unused
				for _, l := range p.Moves() {
					if v := playtest.Value(t, db, p.Play(l)).Parent(); v.Better(best) {
						best = v
					}
				}
				got := playtest.Value(t, db, p.Play(m)).Parent()
				if got != best {
					t.Errorf("%s lookahead %d: played %s of value %s, want value %s", p, look, m, got, best)
				}
				if look == 1 {
					// The share of the played move is the largest of its value.
					mvs, _ := pl.Evaluate(p)
					top, mine := 0.0, -1.0
					for _, mv := range mvs {
						if mv.Value == best {
							top = max(top, wantShare(mv))
						}
						if mv.Move == m {
							mine = wantShare(mv)
						}
					}
					if mine != top {
						t.Errorf("%s: played %s with share %.3f, want the largest %.3f", p, m, mine, top)
					}
				}
				if pl.LastFellBack() {
					t.Errorf("%s: fell back with a complete database", p)
				}
			}
		}
	}
}

// fixedPlayer plays the first legal move and counts its calls.
type fixedPlayer struct{ calls int }

func (f *fixedPlayer) Name() string { return "first move" }
func (f *fixedPlayer) Move(ctx context.Context, g *muehle.Game) (muehle.Move, error) {
	f.calls++
	return g.LegalMoves()[0], nil
}

func TestPerfectFallback(t *testing.T) {
	// Every child of this placement position has Black to move with 6
	// stones on the board: a database missing the layers where the side to
	// move has 6 stones on the board cannot answer.
	p := playtest.Position(t, "WWB.W.B...WB..WB..BW.B.. w 3 3")
	g, err := muehle.NewGameFrom(p, 9)
	if err != nil {
		t.Fatal(err)
	}
	miss := playtest.HashDB{Missing: p.Stones[muehle.Black].Count()}
	if _, err := NewPerfect(miss, nil, nil).Evaluate(p); !errors.Is(err, layers.ErrMissing) {
		t.Fatalf("Evaluate: got error %v, want one wrapping layers.ErrMissing", err)
	}
	fb := &fixedPlayer{}
	pl := NewPerfect(miss, nil, fb)
	m, err := pl.Move(context.Background(), g)
	if err != nil || m != g.LegalMoves()[0] || fb.calls != 1 || !pl.LastFellBack() {
		t.Errorf("with a missing layer: got move %s error %v fallback calls %d fell back %v, want the fallback's move", m, err, fb.calls, pl.LastFellBack())
	}
	if _, err := NewPerfect(miss, nil, nil).Move(context.Background(), g); !errors.Is(err, layers.ErrMissing) {
		t.Errorf("without fallback: got error %v, want one wrapping layers.ErrMissing", err)
	}
	pl.db = playtest.HashDB{}
	if _, err := pl.Move(context.Background(), g); err != nil || pl.LastFellBack() {
		t.Errorf("with the layer present: got error %v fell back %v, want neither", err, pl.LastFellBack())
	}
}

func TestBestCount(t *testing.T) {
	d, w := layers.Drawn, layers.WinIn(3)
	for _, tc := range []struct {
		mvs  []MoveValue
		want int
	}{
		{nil, 0},
		{[]MoveValue{{Value: d, Score: 0.5}}, 1},
		{[]MoveValue{{Value: d, Score: 0.5}, {Value: d, Score: 0.5}, {Value: d, Score: 0.25}}, 2},
		{[]MoveValue{{Value: d, Score: 0.5}, {Value: d, Score: 0.25}, {Value: d, Score: 0.25}}, 1},
		{[]MoveValue{{Value: w}, {Value: w}, {Value: w}}, 3},
		{[]MoveValue{{Value: w}, {Value: layers.WinIn(5)}}, 1},
		{[]MoveValue{{Value: w}, {Value: d}}, 1},
	} {
		if got := BestCount(tc.mvs); got != tc.want {
			t.Errorf("BestCount(%v): got %d, want %d", tc.mvs, got, tc.want)
		}
	}
}

// headedDB is hashDB with layer headers: layer k's shares of won and lost
// positions are a fixed function of its stones and hands. Its positions
// with an even number of stones in hand are never lost, so that the
// positions before them, with an odd number, are often drawn.
type headedDB struct{ playtest.HashDB }

func (h headedDB) Probe(p muehle.Position) (layers.Value, error) {
	v, err := h.HashDB.Probe(p)
	if err == nil && v.Outcome() == layers.Loss && (p.Hand[0]+p.Hand[1])%2 == 0 {
		v = layers.Drawn
	}
	return v, err
}

func (headedDB) Header(k layers.Key) (layers.Header, error) {
	return layers.Header{Key: k, Won: uint64(k.W) + 2*uint64(k.WH), Lost: uint64(k.B) + uint64(k.BH), Drawn: 5}, nil
}

// TestPerfectDefaultDraws checks the default draw rule: the sector
// variant when the database gives layer headers, scoring the drawing moves
// of a drawn position by SectorScore, and the trap share without headers.
func TestPerfectDefaultDraws(t *testing.T) {
	if p := NewPerfect(playtest.HashDB{}, nil, nil); p.Draws != DrawTrap || p.Lookahead != 1 {
		t.Errorf("without layer headers: got rule %s, lookahead %d, want trap, 1", p.Draws, p.Lookahead)
	}
	db := headedDB{}
	pl := NewPerfect(db, nil, nil)
	if pl.Draws != DrawSector || pl.DrawDepth != SectorPlies || pl.Lookahead != 1 {
		t.Fatalf("with layer headers: got rule %s, depth %d, lookahead %d, want sector, %d, 1", pl.Draws, pl.DrawDepth, pl.Lookahead, SectorPlies)
	}
	rng := rand.New(rand.NewPCG(5, 8))
	drawn, other := 0, 0
	for game := 0; game < 6; game++ {
		g := muehle.NewGame(3)
		for ply := 0; ply < 12; ply++ {
			if r, _ := g.Result(); r != muehle.Ongoing {
				break
			}
			pos := g.Position()
			mvs, err := pl.Evaluate(pos)
			if err != nil {
				t.Fatal(err)
			}
			isDrawn := mvs[0].Value.Outcome() == layers.Draw
			for _, mv := range mvs {
				want := wantShare(mv)
				if isDrawn && mv.Value.Outcome() == layers.Draw {
					if want, err = pl.SectorScore(pos, mv.Move, SectorPlies); err != nil {
						t.Fatal(err)
					}
				}
				if mv.Score != want {
					t.Fatalf("%s (drawn: %v), move %s of value %s: got score %v, want %v", pos, isDrawn, mv.Move, mv.Value, mv.Score, want)
				}
			}
			if isDrawn {
				drawn++
			} else {
				other++
			}
			if err := g.Play(mvs[rng.IntN(len(mvs))].Move); err != nil {
				t.Fatal(err)
			}
		}
	}
	if drawn == 0 || other == 0 {
		t.Errorf("got %d drawn and %d other positions, want some of each", drawn, other)
	}
}
