package search

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// The conspiracy number search's tree: the search of the CCNS player
// (ccns_player.go), recorded node by node so that it can be shown beside
// the alpha-beta tree (tree.go). The search is the player's own, bounded
// by the pairs of its safety sequence instead of the clock, so that it
// gives the same tree every time; its tree is kept in memory anyway, and
// the recording reads it when the search is done. The one thing the
// search itself keeps for it is each node's last target (cnSearch.aim,
// called only when the search is traced).
//
// Each node is shown with what the search knows of it: its value, whether
// it is exact, its evaluations, its last target, and its conspiracy number
// for the root's decision: how many leaf-disjoint strategies the tree
// holds below it for the bound the decision asks of it (cnSearch.
// conspiracy). The decision is the last pair's: the best move's child at
// most -x in its own view, every other child at least -x, and below, the
// bound flipped at every ply with one ply less to go.

// The limits of a recorded conspiracy number search.
const (
	MaxCCNSTreeDepth    = 8           // deepest pair of the safety sequence recorded
	DefaultCCNSTreeTime = time.Minute // budget when CCNSTreeOptions.Time is 0
)

// CCNSUnbreakable is the conspiracy number of a bound that exact values
// keep: no change of leaves breaks it.
const CCNSUnbreakable = math.MaxInt32

// CCNSTreeOptions choose the search TraceCCNS records. The safety sequence
// runs through its pairs of depth at most Depth, 1 to MaxCCNSTreeDepth:
// (1,1) to (3,1) for 3, to (4,2) for 4. Time is the player's budget (0:
// DefaultCCNSTreeTime), which stops the sequence early only when it does
// not suffice; MaxNodes bounds the search tree (0: CCNSMaxNodes). Limit
// caps the nodes recorded (0: DefaultTreeLimit). DB, when set, gives each
// node its value from the database; with SearchDB the search reads it too,
// as the player with a database does.
type CCNSTreeOptions struct {
	Depth    int
	Time     time.Duration
	MaxNodes int
	Limit    int
	DB       layers.Prober
	SearchDB bool
}

// CCNSTree is a recorded conspiracy number search. Nodes[0] is the root;
// the other nodes follow in the order the search generated them, each
// after its parent, a node's children in the order it examines them (best
// first by the static evaluation). Result is the player's result for the
// search; Pairs counts the pairs of the safety sequence completed, Asked
// those the options asked for (fewer are completed when the root is
// decided sooner, or the budget or the node bound stops the search).
// Truncated reports that the node limit left nodes out.
type CCNSTree struct {
	Nodes     []CCNSNode
	Result    CCNSResult
	Pairs     int
	Asked     int
	Truncated bool
}

// CCNSNode is one node of a recorded conspiracy number search, placed in
// the tree by its TreeLink. Values are from the view of the side to move
// at the node (negamax). Attr and Value are the node's value: "≤" an upper
// bound, "≥" a lower bound, "#" a point value (both); "" for a move the
// search generated but never examined, which has no value. Exact marks a
// game-theoretic value (the database, the end of the game, a repetition, a
// proven win or loss): such a node is never expanded. Evals counts its
// evaluations: 1 a cheap one with a null window (a bound), 2 a point
// value. Target is the last target the search gave the node (Attr "":
// none); FromTable reports that the table of fulfilled targets answered
// it: the position was shown to fulfil it elsewhere in the tree (a
// transposition), and this node was not searched for it. Decision is the
// root's decision seen from the node, with the leaf-disjoint strategies
// the tree holds for it (see CCNSBound). Hidden counts the nodes below it
// the limit left out. DB is the database's value of the position, Unused
// when unknown.
type CCNSNode struct {
	TreeLink
	Attr      string
	Value     int
	Exact     bool
	Evals     int
	Target    CCNSBound
	FromTable bool
	Decision  CCNSBound
	Hidden    int
	DB        layers.Value
}

// CCNSBound is a bound with leaves at least Depth plies below its node and
// a number of leaf-disjoint strategies, in the view of the node's side to
// move: the value is at most X (Attr "≤") or at least X ("≥"). In a
// target, Conspiracy is the number of strategies it asks for (γ, with δ
// the Depth); in a decision, the number the tree holds (CCNSUnbreakable
// where exact values keep the bound). The root's decision has Attr "#":
// its best move is worth at least X and the others at most X, its
// Conspiracy the least of its moves' (the pair's C when the move is safe).
type CCNSBound struct {
	Attr       string
	X          int
	Depth      int
	Conspiracy int
}

// TraceCCNS searches the current position of g as the conspiracy number
// player does, through the pairs of the safety sequence o asks for, and
// returns its tree. It returns ctx.Err() when ctx is cancelled.
func TraceCCNS(ctx context.Context, g *muehle.Game, o CCNSTreeOptions) (*CCNSTree, error) {
	if o.Depth < 1 || o.Depth > MaxCCNSTreeDepth {
		return nil, fmt.Errorf("search: ccns tree: depth %d, want 1 to %d", o.Depth, MaxCCNSTreeDepth)
	}
	limit, err := treeLimit(o.Limit)
	if err != nil {
		return nil, err
	}
	var probe layers.Prober
	if o.SearchDB {
		probe = o.DB
	}
	c := NewCCNS(cmp.Or(o.Time, DefaultCCNSTreeTime), nil, probe)
	c.MaxNodes, c.Steps = o.MaxNodes, cnStepsTo(o.Depth)
	run, err := c.run(ctx, g, true)
	if err != nil {
		return nil, fmt.Errorf("search: ccns tree of %s: %w", g.Position(), err)
	}
	t := &CCNSTree{
		Nodes:  run.cs.record(limit, run.best, run.x, run.step),
		Result: run.res, Pairs: run.pairs, Asked: c.Steps, Truncated: len(run.cs.nodes) > limit,
	}
	for i := range t.Nodes {
		n, e := &t.Nodes[i], &c.ps[run.cs.pos[i]]
		n.Pos, n.Move = e.pos, e.move
		if o.DB != nil {
			n.DB = dbValue(o.DB, n.Pos)
		}
	}
	t.Nodes[0].Move = muehle.NoMove
	return t, nil
}

