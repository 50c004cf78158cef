package retro

import (
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"muehle/layers"
	"muehle/muehle"
)

// The reference solver: the moving phase of a game with up to k stones
// per side, solved the slow, obviously correct way over every raw position
// (no symmetry, side to move as White), in rounds. Round r decides exactly
// the positions of depth r: won if some child is lost in r-1, lost if every
// child is won in at most r-1 plies. A child where the side to move has
// fewer than three stones is lost in 0; one without moves is lost in 0
// unless the rules draw it (a full board in Twelve Men's Morris). What no
// round decides is drawn.
// It shares nothing with the solver but the move generator.

// comboRank numbers the sets of n points among a board's (combinatorial
// number system).
func comboRank(b muehle.Bitboard) uint64 {
	var r uint64
	for i := 1; b != 0; i++ {
		r += binomTable[bits.TrailingZeros32(uint32(b))][i]
		b &= b - 1
	}
	return r
}

// binomTable[n][k] is n choose k, by Pascal's triangle.
var binomTable = func() (t [25][25]uint64) {
	for n := range 25 {
		t[n][0] = 1
		for k := 1; k <= n; k++ {
			t[n][k] = t[n-1][k-1] + t[n-1][k]
		}
	}
	return t
}()

func binom(n, k int) uint64 { return binomTable[n][k] }

// rawTable holds a value for every raw position of some layers, numbered
// densely by layer.
type rawTable struct {
	points int // the board's
	keys   []layers.Key
	offset map[layers.Key]uint64 // first slot of each layer
	value  []layers.Value
}

// referenceKeys returns the layers the reference solves for variant v:
// the moving layers, and in a game whose phases mix the layers with
// stones in hand too (there is no separate placement phase to leave to
// the placement reference).
func referenceKeys(v muehle.Variant) []layers.Key {
	if v.Rules().Mixed {
		return layers.MixedOrder(v.Stones, true)
	}
	return layers.Order(v.Stones, false)
}

func newRawTable(keys []layers.Key, points int) *rawTable {
	t := &rawTable{points: points, keys: keys, offset: map[layers.Key]uint64{}}
	var n uint64
	for _, k := range keys {
		t.offset[k] = n
		n += binom(points, int(k.W)) * binom(points, int(k.B))
	}
	t.value = make([]layers.Value, n)
	return t
}

func (t *rawTable) slot(p muehle.Position) uint64 {
	own, opp := p.Stones[p.Turn], p.Stones[p.Turn^1]
	return t.offset[layers.KeyOf(p)] + comboRank(own)*binom(t.points, opp.Count()) + comboRank(opp)
}

// forEachRaw calls fn with every position of game g with w and b stones,
// White to move.
func forEachRaw(g muehle.GameID, w, b int, fn func(p muehle.Position)) {
	forEachRawIn(g, layers.Moving(w, b), fn)
}

// forEachRawIn calls fn with every position of game g in layer k, White
// to move.
func forEachRawIn(g muehle.GameID, k layers.Key, fn func(p muehle.Position)) {
	w, b := int(k.W), int(k.B)
	n := g.Rules().Board.NumPoints()
	var rec func(start, left int, set muehle.Bitboard, out *[]muehle.Bitboard)
	rec = func(start, left int, set muehle.Bitboard, out *[]muehle.Bitboard) {
		if left == 0 {
			*out = append(*out, set)
			return
		}
		for p := start; p <= n-left; p++ {
			rec(p+1, left-1, set|1<<p, out)
		}
	}
	var ws, bs []muehle.Bitboard
	rec(0, w, 0, &ws)
	rec(0, b, 0, &bs)
	for _, x := range ws {
		for _, y := range bs {
			if x&y == 0 {
				fn(muehle.Position{Stones: [2]muehle.Bitboard{x, y}, Hand: [2]uint8{k.WH, k.BH}, Game: g})
			}
		}
	}
}

func (t *rawTable) get(c muehle.Position) layers.Value {
	if c.Total(c.Turn) < 3 {
		return layers.LossIn(0)
	}
	return t.value[t.slot(c)]
}

