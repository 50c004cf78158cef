package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/retro/play"
)

// This file holds Game ▸ Search Tree: a window that runs the alpha-beta
// player on the position on the board to a small depth and shows its tree
// (play.TraceTree) beside minimax's, with node counts, the database's
// values where it knows the positions, and the cut moves. The searches run
// in a goroutine; the results reach the widgets through u.do, and a result
// for an older request is dropped.

// The choices of the window.
var (
	treeDepths = []string{"1", "2", "3", "4"}
	treeLimits = []string{"100", "500", "2000", "10000"}
	treeZooms  = []float32{0.6, 0.8, 1, 1.25, 1.5, 2}
	treeModes  = []string{"Alpha-beta", "Minimax"}
)

// treeMaxNodes stops a search of the window beyond this many nodes:
// minimax with its quiescence step reaches millions within depth 3 in the
// placement phase.
const treeMaxNodes = 5_000_000

// treeHint is the detail line before a node is chosen.
const treeHint = "Choose a node to see the line that leads to it and its position."

// treeSearcher is what the window needs from the engines: the traced
// search with the database's values beside. DBEngines implements it.
type treeSearcher interface {
	SearchTree(ctx context.Context, g *muehle.Game, o play.TreeOptions) (*play.Tree, error)
}

// SearchTree traces the search of g (play.TraceTree) with the database's
// values beside the search's where it is open.
func (e *DBEngines) SearchTree(ctx context.Context, g *muehle.Game, o play.TreeOptions) (*play.Tree, error) {
	o.DB = e.prober()
	return play.TraceTree(ctx, g, o)
}

// treeView is the search tree window.
type treeView struct {
	u      *App
	win    fyne.Window
	depth  *widget.Select
	limit  *widget.Select
	mode   *widget.RadioGroup
	zoomL  *widget.Label
	zoomIn *widget.Button
	counts *widget.Label
	detail *widget.Label
	box    *fyne.Container // holds the tree widget, rebuilt on zoom
	tree   *widget.Tree

	trees   [2]*play.Tree // alpha-beta, minimax; nil while searching or when stopped
	errs    [2]error
	showing *play.Tree      // the tree the widget shows
	zoom    int             // index in treeZooms
	open    map[string]bool // the open branches, kept across zooms
	gen     int             // counts searches started; a result of an older one is dropped
	cancel  context.CancelFunc
}

// ShowSearchTree opens the search tree window (Game ▸ Search Tree).
func (u *App) ShowSearchTree() { u.searchTree() }

// searchTree opens the search tree window, or brings it to the front and
// searches the position on the board again.
func (u *App) searchTree() {
	if u.treeWin != nil {
		u.treeWin.search()
		u.treeWin.win.RequestFocus()
		return
	}
	v := &treeView{u: u, zoom: 2, open: map[string]bool{}}
	v.win = u.app.NewWindow("Search Tree")
	v.depth = widget.NewSelect(treeDepths, func(string) { v.search() })
	v.limit = widget.NewSelect(treeLimits, func(string) { v.search() })
	v.mode = widget.NewRadioGroup(treeModes, func(string) { v.show() })
	v.mode.Horizontal = true
	v.mode.Required = true
	v.zoomL = widget.NewLabel("")
	v.zoomIn = widget.NewButton("+", func() { v.setZoom(v.zoom + 1) })
	v.counts = widget.NewLabel("")
	v.counts.Wrapping = fyne.TextWrapWord
	v.detail = widget.NewLabel(treeHint)
	v.detail.Wrapping = fyne.TextWrapWord
	legend := widget.NewLabel(strings.ReplaceAll(play.TreeLegend, "\n", " "))
	legend.Wrapping = fyne.TextWrapWord
	v.box = container.NewStack()
	bar := container.NewHBox(
		widget.NewLabel("Depth"), v.depth,
		widget.NewLabel("Nodes shown"), v.limit,
		v.mode,
		widget.NewButton("−", func() { v.setZoom(v.zoom - 1) }), v.zoomL,
		v.zoomIn,
		widget.NewButton("Expand All", func() { v.tree.OpenAllBranches() }),
		widget.NewButton("Collapse All", func() { v.tree.CloseAllBranches() }),
		widget.NewButton("Search Again", v.search),
	)
	top := container.NewVBox(bar, v.counts)
	side := container.NewGridWrap(fyne.NewSize(260, 560), legend)
	v.win.SetContent(container.NewBorder(top, v.detail, nil, side, v.box))
	v.win.Resize(fyne.NewSize(1100, 740))
	v.win.SetOnClosed(func() {
		v.stop()
		v.gen++ // drop the result of the search under way
		u.treeWin = nil
	})
	u.treeWin = v
	// Setting the choices searches once (the callbacks are set), the
	// zoom builds the empty tree.
	v.mode.SetSelected(treeModes[0])
	v.limit.SetSelected(treeLimits[2])
	v.setZoom(v.zoom)
	v.depth.SetSelected(treeDepths[2])
	v.win.Show()
}

