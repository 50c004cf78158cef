package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/retrotest"
)

// attrOf returns the attribute a CCNSBound names.
func attrOf(t *testing.T, s string) cnAttr {
	t.Helper()
	for _, a := range []cnAttr{cnLE, cnGE, cnPoint} {
		if a.String() == s {
			return a
		}
	}
	t.Fatalf("attribute %q: want ≤, ≥ or #", s)
	return 0
}

// TestCCNSTreeConspiracyBruteForce: on random trees whose heuristic values
// err, after every pair, every recorded node's conspiracy number for the
// root's decision equals the least number of leaves that must fail for
// its bound to fail, found by trying every set of leaves
// (bruteConspiracy), and the root's is the least of its children's. After
// a pair whose targets were all fulfilled, each root child's last target
// is the decision's bound with the pair's conspiracy number. The limit
// leaves the later nodes out and counts them at their nearest recorded
// ancestor.
func TestCCNSTreeConspiracyBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	const maxK = 3
	var counts [maxK + 2]int // nodes by conspiracy number, maxK+1 for more
	for i := range 300 {
		tr := randomTree(rng, 6, 3, 20, 8)
		tr.noTT = i%2 == 0
		runCN(t, tr, []cnStep{{1, 1}, {2, 1}, {3, 2}, {3, 3}}, i%3, true, func(s *cnSearch[int], st cnStep, b, x int32, r cnResult) {
			nodes := s.record(len(s.nodes), b, x, st)
			root := nodes[0]
			least := maxK + 1
			for v := 1; v < len(nodes); v++ {
				d := nodes[v].Decision
				got := min(d.Conspiracy, maxK+1)
				want := bruteConspiracy(s, int32(v), attrOf(t, d.Attr), int32(d.X), d.Depth, maxK)
				if got != want {
					t.Fatalf("tree %d, step %v, node %d (ply %d), decision %s %d δ%d: got %d strategies, brute force %d",
						i, st, s.pos[v], nodes[v].Ply, d.Attr, d.X, d.Depth, got, want)
				}
				counts[want]++
				if nodes[v].Parent != 0 {
					continue
				}
				least = min(least, want)
				if tg := nodes[v].Target; r == cnOK && (tg.Attr != d.Attr || tg.X != d.X || tg.Depth != d.Depth || tg.Conspiracy != st.Conspiracy) {
					t.Errorf("tree %d, step %v, root child %d: got target %+v, want the decision %+v with γ %d", i, st, s.pos[v], tg, d, st.Conspiracy)
				}
			}
			if got := min(root.Decision.Conspiracy, maxK+1); got != least {
				t.Fatalf("tree %d, step %v: got the root's conspiracy number %d, want its children's least %d", i, st, got, least)
			}
			checkRecordLimit(t, s, b, x, st, nodes)
		})
	}
	t.Logf("nodes compared by their conspiracy numbers 0, 1, …, %d, more: %v", maxK, counts)
	if slices.Contains(counts[:], 0) {
		t.Errorf("got nodes by conspiracy number %v, want each number", counts)
	}
}

// checkRecordLimit checks the tree recorded with a limit of a third of
// the nodes against all of them: the same first nodes, children only among
// them, and the rest counted as hidden at their nearest recorded
// ancestor.
func checkRecordLimit(t *testing.T, s *cnSearch[int], b, x int32, st cnStep, all []CCNSNode) {
	t.Helper()
	k := max(1, len(all)/3)
	part := s.record(k, b, x, st)
	hidden := 0
	for v := range part {
		hidden += part[v].Hidden
		want := slices.DeleteFunc(slices.Clone(all[v].Children), func(c int) bool { return c >= k })
		if !slices.Equal(part[v].Children, want) || part[v].Decision != all[v].Decision {
			t.Fatalf("limit %d, node %d: got children %v, decision %+v; want %v, %+v", k, v, part[v].Children, part[v].Decision, want, all[v].Decision)
		}
	}
	if len(part) != k || hidden != len(all)-k {
		t.Fatalf("limit %d: got %d nodes and %d hidden, want %d and %d", k, len(part), hidden, k, len(all)-k)
	}
}

