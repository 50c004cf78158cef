package search

import (
	"fmt"
	"io"
	"strings"
)

// The text form of a recorded conspiracy number search (ccns_tree.go), in
// the manner of the alpha-beta tree's (tree_text.go), whose score text,
// disagreement with the database and indented walk it shares.

// Examined reports whether the search evaluated the node; a move it
// generated but never examined has no value.
func (n *CCNSNode) Examined() bool { return n.Attr != "" }

// Disagrees reports whether the node's value contradicts the database's,
// as TreeNode.Disagrees says: "≤" bounds the value from above, "≥" from
// below, "#" from both sides.
func (n *CCNSNode) Disagrees() bool {
	return n.Examined() && disagrees(n.DB, n.Value, n.Attr != "≥", n.Attr != "≤")
}

// Text renders the bound at ply plies below the root: "≤ -35 δ2 γ1" as a
// target, "≥ +10 δ1 cn 2" as a decision.
func (b CCNSBound) Text(ply int, target bool) string {
	if target {
		return fmt.Sprintf("%s %s δ%d γ%d", b.Attr, ScoreText(b.X, ply), b.Depth, b.Conspiracy)
	}
	return fmt.Sprintf("%s %s δ%d cn %s", b.Attr, ScoreText(b.X, ply), b.Depth, ConspiracyText(b.Conspiracy))
}

// ConspiracyText renders a number of leaf-disjoint strategies: "2", or
// "∞" for CCNSUnbreakable.
func ConspiracyText(cn int) string {
	if cn >= CCNSUnbreakable {
		return "∞"
	}
	return fmt.Sprint(cn)
}

// Label describes node i in one line: rank and move, value, exact,
// evaluations, last target, conspiracy number for the root's decision,
// database value and marks, e.g. "2. d2-d3 ≥ +40 evals 1 target ≥ +35 δ2 γ1
// cn 1 db won in 11 ≠db", "4. b6 # -12 evals 2 target ≥ -12 δ3 γ2
// (table) cn 0", or "3. g7 not examined db won in 3".
func (t *CCNSTree) Label(i int) string {
	n := &t.Nodes[i]
	var b strings.Builder
	if n.Ply == 0 {
		b.WriteString("root")
	} else {
		fmt.Fprintf(&b, "%d. %s", n.Rank+1, n.Pos.Board().MoveString(n.Move))
	}
	if n.Examined() {
		t.writeSearched(&b, n)
	} else {
		b.WriteString(" not examined")
	}
	writeLabelEnd(&b, n.DB, n.Disagrees(), n.Hidden)
	return b.String()
}

// writeSearched writes what the search knows of examined node n: value,
// exact, evaluations, target, table and conspiracy number.
func (t *CCNSTree) writeSearched(b *strings.Builder, n *CCNSNode) {
	fmt.Fprintf(b, " %s %s", n.Attr, ScoreText(n.Value, n.Ply))
	if n.Exact {
		b.WriteString(" exact")
	}
	if n.Ply > 0 {
		fmt.Fprintf(b, " evals %d", n.Evals)
	}
	if n.Target.Attr != "" {
		fmt.Fprintf(b, " target %s", n.Target.Text(n.Ply, true))
	}
	if n.FromTable {
		b.WriteString(" (table)")
	}
	fmt.Fprintf(b, " cn %s", ConspiracyText(n.Decision.Conspiracy))
}

