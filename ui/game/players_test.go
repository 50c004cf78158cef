package game

import (
	"math/rand/v2"
	"testing"

	"muehle/retro/play"
)

func TestPlayerSpecEncoding(t *testing.T) {
	for _, tc := range []struct {
		spec  PlayerSpec
		enc   string
		label string
	}{
		{PlayerSpec{Kind: Human}, "human", "Human"},
		{PlayerSpec{Kind: RandomPlayer}, "random", "Random"},
		{PlayerSpec{Kind: AlphaBetaPlayer, Depth: 4}, "ab:4", "Alpha-beta (depth 4)"},
		{PlayerSpec{Kind: AlphaBetaPlayer}, "ab:auto", "Alpha-beta (automatic)"},
		{PlayerSpec{Kind: PerfectPlayer}, "perfect", "Perfect"},
		{PlayerSpec{Kind: PerfectPlayer, Variant: PerfectBahnsen}, "perfect:bahnsen", "Perfect (Bahnsen)"},
		{PlayerSpec{Kind: PerfectPlayer, Variant: PerfectTrap}, "perfect:trap", "Perfect (trap share)"},
		{PlayerSpec{Kind: LevelPlayer, Level: 1}, "level:1", "Level 1"},
		{PlayerSpec{Kind: LevelPlayer, Level: 7}, "level:7", "Level 7"},
		{PlayerSpec{Kind: LevelPlayer, Level: play.Levels}, "level:10", "Level 10"},
		{PlayerSpec{Kind: CCNSPlayer}, "ccns", "Conspiracy numbers"},
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
	// The sector variant is the default; earlier versions saved it as
	// "perfect:sector".
	for _, s := range []string{"perfect:sector", "perfect:nonsense"} {
		if got := DecodeSpec(s); got != (PlayerSpec{Kind: PerfectPlayer, Variant: PerfectSector}) {
			t.Errorf("%s: got %+v, want the default perfect player", s, got)
		}
	}
	// Earlier versions wrote alpha-beta as "alphabeta:DEPTH"; players the
	// menus do not offer read as the nearest they do.
	for s, want := range map[string]PlayerSpec{
		"alphabeta:4":       {Kind: AlphaBetaPlayer, Depth: 4},
		"alphabeta:0":       {Kind: AlphaBetaPlayer},
		"alphabeta:x":       {Kind: AlphaBetaPlayer},
		"ab:12":             {Kind: AlphaBetaPlayer},
		"ab:auto:3s":        {Kind: AlphaBetaPlayer},
		"perfect:bahnsen:3": {Kind: PerfectPlayer, Variant: PerfectBahnsen},
		"perfect:2":         {Kind: PerfectPlayer, Variant: PerfectTrap},
		"perfect:sector:6":  {Kind: PerfectPlayer},
		"fallible:4:10":     {Kind: Human},
		"ccns:250ms":        {Kind: CCNSPlayer},
		"nobody":            {Kind: Human},
	} {
		if got := DecodeSpec(s); got != want {
			t.Errorf("%q: got %+v, want %+v", s, got, want)
		}
	}
	for _, bad := range []string{"level", "level:0", "level:11", "level:x"} {
		if got, want := DecodeSpec(bad), (PlayerSpec{Kind: LevelPlayer, Level: 5}); got != want {
			t.Errorf("%q: got %+v, want %+v (the middle level)", bad, got, want)
		}
	}
}

func TestNewPlayerNeedsEngines(t *testing.T) {
	for _, tc := range []struct {
		spec  PlayerSpec
		needs bool
	}{
		{PlayerSpec{Kind: Human}, false},
		{PlayerSpec{Kind: RandomPlayer}, false},
		{PlayerSpec{Kind: AlphaBetaPlayer, Depth: 2}, true},
		{PlayerSpec{Kind: PerfectPlayer}, true},
		{PlayerSpec{Kind: LevelPlayer, Level: 4}, true},
		{PlayerSpec{Kind: CCNSPlayer}, true},
	} {
		if got := tc.spec.NeedsEngines(); got != tc.needs {
			t.Errorf("%v: got NeedsEngines %v, want %v", tc.spec, got, tc.needs)
		}
		_, err := NewPlayer(tc.spec, nil, rand.NewPCG(1, 2))
		if got := err != nil; got != tc.needs {
			t.Errorf("%v without engines: got error %v, want an error: %v", tc.spec, err, tc.needs)
		}
	}
}
