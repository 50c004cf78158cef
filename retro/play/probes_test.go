package play

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// The probes a perfect move costs, counted by kind on a real database
// (TestProbeCounts): the player before (28d974c, refRank) and now (best).

// probeKinds name what a probe is for, by the player's function that
// asked for it.
var probeKinds = map[string]string{
	"refRank": "moves", "best": "moves", "evaluate": "moves",
	"refReplies": "replies", "countReplies": "replies",
	"refSectorAfter": "sector", "sectorAfter": "sector",
	"trapAhead": "lookahead", "lossSector": "bahnsen", "bahnsenG": "bahnsen", "bahnsenBest": "bahnsen",
}

// tally is the probes of one move.
type tally struct {
	kinds    map[string]int
	values   int // probes of the value with the depth
	outcomes int // probes of the outcome alone
	wonValue int // value probes of won positions
	// plyMore is the probes a won position's depth would add in a store
	// that keeps lost positions' depths only and finds a won one's by a
	// ply of moves: one per move of each won position whose value is
	// read (an outcome probe, or a probe through Probe of a store without
	// ProbeOutcome, reads the depth too: those are counted by the caller).
	plyMore  int
	distinct map[muehle.Position]bool
}

// countingDB counts the probes of a player reading db through Probe
// (and Header) alone, even should *layers.DB give outcomes apart.
type countingDB struct {
	db *layers.DB
	t  *tally
}

func (c countingDB) Header(k layers.Key) (layers.Header, error) { return c.db.Header(k) }

func (c countingDB) count(p muehle.Position, v layers.Value, value bool) {
	t := c.t
	var pcs [24]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs[:])])
	kind := "other"
	for {
		f, more := frames.Next()
		name := f.Function[strings.LastIndex(f.Function, ".")+1:]
		if k, ok := probeKinds[name]; ok {
			kind = k
			break
		}
		if !more {
			break
		}
	}
	t.kinds[kind]++
	t.distinct[p] = true
	if !value {
		t.outcomes++
		return
	}
	t.values++
	if v.Outcome() == layers.Win {
		t.wonValue++
		t.plyMore += len(p.Moves())
	}
}

func (c countingDB) Probe(p muehle.Position) (layers.Value, error) {
	v, err := c.db.Probe(p)
	c.count(p, v, true)
	return v, err
}

// outcomeCountingDB is countingDB that gives outcomes apart, as a store
// keeping one outcome's depth would.
type outcomeCountingDB struct{ countingDB }

func (c outcomeCountingDB) ProbeOutcome(p muehle.Position) (layers.Outcome, error) {
	v, err := c.db.Probe(p)
	c.count(p, v, false)
	return v.Outcome(), err
}

// TestProbeCounts counts the probes of the default perfect player's move
// by kind on the positions BenchmarkPerfectMove times (the folder
// MUEHLE_BENCH_DB; skipped without it): before (28d974c), now through
// Probe alone, and now with outcomes apart; with the probes a store
// keeping won positions without their depth would add (a ply: a probe
// per move of each won position whose depth is read); and those of
// Evaluate (every move with its replies and score: what the window, query
// and the server show; before, it cost what the move did). It checks that
// the moves chosen are the same and logs the table of docs/engine.md.
func TestProbeCounts(t *testing.T) {
	db, stones, phases := benchDB(t)
	for ph, name := range []string{"moving", "placement"} {
		type sum struct {
			probes, distinct, won, ply []int
			kinds                      map[string]int
		}
		var rows [5]sum
		for i := range rows {
			rows[i].kinds = map[string]int{}
		}
		for i, pos := range phases[ph] {
			g, err := muehle.NewGameFrom(pos, stones)
			if err != nil {
				t.Fatal(err)
			}
			var moves [3]muehle.Move
			for r := range rows {
				tl := &tally{kinds: map[string]int{}, distinct: map[muehle.Position]bool{}}
				var prober layers.Prober = countingDB{db, tl}
				if r == 2 || r == 4 {
					prober = outcomeCountingDB{countingDB{db, tl}}
				}
				p := NewPerfect(prober, rand.NewPCG(uint64(i), 1), nil)
				switch r {
				case 0:
					moves[r] = refMove(t, p, rand.New(rand.NewPCG(uint64(i), 1)), pos, g.History())
				case 1, 2:
					if moves[r], err = p.Move(context.Background(), g.Clone()); err != nil {
						t.Fatal(err)
					}
				default: // Evaluate, every move with its replies and score
					if _, err := p.Evaluate(pos); err != nil {
						t.Fatal(err)
					}
				}
				ply := tl.plyMore // through Probe alone, every won position's
				rows[r].probes = append(rows[r].probes, tl.values+tl.outcomes)
				rows[r].distinct = append(rows[r].distinct, len(tl.distinct))
				rows[r].won = append(rows[r].won, tl.wonValue)
				rows[r].ply = append(rows[r].ply, tl.values+tl.outcomes+ply)
				for k, n := range tl.kinds {
					rows[r].kinds[k] += n
				}
			}
			if moves[1] != moves[0] || moves[2] != moves[0] {
				t.Fatalf("%s: moves %v, want %s each", pos, moves, moves[0])
			}
		}
		for r, label := range []string{"before (28d974c)", "now, Probe alone", "now, outcomes apart", "Evaluate now, Probe alone", "Evaluate now, outcomes apart"} {
			row := rows[r]
			n := len(row.probes)
			var kinds []string
			for k, c := range row.kinds {
				kinds = append(kinds, fmt.Sprintf("%s %.0f", k, float64(c)/float64(n)))
			}
			slices.Sort(kinds)
			t.Logf("%s, %d positions, %s: probes a move median %d, mean %.0f, worst %d; distinct positions mean %.0f; by kind (mean) %s; won values read mean %.0f; with a won depth found by a ply: median %d, mean %.0f, worst %d",
				name, n, label, med(row.probes), mean(row.probes), slices.Max(row.probes), mean(row.distinct),
				strings.Join(kinds, ", "), mean(row.won), med(row.ply), mean(row.ply), slices.Max(row.ply))
		}
	}
}

// med returns the median of xs.
func med(xs []int) int {
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

// mean returns the mean of xs.
func mean(xs []int) float64 {
	t := 0
	for _, x := range xs {
		t += x
	}
	return float64(t) / float64(len(xs))
}
