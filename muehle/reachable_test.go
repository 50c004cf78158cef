package muehle

import (
	"errors"
	"testing"
)

// TestCheckReachableAcceptsGames checks that CheckReachable never refuses
// a position a game reaches: every position of 20,000 random playouts of
// each game with 3 stones up to its number, terminal and blocked ones
// included.
func TestCheckReachableAcceptsGames(t *testing.T) {
	for _, r := range testGames() {
		ps, ks := gamePlayouts(r, 28, 20000)
		for i, p := range ps {
			if err := p.CheckReachable(ks[i]); err != nil {
				t.Fatalf("CheckReachable(%d) of %s, reached in a game: got %v, want nil", ks[i], p, err)
			}
		}
	}
}

// TestCheckReachableAcceptsPlacement checks every position of the first
// six plies (the placement phase of three stones a side) of every game with
// three stones a side, found by a breadth-first search from the empty
// board: none is refused.
func TestCheckReachableAcceptsPlacement(t *testing.T) {
	const k = 3
	for _, r := range Games {
		if sampleSize(r, 4) < 4 {
			continue // under the race detector only the standard game
		}
		ply := map[Position]bool{r.NewPosition(k): true}
		var n int
		for d := 0; d < 2*k; d++ {
			next := map[Position]bool{}
			for p := range ply {
				n++
				if err := p.CheckReachable(k); err != nil {
					t.Fatalf("CheckReachable(%d) of %s, reached after %d plies: got %v, want nil", k, p, d, err)
				}
				if d == 2*k-1 || p.IsOver() {
					continue
				}
				for _, m := range p.Moves() {
					next[p.Play(m)] = true
				}
			}
			ply = next
		}
		t.Logf("%s: %d positions", r.ID, n)
		if min := 100000; r.Board.NumPoints() == NumPoints && n < min {
			t.Fatalf("%s: checked %d positions, want the first six plies (more than %d)", r.ID, n, min)
		}
	}
}

// TestCheckReachableRefuses lists positions that pass Validate but that no
// game reaches, each with the reason CheckReachable must find (issue 28).
func TestCheckReachableRefuses(t *testing.T) {
	for _, tc := range []struct {
		k    int
		text string
	}{
		// White has placed one stone and lost it; Black has placed one.
		{4, "........................ w 3 3"},
		{9, "........................ w 8 8"},
		// Black has placed two stones and removed a white one.
		{9, "W......B................ w 7 7"},
		// White, to move with two stones, has lost; Black has no mill.
		{4, "WW......BBB............. w 0 0"},
		{3, "WW......BBB............. w 0 0"},
		// Black's stones are in a mill, but all three were needed to
		// remove a stone and White has lost two in the placement phase.
		{4, "W..BBB.................. w 1 1"},
		// Moving phase: Black has just moved, but every black stone is
		// in a mill that it must have closed, and so removed a white
		// stone, yet White has all nine.
		{9, "BBBBBBBBB.WWWWWWWWW..... w 0 0"},
	} {
		p, err := ParsePosition(tc.text)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(tc.k); err != nil {
			t.Fatalf("Validate(%d) of %s: got %v, want nil (the case must pass Validate)", tc.k, tc.text, err)
		}
		if err := p.CheckReachable(tc.k); !errors.Is(err, ErrUnreachable) {
			t.Errorf("CheckReachable(%d) of %s: got %v, want an error wrapping ErrUnreachable", tc.k, tc.text, err)
		} else {
			t.Logf("%s (k=%d): %s", tc.text, tc.k, Reason(err))
		}
	}
}

// FuzzCheckReachable checks CheckReachable on arbitrary positions: it never
// panics, its errors wrap ErrPosition or ErrUnreachable, it accepts only
// positions Validate accepts, and every child of an accepted position is
// accepted too (a game from a reachable position stays reachable).
func FuzzCheckReachable(f *testing.F) {
	f.Add(uint32(0), uint32(0), uint8(3), uint8(3), uint8(0), uint8(4), uint8(0))
	f.Add(uint32(0b11), uint32(0b11100000000), uint8(0), uint8(0), uint8(0), uint8(4), uint8(0))
	f.Add(uint32(0b111), uint32(0b111000), uint8(0), uint8(0), uint8(1), uint8(3), uint8(0))
	f.Add(uint32(1), uint32(0), uint8(8), uint8(9), uint8(1), uint8(9), uint8(0))
	f.Add(uint32(0b111), uint32(0b111000), uint8(0), uint8(0), uint8(1), uint8(3), uint8(Twelve))
	f.Add(uint32(1), uint32(1<<7), uint8(9), uint8(8), uint8(1), uint8(10), uint8(Lasker))
	f.Add(uint32(7), uint32(1<<8), uint8(3), uint8(5), uint8(1), uint8(6), uint8(Six))
	f.Fuzz(func(t *testing.T, w, b uint32, hw, hb, turn, k, game uint8) {
		p := Position{Stones: [2]Bitboard{Bitboard(w), Bitboard(b)}, Hand: [2]uint8{hw, hb}, Turn: Color(turn), Game: GameID(game)}
		err := p.CheckReachable(int(k))
		if err != nil {
			if !errors.Is(err, ErrPosition) && !errors.Is(err, ErrUnreachable) {
				t.Fatalf("CheckReachable(%d) of %+v: error %v wraps neither ErrPosition nor ErrUnreachable", k, p, err)
			}
			return
		}
		if verr := p.Validate(int(k)); verr != nil {
			t.Fatalf("CheckReachable(%d) accepts %s, which Validate refuses: %v", k, p, verr)
		}
		if p.IsOver() {
			return
		}
		for _, m := range p.Moves() {
			if c := p.Play(m); c.CheckReachable(int(k)) != nil {
				t.Fatalf("CheckReachable(%d) accepts %s but not its child %s after %s: %v", k, p, c, m, c.CheckReachable(int(k)))
			}
		}
	})
}
