package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/retrotest"
)

// synTree is a synthetic game tree for the conspiracy number search: node
// 0 is the root; a leaf's h is its true value, an inner node's h its
// heuristic value, both for the side to move there.
type synTree struct {
	kids [][]int
	h    []int32
	leaf []bool
	noTT bool
}

func (t *synTree) Children(p int, dst []int) []int { return append(dst, t.kids[p]...) }

func (t *synTree) Evaluate(p int, lo, hi int32) (int32, bool, bool) { return t.h[p], t.leaf[p], true }

func (t *synTree) Key(p int) uint64 {
	if t.noTT {
		return 0
	}
	return uint64(p) + 1
}

// Outcome and the slice-returning Children make a synTree with values -1,
// 0 and 1 a strategyTree.
func (t *synTree) Outcome(p int) (int8, error) { return int8(t.negamax(p)), nil }

type synStrategies struct{ *synTree }

func (t synStrategies) Children(p int, dst []int) ([]int, error) {
	return append(dst, t.kids[p]...), nil
}

// negamax returns the true value of p for its side to move.
func (t *synTree) negamax(p int) int32 {
	if t.leaf[p] {
		return t.h[p]
	}
	best := int32(-infScore)
	for _, c := range t.kids[p] {
		best = max(best, -t.negamax(c))
	}
	return best
}

// randomTree returns a tree depth plies deep, 1 to branch children per
// inner node (a node stops early with probability 1/10), leaf values in
// [-vals, vals], and heuristic values of inner nodes off their true value
// by up to noise.
func randomTree(rng *rand.Rand, depth, branch int, vals, noise int32) *synTree {
	t := &synTree{}
	var build func(d int) int
	build = func(d int) int {
		p := len(t.h)
		t.kids, t.h, t.leaf = append(t.kids, nil), append(t.h, 0), append(t.leaf, false)
		if d == depth || (d > 0 && rng.IntN(10) == 0) {
			t.leaf[p], t.h[p] = true, rng.Int32N(2*vals+1)-vals
			return p
		}
		n := 1 + rng.IntN(branch)
		for range n {
			c := build(d + 1)
			t.kids[p] = append(t.kids[p], c)
		}
		return p
	}
	build(0)
	for p := range t.h {
		if !t.leaf[p] {
			t.h[p] = t.negamax(p) + rng.Int32N(2*noise+1) - noise
		}
	}
	return t
}

// runCN runs the safety sequence's pairs on t and calls check after each;
// traced keeps the targets, as TraceCCNS does.
func runCN(t *testing.T, g cnGame[int], steps []cnStep, splitBelow int, traced bool, check func(s *cnSearch[int], st cnStep, b, x int32, r cnResult)) {
	t.Helper()
	s := newCNSearch[int](g, 0, 10)
	s.splitBelow, s.traced = splitBelow, traced
	if !s.initRoot() {
		t.Fatal("initRoot stopped")
	}
	for _, st := range steps {
		b, x, r := s.determine(st.Depth, st.Conspiracy, 0)
		if r == cnAbort {
			t.Fatalf("step %v: aborted", st)
		}
		check(s, st, b, x, r)
	}
}

// TestCCNSMinimax: once the depth reaches the leaves of the game, the move
// the search chooses has the root's minimax value, with one or two
// strategies, with or without the tables, on random trees whose heuristic
// values err.
func TestCCNSMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	for i := range 400 {
		depth := 2 + i%3
		tr := randomTree(rng, depth, 4, 9, int32(i%7))
		tr.noTT = i%2 == 0
		want := tr.negamax(0)
		var steps []cnStep
		for d := 1; d <= depth+1; d++ {
			steps = append(steps, cnStep{d, 1})
		}
		steps = append(steps, cnStep{depth, 2}, cnStep{depth + 1, 3})
		runCN(t, tr, steps, i%3, false, func(s *cnSearch[int], st cnStep, b, x int32, r cnResult) {
			if st.Depth < depth {
				return
			}
			if got := -tr.negamax(s.pos[b]); got != want || x > want {
				t.Fatalf("tree %d, step %v: chose child %d worth %d with bound %d, want the root's value %d", i, st, s.pos[b], got, x, want)
			}
		})
	}
}

