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
	"muehle/retro/play"
)

// This file holds one of the two trees of the search tree window
// (searchtree.go): its heading, the tree widget with collapse and expand,
// the rows at the window's zoom, and the choice of a node to follow the
// other tree's.

// treePane shows the tree of one search: alpha-beta (i = 0) or minimax
// (i = 1). The widget's ids are the node numbers in play.Tree.Nodes; ""
// is the widget's own root, above the search's.
type treePane struct {
	v       *treeView
	i       int
	heading *widget.Label
	box     *fyne.Container // holds the tree widget, rebuilt on zoom
	tree    *widget.Tree
	content fyne.CanvasObject // the heading above the tree

	showing *play.Tree      // the tree the widget shows
	open    map[string]bool // the open branches, kept across zooms
	sel     string          // the chosen node, "" for none
}

// newTreePane returns the pane of search i of v, empty.
func newTreePane(v *treeView, i int) *treePane {
	p := &treePane{v: v, i: i, open: map[string]bool{}}
	p.heading = widget.NewLabel(treeNames[i])
	p.heading.Truncation = fyne.TextTruncateEllipsis
	p.heading.TextStyle.Bold = true
	p.box = container.NewStack()
	p.content = container.NewBorder(p.heading, nil, nil, nil, p.box)
	return p
}

// data returns the tree of the pane's search, nil while there is none.
func (p *treePane) data() *play.Tree { return p.v.trees[p.i] }

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
		if t != nil && len(t.Nodes) > 0 {
			p.open["0"] = true
		}
		p.build()
	}
	p.heading.SetText(p.v.heading(p.i))
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

// follow chooses the node of line in this tree and reveals it, or the cut
// node alpha-beta left it at, and says in a line what the tree holds of
// it. Where the tree did not record the line, nothing is chosen.
func (p *treePane) follow(line []muehle.Move) string {
	name, t := treeNames[p.i], p.data()
	if t == nil || len(t.Nodes) == 0 {
		p.tree.UnselectAll()
		return name + ": no tree yet."
	}
	j, k := treeFind(t, line)
	n := &t.Nodes[j]
	switch {
	case k == len(line):
		p.reveal(j)
		return name + ": " + t.Label(j)
	case n.Cut:
		p.reveal(j)
		return fmt.Sprintf("%s cut this line at %s and did not search it: %s", name, n.Move, t.Label(j))
	}
	p.tree.UnselectAll()
	if t.Truncated {
		return fmt.Sprintf("%s: this line is not among the first %d nodes shown.", name, t.Searched())
	}
	return fmt.Sprintf("%s: this line is not in its tree.", name)
}

// reveal opens the branches above node j and chooses it.
func (p *treePane) reveal(j int) {
	t := p.data()
	for a := t.Nodes[j].Parent; a >= 0; a = t.Nodes[a].Parent {
		if id := strconv.Itoa(a); !p.tree.IsBranchOpen(id) {
			p.tree.OpenBranch(id)
		}
	}
	p.tree.Select(strconv.Itoa(j))
}

// node returns the node of the pane's tree with widget id id.
func (p *treePane) node(id string) (*play.Tree, int, bool) {
	t := p.data()
	i, err := strconv.Atoi(id)
	if t == nil || err != nil || i < 0 || i >= len(t.Nodes) {
		return nil, 0, false
	}
	return t, i, true
}

// childIDs lists the children of a node; "" is the widget's own root,
// above the search's.
func (p *treePane) childIDs(id string) []string {
	if id == "" {
		if t := p.data(); t != nil && len(t.Nodes) > 0 {
			return []string{"0"}
		}
		return nil
	}
	t, i, ok := p.node(id)
	if !ok {
		return nil
	}
	ids := make([]string, len(t.Nodes[i].Children))
	for k, c := range t.Nodes[i].Children {
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
	return ok && len(t.Nodes[i].Children) > 0
}

// newRow makes a row: one line of text at the zoomed size.
func (p *treePane) newRow(bool) fyne.CanvasObject {
	txt := canvas.NewText("root [-∞, +∞] = +100 eval +100 db won in 10 ≠db", theme.Color(theme.ColorNameForeground))
	txt.TextSize = theme.TextSize() * treeZooms[p.v.zoom]
	return txt
}

// updateRow fills a row with a node's line: cut moves dimmed,
// disagreements with the database in the error colour.
func (p *treePane) updateRow(id string, _ bool, o fyne.CanvasObject) {
	txt := o.(*canvas.Text)
	t, i, ok := p.node(id)
	if !ok {
		txt.Text = ""
		txt.Refresh()
		return
	}
	n := &t.Nodes[i]
	txt.Text = t.Label(i)
	txt.TextSize = theme.TextSize() * treeZooms[p.v.zoom]
	txt.TextStyle = fyne.TextStyle{Bold: n.Ply == 0}
	txt.Color = treeRowColor(n)
	txt.Refresh()
}

// treeRowColor is the colour of a node's line.
func treeRowColor(n *play.TreeNode) color.Color {
	switch {
	case n.Cut:
		return theme.Color(theme.ColorNameDisabled)
	case n.Disagrees():
		return theme.Color(theme.ColorNameError)
	}
	return theme.Color(theme.ColorNameForeground)
}
