package muehle

import (
	"testing"

	"muehle/muehle/testenv"
)

// TestPerft7 checks perft 7 from the empty board of every game against
// docs/rules.md. It is long (skipped with -short).
func TestPerft7(t *testing.T) {
	testenv.Long(t, "perft 7")
	for _, r := range Games {
		checkPerft(t, r.NewPosition(r.Stones), 7, perftGames[r.game][7])
	}
}

// TestPerftGamesNaive checks the naive generator's perft 5 and 6 from the
// empty board of every game against docs/rules.md, the tables the fast
// generator is checked against: the two agree to depth 6. It is long
// (skipped with -short).
func TestPerftGamesNaive(t *testing.T) {
	testenv.Long(t, "naive perft 6")
	for _, r := range Games {
		for d := 5; d <= 6; d++ {
			if got, want := naivePerft(r.NewPosition(r.Stones), d), perftGames[r.game][d]; got != want {
				t.Errorf("%s: naive perft %d: got %d, want %d", r.ID, d, got, want)
			}
		}
	}
}