// TestCCNSTracedSame: keeping the targets changes nothing of the search:
// on random trees, traced and untraced searches choose the same moves and
// build the same trees.
func TestCCNSTracedSame(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 8))
	steps := []cnStep{{1, 1}, {2, 1}, {3, 1}, {3, 2}}
	for i := range 300 {
		tr := randomTree(rng, 5, 3, 9, 5)
		tr.noTT = i%2 == 0
		var runs [2][]cnNode
		var picks [2][]int32
		for k, traced := range []bool{false, true} {
			runCN(t, tr, steps, i%3, traced, func(s *cnSearch[int], _ cnStep, b, x int32, r cnResult) {
				picks[k] = append(picks[k], b, x, int32(r))
				runs[k] = slices.Clone(s.nodes)
			})
		}
		if !slices.Equal(picks[0], picks[1]) || !slices.Equal(runs[0], runs[1]) {
			t.Fatalf("tree %d: traced %v, untraced %v (%d and %d nodes)", i, picks[1], picks[0], len(runs[1]), len(runs[0]))
		}
	}
}

// ccnsTreeGame returns the game of position text with k stones a side
// (the empty board of nine for "").
func ccnsTreeGame(t *testing.T, text string, k int) *muehle.Game {
	t.Helper()
	if text == "" {
		return muehle.NewGame(k)
	}
	p, err := muehle.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	g, err := muehle.NewGameFrom(p, k)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestTraceCCNSSearch: the recorded search is the player's: the same
// result as CCNS.Search bounded by the same pairs, on the empty board, a
// placement position and a flying endgame won in one; and the tree is well formed: each node's position is its parent's
// after its move, the root's children are its legal moves, the best move's
// child carries the decision "at most -x" and the others "at least -x",
// and the recorded and hidden nodes add up to the tree's.
func TestTraceCCNSSearch(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		pos   string
		depth int
	}{
		{"", 4},
		{"WW......WB....B.......B. w 6 6", 3},
		{"WW.B.....W....B.......B. w 0 0", 4},
	} {
		g := ccnsTreeGame(t, c.pos, muehle.StonesPerSide)
		tr, err := TraceCCNS(ctx, g, CCNSTreeOptions{Depth: c.depth, Limit: 100_000})
		if err != nil {
			t.Fatal(err)
		}
		p := NewCCNS(time.Hour, nil, nil)
		p.Steps = cnStepsTo(c.depth)
		want, err := p.Search(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Result != want || tr.Asked != p.Steps || (tr.Pairs != tr.Asked && !want.Exact) {
			t.Errorf("%s depth %d: got %+v after %d of %d pairs, want %+v", g.Position(), c.depth, tr.Result, tr.Pairs, tr.Asked, want)
		}
		checkCCNSTree(t, g.Position(), tr)
		t.Log(tr.Summary())
	}
}

// checkCCNSTree checks that tr is a well formed tree of a search of root.
func checkCCNSTree(t *testing.T, root muehle.Position, tr *CCNSTree) {
	t.Helper()
	r := &tr.Nodes[0]
	if r.Pos != root || r.Move != muehle.NoMove || r.Parent != -1 || len(r.Children) != len(root.Moves()) || r.Decision.X != tr.Result.Score {
		t.Fatalf("%s: got root %s (%s, parent %d, %d children, decision %+v), want the position with its %d moves, score %d",
			root, r.Pos, r.Move, r.Parent, len(r.Children), r.Decision, len(root.Moves()), tr.Result.Score)
	}
	hidden := 0
	for i := range tr.Nodes {
		n := &tr.Nodes[i]
		hidden += n.Hidden
		for k, c := range n.Children {
			ch := &tr.Nodes[c]
			if ch.Parent != i || ch.Ply != n.Ply+1 || ch.Rank != k || ch.Pos != n.Pos.Play(ch.Move) {
				t.Fatalf("%s: node %d (%s) under %d: got parent %d, ply %d, rank %d, position %s; want %d, %d, %d, %s",
					root, c, ch.Move, i, ch.Parent, ch.Ply, ch.Rank, ch.Pos, i, n.Ply+1, k, n.Pos.Play(ch.Move))
			}
		}
		if n.Parent != 0 {
			continue
		}
		want := CCNSBound{Attr: "≥", X: -tr.Result.Score, Depth: max(tr.Result.Depth-1, 0)}
		if n.Move == tr.Result.Move {
			want.Attr = "≤"
		}
		if got := n.Decision; got.Attr != want.Attr || got.X != want.X || got.Depth != want.Depth {
			t.Errorf("%s: root move %s: got decision %+v, want %+v", root, n.Move, got, want)
		}
	}
	if len(tr.Nodes)+hidden != tr.Result.Nodes {
		t.Errorf("%s: got %d nodes recorded and %d hidden, want the search's %d", root, len(tr.Nodes), hidden, tr.Result.Nodes)
	}
}

// TestTraceCCNSLimit: a node limit records the first nodes the search
// generated and says so; the options are checked.
func TestTraceCCNSLimit(t *testing.T) {
	ctx := context.Background()
	g := muehle.NewGame(muehle.StonesPerSide)
	tr, err := TraceCCNS(ctx, g, CCNSTreeOptions{Depth: 3, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Nodes) != 50 || !tr.Truncated || !strings.HasSuffix(tr.Summary(), ", 50 recorded") {
		t.Errorf("limit 50: got %d nodes, truncated %v, summary %q; want 50, truncated, and said", len(tr.Nodes), tr.Truncated, tr.Summary())
	}
	checkCCNSTree(t, g.Position(), tr)
	var text strings.Builder
	if err := tr.WriteText(&text); err != nil || strings.Count(text.String(), "\n") != 50 || !strings.Contains(text.String(), " not recorded)") {
		t.Errorf("limit 50: got text (%v)\n%s\nwant 50 lines, nodes not recorded said", err, text.String())
	}
	for _, o := range []CCNSTreeOptions{{Depth: 0}, {Depth: MaxCCNSTreeDepth + 1}, {Depth: 2, Limit: -1}} {
		if _, err := TraceCCNS(ctx, g, o); err == nil {
			t.Errorf("options %+v: got no error", o)
		}
	}
}

// TestTraceCCNSDatabase: on the solved game of 3 stones, the database's
// values stand beside the search's at every node it knows, and where the
// search reads the database too, the root's children are exact and the
// decision unbreakable: White closes a mill at once and wins.
func TestTraceCCNSDatabase(t *testing.T) {
	db := retrotest.Solved(t, 3)
	g := ccnsTreeGame(t, "WW.B.....W....B.......B. w 0 0", 3)
	ctx := context.Background()
	for _, search := range []bool{false, true} {
		tr, err := TraceCCNS(ctx, g, CCNSTreeOptions{Depth: 2, DB: db, SearchDB: search})
		if err != nil {
			t.Fatal(err)
		}
		known := 0
		for i := range tr.Nodes {
			n := &tr.Nodes[i]
			if n.DB.Outcome() != layers.NoOutcome {
				known++
				if !strings.Contains(tr.Label(i), " db "+n.DB.String()) {
					t.Errorf("node %d: label %q lacks its database value %s", i, tr.Label(i), n.DB)
				}
			}
			if search && n.Parent == 0 && (!n.Exact || n.Decision.Conspiracy != CCNSUnbreakable) {
				t.Errorf("reading the database: root move %s: got %s, want exact and unbreakable", n.Move, tr.Label(i))
			}
		}
		if root := tr.Label(0); !strings.HasPrefix(root, "root # won in 1") || known < len(tr.Nodes)/2 || (search && !tr.Result.Exact) {
			t.Errorf("database read %v: got root %q, %d of %d nodes with database values, exact %v", search, root, known, len(tr.Nodes), tr.Result.Exact)
		}
		t.Logf("database read %v: %s", search, tr.Summary())
	}
}

// TestCCNSTreeLabel checks the marks of a node's line on a tree made by
// hand (value, exact, evaluations, target, table, conspiracy number,
// database, disagreement and nodes not recorded) and the words that
// explain them.
func TestCCNSTreeLabel(t *testing.T) {
	root := muehle.NewPosition(muehle.StonesPerSide)
	d6 := root.Moves()[0]
	tr := &CCNSTree{Nodes: []CCNSNode{
		{TreeLink: TreeLink{Pos: root, Move: muehle.NoMove, Parent: -1, Children: []int{1, 2, 3}}, Attr: "#", Value: 12, Evals: 2,
			Decision: CCNSBound{Attr: "#", X: 12, Depth: 3, Conspiracy: 1}, Hidden: 40},
		{TreeLink: TreeLink{Move: d6, Ply: 1}, Attr: "≥", Value: -10, Evals: 1,
			Target: CCNSBound{Attr: "≤", X: -12, Depth: 2, Conspiracy: 2}, FromTable: true, Decision: CCNSBound{Conspiracy: 1}},
		{TreeLink: TreeLink{Move: d6, Rank: 1, Ply: 1}, Attr: "#", Value: -winScore + 3, Exact: true, Evals: 2,
			Decision: CCNSBound{Conspiracy: CCNSUnbreakable}, DB: layers.LossIn(2)},
		{TreeLink: TreeLink{Move: d6, Rank: 2, Ply: 1}, Attr: "≤", Value: -30, Evals: 1, DB: layers.Drawn},
		{TreeLink: TreeLink{Move: d6, Rank: 3, Ply: 1}, DB: layers.Drawn},
	}}
	for i, want := range []string{
		"root # +12 cn 1 (+40 not recorded)",
		"1. " + d6.String() + " ≥ -10 evals 1 target ≤ -12 δ2 γ2 (table) cn 1",
		"2. " + d6.String() + " # lost in 2 exact evals 2 cn ∞ db " + layers.LossIn(2).String(),
		"3. " + d6.String() + " ≤ -30 evals 1 cn 0 db " + layers.Drawn.String(),
		"4. " + d6.String() + " not examined db " + layers.Drawn.String(),
	} {
		if got := tr.Label(i); got != want {
			t.Errorf("node %d: got %q, want %q", i, got, want)
		}
	}
	tr.Result.Move = d6
	for _, c := range []struct {
		node int
		want string
	}{
		{0, "Value +12, a point value. The decision: the best move " + d6.String() + " at least +12, every other at most +12, with leaves at least 3 plies below; the tree holds 1 leaf-disjoint strategy for it at the move with the fewest."},
		{1, "Value at least -10, a bound. Evaluated once, cheaply, with a null window around the bound its parent's target asked about. Its last target: at most -12 with leaves at least 2 plies below, by 2 leaf-disjoint strategies. The table of fulfilled targets answered it:"},
		{2, "Value lost in 2, exact: the game's own value, never expanded. It was given no target. The root's decision asks it to be at least 0 with leaves at least 0 plies below: the tree holds strategies no change of leaves can break (exact values keep it) for that."},
		{4, "The search generated this move and never evaluated it"},
	} {
		if got := tr.Explain(c.node); !strings.HasPrefix(got, c.want) {
			t.Errorf("node %d: got explanation %q, want it to begin %q", c.node, got, c.want)
		}
	}
	// A value the database contradicts: a drawn position below a win.
	tr.Nodes[3].Value = -winScore + 5
	if !strings.HasSuffix(tr.Label(3), " ≠db") || tr.Nodes[4].Disagrees() {
		t.Errorf("got %q and a node not examined disagreeing %v; want ≠db, and no", tr.Label(3), tr.Nodes[4].Disagrees())
	}
}