// stop cancels the search under way.
func (v *treeView) stop() {
	if v.cancel != nil {
		v.cancel()
		v.cancel = nil
	}
}

// search searches the position on the board (the one shown while
// reviewing) with both algorithms, in the background.
func (v *treeView) search() {
	if v.depth.Selected == "" || v.limit.Selected == "" {
		return // still setting up
	}
	v.stop()
	v.gen++
	gen := v.gen
	depth, _ := strconv.Atoi(v.depth.Selected)
	limit, _ := strconv.Atoi(v.limit.Selected)
	g := v.u.ctrl.Game().Clone()
	for g.Ply() > v.u.ctrl.Shown() {
		g.Undo()
	}
	ctx, cancel := context.WithCancel(context.Background())
	v.cancel = cancel
	v.trees, v.errs = [2]*play.Tree{}, [2]error{}
	v.counts.SetText(fmt.Sprintf("Searching %s to depth %d…", g.Position(), depth))
	v.detail.SetText(treeHint)
	v.show()
	ts, _ := v.u.engines.(treeSearcher)
	go func() {
		var trees [2]*play.Tree
		var errs [2]error
		for i, minimax := range []bool{false, true} {
			o := play.TreeOptions{Depth: depth, Limit: limit, Minimax: minimax, MaxNodes: treeMaxNodes}
			if ts != nil {
				trees[i], errs[i] = ts.SearchTree(ctx, g, o)
			} else {
				trees[i], errs[i] = play.TraceTree(ctx, g, o)
			}
			if i == 0 {
				// Alpha-beta first: shown while minimax still counts.
				t, err := trees[0], errs[0]
				v.u.do(func() {
					if gen == v.gen {
						v.trees[0], v.errs[0] = t, err
						v.show()
					}
				})
			}
		}
		v.u.do(func() {
			if gen == v.gen {
				v.trees, v.errs = trees, errs
				v.show()
			}
		})
	}()
}

// shown returns the index of the tree the window shows: 0 alpha-beta,
// 1 minimax.
func (v *treeView) shown() int {
	if v.mode.Selected == treeModes[1] {
		return 1
	}
	return 0
}

// setZoom sets the text size to treeZooms[i] and rebuilds the tree widget
// (its rows take their height from the first row made).
func (v *treeView) setZoom(i int) {
	v.zoom = max(0, min(i, len(treeZooms)-1))
	v.zoomL.SetText(fmt.Sprintf("%d %%", int(treeZooms[v.zoom]*100+0.5)))
	v.tree = widget.NewTree(v.childIDs, v.isBranch, v.newRow, v.updateRow)
	v.tree.OnBranchOpened = func(id string) { v.open[id] = true }
	v.tree.OnBranchClosed = func(id string) { delete(v.open, id) }
	v.tree.OnSelected = v.selected
	for id := range v.open {
		v.tree.OpenBranch(id)
	}
	v.box.Objects = []fyne.CanvasObject{v.tree}
	v.box.Refresh()
}

