package search

import (
	"context"
	"errors"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro/playtest"
)

// treePositions are the positions of the tree tests: every phase, several
// stone counts.
func treePositions() []muehle.Position {
	ps := []muehle.Position{muehle.NewPosition(9)}
	ps = append(ps, playtest.Positions(11, 9, 3, 8, 17, 18, 25, 40, 70)...)
	ps = append(ps, playtest.Positions(12, 5, 6, 10, 14, 30, 60)...)
	ps = append(ps, playtest.Positions(13, 3, 6, 7, 12, 30)...)
	return ps
}

// mustTree traces p (a game of 9 stones starting there) or fails the test.
func mustTree(t *testing.T, p muehle.Position, o TreeOptions) *Tree {
	t.Helper()
	g, err := muehle.NewGameFrom(p, 9)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := TraceTree(context.Background(), g, o)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return tr
}

// TestTreeMatchesPlayer checks that the traced search is the player's: the
// same move and value as the alpha-beta player with TreeSearchOptions, the
// same value as the player with every enhancement (up to depth 3, where
// the table cannot change a fixed-depth value), and minimax the same value
// and move with at least as many nodes.
func TestTreeMatchesPlayer(t *testing.T) {
	maxDepth := 3
	if testenv.Race {
		maxDepth = 2
	}
	ctx := context.Background()
	for _, p := range treePositions() {
		for d := 1; d <= maxDepth; d++ {
			ab := mustTree(t, p, TreeOptions{Depth: d, Limit: 100})
			mm := mustTree(t, p, TreeOptions{Depth: d, Limit: 100, Minimax: true})
			for name, o := range map[string]SearchOptions{"tree options": TreeSearchOptions(false), "all enhancements": {TTBits: 14}} {
				a := NewAlphaBeta(Limits{Depth: d}, nil, nil)
				a.SetOptions(o)
				g, _ := muehle.NewGameFrom(p, 9)
				r, err := a.Search(ctx, g)
				if err != nil {
					t.Fatal(err)
				}
				if r.Score != ab.Value || r.Depth != ab.Depth {
					t.Errorf("%s depth %d: got tree value %d at depth %d, want the player's (%s) %d at depth %d", p, d, ab.Value, ab.Depth, name, r.Score, r.Depth)
				}
				if name == "tree options" && (r.Move != ab.Move || r.Nodes != ab.Total) {
					t.Errorf("%s depth %d: got tree move %s, %d nodes; want the player's %s, %d nodes", p, d, ab.Move, ab.Total, r.Move, r.Nodes)
				}
			}
			if ab.Nodes[0].Value != ab.Value {
				t.Errorf("%s depth %d: got root node value %d, want the search's %d", p, d, ab.Nodes[0].Value, ab.Value)
			}
			if mm.Value != ab.Value || mm.Move != ab.Move {
				t.Errorf("%s depth %d: got minimax %s %d, want alpha-beta's %s %d", p, d, mm.Move, mm.Value, ab.Move, ab.Value)
			}
			if want := refSearch(p, nil, ab.Depth, 0, true); int32(mm.Value) != want {
				t.Errorf("%s depth %d: got minimax value %d, want the reference's %d", p, d, mm.Value, want)
			}
			if ab.Visited > mm.Visited {
				t.Errorf("%s depth %d: alpha-beta visited %d nodes, minimax %d", p, d, ab.Visited, mm.Visited)
			}
		}
	}
}

// TestTreeConsistent checks every recorded tree node against alpha-beta's
// rules: a node's value is the best of its negated children (and of its
// evaluation at the horizon); each child is searched in the window the
// values before it leave; a node stops exactly at the first child that
// reaches beta, and lists every move after it as cut; a node searched
// below the horizon lists all its legal moves. Minimax has full windows
// and no cuts.
func TestTreeConsistent(t *testing.T) {
	depths := []int{2, 3}
	if testenv.Race {
		depths = []int{2}
	}
	for _, p := range treePositions() {
		for _, d := range depths {
			for _, minimax := range []bool{false, true} {
				if minimax && d > 2 {
					continue // minimax with quiescence: up to millions of nodes
				}
				tr := mustTree(t, p, TreeOptions{Depth: d, Limit: 1 << 18, Minimax: minimax})
				if minimax && tr.Truncated {
					t.Logf("%s depth %d: minimax visits %d nodes, more than recorded: not checked", p, d, tr.Visited)
					continue
				}
				if tr.Truncated || uint64(tr.Searched()) != tr.Visited {
					t.Fatalf("%s depth %d: %d of %d nodes recorded, truncated %v; want all", p, d, tr.Searched(), tr.Visited, tr.Truncated)
				}
				for i := range tr.Nodes {
					if msg := checkNode(tr, i, minimax); msg != "" {
						t.Errorf("%s depth %d minimax %v, node %d (%s): %s", p, d, minimax, i, tr.Label(i), msg)
					}
				}
			}
		}
	}
}

