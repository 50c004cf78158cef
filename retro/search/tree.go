package search

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"muehle/layers"
	"muehle/muehle"
)

// The search tree: the alpha-beta player's own search, recorded node by
// node so that it can be shown. The recording is a tracer the searcher
// calls when one is set (search.go, alphabeta.go): the tree is that of
// the real search, with its evaluation, move ordering (removals, moves
// that block a mill, killers, history), quiescence step and database
// probes. Three enhancements are switched off for it, because they would
// turn the tree into something else: the transposition table (positions
// answered from it would be leaves without a subtree, and its moves would
// reorder the others), null-window searches (each move searched twice)
// and aspiration windows (the root searched several times). Without the
// table the value of a depth-limited search is the minimax value, which
// the same code computes with NoPruning.

// The limits of a traced search.
const (
	MaxTreeDepth     = 5    // deepest traced search: minimax beyond it takes minutes
	DefaultTreeLimit = 2000 // nodes recorded when TreeOptions.Limit is 0
)

// TreeOptions choose the search TraceTree records. Depth is in plies, 1 to
// MaxTreeDepth. Limit caps the searched nodes recorded (0:
// DefaultTreeLimit); the moves a recorded node cut are listed besides, and
// the search itself completes and counts every node. Minimax searches
// without pruning. MaxNodes, when above 0, stops a search that visits more
// nodes (all iterations counted) with ErrTreeTooLarge: minimax with its
// quiescence step can take millions. DB, when set, gives each node its
// value from the database where the layer is present and undamaged; with
// SearchDB the search reads it too, as the player with a database does
// (its values then are exact where the database knows the position, and
// the root may be decided at a lower depth).
type TreeOptions struct {
	Depth    int
	Limit    int
	Minimax  bool
	MaxNodes uint64
	DB       layers.Prober
	SearchDB bool
}

// ErrTreeTooLarge reports a traced search stopped at TreeOptions.MaxNodes.
var ErrTreeTooLarge = errors.New("search: search tree: too many nodes")

// TreeSearchOptions are the options of the player whose search TraceTree
// records: alpha-beta without table, null windows and aspiration, or with
// minimax also without pruning.
func TreeSearchOptions(minimax bool) SearchOptions {
	return SearchOptions{NoTT: true, NoPVS: true, NoAspiration: true, NoPruning: minimax}
}

// Tree is a recorded search. Nodes[0] is the root; the other nodes follow
// in the order the search visited them, each after its parent. Depth is the
// iteration recorded (iterative deepening: lower than asked when the root
// was decided sooner), Move and Value the player's result. Visited counts
// the nodes of that iteration, quiescence included, recorded or not; Total
// those of all iterations. Truncated reports that the node limit left
// nodes out.
type Tree struct {
	Nodes     []TreeNode
	Depth     int
	Move      muehle.Move
	Value     int
	Visited   uint64
	Total     uint64
	Truncated bool
	Minimax   bool
}

// TreeLink places a node in a recorded search tree, of alpha-beta (Tree)
// or of conspiracy numbers (CCNSTree): its position, the move that led to
// it from its parent (NoMove at the root) and its Rank, its place among
// the parent's moves in the order the search took them, from 0; Ply, its
// distance from the root; Parent (-1 at the root) and Children, node
// numbers in the tree's Nodes.
type TreeLink struct {
	Pos      muehle.Position
	Move     muehle.Move
	Rank     int
	Ply      int
	Parent   int
	Children []int
}

// TreeNode is one position of a recorded search, placed in the tree by
// its TreeLink. Values are from the view of the side to move at the node
// (negamax): a parent's value is the maximum of its children's values
// negated. Rank is the node's place in the parent's move ordering;
// OrderScore is the ordering's score of the move (see Ordering). Alpha and
// Beta are the window on entry, Value what the node returned: exact inside
// the window, a bound outside it (see Bound). Depth is the plies left on
// entry, 0 at the horizon; Quiescence marks the removals the search
// follows beyond the horizon. Eval is the static evaluation where the
// search computed it (HasEval). A Cut node was not searched: a sibling's
// value reached the parent's beta before its turn came; it has no window
// and no value. Hidden counts the searched nodes below the node the limit
// left out. DB is the database's value of the position, Unused when
// unknown.
type TreeNode struct {
	TreeLink
	OrderScore  int32
	Depth       int
	Quiescence  bool
	Alpha, Beta int
	Value       int
	Eval        int
	HasEval     bool
	Cut         bool
	Hidden      int
	DB          layers.Value
}