// show puts the chosen tree, when it is new, and the counts into the
// window. A new tree opens with the root's moves shown.
func (v *treeView) show() {
	if t := v.trees[v.shown()]; t != v.showing || v.tree == nil {
		v.showing = t
		v.open = map[string]bool{}
		if t != nil && len(t.Nodes) > 0 {
			v.open["0"] = true
		}
		v.setZoom(v.zoom)
	}
	v.counts.SetText(v.countsText())
}

// countsText says what each search found and how many nodes it visited.
func (v *treeView) countsText() string {
	var parts []string
	for i, name := range treeModes {
		t, err := v.trees[i], v.errs[i]
		switch {
		case errors.Is(err, play.ErrTreeTooLarge):
			parts = append(parts, fmt.Sprintf("%s: stopped after %d nodes.", name, treeMaxNodes))
		case err != nil:
			parts = append(parts, fmt.Sprintf("%s: %v.", name, err))
		case t == nil:
			parts = append(parts, name+": searching…")
		default:
			parts = append(parts, fmt.Sprintf("%s: best %s, value %s, %d nodes.", name, t.Move, play.ScoreText(t.Value, 0), t.Visited))
		}
	}
	ab, mm := v.trees[0], v.trees[1]
	if ab != nil && mm != nil {
		parts = append(parts, fmt.Sprintf("Alpha-beta searched %.1f %% of minimax's nodes.", 100*float64(ab.Visited)/float64(mm.Visited)))
	}
	if t := v.trees[v.shown()]; t != nil && t.Truncated {
		parts = append(parts, fmt.Sprintf("Showing the first %d nodes.", t.Searched()))
	}
	return strings.Join(parts, " ")
}

// node returns the node of the shown tree with widget id id.
func (v *treeView) node(id string) (*play.Tree, int, bool) {
	t := v.trees[v.shown()]
	i, err := strconv.Atoi(id)
	if t == nil || err != nil || i < 0 || i >= len(t.Nodes) {
		return nil, 0, false
	}
	return t, i, true
}

// childIDs lists the children of a node; "" is the tree's own root, above
// the search's.
func (v *treeView) childIDs(id string) []string {
	if id == "" {
		if t := v.trees[v.shown()]; t != nil && len(t.Nodes) > 0 {
			return []string{"0"}
		}
		return nil
	}
	t, i, ok := v.node(id)
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
func (v *treeView) isBranch(id string) bool {
	if id == "" {
		return true
	}
	t, i, ok := v.node(id)
	return ok && len(t.Nodes[i].Children) > 0
}

// newRow makes a row: one line of text at the zoomed size.
func (v *treeView) newRow(bool) fyne.CanvasObject {
	txt := canvas.NewText("root [-∞, +∞] = +100 eval +100 db won in 10 ≠db", theme.Color(theme.ColorNameForeground))
	txt.TextSize = theme.TextSize() * treeZooms[v.zoom]
	return txt
}

// updateRow fills a row with a node's line: cut moves dimmed,
// disagreements with the database in the error colour.
func (v *treeView) updateRow(id string, _ bool, o fyne.CanvasObject) {
	txt := o.(*canvas.Text)
	t, i, ok := v.node(id)
	if !ok {
		txt.Text = ""
		txt.Refresh()
		return
	}
	n := &t.Nodes[i]
	txt.Text = t.Label(i)
	txt.TextSize = theme.TextSize() * treeZooms[v.zoom]
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

// selected shows the line from the root to the chosen node and its
// position.
func (v *treeView) selected(id string) {
	t, i, ok := v.node(id)
	if !ok {
		return
	}
	var line []string
	for j := i; t.Nodes[j].Ply > 0; j = t.Nodes[j].Parent {
		line = append(line, t.Nodes[j].Move.String())
	}
	for a, b := 0, len(line)-1; a < b; a, b = a+1, b-1 {
		line[a], line[b] = line[b], line[a]
	}
	n := &t.Nodes[i]
	s := fmt.Sprintf("Line: %s. Position %s (%s to move).", strings.Join(line, " "), n.Pos, n.Pos.Turn)
	if len(line) == 0 {
		s = fmt.Sprintf("The root: position %s (%s to move).", n.Pos, n.Pos.Turn)
	}
	v.detail.SetText(s)
}
