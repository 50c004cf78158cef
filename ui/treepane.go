package ui

import (
	"fmt"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/retro/search"
)

// This file holds one of the two trees of the search tree window
// (searchtree.go): its heading, the tree widget with collapse and expand,
// the rows at the window's zoom, and the choice of a node to follow the
// other tree's; and what a pane needs of each kind of recorded search
// (shownTree).

// treePane shows the tree of one search: alpha-beta (i = 0), or minimax or
// conspiracy numbers (i = 1), as the window's select above the pane
// chooses. The widget's ids are the node numbers in the tree's Nodes; ""
// is the widget's own root, above the search's.
type treePane struct {
	v       *treeView
	i       int
	heading *widget.Label   // the search's name and what it found; beside the select only the latter
	box     *fyne.Container // holds the tree widget, rebuilt on zoom
	tree    *widget.Tree
	content fyne.CanvasObject // the heading above the tree

	showing shownTree       // the tree the widget shows
	open    map[string]bool // the open branches, kept across zooms
	sel     string          // the chosen node, "" for none
}

// newTreePane returns the pane of search i of v, empty.
func newTreePane(v *treeView, i int) *treePane {
	p := &treePane{v: v, i: i, open: map[string]bool{}}
	p.heading = widget.NewLabel(p.name())
	p.heading.Truncation = fyne.TextTruncateEllipsis
	p.heading.TextStyle.Bold = true
	p.box = container.NewStack()
	var top fyne.CanvasObject = p.heading
	if i == 1 {
		top = container.NewBorder(nil, nil, v.beside, nil, p.heading)
	}
	p.content = container.NewBorder(top, nil, nil, nil, p.box)
	return p
}

// name names the pane's search: alpha-beta, or the one chosen beside it.
func (p *treePane) name() string {
	if p.i == 0 {
		return treeLeft
	}
	return p.v.beside.Selected
}

// data returns the tree of the pane's search, nil while there is none.
func (p *treePane) data() shownTree {
	v := p.v
	switch {
	case p.i == 0 && v.trees[0] != nil:
		return abShown{v.trees[0]}
	case p.i == 1 && v.cn != nil:
		return cnShown{v.cn}
	case p.i == 1 && v.trees[1] != nil:
		return abShown{v.trees[1]}
	}
	return nil
}

// build makes the tree widget at the window's zoom, with the open branches
// and the chosen node of the one before.
func (p *treePane) build() {
	p.tree = widget.NewTree(p.childIDs, p.isBranch, p.newRow, p.updateRow)
	p.tree.OnBranchOpened = func(id string) { p.open[id] = true }
	p.tree.OnBranchClosed = func(id string) { delete(p.open, id) }
	for id := range p.open {
		p.tree.OpenBranch(id)
	}
	if p.sel != "" {
		p.tree.Select(p.sel)
	}
	p.tree.OnSelected = p.selected
	p.tree.OnUnselected = func(id string) {
		if p.sel == id {
			p.sel = ""
		}
	}
	p.box.Objects = []fyne.CanvasObject{p.tree}
	p.box.Refresh()
}

// show puts the search's tree into the widget when it is new, with the
// root's moves open, and the heading above it. It reports whether the
// tree was new.
func (p *treePane) show() bool {
	t := p.data()
	renewed := t != p.showing || p.tree == nil
	if renewed {
		p.showing = t
		p.open, p.sel = map[string]bool{}, ""
		if t != nil && t.Len() > 0 {
			p.open["0"] = true
		}
		p.build()
	}
	if p.i == 1 {
		p.heading.SetText(p.v.status(p.i)) // the select names the search
	} else {
		p.heading.SetText(p.v.heading(p.i))
	}
	return renewed
}

// openAll opens every branch (Expand All).
func (p *treePane) openAll() { p.tree.OpenAllBranches() }

// closeAll closes every branch (Collapse All).
func (p *treePane) closeAll() { p.tree.CloseAllBranches() }

// selected is called when the user, or follow, chooses a node.
func (p *treePane) selected(id string) {
	p.sel = id
	if !p.v.syncing {
		p.v.chose(p, id)
	}
}

// follow chooses the node of line in this tree and reveals it, or the
// node where the search left the line out (a move alpha-beta cut, one
// conspiracy numbers never examined), and says what the tree holds of it.
// Where the tree did not record the line, nothing is chosen.
func (p *treePane) follow(line []muehle.Move) string {
	name, t := p.name(), p.data()
	if t == nil || t.Len() == 0 {
		p.tree.UnselectAll()
		return name + ": no tree yet."
	}
	j, k := treeFind(t, line)
	switch {
	case k == len(line):
		p.reveal(j)
		return p.describe(t, j)
	case t.skipped(j):
		p.reveal(j)
		return t.skipNote(name, j)
	}
	p.tree.UnselectAll()
	if n, truncated := t.shown(); truncated {
		return fmt.Sprintf("%s: this line is not among the first %d nodes shown.", name, n)
	}
	return fmt.Sprintf("%s: this line is not in its tree.", name)
}

// describe says what the pane's tree t holds of node i: its line, and
// what the line means where the tree explains it.
func (p *treePane) describe(t shownTree, i int) string {
	s := p.name() + ": " + t.Label(i)
	if e := t.explain(i); e != "" {
		s += "\n" + e
	}
	return s
}