// Len returns the number of recorded nodes.
func (t *CCNSTree) Len() int { return len(t.Nodes) }

// Link returns the place of node i in the tree.
func (t *CCNSTree) Link(i int) *TreeLink { return &t.Nodes[i].TreeLink }

// cnAim is the last target a node was given, and whether the table of
// fulfilled targets answered it.
type cnAim struct {
	t     cnTarget
	table bool
}

// aim records t as the last target of node v; cc2s calls it when the
// search is traced, and marks the aim answered by the table itself.
func (s *cnSearch[P]) aim(v int32, t cnTarget) {
	if int(v) >= len(s.aims) {
		s.aims = append(s.aims, make([]cnAim, len(s.nodes)-len(s.aims))...)
	}
	s.aims[v] = cnAim{t: t}
}

// record returns the first limit nodes of the tree by number (each after
// its parent) as CCNSNodes, all but their positions and moves, which
// belong to the game. best, x and step are the root's decision: the best
// child, its value x and the last pair completed (zero: none).
func (s *cnSearch[P]) record(limit int, best, x int32, step cnStep) []CCNSNode {
	parent := s.parents()
	k := min(limit, len(s.nodes))
	nodes := make([]CCNSNode, k)
	decision := make([]cnTarget, k)
	for v := range int32(k) {
		r, n := &nodes[v], &s.nodes[v]
		r.Parent = int(parent[v])
		if p := parent[v]; p >= 0 {
			nodes[p].Children = append(nodes[p].Children, int(v))
			r.Ply, r.Rank = nodes[p].Ply+1, int(v-s.nodes[p].first)
			decision[v] = s.decisionBelow(p, v, decision[p], best, x, step)
			decision[v].cn = s.conspiracy(v, decision[v].a, decision[v].x, decision[v].depth, CCNSUnbreakable, false)
			r.Decision = decision[v].bound()
		}
		if n.evals > 0 {
			r.Attr, r.Value, r.Exact, r.Evals = n.w.a.String(), int(n.w.z), n.exact, int(n.evals)
		}
		if int(v) < len(s.aims) && s.aims[v].t.a != 0 {
			r.Target, r.FromTable = s.aims[v].t.bound(), s.aims[v].table
		}
	}
	nodes[0].Parent = -1
	nodes[0].Decision = CCNSBound{Attr: cnPoint.String(), X: int(x), Depth: step.Depth, Conspiracy: s.rootConspiracy(best, x, step)}
	// The nodes left out count at their nearest recorded ancestor.
	shown := make([]int32, len(s.nodes)) // the nearest recorded ancestor or self
	for v := range int32(len(s.nodes)) {
		shown[v] = v
		if int(v) >= k {
			shown[v] = shown[parent[v]]
			nodes[shown[v]].Hidden++
		}
	}
	return nodes
}

// parents returns the parent of every node of the tree, -1 for the root.
func (s *cnSearch[P]) parents() []int32 {
	parent := make([]int32, len(s.nodes))
	parent[0] = -1
	for v, n := range s.nodes {
		for c := n.first; n.gen && c < n.first+n.n; c++ {
			parent[c] = int32(v)
		}
	}
	return parent
}

// decisionBelow returns the root's decision (best child, its value x, the
// last pair step) as the bound of node v, a child of p, whose own is d.
// The best child must be at most -x in its view, every other child at
// least -x, with leaves step.Depth-1 plies below; below them each child's
// bound is its parent's flipped, one ply less deep.
func (s *cnSearch[P]) decisionBelow(p, v int32, d cnTarget, best, x int32, step cnStep) cnTarget {
	if p == 0 {
		d = cnTarget{a: cnGE, x: x, depth: step.Depth}
		if v != best {
			d.a = cnLE
		}
	}
	return d.forChild(d.depth-1, 0)
}

// rootConspiracy returns the least number of leaf-disjoint strategies
// the tree holds for the root's decision among the root's children.
func (s *cnSearch[P]) rootConspiracy(best, x int32, step cnStep) int {
	n := s.nodes[0]
	least := CCNSUnbreakable
	for c := n.first; c < n.first+n.n; c++ {
		d := s.decisionBelow(0, c, cnTarget{}, best, x, step)
		least = min(least, s.conspiracy(c, d.a, d.x, d.depth, least, false))
	}
	if n.n == 0 {
		return 0
	}
	return least
}

// bound returns t as a CCNSBound.
func (t cnTarget) bound() CCNSBound {
	return CCNSBound{Attr: t.a.String(), X: int(t.x), Depth: t.depth, Conspiracy: t.cn}
}

// treeLimit returns the node limit of a recorded search: limit,
// DefaultTreeLimit for 0, an error below 0.
func treeLimit(limit int) (int, error) {
	switch {
	case limit < 0:
		return 0, fmt.Errorf("search: search tree: node limit %d, want 0 (default) or more", limit)
	case limit == 0:
		return DefaultTreeLimit, nil
	}
	return limit, nil
}