// Explain says in words what node i's line means: its value, its last
// target, and the strategies the tree holds for the root's decision.
func (t *CCNSTree) Explain(i int) string {
	n := &t.Nodes[i]
	if !n.Examined() {
		return "The search generated this move and never evaluated it: it has no value, and no strategy passes through it."
	}
	ply := n.Ply
	var b strings.Builder
	switch {
	case n.Exact:
		fmt.Fprintf(&b, "Value %s, exact: the game's own value, never expanded.", ScoreText(n.Value, ply))
	case n.Attr == cnPoint.String():
		fmt.Fprintf(&b, "Value %s, a point value.", ScoreText(n.Value, ply))
	default:
		fmt.Fprintf(&b, "Value %s %s, a bound.", boundWords(n.Attr), ScoreText(n.Value, ply))
	}
	switch {
	case ply == 0:
	case n.Evals == 1:
		b.WriteString(" Evaluated once, cheaply, with a null window around the bound its parent's target asked about.")
	case !n.Exact:
		b.WriteString(" Evaluated twice, the second time for a point value.")
	}
	if g := n.Target; g.Attr != "" {
		fmt.Fprintf(&b, " Its last target: %s %s with leaves at least %s below, by %s.",
			boundWords(g.Attr), ScoreText(g.X, ply), plies(g.Depth), strategies(g.Conspiracy))
		if n.FromTable {
			b.WriteString(" The table of fulfilled targets answered it: the position fulfilled it elsewhere in the tree, so this node was not searched for it.")
		}
	} else if ply > 0 {
		b.WriteString(" It was given no target.")
	}
	d := n.Decision
	if ply == 0 {
		fmt.Fprintf(&b, " The decision: the best move %s at least %s, every other at most %s, with leaves at least %s below; the tree holds %s for it at the move with the fewest.",
			t.Result.Move, ScoreText(d.X, 0), ScoreText(d.X, 0), plies(d.Depth), strategies(d.Conspiracy))
		return b.String()
	}
	fmt.Fprintf(&b, " The root's decision asks it to be %s %s with leaves at least %s below: the tree holds %s for that.",
		boundWords(d.Attr), ScoreText(d.X, ply), plies(d.Depth), strategies(d.Conspiracy))
	return b.String()
}

// boundWords says a bound's attribute in words: "at most" or "at least".
func boundWords(attr string) string {
	if attr == cnLE.String() {
		return "at most"
	}
	return "at least"
}

// plies says a number of plies: "1 ply", "3 plies".
func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return fmt.Sprintf("%d plies", n)
}

// strategies says a number of leaf-disjoint strategies in words.
func strategies(cn int) string {
	switch {
	case cn >= CCNSUnbreakable:
		return "strategies no change of leaves can break (exact values keep it)"
	case cn == 1:
		return "1 leaf-disjoint strategy"
	}
	return fmt.Sprintf("%d leaf-disjoint strategies", cn)
}

// Summary describes the search in one line, e.g. "conspiracy numbers,
// pairs to (4,2): best d6, value +35, safe by 2; 812 nodes, 431
// evaluations (10233 positions in their searches)".
func (t *CCNSTree) Summary() string {
	r := t.Result
	pairs := "no pair completed"
	if t.Pairs > 0 {
		pairs = fmt.Sprintf("pairs to %s", cnStep{r.Depth, r.Conspiracy})
	}
	if t.Pairs < t.Asked {
		pairs += fmt.Sprintf(" (asked to %s)", cnSequence(t.Asked-1))
	}
	s := fmt.Sprintf("conspiracy numbers, %s: best %s, value %s, safe by %s; %d nodes, %d evaluations (%d positions in their searches)",
		pairs, r.Move, ScoreText(r.Score, 0), ConspiracyText(t.Nodes[0].Decision.Conspiracy), r.Nodes, r.Evaluations, r.SearchNodes)
	if t.Truncated {
		s += fmt.Sprintf(", %d recorded", len(t.Nodes))
	}
	return s
}

// WriteText writes the tree as indented text, two spaces a ply, one node a
// line (Label), children in the order the search examined them, the moves
// it never examined after them.
func (t *CCNSTree) WriteText(w io.Writer) error { return writeTree(w, t) }

// CCNSTreeLegend explains the marks of CCNSTree.Label, for the command
// line and the window.
const CCNSTreeLegend = `Values are from the view of the side to move at each node (negamax); a
stone is worth 100. "≥ z" is a lower bound, "≤ z" an upper bound (a cheap
evaluation with a null window, or merged from the children's values),
"# z" a point value (both); "exact" marks a game-theoretic value (the
database, the end of the game, a repetition, a proven win or loss), never
expanded. "evals" counts the node's evaluations (1: a bound, 2: a point
value). "target a x δd γc" is the last target the search gave the node:
show the bound a x with leaves at least d plies below by c leaf-disjoint
strategies; "(table)": the table of fulfilled targets answered it, as the
position fulfilled it elsewhere in the tree (a transposition). "cn"
counts the leaf-disjoint strategies the tree holds below the node for the
root's decision (the best move at least its value, the others at most),
seen from the node: the fewest leaves whose values must change for it to
fail, "∞" where exact values keep it; the root's is the least of its
moves'. Below a "(table)" node the count misses the strategies that lie
elsewhere. "not examined" marks a move generated but never evaluated,
"db" the database's value, "≠db" a value the database contradicts.`
