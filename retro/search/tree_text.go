package search

import (
	"fmt"
	"io"
	"strings"

	"muehle/layers"
)

// ScoreText renders a search score of a node ply plies below the root,
// from the view of the node's side to move: "+35" or "-120" (an
// evaluation, a stone is 100), "0", "won in 3" or "lost in 2" (proven, in
// plies from the node, as the database counts), "+∞" or "-∞" (an open
// window).
func ScoreText(sc, ply int) string {
	switch {
	case sc >= infScore:
		return "+∞"
	case sc <= -infScore:
		return "-∞"
	case sc >= winBound:
		return fmt.Sprintf("won in %d", winScore-sc-ply)
	case sc <= -winBound:
		return fmt.Sprintf("lost in %d", winScore+sc-ply)
	case sc == 0:
		return "0"
	}
	return fmt.Sprintf("%+d", sc)
}

// Bound says what the node's Value is: "=" the exact value, "≥" a lower
// bound (the node failed high: a move reached beta and the rest were cut),
// "≤" an upper bound (it failed low: no move reached alpha, whose value
// the parent already had). A node without children (a decided position,
// or the horizon without a mill to close) is exact. Cut nodes have no
// value: "".
func (n *TreeNode) Bound() string {
	switch {
	case n.Cut:
		return ""
	case len(n.Children) == 0:
		return "="
	case n.Value >= n.Beta:
		return "≥"
	case n.Value <= n.Alpha:
		return "≤"
	}
	return "="
}

// Disagrees reports whether the search's value contradicts the database's
// (the horizon effect when the search stopped too early to see it): the
// search rates a position the database counts as won below 0, a lost one
// above 0, or calls a drawn one won or lost. A bound counts only where it
// proves the contradiction (an upper bound below 0 for a won position, a
// lower bound above 0 for a lost one).
func (n *TreeNode) Disagrees() bool {
	b := n.Bound()
	return disagrees(n.DB, n.Value, b == "=" || b == "≤", b == "=" || b == "≥")
}

// disagrees reports whether a search's value contradicts db, the
// database's value of the node: upper says that value bounds the node's
// value from above, lower from below (both: it is exact). See
// TreeNode.Disagrees.
func disagrees(db layers.Value, value int, upper, lower bool) bool {
	switch db.Outcome() {
	case layers.Win:
		return upper && value < 0
	case layers.Loss:
		return lower && value > 0
	case layers.Draw:
		return (lower && value >= winBound) || (upper && value <= -winBound)
	}
	return false
}

// Ordering says why the move ordering put the node's move where it is:
// "removal", "blocks a mill" (a move to the empty point of an opponent's
// potential mill), "killer" (it refuted a sibling of the parent), "history
// N" (it refuted other positions, N weighs how often and how deep), "table
// move", or "best before" (at the root, the best move of the iteration
// before, searched first; the root's other moves keep the order of the
// first iteration). The root has none: "".
func (n *TreeNode) Ordering() string {
	s := n.OrderScore
	switch {
	case n.Ply == 0:
		return ""
	case s == orderPrevBest:
		return "best before"
	case s >= orderTT:
		return "table move"
	case s >= orderRemoval:
		return "removal"
	case s >= orderBlock:
		return "blocks a mill"
	case s >= orderKiller1:
		return "killer"
	}
	return fmt.Sprintf("history %d", s)
}

// Label describes node i in one line: rank, move and ordering, window,
// value, evaluation, database value and marks, e.g.
// "2. d2-d3 (killer) [-35, +∞] ≥ +40 eval +40 db won in 11 ≠db".
func (t *Tree) Label(i int) string {
	n := &t.Nodes[i]
	var b strings.Builder
	if n.Ply == 0 {
		b.WriteString("root")
	} else {
		fmt.Fprintf(&b, "%d. %s", n.Rank+1, n.Pos.Board().MoveString(n.Move))
		if o := n.Ordering(); o != "" {
			fmt.Fprintf(&b, " (%s)", o)
		}
	}
	if n.Quiescence && n.Ply > 0 {
		b.WriteString(" q")
	}
	if n.Cut {
		b.WriteString(" cut")
		return b.String()
	}
	fmt.Fprintf(&b, " [%s, %s] %s %s", ScoreText(n.Alpha, n.Ply), ScoreText(n.Beta, n.Ply), n.Bound(), ScoreText(n.Value, n.Ply))
	if n.HasEval {
		fmt.Fprintf(&b, " eval %s", ScoreText(n.Eval, n.Ply))
	}
	writeLabelEnd(&b, n.DB, n.Disagrees(), n.Hidden)
	return b.String()
}

// Summary describes the search in one line, e.g. "alpha-beta, depth 3:
// best d2-d3, value +35; 412 nodes (1240 in all iterations)".
func (t *Tree) Summary() string {
	kind := "alpha-beta"
	if t.Minimax {
		kind = "minimax"
	}
	best := t.Move.String()
	if len(t.Nodes) > 0 {
		best = t.Nodes[0].Pos.Board().MoveString(t.Move) // named on the root's board
	}
	s := fmt.Sprintf("%s, depth %d: best %s, value %s; %d nodes (%d in all iterations)",
		kind, t.Depth, best, ScoreText(t.Value, 0), t.Visited, t.Total)
	if t.Truncated {
		s += fmt.Sprintf(", %d recorded", t.Searched())
	}
	return s
}

// Searched counts the recorded nodes that were searched, not cut.
func (t *Tree) Searched() int {
	n := 0
	for i := range t.Nodes {
		if !t.Nodes[i].Cut {
			n++
		}
	}
	return n
}

// WriteText writes the tree as indented text, two spaces a ply, one node a
// line (Label), children in the order the search took them, cut moves
// after them.
func (t *Tree) WriteText(w io.Writer) error { return writeTree(w, t) }

// labeledTree is a recorded search tree as writeTree walks it: Tree and
// CCNSTree.
type labeledTree interface {
	Len() int
	Link(i int) *TreeLink
	Label(i int) string
}

// writeTree writes t as indented text, two spaces a ply, one node a line
// (its Label), each node's children after it in their order.
func writeTree(w io.Writer, t labeledTree) error {
	var walk func(i int) error
	walk = func(i int) error {
		n := t.Link(i)
		if _, err := fmt.Fprintf(w, "%s%s\n", strings.Repeat("  ", n.Ply), t.Label(i)); err != nil {
			return err
		}
		for _, c := range n.Children {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if t.Len() == 0 {
		return nil
	}
	return walk(0)
}

// TreeLegend explains the marks of Label, for the command line and the
// window.
const TreeLegend = `Values are from the view of the side to move at each node (negamax: a
node's value is the best of its children's values negated); a stone is
worth 100. [α, β] is the window the node was searched in; "=" marks an
exact value, "≥" a lower bound (a move reached β, the moves after it were
cut), "≤" an upper bound. "q" marks the removals followed beyond the
horizon, "cut" a move alpha-beta did not search, "db" the database's
value, "≠db" a search value the database contradicts (the horizon effect).`

// writeLabelEnd ends a node's label in either tree: the database's value
// where it knows the position, "≠db" where it contradicts the search, and
// the nodes below left out of the record.
func writeLabelEnd(b *strings.Builder, db layers.Value, disagrees bool, hidden int) {
	if db.Outcome() != layers.NoOutcome {
		fmt.Fprintf(b, " db %s", db)
	}
	if disagrees {
		b.WriteString(" ≠db")
	}
	if hidden > 0 {
		fmt.Fprintf(b, " (+%d not recorded)", hidden)
	}
}
