package play

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro/playtest"
	"muehle/retro/retrotest"
)

// The players checked on small games the solver computed (retrotest, the
// solver's test helper: the players never import the solver itself). Each
// database is solved once per test binary, shared by the tests.

func TestMain(m *testing.M) { os.Exit(retrotest.Main(m)) }

// The hand computations of Bahnsen's improved perfect play and of the
// sector variant on the solved game of three stones (four without -short):
// the reference functions below recompute A, G and the sector score
// straight from the definitions (bahnsen.go, sector.go), by full
// enumeration, reading only db.Probe and the layer headers.

// refMoves returns the legal moves of p.
func refMoves(p muehle.Position) []muehle.Move {
	var buf [muehle.MaxMoves]muehle.Move
	return append([]muehle.Move(nil), p.AppendMoves(buf[:0])...)
}

// refShare returns the share of won (lost when lost is set) canonical
// positions of p's layer for its side to move.
func refShare(t *testing.T, db *layers.DB, p muehle.Position, lost bool) float64 {
	f, err := db.Layer(layers.KeyOf(p))
	if err != nil {
		t.Fatal(err)
	}
	h := f.Header()
	x := h.Won
	if lost {
		x = h.Lost
	}
	return float64(x) / float64(h.Won+h.Lost+h.Drawn)
}

// refS follows the perfect line from p (won for its side to move) to the
// first position after a removal with that side to move again and returns
// its layer's won share; 1 when the game ends first.
func refS(t *testing.T, db *layers.DB, p muehle.Position) float64 {
	me, removed := p.Turn, false
	for !p.IsOver() {
		if p.Turn == me && removed {
			return refShare(t, db, p, false)
		}
		ms := refMoves(p)
		best, bestV := -1, layers.Value(0)
		for i, m := range ms {
			v := playtest.Value(t, db, p.Play(m)).Parent()
			if best < 0 || v.Better(bestV) {
				best, bestV = i, v
			}
		}
		removed = removed || ms[best].IsRemoval()
		p = p.Play(ms[best])
	}
	return 1
}

// refPositiveA counts the losing replies refG finds with A > 0.
var refPositiveA int

// refG is Bahnsen's G of the drawing move m in pos, hist the moves before.
func refG(t *testing.T, db *layers.DB, pos muehle.Position, hist []muehle.Move, m muehle.Move, depth int) float64 {
	c := pos.Play(m)
	hist = append(hist[:len(hist):len(hist)], m)
	qs := refMoves(c)
	n := float64(len(qs))
	if depth == 1 {
		k := 0.0
		for _, q := range qs {
			if playtest.Value(t, db, c.Play(q)).Outcome() == layers.Win {
				k++
			}
		}
		return k / n / 2
	}
	// The computer's winning moves after each losing reply, and how often
	// each appears among all of them.
	wins := map[muehle.Move][]muehle.Move{}
	all := map[muehle.Move]int{}
	freq := map[muehle.Move]int{}
	for _, q := range qs {
		after := c.Play(q)
		if playtest.Value(t, db, after).Outcome() != layers.Win {
			continue
		}
		for _, g := range refMoves(after) {
			all[q]++
			if playtest.Value(t, db, after.Play(g)).Outcome() == layers.Loss {
				wins[q] = append(wins[q], g)
				freq[g]++
			}
		}
	}
	removals := 0
	for _, h := range hist[max(0, len(hist)-5):] {
		if h.IsRemoval() {
			removals++
		}
	}
	prod := 1.0
	for _, q := range qs {
		after := c.Play(q)
		v := playtest.Value(t, db, after)
		var a float64
		if v.Outcome() == layers.Win {
			x := float64(v.Depth())
			d := 0.0
			if x > 1 {
				r1 := math.Log(math.Log(0.5)/math.Log(0.9)) / math.Log(12.0/7)
				d = math.Exp(math.Log(0.5) * math.Pow(7/x, r1))
			}
			share := float64(len(wins[q])) / float64(all[q])
			fprod := 1.0
			for _, g := range wins[q] {
				fprod *= float64(freq[g])
			}
			z := math.Pow(1-share, math.Sqrt(fprod))
			dq := 0.0
			if q.IsRemoval() {
				dq = 1
			}
			f := 1 - math.Abs(dq-float64(removals)/5)
			a = (1 - refS(t, db, after)) * d * z * f
			if a > 0 {
				refPositiveA++
			}
		} else {
			for _, p2 := range refMoves(after) {
				if playtest.Value(t, db, after.Play(p2)).Outcome() == layers.Loss {
					continue
				}
				if playtest.Value(t, db, after.Play(p2)).Outcome() == layers.Draw {
					a = max(a, refG(t, db, after, append(hist[:len(hist):len(hist)], q), p2, depth-1))
				}
			}
		}
		prod *= a
	}
	return math.Pow(prod, 1/n)
}

