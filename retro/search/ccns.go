package search

import "fmt"

// The core of controlled conspiracy number search (Cc2s, after U. Lorenz,
// Controlled Conspiracy Number Search, 2000; the player is in
// ccns_player.go). It runs on any game that implements cnGame, so that the
// tests can run it on small synthetic trees with known values.
//
// Everything is in negamax form: a node's value and its target are from the
// view of the side to move at that node, and a child's value seen from its
// parent is flipped (the bound reversed, the number negated). The seed
// writes the same procedures for MAX nodes and says "swap ≤ and ≥, max and
// min" for MIN nodes; the flip does exactly that.
//
// A value (a, z) says: a hull below the node has a minimax value at most z
// (a = ≤), at least z (a = ≥), or one hull at most and one at least z
// (a = #, a "point value"). A target (a, x, δ, γ) asks a node to show the
// bound (a, x) with a hull whose leaves lie at least δ plies below it, by
// at least γ leaf-disjoint strategies (γ is the target's conspiracy
// number). A node with a ≥ target is a CUT node (one child suffices per
// strategy), with a ≤ target an ALL node (every child must keep the bound).

// cnAttr is the attribute of a value: ≤, ≥ or #.
type cnAttr uint8

// The attributes; the zero cnAttr marks a node never evaluated.
const (
	cnLE    cnAttr = iota + 1 // an upper bound
	cnGE                      // a lower bound
	cnPoint                   // both: a point value
)

// String returns "≤", "≥" or "#".
func (a cnAttr) String() string {
	switch a {
	case cnLE:
		return "≤"
	case cnGE:
		return "≥"
	case cnPoint:
		return "#"
	}
	return "?"
}

// swap returns the attribute seen from the other side.
func (a cnAttr) swap() cnAttr {
	switch a {
	case cnLE:
		return cnGE
	case cnGE:
		return cnLE
	}
	return a
}

// cnValue is a node's value (a, z), from the view of its side to move.
type cnValue struct {
	a cnAttr
	z int32
}

// flip returns the value seen from the parent.
func (w cnValue) flip() cnValue { return cnValue{w.a.swap(), -w.z} }

// supports reports whether w supports the bound (a, x): it shows it
// already (the seed's "unterstützt", for a target's ≤ or ≥ value).
func (w cnValue) supports(a cnAttr, x int32) bool {
	switch a {
	case cnGE:
		return (w.a == cnGE || w.a == cnPoint) && w.z >= x
	case cnLE:
		return (w.a == cnLE || w.a == cnPoint) && w.z <= x
	}
	return false
}

// contradicts reports whether w contradicts the bound (a, x): a node with
// such a value is not OnTarget.
func (w cnValue) contradicts(a cnAttr, x int32) bool {
	switch a {
	case cnGE:
		return x > w.z && (w.a == cnPoint || w.a == cnLE)
	case cnLE:
		return x < w.z && (w.a == cnPoint || w.a == cnGE)
	}
	return false
}

// cnTarget is a target (a, x, depth, cn) from the view of the side to move
// at its node.
type cnTarget struct {
	a     cnAttr // cnLE or cnGE: the search makes no # targets
	x     int32
	depth int // δ, the remaining depth
	cn    int // γ, the leaf-disjoint strategies asked for
}

// forChild returns the target a child gets from t, in the child's view.
func (t cnTarget) forChild(depth, cn int) cnTarget {
	return cnTarget{a: t.a.swap(), x: -t.x, depth: max(depth, 0), cn: cn}
}

// cnGame is what the search needs of a game. P names a position.
type cnGame[P any] interface {
	// Children appends the children of p to dst in the order the search
	// examines them. It is called only for a position Evaluate did not
	// call exact.
	Children(p P, dst []P) []P
	// Evaluate scores p for its side to move in the window (alpha, beta),
	// fail-soft: a score at or below alpha is an upper bound, at or above
	// beta a lower bound. exact reports a game-theoretic value (the end of
	// the game, the database, a repetition): such a node is never
	// expanded. ok is false when the search must stop (time, ctx); the
	// score is then meaningless.
	Evaluate(p P, alpha, beta int32) (z int32, exact, ok bool)
	// Key identifies p for the transposition tables; 0: not stored.
	Key(p P) uint64
}