// checkNode returns what is wrong with node i of tr, or "".
func checkNode(tr *Tree, i int, minimax bool) string {
	n := &tr.Nodes[i]
	if n.Cut {
		if minimax {
			return "minimax cut a move"
		}
		return ""
	}
	if minimax && (n.Alpha != -infScore || n.Beta != infScore) {
		return "minimax with a narrow window"
	}
	best := -infScore
	if n.HasEval {
		best = n.Eval
	}
	alpha := n.Alpha
	if n.HasEval {
		alpha = max(alpha, n.Eval)
	}
	searched, cut := 0, 0
	for k, c := range n.Children {
		ch := &tr.Nodes[c]
		if ch.Rank != k {
			return "ranks out of order"
		}
		if ch.Cut {
			cut++
			continue
		}
		if cut > 0 {
			return "a searched move after a cut one"
		}
		searched++
		if !minimax && (ch.Alpha != -n.Beta || ch.Beta != -alpha) {
			return "child " + ch.Move.String() + " searched in the wrong window"
		}
		if best >= n.Beta {
			return "searched on after reaching beta"
		}
		best = max(best, -ch.Value)
		alpha = max(alpha, -ch.Value)
	}
	if searched > 0 || n.HasEval {
		if best != n.Value {
			return "value is not the best of its children"
		}
	}
	if cut > 0 && best < n.Beta {
		return "moves cut without reaching beta"
	}
	if n.Depth > 0 && searched > 0 && searched+cut != len(n.Pos.Moves()) {
		return "not every legal move listed"
	}
	return ""
}

// TestTreeStartPosition checks the depth-2 tree of the empty board by
// hand. One stone each on the board, the evaluation is 3 × (White's empty
// neighbours − Black's) for White to move: 3 × (deg(w) − deg(b)), whatever
// their places. Depth 1 finds d6, the first point of degree 4, so depth 2
// searches it first: all 23 replies, best b4 (degree 4), value 0. Then
// a7 (degree 2) in the window (-∞, 0) for Black: the first reply d7
// (a7's neighbour) leaves White 1 empty neighbour and Black 2, +3 for
// Black, which reaches beta: the 22 other replies are cut. Then d7: a7,
// g7 and b6 give Black -3, d6 (degree 4, beside d7) gives +3: cut after 4.
// Minimax visits 1 + 24 + 24 × 23 = 577 nodes.
func TestTreeStartPosition(t *testing.T) {
	p := muehle.NewPosition(9)
	ab := mustTree(t, p, TreeOptions{Depth: 2})
	mm := mustTree(t, p, TreeOptions{Depth: 2, Minimax: true})
	if ab.Value != 0 || ab.Move.String() != "d6" || mm.Visited != 577 {
		t.Errorf("got best %s value %d, minimax %d nodes; want d6, 0, 577", ab.Move, ab.Value, mm.Visited)
	}
	root := &ab.Nodes[0]
	for _, c := range []struct {
		rank           int
		move           string
		value          int
		bound          string
		searched, cuts int
		lastSearched   string
	}{
		{0, "d6", 0, "=", 23, 0, "g1"},
		{1, "a7", 3, "≥", 1, 22, "d7"},
		{2, "d7", 3, "≥", 4, 19, "d6"},
	} {
		n := &ab.Nodes[root.Children[c.rank]]
		searched, cuts, last := 0, 0, ""
		for _, k := range n.Children {
			if ab.Nodes[k].Cut {
				cuts++
			} else {
				searched++
				last = ab.Nodes[k].Move.String()
			}
		}
		if n.Move.String() != c.move || n.Value != c.value || n.Bound() != c.bound || searched != c.searched || cuts != c.cuts || last != c.lastSearched {
			t.Errorf("root move %d: got %s %s%d, %d searched (last %s), %d cut; want %s %s%d, %d searched (last %s), %d cut",
				c.rank+1, n.Move, n.Bound(), n.Value, searched, last, cuts, c.move, c.bound, c.value, c.searched, c.lastSearched, c.cuts)
		}
	}
	if o := ab.Nodes[root.Children[0]].Ordering(); o != "best before" {
		t.Errorf("got first root move ordered as %q, want best before", o)
	}
}