// reveal opens the branches above node j and chooses it.
func (p *treePane) reveal(j int) {
	t := p.data()
	for a := t.Link(j).Parent; a >= 0; a = t.Link(a).Parent {
		if id := strconv.Itoa(a); !p.tree.IsBranchOpen(id) {
			p.tree.OpenBranch(id)
		}
	}
	p.tree.Select(strconv.Itoa(j))
}

// node returns the node of the pane's tree with widget id id.
func (p *treePane) node(id string) (shownTree, int, bool) {
	t := p.data()
	i, err := strconv.Atoi(id)
	if t == nil || err != nil || i < 0 || i >= t.Len() {
		return nil, 0, false
	}
	return t, i, true
}

// childIDs lists the children of a node; "" is the widget's own root,
// above the search's.
func (p *treePane) childIDs(id string) []string {
	if id == "" {
		if t := p.data(); t != nil && t.Len() > 0 {
			return []string{"0"}
		}
		return nil
	}
	t, i, ok := p.node(id)
	if !ok {
		return nil
	}
	kids := t.Link(i).Children
	ids := make([]string, len(kids))
	for k, c := range kids {
		ids[k] = strconv.Itoa(c)
	}
	return ids
}

// isBranch reports whether a node has children.
func (p *treePane) isBranch(id string) bool {
	if id == "" {
		return true
	}
	t, i, ok := p.node(id)
	return ok && len(t.Link(i).Children) > 0
}

// newRow makes a row: one line of text at the zoomed size.
func (p *treePane) newRow(bool) fyne.CanvasObject {
	txt := canvas.NewText("root [-∞, +∞] = +100 eval +100 db won in 10 ≠db", theme.Color(theme.ColorNameForeground))
	txt.TextSize = theme.TextSize() * treeZooms[p.v.zoom]
	return txt
}

// updateRow fills a row with a node's line: the moves the search left out
// dimmed, disagreements with the database in the error colour.
func (p *treePane) updateRow(id string, _ bool, o fyne.CanvasObject) {
	txt := o.(*canvas.Text)
	t, i, ok := p.node(id)
	if !ok {
		txt.Text = ""
		txt.Refresh()
		return
	}
	txt.Text = t.Label(i)
	txt.TextSize = theme.TextSize() * treeZooms[p.v.zoom]
	txt.TextStyle = fyne.TextStyle{Bold: t.Link(i).Ply == 0}
	txt.Color = treeRowColor(t, i)
	txt.Refresh()
}

// treeRowColor is the colour of node i's line in t.
func treeRowColor(t shownTree, i int) color.Color {
	switch {
	case t.skipped(i):
		return theme.Color(theme.ColorNameDisabled)
	case t.disagrees(i):
		return theme.Color(theme.ColorNameError)
	}
	return theme.Color(theme.ColorNameForeground)
}

// shownTree is a recorded search as a pane shows it: abShown (alpha-beta,
// minimax) or cnShown (conspiracy numbers).
type shownTree interface {
	linkedTree
	// Label describes node i in one line.
	Label(i int) string
	// skipped reports that the search left node i out: alpha-beta cut
	// it, or conspiracy numbers never examined it.
	skipped(i int) bool
	// skipNote says that search name left a line out at node i.
	skipNote(name string, i int) string
	// disagrees reports that the database contradicts node i's value.
	disagrees(i int) bool
	// explain says in words what node i's line means; "" where the
	// legend below the trees says it.
	explain(i int) string
	// shown returns how many searched nodes the tree shows, and whether
	// the node limit left others out.
	shown() (int, bool)
	// heading says what the search found and how many nodes it visited.
	heading() string
}

// abShown is the tree of alpha-beta or minimax as a pane shows it.
type abShown struct{ *search.Tree }

func (t abShown) skipped(i int) bool { return t.Nodes[i].Cut }

func (t abShown) skipNote(name string, i int) string {
	return fmt.Sprintf("%s cut this line at %s and did not search it: %s", name, t.Nodes[i].Pos.Board().MoveString(t.Nodes[i].Move), t.Label(i))
}

func (t abShown) disagrees(i int) bool { return t.Nodes[i].Disagrees() }
func (t abShown) explain(int) string   { return "" }
func (t abShown) shown() (int, bool)   { return t.Searched(), t.Truncated }

func (t abShown) heading() string {
	return fmt.Sprintf("%d nodes, best %s, value %s", t.Visited, t.Link(0).Pos.Board().MoveString(t.Move), search.ScoreText(t.Value, 0))
}

// cnShown is the tree of the conspiracy number search as a pane shows it.
type cnShown struct{ *search.CCNSTree }

func (t cnShown) skipped(i int) bool { return !t.Nodes[i].Examined() }

func (t cnShown) skipNote(name string, i int) string {
	return fmt.Sprintf("%s generated %s and never examined it: %s", name, t.Link(i).Pos.Board().MoveString(t.Nodes[i].Move), t.Label(i))
}

func (t cnShown) disagrees(i int) bool { return t.Nodes[i].Disagrees() }
func (t cnShown) explain(i int) string { return t.Explain(i) }
func (t cnShown) shown() (int, bool)   { return len(t.Nodes), t.Truncated }

func (t cnShown) heading() string {
	r := t.Result
	return fmt.Sprintf("%d nodes, best %s, value %s, safe by %s",
		r.Nodes, r.Move, search.ScoreText(r.Score, 0), search.ConspiracyText(t.Nodes[0].Decision.Conspiracy))
}