// cnNode is a node of the search tree. Its children, once generated, are
// the nodes first to first+n-1; the first seen of them have been examined
// (the seed's Γ'(v), always a prefix of Γ(v)).
type cnNode struct {
	w     cnValue
	evals uint8 // 0: never evaluated; 1: a bound evaluation; 2: a point evaluation
	exact bool  // w is the game-theoretic value: never expanded
	gen   bool  // children generated
	first int32
	n     int32
	seen  int32
}

// cnResult is what cc2s reports.
type cnResult uint8

const (
	cnOK    cnResult = iota // the target is fulfilled
	cnNotOK                 // the node's value now contradicts the target
	cnAbort                 // the search was stopped
)

// String returns "OK", "NOT_OK" or "abort".
func (r cnResult) String() string {
	switch r {
	case cnOK:
		return "OK"
	case cnNotOK:
		return "NOT_OK"
	}
	return "abort"
}

// cnSearch is one conspiracy number search: the tree, kept across the
// iterations of the root safety sequence, and the tables.
type cnSearch[P any] struct {
	g     cnGame[P]
	nodes []cnNode
	pos   []P
	buf   []P
	tt    cnTables

	// splitBelow lets a CUT node split its conspiracy number onto two
	// children only where the target's remaining depth is below it (the
	// seed's ConNerS heuristic); 0 splits everywhere.
	splitBelow int
	// maxNodes stops the search when the tree holds that many nodes.
	maxNodes int
	// stop is polled every 64 evaluations; true stops the search.
	stop func() bool

	stopped bool
	evals   uint64 // evaluations made, bound and point

	// traced keeps each node's last target in aims (ccns_tree.go); the
	// search without it does no such work.
	traced bool
	aims   []cnAim
}

// newCNSearch returns a search of g from the root position root, with
// transposition tables of 2^ttBits entries each (0: none).
func newCNSearch[P any](g cnGame[P], root P, ttBits int) *cnSearch[P] {
	s := &cnSearch[P]{g: g, splitBelow: 0, maxNodes: 1 << 30}
	if ttBits > 0 {
		s.tt = newCNTables(ttBits)
	}
	s.nodes = append(s.nodes, cnNode{w: cnValue{cnPoint, 0}, evals: 2})
	s.pos = append(s.pos, root)
	return s
}

// poll reports whether the search must stop.
func (s *cnSearch[P]) poll() bool {
	if !s.stopped && (len(s.nodes) >= s.maxNodes || (s.stop != nil && s.evals&63 == 0 && s.stop())) {
		s.stopped = true
	}
	return s.stopped
}

// generate makes the children of v. A node without children is a leaf of
// the game and becomes exact.
func (s *cnSearch[P]) generate(v int32) {
	s.buf = s.g.Children(s.pos[v], s.buf[:0])
	first := int32(len(s.nodes))
	for _, p := range s.buf {
		s.nodes = append(s.nodes, cnNode{})
		s.pos = append(s.pos, p)
	}
	n := &s.nodes[v]
	n.gen, n.first, n.n = true, first, int32(len(s.buf))
	if n.n == 0 {
		n.exact = true
	}
}

// evaluate evaluates node v in the window (lo, hi) of its own view: a
// bound evaluation with a null window, a point evaluation with the full
// one. A node already expanded merges its children's values again
// (UpdateValue) after a point evaluation. It reports false when stopped.
func (s *cnSearch[P]) evaluate(v int32, lo, hi int32) bool {
	if s.poll() {
		return false
	}
	z, exact, ok := s.g.Evaluate(s.pos[v], lo, hi)
	if !ok {
		s.stopped = true
		return false
	}
	s.evals++
	n := &s.nodes[v]
	switch {
	case exact:
		n.w, n.exact, n.evals = cnValue{cnPoint, z}, true, 2
		return true
	case z >= hi:
		n.w = cnValue{cnGE, z}
	case z <= lo:
		n.w = cnValue{cnLE, z}
	default:
		n.w = cnValue{cnPoint, z}
	}
	n.evals++
	if lo <= -infScore && hi >= infScore {
		n.w.a, n.evals = cnPoint, 2
	}
	s.update(v)
	return true
}

