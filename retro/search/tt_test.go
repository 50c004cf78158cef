package search

import (
	"testing"

	"muehle/muehle"
)

func TestTTStoreProbe(t *testing.T) {
	tt := newTT(10)
	m := muehle.Slide(3, 4).WithRemoval(9)
	tt.store(0x1234_0005, 6, -17, ttLower, m)
	e, ok := tt.probe(0x1234_0005)
	if !ok {
		t.Fatal("stored entry not found")
	}
	if e.ttMove() != m || e.score != -17 || e.depth != 6 || e.bound != ttLower {
		t.Errorf("got move %v score %d depth %d bound %d, want %v -17 6 %d", e.ttMove(), e.score, e.depth, e.bound, m, ttLower)
	}
	if _, ok := tt.probe(0x9999_0005); ok {
		t.Error("a different key with the same slot was found")
	}
	// A shallower search of another position does not replace a deeper one
	// of the same generation, but does after newSearch.
	tt.store(0x9999_0005, 2, 5, ttExact, muehle.NoMove)
	if _, ok := tt.probe(0x1234_0005); !ok {
		t.Error("deeper entry replaced by a shallower one")
	}
	tt.newSearch()
	tt.store(0x9999_0005, 2, 5, ttExact, muehle.NoMove)
	if _, ok := tt.probe(0x9999_0005); !ok {
		t.Error("old entry not replaced in a new search")
	}
}

func TestTTScoreAdjust(t *testing.T) {
	for _, tc := range []struct{ score, ply int32 }{{winScore - 7, 3}, {-winScore + 9, 5}, {123, 4}, {0, 0}, {-winBound, 2}} {
		stored := ttScoreToTable(tc.score, int(tc.ply))
		// Read back two plies deeper: a win is two plies further away.
		if got, want := ttScoreFromTable(stored, int(tc.ply)+2), tc.score; tc.score > -winBound && tc.score < winBound && got != want {
			t.Errorf("score %d: got %d, want %d", tc.score, got, want)
		}
		if got := ttScoreFromTable(stored, int(tc.ply)); got != tc.score {
			t.Errorf("round trip of %d at ply %d: got %d", tc.score, tc.ply, got)
		}
	}
	if got, want := ttScoreFromTable(ttScoreToTable(winScore-7, 3), 5), int32(winScore-9); got != want {
		t.Errorf("win moved two plies: got %d, want %d", got, want)
	}
}