// TraceTree searches the current position of g as the alpha-beta player
// limited to o.Depth plies does (with TreeSearchOptions) and returns the
// tree of its last iteration. It returns ctx.Err() when ctx is cancelled.
func TraceTree(ctx context.Context, g *muehle.Game, o TreeOptions) (*Tree, error) {
	if o.Depth < 1 || o.Depth > MaxTreeDepth {
		return nil, fmt.Errorf("search: search tree: depth %d, want 1 to %d", o.Depth, MaxTreeDepth)
	}
	limit, err := treeLimit(o.Limit)
	if err != nil {
		return nil, err
	}
	var probe layers.Prober
	if o.SearchDB {
		probe = o.DB
	}
	a := NewAlphaBeta(Limits{Depth: o.Depth}, nil, probe)
	a.SetOptions(TreeSearchOptions(o.Minimax))
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tr := &tracer{limit: limit, maxNodes: o.MaxNodes, stop: cancel}
	a.trace = tr
	res, err := a.Search(sctx, g)
	if err != nil && tr.tooLarge && ctx.Err() == nil {
		return nil, fmt.Errorf("%w: more than %d (%s)", ErrTreeTooLarge, o.MaxNodes, g.Position())
	}
	if err != nil {
		return nil, fmt.Errorf("search: search tree of %s: %w", g.Position(), err)
	}
	t := &Tree{
		Nodes: tr.nodes, Depth: res.Depth, Move: res.Move, Value: res.Score,
		Visited: tr.visited, Total: res.Nodes, Truncated: tr.left > 0, Minimax: o.Minimax,
	}
	if o.DB != nil {
		for i := range t.Nodes {
			t.Nodes[i].DB = dbValue(o.DB, t.Nodes[i].Pos)
		}
	}
	return t, nil
}

// Len returns the number of recorded nodes.
func (t *Tree) Len() int { return len(t.Nodes) }

// Link returns the place of node i in the tree.
func (t *Tree) Link(i int) *TreeLink { return &t.Nodes[i].TreeLink }

// dbValue returns the database's value of pos, Unused where db does not
// know it (its layer missing or damaged).
func dbValue(db layers.Prober, pos muehle.Position) layers.Value {
	v, err := db.Probe(pos)
	if err != nil {
		return layers.Unused
	}
	return v
}

// tracer records a search for TraceTree. The searcher calls root at the
// start of each iteration (which starts a new tree), child before it
// searches a move, enter and leave around every node, eval when it
// evaluates, and cut when a node stops before its last move.
type tracer struct {
	limit    int
	nodes    []TreeNode
	open     []int // the nodes on the path to the current one, -1 where not recorded
	visited  uint64
	left     int // searched nodes not recorded
	recorded int // searched nodes recorded
	depth    int // of the iteration

	all      uint64 // nodes of all iterations
	maxNodes uint64 // stop beyond this many (0: never)
	stop     func() // cancels the search
	tooLarge bool   // stop was called

	move  muehle.Move // the move of the next node entered, from child
	rank  int
	score int32
}

// orderPrevBest marks the first root move of an iteration after the
// first: the best move of the iteration before (iterative deepening).
const orderPrevBest = -1

// root starts the tree of an iteration searched d plies deep.
func (t *tracer) root(pos *muehle.Position, d int, alpha, beta int32) {
	t.nodes, t.open, t.visited, t.left, t.recorded = t.nodes[:0], t.open[:0], 0, 0, 0
	t.move, t.rank, t.score = muehle.NoMove, 0, 0
	t.depth = d
	t.enter(pos, d, alpha, beta, false)
}