// point gives v a point value unless it has one.
func (s *cnSearch[P]) point(v int32) bool {
	if s.nodes[v].w.a == cnPoint {
		return true
	}
	return s.evaluate(v, -infScore, infScore)
}

// child returns the value of child c seen from its parent.
func (s *cnSearch[P]) child(c int32) cnValue { return s.nodes[c].w.flip() }

// update is the seed's UpdateValue (Abb. 2.8) in negamax form: it merges
// the values of v's examined children into v's value. The seed leaves
// open a node whose children are all exact; here it becomes exact too.
func (s *cnSearch[P]) update(v int32) {
	n := &s.nodes[v]
	if !n.gen || n.seen == 0 || n.exact {
		return
	}
	kids := s.nodes[n.first : n.first+n.seen]
	all := n.seen == n.n
	anyGE, lowLE, allExact := false, false, all
	for i := range kids {
		w := kids[i].w.flip()
		anyGE = anyGE || w.a == cnGE
		lowLE = lowLE || (w.a == cnLE && w.z >= n.w.z)
		allExact = allExact && kids[i].exact
	}
	if allExact {
		z := int32(-infScore)
		for i := range kids {
			z = max(z, -kids[i].w.z)
		}
		n.w, n.exact, n.evals = cnValue{cnPoint, z}, true, 2
		return
	}
	if !all || anyGE || lowLE {
		if n.w.a == cnLE {
			for i := range kids {
				if w := kids[i].w.flip(); (w.a == cnGE || w.a == cnPoint) && w.z >= n.w.z {
					n.w.a = cnPoint
					break
				}
			}
		}
		z := n.w.z
		for i := range kids {
			if w := kids[i].w.flip(); w.a == cnGE || w.a == cnPoint {
				z = max(z, w.z)
			}
		}
		n.w.z = z
		return
	}
	switch n.w.a {
	case cnGE:
		n.w.a = cnPoint
	case cnLE:
		for i := range kids {
			if w := kids[i].w.flip(); w.a == cnPoint && w.z >= n.w.z {
				n.w.a = cnPoint
				break
			}
		}
	}
	z := int32(-infScore)
	for i := range kids {
		z = max(z, -kids[i].w.z)
	}
	n.w.z = z
}

// onTarget reports whether v's value does not contradict t.
func (s *cnSearch[P]) onTarget(v int32, t cnTarget) bool {
	return !s.nodes[v].w.contradicts(t.a, t.x)
}

// useful is the seed's ExaminationUseful (Abb. 2.15): whether child c of
// a node with target t should be evaluated (again): it was never
// evaluated, or its value neither supports nor contradicts t.
func (s *cnSearch[P]) useful(c int32, t cnTarget) bool {
	if s.nodes[c].evals == 0 {
		return true
	}
	w := s.child(c)
	return !w.supports(t.a, t.x) && !w.contradicts(t.a, t.x)
}

// supporters counts v's examined children whose values support t.
func (s *cnSearch[P]) supporters(v int32, t cnTarget) int {
	n := s.nodes[v]
	k := 0
	for c := n.first; c < n.first+n.seen; c++ {
		if s.child(c).supports(t.a, t.x) {
			k++
		}
	}
	return k
}

