package muehle

import (
	"testing"
)

// perftStart holds the perft counts of docs/rules.md from the empty board.
var perftStart = []uint64{1, 24, 552, 12144, 255024, 5140800, 99274176, 1873562112}

// perftGames holds the perft counts of docs/rules.md from the empty board
// of every game with its full number of stones, depths 0 to 7.
var perftGames = map[GameID][]uint64{
	Standard: perftStart,
	Twelve:   {1, 24, 552, 12144, 255024, 5150880, 99862272, 1905799824},
	Lasker:   {1, 24, 552, 13552, 319176, 7911352, 188926776, 4733227328},
	Six:      {1, 16, 240, 3360, 43680, 531648, 6024960, 65614176},
	// The games of the family: the placement phase from the empty board
	// (Five and Six Men's Morris part only after depth 7, flying later).
	Three:      {1, 9, 72, 504, 3024, 16560, 65376, 239616},
	ThreePlain: {1, 9, 72, 504, 3024, 16200, 63936, 173664},
	Five:       {1, 16, 240, 3360, 43680, 531648, 6024960, 65614176},
	FiveFlying: {1, 16, 240, 3360, 43680, 531648, 6024960, 65614176},
	SixFlying:  {1, 16, 240, 3360, 43680, 531648, 6024960, 65614176},
	Ten:        perftStart,
	Eleven:     {1, 24, 552, 12144, 255024, 5150880, 99862272, 1905799824},
}

// TestPerftGames checks perft from the empty board of every game against
// docs/rules.md: the fast generator to depth 6 (4 with the race detector),
// the naive one to depth 4. Depths 5 and 6 of the naive generator are in
// perft_long_test.go, depth 7 of the fast one too.
func TestPerftGames(t *testing.T) {
	maxDepth := 6
	if raceEnabled {
		maxDepth = 4
	}
	for _, r := range Games {
		start := r.NewPosition(r.Stones)
		for d := 1; d <= maxDepth; d++ {
			checkPerft(t, start, d, perftGames[r.game][d])
		}
		for d := 1; d <= 4; d++ {
			if got, want := naivePerft(start, d), perftGames[r.game][d]; got != want {
				t.Errorf("%s: naive perft %d: got %d, want %d", r.ID, d, got, want)
			}
		}
	}
}

// TestPerft checks perft from the empty board against docs/rules.md: depths 1
// to 5 always, 6 without the race detector. Depth 7 is in perft_long_test.go
// (long, skipped with -short).
func TestPerft(t *testing.T) {
	maxDepth := 6
	if raceEnabled {
		maxDepth = 5
	}
	for d := 1; d <= maxDepth; d++ {
		checkPerft(t, NewPosition(StonesPerSide), d, perftStart[d])
	}
}

// checkPerft compares Perft with want and, on a mismatch, lists the count
// below each first move next to the naive generator's, so that the
// position where they part can be found.
func checkPerft(t *testing.T, p Position, depth int, want uint64) {
	t.Helper()
	got := Perft(p, depth)
	if got == want {
		return
	}
	t.Errorf("perft %d of %s: got %d, want %d", depth, p, got, want)
	if depth > 4 {
		return // the naive divide would take too long; run a smaller depth
	}
	for _, m := range naiveMoves(p) {
		c := p.Play(m)
		if g, w := Perft(c, depth-1), naivePerft(naivePlay(p, m), depth-1); g != w {
			t.Errorf("  after %s (%s): got %d, naive %d", m, c, g, w)
		}
	}
}

// TestPerftAgainstNaive compares Perft with the naive generator's perft
// from positions of all phases of every game.
func TestPerftAgainstNaive(t *testing.T) {
	for _, r := range testGames() {
		ps := gameTestPositions(t, r, sampleSize(r, 2000))
		for i := 0; i < len(ps); i += 20 {
			checkPerft(t, ps[i], 3, naivePerft(ps[i], 3))
		}
	}
}

// TestNaivePerft checks the naive generator itself against docs/rules.md, so
// that the differential tests compare with something known to be right.
func TestNaivePerft(t *testing.T) {
	for d := 1; d <= 3; d++ {
		if got := naivePerft(NewPosition(StonesPerSide), d); got != perftStart[d] {
			t.Errorf("naive perft %d: got %d, want %d", d, got, perftStart[d])
		}
	}
}

// TestPerftSymmetric checks that perft is the same for the images of
// positions of every game under its board's symmetries, and for the colour
// swap.
func TestPerftSymmetric(t *testing.T) {
	var ps []Position
	for _, r := range testGames() {
		ps = append(ps, gameTestPositions(t, r, 400)...)
	}
	for i := 0; i < len(ps); i += 10 {
		want := Perft(ps[i], 3)
		for s := range Symmetry(ps[i].Board().NumSymmetries()) {
			if got := Perft(s.Position(ps[i]), 3); got != want {
				t.Fatalf("perft 3 of %v of %s: got %d, want %d", s, ps[i], got, want)
			}
		}
		if got := Perft(ps[i].SwapColors(), 3); got != want {
			t.Fatalf("perft 3 of the colour swap of %s: got %d, want %d", ps[i], got, want)
		}
	}
}
