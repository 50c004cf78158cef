package play

import (
	"context"
	"math/rand/v2"
	"testing"

	"muehle/muehle"
	"muehle/retro/playtest"
)

func TestLevelRates(t *testing.T) {
	if got := LevelRate(Levels); got != 0 {
		t.Errorf("LevelRate(%d): got %v, want 0 (the perfect player)", Levels, got)
	}
	for n := 2; n <= Levels; n++ {
		if LevelRate(n) >= LevelRate(n-1) {
			t.Errorf("LevelRate(%d) = %v, LevelRate(%d) = %v: want a smaller rate for the higher level", n, LevelRate(n), n-1, LevelRate(n-1))
		}
	}
	for _, tc := range []struct{ n, as int }{{0, 1}, {-3, 1}, {11, Levels}} {
		if got, want := LevelRate(tc.n), LevelRate(tc.as); got != want {
			t.Errorf("LevelRate(%d): got %v, want %v (level %d)", tc.n, got, want, tc.as)
		}
	}
}

// levelSample returns games at the positions the level tests play from.
func levelSample(t *testing.T) []*muehle.Game {
	var gs []*muehle.Game
	for seed := range uint64(40) {
		for _, p := range playtest.Positions(100+seed, 9, 0, 5, 12, 17, 19, 25, 40, 70) {
			g, err := muehle.NewGameFrom(p, 9)
			if err != nil {
				t.Fatal(err)
			}
			gs = append(gs, g)
		}
	}
	return gs
}

func TestLevelTopIsPerfect(t *testing.T) {
	ctx := context.Background()
	lvl := NewLevel(Levels, NewPerfect(playtest.HashDB{}, nil, nil), rand.NewPCG(1, 2))
	ref := NewPerfect(playtest.HashDB{}, nil, nil)
	gs := levelSample(t)
	for _, g := range gs {
		got, err := lvl.Move(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.Move(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if got != want || lvl.LastErred() {
			t.Fatalf("level %d at %s: got %s (random: %v), want the perfect player's %s", Levels, g.Position(), got, lvl.LastErred(), want)
		}
	}
	if len(gs) < 200 {
		t.Errorf("only %d positions", len(gs))
	}
}

// TestLevelErrorRate checks that a level plays a move other than the
// perfect player's about as often as p(n) says: a random move differs from
// it with probability 1 − 1/(legal moves), so the expected count is the
// sum of p·(1 − 1/n) over the positions. The bound, 5 % of the moves, is
// about five standard deviations: a level that ignored p (never or always
// random) fails it by far.
func TestLevelErrorRate(t *testing.T) {
	ctx := context.Background()
	gs := levelSample(t)
	for _, n := range []int{1, 3, 6} {
		p := LevelRate(n)
		lvl := NewLevel(n, NewPerfect(playtest.HashDB{}, nil, nil), rand.NewPCG(uint64(n), 7))
		ref := NewPerfect(playtest.HashDB{}, nil, nil)
		other, erred, want, moves := 0, 0, 0.0, 0
		for range 3 {
			for _, g := range gs {
				got, err := lvl.Move(ctx, g)
				if err != nil {
					t.Fatal(err)
				}
				best, err := ref.Move(ctx, g)
				if err != nil {
					t.Fatal(err)
				}
				moves++
				if got != best {
					other++
				}
				if lvl.LastErred() {
					erred++
				}
				want += p * (1 - 1/float64(len(g.LegalMoves())))
			}
		}
		if d := float64(other) - want; d > 0.05*float64(moves) || d < -0.05*float64(moves) {
			t.Errorf("level %d (p = %v): got %d of %d moves other than the perfect player's, want about %.0f", n, p, other, moves, want)
		}
		if d := float64(erred) - p*float64(moves); d > 0.05*float64(moves) || d < -0.05*float64(moves) {
			t.Errorf("level %d (p = %v): got %d of %d random moves, want about %.0f", n, p, erred, moves, p*float64(moves))
		}
	}
}

func TestLevelFallback(t *testing.T) {
	ctx := context.Background()
	// The fake lacks the layers where the side to move has 3 stones on
	// the board: the position after 6 placements of 9 has them.
	p := playtest.Positions(5, 9, 6)[0]
	g, err := muehle.NewGameFrom(p, 9)
	if err != nil {
		t.Fatal(err)
	}
	for _, rate := range []float64{0, 1} {
		lvl := NewLevelRate(1, rate, NewPerfect(playtest.HashDB{Missing: 3}, nil, firstMove{}), rand.NewPCG(3, 4))
		m, err := lvl.Move(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		fellBack := rate == 0 // a random move is not the fallback's
		if lvl.LastFellBack() != fellBack || (lvl.FallbackReason() != "") != fellBack {
			t.Errorf("rate %v: got move %s, LastFellBack %v, reason %q; want fell back %v", rate, m, lvl.LastFellBack(), lvl.FallbackReason(), fellBack)
		}
		if fellBack && m != g.LegalMoves()[0] {
			t.Errorf("rate %v: got %s, want the fallback's %s", rate, m, g.LegalMoves()[0])
		}
	}
}
