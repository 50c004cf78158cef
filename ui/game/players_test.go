package game

import "testing"

func TestPlayerSpecEncoding(t *testing.T) {
	for _, tc := range []struct {
		spec  PlayerSpec
		enc   string
		label string
	}{
		{PlayerSpec{Kind: Human}, "human", "Human"},
		{PlayerSpec{Kind: RandomPlayer}, "random", "Random"},
		{PlayerSpec{Kind: AlphaBetaPlayer, Depth: 4}, "alphabeta:4", "Alpha-beta (depth 4)"},
		{PlayerSpec{Kind: PerfectPlayer}, "perfect", "Perfect"},
		{PlayerSpec{Kind: PerfectPlayer, Variant: PerfectBahnsen}, "perfect:bahnsen", "Perfect (Bahnsen)"},
		{PlayerSpec{Kind: PerfectPlayer, Variant: PerfectSector}, "perfect:sector", "Perfect (sector)"},
	} {
		if got := tc.spec.Encode(); got != tc.enc {
			t.Errorf("%+v: got encoding %q, want %q", tc.spec, got, tc.enc)
		}
		if got := DecodeSpec(tc.enc); got != tc.spec {
			t.Errorf("%q: got %+v, want %+v", tc.enc, got, tc.spec)
		}
		if got := tc.spec.String(); got != tc.label {
			t.Errorf("%+v: got label %q, want %q", tc.spec, got, tc.label)
		}
	}
	if got := DecodeSpec("perfect:nonsense"); got != (PlayerSpec{Kind: PerfectPlayer}) {
		t.Errorf("perfect:nonsense: got %+v, want the plain perfect player", got)
	}
}