// child announces the move the next node is reached by: its rank in the
// ordering and the ordering's score.
func (t *tracer) child(m muehle.Move, rank int, score int32) {
	if len(t.open) == 1 && rank == 0 && t.depth > 1 {
		score = orderPrevBest
	}
	t.move, t.rank, t.score = m, rank, score
}

// top returns the innermost open node, -1 when it is not recorded.
func (t *tracer) top() int {
	if len(t.open) == 0 {
		return -1
	}
	return t.open[len(t.open)-1]
}

// enter opens a node searched depth plies deep in (alpha, beta).
func (t *tracer) enter(pos *muehle.Position, depth int, alpha, beta int32, q bool) {
	t.visited++
	t.all++
	if t.maxNodes > 0 && t.all > t.maxNodes && !t.tooLarge {
		t.tooLarge = true
		t.stop()
	}
	parent := t.top()
	if t.recorded >= t.limit || (parent < 0 && len(t.open) > 0) {
		t.left++
		for i := len(t.open) - 1; i >= 0; i-- {
			if j := t.open[i]; j >= 0 {
				t.nodes[j].Hidden++
				break
			}
		}
		t.open = append(t.open, -1)
		return
	}
	t.recorded++
	i := len(t.nodes)
	t.nodes = append(t.nodes, TreeNode{
		TreeLink:   TreeLink{Pos: *pos, Move: t.move, Rank: t.rank, Ply: len(t.open), Parent: parent},
		OrderScore: t.score, Depth: depth, Quiescence: q,
		Alpha: int(alpha), Beta: int(beta),
	})
	if parent >= 0 {
		t.nodes[parent].Children = append(t.nodes[parent].Children, i)
	}
	t.open = append(t.open, i)
}

// leave closes the current node with the value it returns. A node at the
// horizon whose evaluation reached beta although it could close a mill
// did not search its removals (stand pat): they are recorded as cut.
func (t *tracer) leave(v int32) {
	if i := t.top(); i >= 0 {
		n := &t.nodes[i]
		n.Value = int(v)
		if n.HasEval && len(n.Children) == 0 && n.Value >= n.Beta && canCloseMill(&n.Pos) {
			var buf [muehle.MaxMoves]muehle.Move
			t.cutRemovals(n.Pos.AppendMoves(buf[:0]))
		}
	}
	if len(t.open) > 0 {
		t.open = t.open[:len(t.open)-1]
	}
}

// eval records the static evaluation of the current node.
func (t *tracer) eval(v int32) {
	if i := t.top(); i >= 0 {
		t.nodes[i].Eval, t.nodes[i].HasEval = int(v), true
	}
}

// cut records the moves the current node did not search after a cut-off,
// with their ordering scores, in the order the search would have taken
// them.
func (t *tracer) cut(rest []muehle.Move, scores []int32) {
	p := t.top()
	if p < 0 {
		return
	}
	ms, sc := slices.Clone(rest), slices.Clone(scores)
	for i := range ms {
		m := pickBest(ms, sc, i)
		t.addCut(p, m, sc[i])
	}
}

// cutRemovals records the removals among rest as not searched by the
// quiescence step of the current node.
func (t *tracer) cutRemovals(rest []muehle.Move) {
	p := t.top()
	if p < 0 {
		return
	}
	for _, m := range rest {
		if m.IsRemoval() {
			t.addCut(p, m, orderRemoval)
		}
	}
}

// addCut appends a cut child reached by m to node p; its rank follows
// those of p's other children.
func (t *tracer) addCut(p int, m muehle.Move, score int32) {
	n := &t.nodes[p]
	rank := 0
	if k := len(n.Children); k > 0 {
		rank = t.nodes[n.Children[k-1]].Rank + 1
	}
	i := len(t.nodes)
	t.nodes = append(t.nodes, TreeNode{
		TreeLink:   TreeLink{Pos: n.Pos.Play(m), Move: m, Rank: rank, Ply: n.Ply + 1, Parent: p},
		OrderScore: score, Depth: max(n.Depth-1, 0), Quiescence: n.Depth <= 0,
		Cut: true,
	})
	n = &t.nodes[p] // append may have moved the nodes
	n.Children = append(n.Children, i)
}