// solve runs the rounds over all layers of variant v, on all cores; it
// returns the number of raw positions. Each round reads only values of
// earlier rounds and applies its decisions when it ends. Rounds 0 and 1
// look at every undecided position (round 1 finds the wins by a removal
// that ends the game, whose children are in no layer); a later round r
// only at the undecided parents of the positions round r-1 decided, found
// by muehle's un-move generator (AppendUnmoves, checked against moves and
// brute force in package muehle): a position's value can change in round
// r only when one of its children's did in round r-1.
func (t *rawTable) solve(v muehle.Variant) int {
	var all []muehle.Position
	for _, k := range t.keys {
		forEachRawIn(v.Game, k, func(p muehle.Position) { all = append(all, p) })
	}
	for _, p := range all {
		t.value[t.slot(p)] = layers.Drawn
	}
	undecided := all
	workers := runtime.GOMAXPROCS(0)
	var last [][]decisionAt // the decisions of the round before
	for r := 0; ; r++ {
		if r >= 2 {
			undecided = t.parents(v, last, workers)
		}
		if len(undecided) == 0 {
			break
		}
		decided := make([][]decisionAt, workers)
		left := make([][]muehle.Position, workers)
		var wg sync.WaitGroup
		for w := range workers {
			lo, hi := len(undecided)*w/workers, len(undecided)*(w+1)/workers
			wg.Add(1)
			go func() {
				defer wg.Done()
				var buf [muehle.MaxMoves]muehle.Move
				for _, p := range undecided[lo:hi] {
					won, allWon := false, true
					ms := p.AppendMoves(buf[:0])
					if len(ms) == 0 && p.IsDrawn() {
						allWon = false // drawn by the rules
					}
					for _, m := range ms {
						v := t.get(p.Play(m))
						switch {
						case v.Outcome() == layers.Loss && v.Depth() == r-1:
							won = true
						case v.Outcome() == layers.Win && v.Depth() <= r-1:
						default:
							allWon = false
						}
						if won {
							break
						}
					}
					switch {
					case won:
						decided[w] = append(decided[w], decisionAt{p, t.slot(p), layers.WinIn(r)})
					case allWon: // also a blocked position (no moves) in round 0
						decided[w] = append(decided[w], decisionAt{p, t.slot(p), layers.LossIn(r)})
					default:
						left[w] = append(left[w], p)
					}
				}
			}()
		}
		wg.Wait()
		n := 0
		for w := range workers {
			for _, d := range decided[w] {
				t.value[d.slot] = d.v
			}
			n += len(decided[w])
		}
		undecided, last = slices.Concat(left...), decided
		if n == 0 && r > 0 {
			break
		}
	}
	return len(all)
}

// decisionAt is a value a round decides, for the position at a slot.
type decisionAt struct {
	pos  muehle.Position
	slot uint64
	v    layers.Value
}

// parents returns the undecided positions of the table one move before a
// position decided: the candidates of the next round, each once.
func (t *rawTable) parents(v muehle.Variant, decided [][]decisionAt, workers int) []muehle.Position {
	seen := make([]atomic.Uint64, (len(t.value)+63)/64)
	found := make([][]muehle.Position, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf [muehle.MaxUnmoves]muehle.Move
			for _, ds := range decided {
				for i := w; i < len(ds); i += workers {
					p := ds[i].pos
					for _, u := range p.AppendUnmoves(buf[:0]) {
						q := p.Unplay(u)
						if q.Total(muehle.White) > v.Stones || q.Total(muehle.Black) > v.Stones {
							continue
						}
						if _, ok := t.offset[layers.KeyOf(q)]; !ok {
							continue
						}
						s := t.slot(q)
						if t.value[s] != layers.Drawn {
							continue
						}
						bit := uint64(1) << (s % 64)
						if seen[s/64].Or(bit)&bit == 0 {
							found[w] = append(found[w], q)
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	return slices.Concat(found...)
}

// rawReference is the solved reference of a variant.
type rawReference struct {
	once  sync.Once
	table *rawTable
	size  int
}

var (
	referencesMu sync.Mutex
	references   = map[muehle.Variant]*rawReference{}
)

// referenceTable returns the solved reference for variant v, computed once
// per test binary.
func referenceTable(v muehle.Variant) (*rawTable, int) {
	referencesMu.Lock()
	r := references[v]
	if r == nil {
		r = &rawReference{}
		references[v] = r
	}
	referencesMu.Unlock()
	r.once.Do(func() {
		r.table = newRawTable(referenceKeys(v), v.Rules().Board.NumPoints())
		r.size = r.table.solve(v)
	})
	return r.table, r.size
}