// TestCCNSSafety: after each pair (d, C) whose targets were all fulfilled,
// the tree holds C leaf-disjoint strategies, leaves at least d plies below
// the root, showing the best child at least x and every other child at
// most x (the seed's Def. 1.8-8), counted by conspiracy, which
// TestConspiracyBruteForce checks.
func TestCCNSSafety(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 2))
	steps := []cnStep{{1, 1}, {2, 1}, {3, 1}, {2, 2}, {3, 2}, {4, 2}}
	verified := 0
	for i := range 300 {
		tr := randomTree(rng, 6, 3, 20, 8)
		tr.noTT = true
		runCN(t, tr, steps, i%3, false, func(s *cnSearch[int], st cnStep, b, x int32, r cnResult) {
			if r != cnOK {
				return
			}
			verified++
			root := s.nodes[0]
			for c := root.first; c < root.first+root.n; c++ {
				a := cnGE
				if c == b {
					a = cnLE
				}
				if k := s.conspiracy(c, a, -x, st.Depth-1, st.Conspiracy, true); k < st.Conspiracy {
					t.Fatalf("tree %d, step %v: child %d (best %d) has %d strategies for %s %d, want %d", i, st, s.pos[c], s.pos[b], k, a, -x, st.Conspiracy)
				}
			}
		})
	}
	if verified < 300*len(steps)*9/10 {
		t.Errorf("got %d of %d pairs verified, want at least 90%%", verified, 300*len(steps))
	}
}

// bruteConspiracy returns the least number of counted leaves below v (as
// conspiracy counts them) that must fail for the bound (a, x) to fail at v,
// trying every set of up to maxK leaves; maxK+1 when none does.
func bruteConspiracy(s *cnSearch[int], v int32, a cnAttr, x int32, depth, maxK int) int {
	var leaves []int32
	var collect func(v int32)
	collect = func(v int32) {
		n := s.nodes[v]
		if n.exact {
			return // an exact node cannot fail
		}
		if !n.gen || n.seen == 0 {
			leaves = append(leaves, v)
			return
		}
		for c := n.first; c < n.first+n.seen; c++ {
			collect(c)
		}
	}
	collect(v)
	failed := map[int32]bool{}
	var holds func(v int32, a cnAttr, x int32, depth int) bool
	holds = func(v int32, a cnAttr, x int32, depth int) bool {
		n := s.nodes[v]
		if n.exact {
			return n.w.supports(a, x)
		}
		if !n.gen || n.seen == 0 {
			return !failed[v] && n.w.supports(a, x) && depth <= 0
		}
		if a == cnGE {
			for c := n.first; c < n.first+n.seen; c++ {
				if holds(c, cnLE, -x, depth-1) {
					return true
				}
			}
			return false
		}
		if n.seen < n.n {
			return false
		}
		for c := n.first; c < n.first+n.n; c++ {
			if !holds(c, cnGE, -x, depth-1) {
				return false
			}
		}
		return true
	}
	var try func(from, k int) bool
	try = func(from, k int) bool {
		if k == 0 {
			return !holds(v, a, x, depth)
		}
		for i := from; i < len(leaves); i++ {
			failed[leaves[i]] = true
			ok := try(i+1, k-1)
			delete(failed, leaves[i])
			if ok {
				return true
			}
		}
		return false
	}
	for k := 0; k <= maxK; k++ {
		if try(0, k) {
			return k
		}
	}
	return maxK + 1
}

// TestConspiracyBruteForce: the conspiracy numbers of the search trees the
// search builds equal the least number of leaves that must fail for the
// bound to fail (Satz 2.1-1), found by trying every set of leaves.
func TestConspiracyBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 3))
	const maxK = 3
	compared := 0
	for i := range 60 {
		tr := randomTree(rng, 4, 3, 6, 4)
		tr.noTT = true
		runCN(t, tr, []cnStep{{2, 1}, {3, 2}}, 0, false, func(s *cnSearch[int], st cnStep, b, x int32, r cnResult) {
			root := s.nodes[0]
			for c := root.first; c < root.first+root.n; c++ {
				for _, a := range []cnAttr{cnLE, cnGE} {
					for _, dx := range []int32{-1, 0, 1} {
						for depth := 0; depth <= st.Depth; depth++ {
							got := s.conspiracy(c, a, -x+dx, depth, maxK+1, false)
							want := bruteConspiracy(s, c, a, -x+dx, depth, maxK)
							if got != want {
								t.Fatalf("tree %d, step %v, child %d, bound %s %d, depth %d: got %d strategies, brute force %d", i, st, s.pos[c], a, -x+dx, depth, got, want)
							}
							compared++
						}
					}
				}
			}
		})
	}
	t.Logf("%d counts compared", compared)
}

