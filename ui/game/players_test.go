package game

import (
	"math/rand/v2"
	"testing"

	"muehle/retro/play"
	"muehle/retro/search"
)

func TestSpecEncoding(t *testing.T) {
	perfect := func(d play.DrawRule) play.Spec {
		for _, o := range play.Offered() {
			if o.Kind == play.KindPerfect && o.Draws == d {
				return o
			}
		}
		t.Fatalf("no offered perfect player with draw rule %s", d)
		return play.Spec{}
	}
	ab := func(d int) play.Spec { return play.Spec{Kind: play.KindAlphaBeta, Limits: search.Limits{Depth: d}} }
	level := func(n int) play.Spec { return play.Spec{Kind: play.KindLevel, Level: n} }
	ccns := play.Spec{Kind: play.KindCCNS}
	for _, tc := range []struct {
		spec  play.Spec
		enc   string
		label string
	}{
		{Human, "human", "Human"},
		{play.Spec{Kind: play.KindRandom}, "random", "Random"},
		{ab(4), "ab:4", "Alpha-beta (depth 4)"},
		{ab(0), "ab:auto", "Alpha-beta (automatic)"},
		{play.DefaultPerfect, "perfect", "Perfect"},
		{perfect(play.DrawBahnsen), "perfect:bahnsen", "Perfect (Bahnsen)"},
		{perfect(play.DrawTrap), "perfect:trap", "Perfect (trap share)"},
		{level(1), "level:1", "Level 1"},
		{level(7), "level:7", "Level 7"},
		{level(play.Levels), "level:10", "Level 10"},
		{ccns, "ccns", "Conspiracy numbers"},
	} {
		if got := Encode(tc.spec); got != tc.enc {
			t.Errorf("%+v: got encoding %q, want %q", tc.spec, got, tc.enc)
		}
		if got := DecodeSpec(tc.enc); got != tc.spec {
			t.Errorf("%q: got %+v, want %+v", tc.enc, got, tc.spec)
		}
		if got := Title(tc.spec); got != tc.label {
			t.Errorf("%+v: got label %q, want %q", tc.spec, got, tc.label)
		}
	}
	// Every offered player reads back as itself.
	for _, o := range play.Offered() {
		if got := DecodeSpec(Encode(o)); got != o {
			t.Errorf("%s: got %+v back, want %+v", o, got, o)
		}
	}
	// The sector variant is the default; earlier versions saved it as
	// "perfect:sector".
	for _, s := range []string{"perfect:sector", "perfect:nonsense"} {
		if got := DecodeSpec(s); got != play.DefaultPerfect {
			t.Errorf("%s: got %+v, want the default perfect player", s, got)
		}
	}
	// Earlier versions wrote alpha-beta as "alphabeta:DEPTH"; players the
	// menus do not offer read as the nearest they do.
	for s, want := range map[string]play.Spec{
		"alphabeta:4":       ab(4),
		"alphabeta:0":       ab(0),
		"alphabeta:x":       ab(0),
		"ab:12":             ab(0),
		"ab:auto:3s":        ab(0),
		"perfect:bahnsen:3": perfect(play.DrawBahnsen),
		"perfect:2":         perfect(play.DrawTrap),
		"perfect:sector:6":  play.DefaultPerfect,
		"fallible:4:10":     Human,
		"ccns:250ms":        ccns,
		"nobody":            Human,
	} {
		if got := DecodeSpec(s); got != want {
			t.Errorf("%q: got %+v, want %+v", s, got, want)
		}
	}
	for _, bad := range []string{"level", "level:0", "level:11", "level:x"} {
		if got, want := DecodeSpec(bad), level(5); got != want {
			t.Errorf("%q: got %+v, want %+v (the middle level)", bad, got, want)
		}
	}
}

func TestNewPlayerNeedsEngines(t *testing.T) {
	for _, tc := range []struct {
		spec  play.Spec
		needs bool
	}{
		{Human, false},
		{play.Spec{Kind: play.KindRandom}, false},
		{play.Spec{Kind: play.KindAlphaBeta, Limits: search.Limits{Depth: 2}}, true},
		{play.DefaultPerfect, true},
		{play.Spec{Kind: play.KindLevel, Level: 4}, true},
		{play.Spec{Kind: play.KindCCNS}, true},
	} {
		if got := NeedsEngines(tc.spec); got != tc.needs {
			t.Errorf("%v: got NeedsEngines %v, want %v", tc.spec, got, tc.needs)
		}
		_, err := NewPlayer(tc.spec, nil, rand.NewPCG(1, 2))
		if got := err != nil; got != tc.needs {
			t.Errorf("%v without engines: got error %v, want an error: %v", tc.spec, err, tc.needs)
		}
	}
}
