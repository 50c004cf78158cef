package uci

import (
	"strings"
	"testing"
)

// FuzzCommands feeds the engine command lines of any text (positions,
// mill FENs, moves, options) and checks that it neither panics nor stops
// answering: after each line, isready still gets readyok. go is left out
// (it thinks in a goroutine, against a database).
func FuzzCommands(f *testing.F) {
	for _, s := range []string{
		"position startpos moves d6 d2 f6",
		"position startpos moves d6 d6",
		"position fen WW.BB....W.............B w 0 0 moves a4-g7 xb6",
		"position fen ********/@******@/O**@**OO w m s 3 0 3 0 0 0 12",
		"position fen ********/********/******** w p p 0 3 0 3 0 0 1 moves d6",
		"position fen X*******/********/******** w p r 0 3 0 3 1",
		"position fen ........................ w 3 3 twelve",
		"setoption name Game value lasker",
		"setoption name Stones value -1",
		"setoption name Player value ab:999",
		"setoption name MultiPV value 0",
		"setoption value",
		"d",
		"ucinewgame",
		"position",
		"position fen",
		"position fen / / w",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.HasPrefix(strings.TrimSpace(line), "go") || strings.Contains(line, "\n") {
			return
		}
		var out strings.Builder
		e := New(&out, Options{DB: t.TempDir(), Game: "standard", Stones: 3})
		defer e.Close()
		e.Do(line)
		e.Do("position startpos")
		out.Reset()
		e.Do("isready")
		if !strings.HasSuffix(out.String(), "readyok\n") {
			t.Fatalf("after %q, isready answered %q", line, out.String())
		}
	})
}