// TestStrategiesBruteForce: countStrategies on trees with values -1, 0
// and 1 equals the least number of leaves of the depth-limited tree whose
// values must change for the minimax value to break the bound.
func TestStrategiesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 4))
	for i := range 200 {
		tr := randomTree(rng, 4, 3, 1, 0)
		st := synStrategies{tr}
		depth := 1 + i%4
		// The leaves of the tree depth plies deep, with their true values.
		type leaf struct {
			p    int
			sign int32 // +1 where the root's side moves
		}
		var leaves []leaf
		var collect func(p, d int, sign int32)
		collect = func(p, d int, sign int32) {
			if d == depth || tr.leaf[p] {
				leaves = append(leaves, leaf{p, sign})
				return
			}
			for _, c := range tr.kids[p] {
				collect(c, d+1, -sign)
			}
		}
		collect(0, 0, 1)
		changed := map[int]int32{}
		var value func(p, d int) int32
		value = func(p, d int) int32 {
			if d == depth || tr.leaf[p] {
				if v, ok := changed[p]; ok {
					return v
				}
				return tr.negamax(p)
			}
			best := int32(-infScore)
			for _, c := range tr.kids[p] {
				best = max(best, -value(c, d+1))
			}
			return best
		}
		for x := int8(-1); x <= 1; x++ {
			for _, ge := range []bool{true, false} {
				if (ge && x == -1) || (!ge && x == 1) {
					continue // no leaf can break "at least lost" or "at most won"
				}
				got, err := countStrategies[int](st, 0, depth, ge, x, 5, nil)
				if err != nil {
					t.Fatal(err)
				}
				memoGot, err := countStrategies[int](st, 0, depth, ge, x, 5, strategyMemo[int]{})
				if err != nil || memoGot != got {
					t.Fatalf("tree %d: got %d strategies with the memo, %d without (%v)", i, memoGot, got, err)
				}
				if err != nil {
					t.Fatal(err)
				}
				// Brute force: the fewest leaves set to the worst value for
				// the bound (from their side's view) that break it.
				breaks := func() bool {
					v := value(0, 0)
					return (ge && v < int32(x)) || (!ge && v > int32(x))
				}
				want := 5
				var try func(from, k int) bool
				try = func(from, k int) bool {
					if k == 0 {
						return breaks()
					}
					for j := from; j < len(leaves); j++ {
						worst := -leaves[j].sign // breaking "at least": the root's side gets -1
						if !ge {
							worst = leaves[j].sign
						}
						changed[leaves[j].p] = worst
						ok := try(j+1, k-1)
						delete(changed, leaves[j].p)
						if ok {
							return true
						}
					}
					return false
				}
				for k := 0; k < 5; k++ {
					if try(0, k) {
						want = k
						break
					}
				}
				if got != want {
					t.Fatalf("tree %d, depth %d, bound ge=%v x=%d: got %d strategies, brute force %d", i, depth, ge, x, got, want)
				}
			}
		}
	}
}