// expand is the seed's PartialExpansion (Abb. 2.14): it examines v's
// children from the left, a child never evaluated with a cheap bound
// evaluation around the target's bound, one evaluated before with a point
// evaluation. An ALL node stops when its value contradicts t; a CUT node
// stops when γ children support t. A node off target afterwards gets point
// values for its children, so that its new value is as good as it can be.
func (s *cnSearch[P]) expand(v int32, t cnTarget) {
	if !s.nodes[v].gen {
		s.generate(v)
	}
	all := t.a == cnLE
	need := max(t.cn, 1)
	n := s.nodes[v]
	for i := range n.n {
		c := n.first + i
		if s.useful(c, t) {
			var ok bool
			switch {
			case s.nodes[c].evals > 0:
				ok = s.evaluate(c, -infScore, infScore)
			case all: // the parent's window (x, x+1), seen from the child
				ok = s.evaluate(c, -t.x-1, -t.x)
			default: // (x-1, x)
				ok = s.evaluate(c, -t.x, -t.x+1)
			}
			if !ok {
				return
			}
		}
		if s.nodes[v].seen <= i {
			s.nodes[v].seen = i + 1
		}
		s.update(v)
		if s.nodes[v].exact {
			return
		}
		if all && !s.onTarget(v, t) {
			if s.point(c) {
				s.update(v)
			}
			return
		}
		if !all && s.supporters(v, t) >= need {
			return
		}
	}
	if !all && !s.onTarget(v, t) {
		for c := n.first; c < n.first+n.n; c++ {
			if !s.point(c) {
				return
			}
		}
		s.update(v)
	}
}

// cnAssign is a target given to a child.
type cnAssign struct {
	c int32
	t cnTarget
}

// split is the seed's Split (Abb. 2.13): it gives v's children targets
// such that v fulfils t when they fulfil theirs. A CUT node gives its
// target to its first supporting child, or, when t asks for γ ≥ 2
// strategies and a second child supports it too, ⌈γ/2⌉ to the first and
// ⌊γ/2⌋ to the second (the seed splits 2 into 1 and 1); the other children
// get nothing to do. An ALL node gives every child the target. ok is false
// when a CUT node has no supporting child.
func (s *cnSearch[P]) split(v int32, t cnTarget, dst []cnAssign) ([]cnAssign, bool) {
	n := s.nodes[v]
	if t.a == cnLE {
		for c := n.first; c < n.first+n.n; c++ {
			dst = append(dst, cnAssign{c, t.forChild(t.depth-1, t.cn)})
		}
		return dst, n.seen == n.n
	}
	i, k := int32(-1), int32(-1)
	for c := n.first; c < n.first+n.seen; c++ {
		if s.child(c).supports(t.a, t.x) {
			if i < 0 {
				i = c
			} else {
				k = c
				break
			}
		}
	}
	switch {
	case i < 0:
		return dst, false
	case k < 0 || t.cn <= 1 || (s.splitBelow > 0 && t.depth >= s.splitBelow):
		return append(dst, cnAssign{i, t.forChild(t.depth-1, t.cn)}), true
	}
	return append(dst, cnAssign{i, t.forChild(t.depth-1, (t.cn+1)/2)}, cnAssign{k, t.forChild(t.depth-1, t.cn/2)}), true
}

// cc2s is the seed's recursive procedure Cc2s (Abb. 2.7): it makes v
// fulfil t, or reports that v's value now contradicts t. The seed calls it
// only where v's value supports t; at the root a child's value may merely
// not contradict it, so a node with nothing left to do (exact, or a target
// of depth 0 and one strategy) gets a point value first when its value
// does not support t, and reports cnNotOK when it then contradicts t. A
// round that makes no evaluation gives up (cnNotOK): the next round would
// repeat it.
func (s *cnSearch[P]) cc2s(v int32, t cnTarget) cnResult {
	if s.traced {
		s.aim(v, t)
	}
	if s.nodes[v].exact || (t.depth <= 0 && t.cn <= 1) {
		if s.nodes[v].w.supports(t.a, t.x) {
			return cnOK
		}
		if !s.point(v) {
			return cnAbort
		}
		if s.nodes[v].w.supports(t.a, t.x) {
			return cnOK
		}
		return cnNotOK
	}
	if s.poll() {
		return cnAbort
	}
	key := s.g.Key(s.pos[v])
	if s.tt.fulfilled(key, t) {
		if s.traced {
			s.aims[v].table = true
		}
		return cnOK
	}
	var assign []cnAssign
	for {
		before := s.evals
		s.expand(v, t)
		if s.stopped {
			return cnAbort
		}
		if s.nodes[v].exact {
			if s.onTarget(v, t) {
				return cnOK
			}
			return cnNotOK
		}
		if !s.onTarget(v, t) {
			s.tt.remove(key, t)
			return cnNotOK
		}
		var ok bool
		assign, ok = s.split(v, t, assign[:0])
		if !ok {
			s.tt.remove(key, t)
			return cnNotOK
		}
		r := cnOK
		for _, a := range assign {
			r = s.cc2s(a.c, a.t)
			if r == cnAbort {
				return cnAbort
			}
			s.update(v)
			if !s.onTarget(v, t) {
				s.tt.remove(key, t)
				return cnNotOK
			}
			if r == cnNotOK {
				break
			}
		}
		if r == cnOK {
			s.tt.write(key, t)
			return cnOK
		}
		if s.evals == before {
			return cnNotOK
		}
	}
}

