package play

import (
	"strings"
	"testing"
	"time"

	"muehle/retro/search"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		name  string
		want  Spec // the zero Spec: an error
		canon string
	}{
		{"random", Spec{Kind: KindRandom}, "random"},
		{"random:1", Spec{}, ""},
		{"ab:4", Spec{Kind: KindAlphaBeta, Limits: search.Limits{Depth: 4}}, "ab:4"},
		{"ab:auto", Spec{Kind: KindAlphaBeta}, "ab:auto"},
		{"ab:auto:1500ms", Spec{Kind: KindAlphaBeta, Limits: search.Limits{MoveTime: 1500 * time.Millisecond}}, "ab:auto:1.5s"},
		{"ab:auto:soon", Spec{}, ""},
		{"ab:0", Spec{}, ""},
		{"ab:65", Spec{}, ""},
		{"fallible:4:10", Spec{Kind: KindFallible, Limits: search.Limits{Depth: 4}, Percent: 10}, "fallible:4:10"},
		{"fallible:4", Spec{}, ""},
		{"fallible:4:101", Spec{}, ""},
		{"perfect", DefaultPerfect, "perfect"},
		{"perfect:sector", DefaultPerfect, "perfect"},
		{"perfect:sector:4", DefaultPerfect, "perfect"},
		{"perfect:sector:6", Spec{Kind: KindPerfect, Lookahead: 1, Draws: DrawSector, DrawDepth: 6}, "perfect:sector:6"},
		{"perfect:sector:9", Spec{}, ""},
		{"perfect:trap", Spec{Kind: KindPerfect, Lookahead: 1, Draws: DrawTrap}, "perfect:trap"},
		{"perfect:1", Spec{Kind: KindPerfect, Lookahead: 1, Draws: DrawTrap}, "perfect:trap"},
		{"perfect:trap:2", Spec{}, ""},
		{"perfect:0", Spec{Kind: KindPerfect, Draws: DrawTrap}, "perfect:0"},
		{"perfect:3", Spec{Kind: KindPerfect, Lookahead: 3, Draws: DrawTrap}, "perfect:3"},
		{"perfect:4", Spec{}, ""},
		{"perfect:bahnsen", Spec{Kind: KindPerfect, Lookahead: 1, Draws: DrawBahnsen, DrawDepth: 2}, "perfect:bahnsen"},
		{"perfect:bahnsen:3", Spec{Kind: KindPerfect, Lookahead: 1, Draws: DrawBahnsen, DrawDepth: 3}, "perfect:bahnsen:3"},
		{"perfect:bahnsen:0", Spec{}, ""},
		{"perfect:bogus", Spec{}, ""},
		{"level:1", Spec{Kind: KindLevel, Level: 1}, "level:1"},
		{"level:10", Spec{Kind: KindLevel, Level: Levels}, "level:10"},
		{"level:0", Spec{}, ""},
		{"level:11", Spec{}, ""},
		{"ccns", Spec{Kind: KindCCNS}, "ccns"},
		{"ccns:100ms", Spec{Kind: KindCCNS, Limits: search.Limits{MoveTime: 100 * time.Millisecond}}, "ccns:100ms"},
		{"ccns:1000ms", Spec{Kind: KindCCNS, Limits: search.Limits{MoveTime: time.Second}}, "ccns:1s"},
		{"ccns:0s", Spec{}, ""},
		{"ccns:soon", Spec{}, ""},
		{"ccns:", Spec{}, ""},
		{"nobody", Spec{}, ""},
		{"", Spec{}, ""},
	} {
		got, err := ParseSpec(tc.name)
		if tc.want == (Spec{}) {
			if err == nil || !strings.Contains(err.Error(), tc.name) {
				t.Errorf("%q: got %+v, error %v, want an error naming it", tc.name, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v, want %+v", tc.name, got, err, tc.want)
		}
		if s := got.String(); s != tc.canon {
			t.Errorf("%q: got canonical name %q, want %q", tc.name, s, tc.canon)
		}
	}
}

// FuzzParseSpec checks that every name ParseSpec reads has a canonical
// name that reads back as the same Spec, and that the canonical name is
// its own.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"random", "ab:4", "ab:auto", "ab:auto:2s", "fallible:3:25", "perfect", "perfect:sector:2",
		"perfect:trap", "perfect:0", "perfect:bahnsen:4", "level:7", "perfect::5", "ab:auto:-1s", "level:+3", "ccns", "ccns:250ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		sp, err := ParseSpec(name)
		if err != nil {
			if sp != (Spec{}) {
				t.Errorf("%q: got %+v with error %v, want the zero Spec", name, sp, err)
			}
			return
		}
		canon := sp.String()
		back, err := ParseSpec(canon)
		if err != nil || back != sp {
			t.Fatalf("%q: canonical name %q reads as %+v, %v, want %+v", name, canon, back, err, sp)
		}
		if again := back.String(); again != canon {
			t.Errorf("%q: canonical name %q gives %q", name, canon, again)
		}
	})
}

// TestWithMoveTime: the players by time take the new time, whatever they
// had; the others are unchanged.
func TestWithMoveTime(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		timed      bool
	}{
		{"ab:auto", "ab:auto:250ms", true},
		{"ab:auto:3s", "ab:auto:250ms", true},
		{"ccns", "ccns:250ms", true},
		{"ccns:1s", "ccns:250ms", true},
		{"ab:4", "ab:4", false},
		{"fallible:3:10", "fallible:3:10", false},
		{"random", "random", false},
		{"perfect", "perfect", false},
		{"level:5", "level:5", false},
	} {
		sp, err := ParseSpec(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		got, timed := sp.WithMoveTime(250 * time.Millisecond)
		if got.String() != tc.want || timed != tc.timed {
			t.Errorf("%s.WithMoveTime(250ms): got %s, %v, want %s, %v", tc.name, got, timed, tc.want, tc.timed)
		}
	}
}