// TestTreeLimit checks that the limit stops the recording, not the search,
// and that the hidden counts add up to what was left out.
func TestTreeLimit(t *testing.T) {
	p := playtest.Positions(14, 9, 30)[0]
	full := mustTree(t, p, TreeOptions{Depth: 3, Limit: 1 << 20})
	for _, limit := range []int{1, 10, 100} {
		tr := mustTree(t, p, TreeOptions{Depth: 3, Limit: limit})
		hidden := 0
		for i := range tr.Nodes {
			hidden += tr.Nodes[i].Hidden
		}
		searched := tr.Searched()
		if searched > limit || !tr.Truncated || tr.Visited != full.Visited || uint64(searched+hidden) != tr.Visited || tr.Value != full.Value {
			t.Errorf("limit %d: got %d searched nodes recorded + %d hidden, of %d visited (truncated %v), value %d; want at most %d recorded, the rest hidden, %d visited, value %d",
				limit, searched, hidden, tr.Visited, tr.Truncated, tr.Value, limit, full.Visited, full.Value)
		}
	}
	g, _ := muehle.NewGameFrom(p, 9)
	if _, err := TraceTree(context.Background(), g, TreeOptions{Depth: 3, Minimax: true, MaxNodes: 1000}); !errors.Is(err, ErrTreeTooLarge) {
		t.Errorf("minimax with at most 1000 nodes: got error %v, want ErrTreeTooLarge", err)
	}
	if _, err := TraceTree(context.Background(), muehle.NewGame(9), TreeOptions{Depth: MaxTreeDepth + 1}); err == nil || !strings.Contains(err.Error(), "depth") {
		t.Errorf("depth %d: got error %v, want one about the depth", MaxTreeDepth+1, err)
	}
}

// TestTreeDB checks the database values beside the search's: every node
// carries the fake database's value of its position; with SearchDB the
// search returns them too and never disagrees.
func TestTreeDB(t *testing.T) {
	db := playtest.HashDB{}
	for _, p := range playtest.Positions(15, 9, 20, 50) {
		tr := mustTree(t, p, TreeOptions{Depth: 2, DB: db})
		for i := range tr.Nodes {
			n := &tr.Nodes[i]
			if want, _ := db.Probe(n.Pos); n.DB != want {
				t.Errorf("%s node %s: got db %s, want %s", p, tr.Label(i), n.DB, want)
			}
		}
		tr = mustTree(t, p, TreeOptions{Depth: 2, DB: db, SearchDB: true})
		for i, n := range tr.Nodes {
			if n.Ply > 0 && !n.Cut && n.Disagrees() {
				t.Errorf("%s: the search read the database and still disagrees: %s", p, tr.Label(i))
			}
		}
	}
}

func TestTreeDisagrees(t *testing.T) {
	for _, c := range []struct {
		value, alpha, beta int
		db                 layers.Value
		want               bool
	}{
		{-50, -infScore, infScore, layers.WinIn(5), true}, // exact, below 0, but won
		{50, -infScore, infScore, layers.WinIn(5), false}, // agrees
		{-50, -infScore, -60, layers.WinIn(5), false},     // a lower bound: could be above 0
		{-50, -40, infScore, layers.WinIn(5), true},       // an upper bound below 0
		{50, -infScore, infScore, layers.LossIn(4), true}, // exact, above 0, but lost
		{50, -infScore, 40, layers.LossIn(4), true},       // a lower bound above 0
		{50, 60, infScore, layers.LossIn(4), false},       // an upper bound: could be below 0
		{0, -infScore, infScore, layers.Drawn, false},     // agrees
		{120, -infScore, infScore, layers.Drawn, false},   // an evaluation: not a contradiction
		{winScore - 3, -infScore, infScore, layers.Drawn, true},
		{-50, -infScore, infScore, layers.Unused, false}, // unknown
	} {
		n := TreeNode{TreeLink: TreeLink{Children: []int{1}}, Value: c.value, Alpha: c.alpha, Beta: c.beta, DB: c.db}
		if got := n.Disagrees(); got != c.want {
			t.Errorf("value %d in [%d, %d], db %s: got disagrees %v, want %v", c.value, c.alpha, c.beta, c.db, got, c.want)
		}
	}
}

func TestScoreText(t *testing.T) {
	for _, c := range []struct {
		sc, ply int
		want    string
	}{
		{35, 0, "+35"},
		{-120, 3, "-120"},
		{0, 1, "0"},
		{winScore - 5, 2, "won in 3"},
		{-winScore + 4, 4, "lost in 0"},
		{infScore, 0, "+∞"},
		{-infScore, 2, "-∞"},
	} {
		if got := ScoreText(c.sc, c.ply); got != c.want {
			t.Errorf("ScoreText(%d, %d): got %q, want %q", c.sc, c.ply, got, c.want)
		}
	}
}