// TestCCNSLegal: the player returns a legal move on random positions of
// the standard game, ten each of placement with a mill to close, flying
// with three stones and others, and on one where every move closes a mill,
// with budgets of a microsecond and of 20 ms.
func TestCCNSLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 5))
	const perKind = 10
	var kinds [3][]*muehle.Game // placement with a mill, flying, others
	for tries := 0; tries < 1000 && (len(kinds[0]) < perKind || len(kinds[1]) < perKind || len(kinds[2]) < perKind); tries++ {
		g := muehle.NewGame(muehle.StonesPerSide)
		for range rng.IntN(120) {
			ms := g.LegalMoves()
			if r, _ := g.Result(); r != muehle.Ongoing || len(ms) == 0 {
				break
			}
			if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		if r, _ := g.Result(); r != muehle.Ongoing {
			continue
		}
		p := g.Position()
		k := 2
		switch {
		case p.Hand[p.Turn] > 0 && slices.ContainsFunc(g.LegalMoves(), muehle.Move.IsRemoval):
			k = 0
		case p.Hand[p.Turn] == 0 && p.Stones[p.Turn].Count() == 3:
			k = 1
		}
		if len(kinds[k]) < perKind {
			kinds[k] = append(kinds[k], g)
		}
	}
	games := slices.Concat(kinds[0], kinds[1], kinds[2])
	if len(games) < 3*perKind {
		t.Fatalf("got %d random positions, want %d", len(games), 3*perKind)
	}
	// Found by random play: every move of Black closes a mill.
	p, err := muehle.ParsePosition(".BBBWWW..BWW.WB......BWB b 0 0")
	if err != nil {
		t.Fatal(err)
	}
	g, err := muehle.NewGameFrom(p, muehle.StonesPerSide)
	if err != nil {
		t.Fatal(err)
	}
	if ms := g.LegalMoves(); len(ms) < 2 || !slices.ContainsFunc(ms, muehle.Move.IsRemoval) ||
		slices.ContainsFunc(ms, func(m muehle.Move) bool { return !m.IsRemoval() }) {
		t.Fatalf("%s: got moves %v, want several, each closing a mill", p, ms)
	}
	games = append(games, g)
	for i, g := range games {
		for _, budget := range []time.Duration{time.Microsecond, 20 * time.Millisecond} {
			c := NewCCNS(budget, rand.NewPCG(uint64(i), 1), nil)
			m, err := c.Move(context.Background(), g)
			pos := g.Position()
			if err != nil || !pos.IsLegal(m) {
				t.Fatalf("position %d (%s), budget %s: got %v, %v, want a legal move", i, pos.String(), budget, m, err)
			}
		}
	}
}

// TestCCNSDatabaseK3: where the database knows every child (the moving
// phase of the 3-stone game), the player reads it as the alpha-beta player
// does and plays a move of the position's value and distance, marked
// exact, without searching further.
func TestCCNSDatabaseK3(t *testing.T) {
	db := retrotest.Solved(t, 3)
	ctx := context.Background()
	checked := 0
	for i := 0; checked < 30 && i < 300; i++ {
		g := muehle.NewGame(3)
		rnd := muehle.NewSeededRandom(uint64(i))
		for g.Position().Hand != [2]uint8{} {
			m, err := rnd.Move(ctx, g)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		pos := g.Position()
		if r, _ := g.Result(); r != muehle.Ongoing || len(pos.Moves()) < 2 {
			continue
		}
		fresh, err := muehle.NewGameFrom(pos, 3)
		if err != nil {
			t.Fatal(err)
		}
		c := NewCCNS(time.Second, nil, db)
		r, err := c.Search(ctx, fresh)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := db.Probe(pos)
		after := layers.Value(0)
		if next := pos.Play(r.Move); !next.IsOver() {
			after, _ = db.Probe(next)
		} else {
			after = layers.LossIn(0)
		}
		if after.Parent() != before || !r.Exact {
			t.Fatalf("%s: move %v has value %v after, want %v before (exact %v)", pos, r.Move, after.Parent(), before, r.Exact)
		}
		checked++
	}
	if checked < 30 {
		t.Errorf("got %d positions checked, want 30", checked)
	}
}

// TestStrategiesDepthOne: one ply deep, a won position holds one strategy
// per winning move, a lost or drawn one exactly one (every move must keep
// "at most lost", and "at most drawn", which the opponent's side shows with
// all the moves as leaves of one strategy).
func TestStrategiesDepthOne(t *testing.T) {
	db := retrotest.Solved(t, 3)
	ix := db.Indexer().Layer(layers.Moving(3, 3))
	rng := rand.New(rand.NewPCG(31, 6))
	seen := map[layers.Outcome]int{}
	for range 2000 {
		pos, ok := ix.Position(rng.Uint64N(ix.Size()))
		if v, err := db.Probe(pos); !ok || err != nil || v == layers.Unused {
			continue
		}
		v, n, err := Strategies(db, pos, 1, 100)
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if v == layers.Win {
			want = 0
			for _, m := range pos.Moves() {
				if o, err := Outcome(db, pos.Play(m)); err == nil && o == layers.Loss {
					want++
				}
			}
		}
		if n != want {
			t.Fatalf("%s (%s): got %d strategies one ply deep, want %d", pos, v, n, want)
		}
		seen[v]++
	}
	if seen[layers.Win] == 0 || seen[layers.Draw] == 0 || seen[layers.Loss] == 0 {
		t.Errorf("got outcomes %v, want each of won, drawn and lost", seen)
	}
}