// refSector is the sector score of the position p reached by m for me,
// by plain minimax over drawing moves.
func refSector(t *testing.T, db *layers.DB, p muehle.Position, m muehle.Move, me muehle.Color, plies int) float64 {
	if m.IsRemoval() || plies == 0 || p.IsOver() {
		return refShare(t, db, p, p.Turn != me)
	}
	best, any := 0.0, false
	for _, c := range refMoves(p) {
		if playtest.Value(t, db, p.Play(c)).Outcome() != layers.Draw {
			continue
		}
		s := refSector(t, db, p.Play(c), c, me, plies-1)
		if !any || (p.Turn == me && s > best) || (p.Turn != me && s < best) {
			best, any = s, true
		}
	}
	if !any {
		return refShare(t, db, p, p.Turn != me)
	}
	return best
}

func TestBahnsenAndSectorByHand(t *testing.T) {
	testenv.SlowUnderRace(t, "scores every drawn position of the solved games by hand against the references, on one goroutine")
	for _, k := range []int{3, 4} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			if k == 4 {
				testenv.Long(t, "solving the game of four stones takes half a minute")
			}
			bahnsenAndSectorByHand(t, k)
		})
	}
}

// bahnsenAndSectorByHand compares G and the sector score with the
// references on the drawn positions of games of k stones that keep the
// draw.
func bahnsenAndSectorByHand(t *testing.T, k int) {
	db := retrotest.Solved(t, k)
	refPositiveA = 0
	p := NewPerfect(db, nil, nil)
	rng := rand.New(rand.NewPCG(3, 5))
	checked, positive := 0, 0
	for game := 0; game < 200 && checked < 400; game++ {
		g := muehle.NewGame(k)
		for ply := 0; ply < 30; ply++ {
			if r, _ := g.Result(); r != muehle.Ongoing {
				break
			}
			pos := g.Position()
			if playtest.Value(t, db, pos).Outcome() == layers.Draw {
				bestG, bestS := -1.0, -1.0 // the best scores among the drawing moves
				for _, m := range refMoves(pos) {
					if playtest.Value(t, db, pos.Play(m)).Outcome() != layers.Draw {
						continue
					}
					for depth := 1; depth <= 2; depth++ {
						got, err := p.BahnsenG(pos, g.History(), m, depth)
						if err != nil {
							t.Fatal(err)
						}
						want := refG(t, db, pos, g.History(), m, depth)
						if math.Abs(got-want) > 1e-9*max(1, want) {
							t.Fatalf("%s, move %s, depth %d: got G = %v, want %v", pos, m, depth, got, want)
						}
						if depth == 2 && want > 0 {
							positive++
						}
						if depth == 2 {
							bestG = max(bestG, want)
						}
					}
					for plies := 1; plies <= 3; plies++ {
						got, err := p.SectorScore(pos, m, plies)
						if err != nil {
							t.Fatal(err)
						}
						want := refSector(t, db, pos.Play(m), m, pos.Turn, plies-1)
						if math.Abs(got-want) > 1e-12 {
							t.Fatalf("%s, move %s, %d plies: got sector score %v, want %v", pos, m, plies, got, want)
						}
						if plies == 3 {
							bestS = max(bestS, want)
						}
					}
					checked++
				}
				// The default player (NewPerfect's) is the sector variant,
				// SectorPlies deep: Evaluate scores each drawing move so and
				// puts those of the best score first, BestCount counts them.
				mvs, err := p.Evaluate(pos)
				if err != nil {
					t.Fatal(err)
				}
				bestDefault, scores := -1.0, map[muehle.Move]float64{}
				for _, mv := range mvs {
					if mv.Value.Outcome() != layers.Draw {
						continue
					}
					want := refSector(t, db, pos.Play(mv.Move), mv.Move, pos.Turn, SectorPlies-1)
					if math.Abs(mv.Score-want) > 1e-12 {
						t.Fatalf("%s, move %s: Evaluate's score %v, want the sector score %v", pos, mv.Move, mv.Score, want)
					}
					scores[mv.Move], bestDefault = want, max(bestDefault, want)
				}
				n := BestCount(mvs)
				for i, mv := range mvs {
					s, draws := scores[mv.Move]
					if best := draws && math.Abs(s-bestDefault) <= 1e-12; best != (i < n) {
						t.Fatalf("%s: move %d of %d (%s, score %v) is among the %d picked: %v, want %v (best score %v)", pos, i, len(mvs), mv.Move, s, n, i < n, best, bestDefault)
					}
				}
				// Move plays a drawing move of the best score.
				for _, rule := range []DrawRule{DrawBahnsen, DrawSector} {
					mp := NewPerfect(db, rand.NewPCG(uint64(game), uint64(ply)), nil)
					mp.Draws, mp.DrawDepth = rule, 2
					best := bestG
					if rule == DrawSector {
						mp.DrawDepth, best = 3, bestS
					}
					m, err := mp.Move(context.Background(), g.Clone())
					if err != nil {
						t.Fatal(err)
					}
					if v := playtest.Value(t, db, pos.Play(m)); v.Outcome() != layers.Draw {
						t.Fatalf("%s: %s played %s to %s, want a drawing move", pos, rule, m, v)
					}
					score := refG(t, db, pos, g.History(), m, 2)
					if rule == DrawSector {
						score = refSector(t, db, pos.Play(m), m, pos.Turn, 2)
					}
					if math.Abs(score-best) > 1e-9 {
						t.Fatalf("%s: %s played %s of score %v, want the best, %v", pos, rule, m, score, best)
					}
				}
			}
			// The games keep the draw where they can, to visit many drawn
			// positions.
			ms := refMoves(pos)
			var keep []muehle.Move
			for _, m := range ms {
				if playtest.Value(t, db, pos.Play(m)).Outcome() == layers.Loss {
					keep = append(keep, m)
				}
			}
			for _, m := range ms {
				if playtest.Value(t, db, pos.Play(m)).Outcome() == layers.Draw {
					keep = append(keep, m)
				}
			}
			if len(keep) == 0 {
				keep = ms
			}
			if err := g.Play(keep[rng.IntN(len(keep))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d drawing moves checked, %d with G > 0 at depth 2, %d losing replies with A > 0", checked, positive, refPositiveA)
	if checked < 20 || positive == 0 {
		t.Errorf("got %d drawing moves checked, %d with G > 0 at depth 2: want at least 20 and some positive", checked, positive)
	}
	// With three stones every removal ends the game, so s = 1 and A = 0;
	// with four the losing replies must reach A > 0 too.
	if k > 3 && refPositiveA == 0 {
		t.Errorf("got no losing reply with A > 0, want some")
	}
}

// checkPlacementClasses compares the search's value of every stored class
// of the placement layers of db (limit per layer, 0 for all) with the
// stored one, the search reading only the moving layers, and returns the
// number compared.
func checkPlacementClasses(t *testing.T, db *layers.DB, limit int) int {
	s := NewPlacementSearch(MovingOnly(db), db.Indexer(), nil, 16)
	checked := 0
	for _, k := range layers.PlacementLayers(db.Stones()) {
		ix := db.Indexer().Layer(k)
		step := uint64(1)
		if limit > 0 && ix.Size() > uint64(limit) {
			step = ix.Size()/uint64(limit) + 1
		}
		for i := uint64(0); i < ix.Size(); i += step {
			pos, ok := ix.Position(i)
			if !ok {
				continue
			}
			want, err := db.Probe(pos)
			if err != nil {
				t.Fatal(err)
			}
			if want == layers.Unused {
				continue // not stored: not reachable from the empty board
			}
			got, err := s.Value(context.Background(), pos)
			if err != nil || got != want {
				t.Fatalf("layer %v slot %d %v: got %v, %v; want the stored %v", k, i, pos, got, err, want)
			}
			checked++
		}
	}
	return checked
}

func TestPlacementSearchEveryClassK3(t *testing.T) {
	db := retrotest.SolvedAll(t, 3)
	if n := checkPlacementClasses(t, db, 0); n != 31777 {
		t.Errorf("got %d classes checked, want the 31777 of muehlectl layers --placement --stones 3 (every class)", n)
	}
}

func TestPerfectPlacementSearchK3(t *testing.T) {
	db := retrotest.Solved(t, 3)
	ctx := context.Background()
	searched := 0
	for i := range 20 {
		g := muehle.NewGame(3)
		pl := NewPerfect(MovingOnly(db), rand.NewPCG(uint64(i), 5), nil)
		pl.Placement = NewPlacementSearch(MovingOnly(db), db.Indexer(), nil, 16)
		rnd := muehle.NewSeededRandom(uint64(i))
		for g.Ply() < 12 {
			if r, _ := g.Result(); r != muehle.Ongoing {
				break
			}
			pos := g.Position()
			mover := muehle.Player(rnd)
			if pos.Turn == muehle.Color(i%2) {
				mover = pl
			}
			m, err := mover.Move(ctx, g)
			if err != nil {
				t.Fatal(err)
			}
			if mover == pl && pos.Hand[pos.Turn] > 0 {
				before, _ := db.Probe(pos)
				after, _ := db.Probe(pos.Play(m))
				if after.Parent() != before || pl.LastFellBack() {
					t.Fatalf("game %d: %v: move %v has value %v, want %v (fell back %v)", i, pos, m, after.Parent(), before, pl.LastFellBack())
				}
				if pl.LastSearched() {
					searched++
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if searched < 20 {
		t.Errorf("got %d placements chosen by the search in 20 games, want at least 20", searched)
	}
}