// initRoot generates the root's children and gives each a point value
// (DetermineMove, Abb. 2.6, lines 1-9). It reports false when stopped.
func (s *cnSearch[P]) initRoot() bool {
	if !s.nodes[0].gen {
		s.generate(0)
	}
	n := s.nodes[0]
	for c := n.first; c < n.first+n.n; c++ {
		if s.nodes[c].evals < 2 && !s.evaluate(c, -infScore, infScore) {
			return false
		}
		s.nodes[0].seen = c - n.first + 1
	}
	if _, z := s.best(); n.n > 0 {
		s.nodes[0].w = cnValue{cnPoint, z}
	}
	s.update(0)
	return true
}

// best returns the root's child with the highest value (the first of
// equals) and that value, from the root's view.
func (s *cnSearch[P]) best() (int32, int32) {
	n := s.nodes[0]
	b, z := int32(-1), int32(-infScore-1)
	for c := n.first; c < n.first+n.seen; c++ {
		if w := s.child(c); w.z > z {
			b, z = c, w.z
		}
	}
	return b, z
}

// determine is one iteration of DetermineMove (Abb. 2.6) for remaining
// depth d and conspiracy number cn: it makes the best child show a value
// of at least x-slack and every other child at most x+slack, where x is
// the best child's value, choosing a new best child whenever a child
// fails. It returns the best child, x, and cnOK when every child fulfilled
// its target, cnNotOK when a round made no evaluation (the iteration ends
// with the current best child), cnAbort when the search was stopped.
func (s *cnSearch[P]) determine(d, cn int, slack int32) (int32, int32, cnResult) {
	root := s.nodes[0]
	for {
		b, x := s.best()
		if b < 0 {
			return b, x, cnOK
		}
		before := s.evals
		ge := cnTarget{a: cnGE, x: x - slack, depth: d}
		r := s.cc2s(b, ge.forChild(d-1, cn))
		for c := root.first; c < root.first+root.n && r == cnOK; c++ {
			if c != b {
				le := cnTarget{a: cnLE, x: x + slack, depth: d}
				r = s.cc2s(c, le.forChild(d-1, cn))
			}
		}
		s.update(0)
		switch {
		case r != cnNotOK:
			return b, x, r
		case s.evals == before:
			return b, x, cnNotOK
		}
	}
}

// cnStep is a pair of the root safety sequence: the move must be safe with
// leaves at least Depth plies deep and Conspiracy leaf-disjoint strategies.
type cnStep struct{ Depth, Conspiracy int }

// cnSequence returns the i-th pair of the root safety sequence: (1,1),
// (2,1), (3,1), (4,1), then (4,2), (5,2), (6,2), … (the seed's sequence
// for chess middle games).
func cnSequence(i int) cnStep {
	if i < 4 {
		return cnStep{i + 1, 1}
	}
	return cnStep{i, 2}
}

// String returns the pair as the seed writes it: "(4,2)".
func (s cnStep) String() string { return fmt.Sprintf("(%d,%d)", s.Depth, s.Conspiracy) }

// cnStepsTo returns how many pairs of the root safety sequence ask for a
// depth of at most depth: through (3,1) for 3, through (4,2) for 4.
func cnStepsTo(depth int) int {
	i := 0
	for cnSequence(i).Depth <= depth {
		i++
	}
	return i
}

// conspiracy returns the number of leaf-disjoint strategies in the search
// tree below v that show the bound (a, x) in v's view with leaves at least
// depth plies below v, at most limit. A leaf is a node without examined
// children; it counts when its value supports the bound and it is deep
// enough. An exact node keeping the bound counts limit: no leaf change can
// move a game-theoretic value (the seed accepts such leaves, Satz 2.2-7).
// A CUT node (≥) adds its examined children's counts, an ALL node (≤)
// takes their least, 0 unless every child was examined (Satz 2.1-1, the
// recursion of Abb. 1.4 for bounds).
//
// With asLeaf, a node deep enough whose value supports the bound may also
// end a strategy although it has children: the count is then the best over
// the hulls the search tree contains, the larger of 1 and its children's
// count. This is what Cc2s ensures: a target of depth 0 and one strategy
// is fulfilled by the node's value, which UpdateValue built from a hull
// below it (Satz 2.1-2).
func (s *cnSearch[P]) conspiracy(v int32, a cnAttr, x int32, depth, limit int, asLeaf bool) int {
	n := s.nodes[v]
	own := 0
	switch {
	case !n.w.supports(a, x):
	case n.exact:
		return limit
	case depth <= 0 && (asLeaf || !n.gen || n.seen == 0):
		own = 1
	}
	if !n.gen || n.seen == 0 || limit <= 0 {
		return min(own, limit)
	}
	if a == cnGE {
		k := 0
		for c := n.first; c < n.first+n.seen && k < limit; c++ {
			k += s.conspiracy(c, cnLE, -x, depth-1, limit-k, asLeaf)
		}
		return max(own, min(k, limit))
	}
	if n.seen < n.n {
		return own
	}
	k := limit
	for c := n.first; c < n.first+n.n && k > own; c++ {
		k = min(k, s.conspiracy(c, cnGE, -x, depth-1, k, asLeaf))
	}
	return max(own, k)
}

// cnTables are the seed's transposition tables of fulfilled targets, one
// for ≤ targets and one for ≥ targets (the seed's third, for # targets,
// serves principal-variation targets this search does not make). An entry
// answers every target it implies: the same bound or a weaker one, no
// deeper and asking no more strategies.
type cnTables struct {
	t    [2][]cnEntry
	mask uint64
}

// cnEntry is a fulfilled target of the position with the key.
type cnEntry struct {
	key   uint64
	x     int32
	depth int16
	cn    int16
}

// newCNTables returns empty tables of 2^bits entries each.
func newCNTables(bits int) cnTables {
	bits = max(4, min(bits, 24))
	return cnTables{t: [2][]cnEntry{make([]cnEntry, 1<<bits), make([]cnEntry, 1<<bits)}, mask: 1<<bits - 1}
}

// slot returns the entry for key and t's attribute, nil without tables.
func (tt *cnTables) slot(key uint64, t cnTarget) *cnEntry {
	if tt.t[0] == nil || key == 0 {
		return nil
	}
	i := 0
	if t.a == cnGE {
		i = 1
	}
	return &tt.t[i][key&tt.mask]
}

// fulfilled reports whether a stored target of key implies t.
func (tt *cnTables) fulfilled(key uint64, t cnTarget) bool {
	e := tt.slot(key, t)
	if e == nil || e.key != key || int(e.depth) < t.depth || int(e.cn) < t.cn {
		return false
	}
	if t.a == cnGE {
		return e.x >= t.x
	}
	return e.x <= t.x
}

// write stores t as fulfilled at key, replacing an entry that asked for
// fewer strategies, or as many and less depth (the seed's order of
// targets), or that belongs to another position.
func (tt *cnTables) write(key uint64, t cnTarget) {
	e := tt.slot(key, t)
	if e == nil {
		return
	}
	if e.key == key && (int(e.cn) > t.cn || (int(e.cn) == t.cn && int(e.depth) > t.depth)) {
		return
	}
	*e = cnEntry{key: key, x: t.x, depth: int16(min(t.depth, 1<<14)), cn: int16(min(t.cn, 1<<14))}
}

// remove deletes the entry of key for t's attribute: a target that could
// not be kept makes the stored one doubtful (the seed's choice, Abb. 2.25).
func (tt *cnTables) remove(key uint64, t cnTarget) {
	if e := tt.slot(key, t); e != nil && e.key == key {
		*e = cnEntry{}
	}
}
