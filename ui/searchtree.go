package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game"
)

// This file holds Analysis ▸ Search Tree: a window that runs the alpha-beta
// player on the position on the board to a small depth and shows its tree
// (play.TraceTree) beside minimax's, side by side (treepane.go), with node
// counts, the database's values where it knows the positions, and the cut
// moves. Choosing a node in one tree chooses the node of the same line in
// the other, and a small board beside the trees draws its position. The
// searches run in a goroutine; the results reach the widgets through u.do,
// and a result for an older request is dropped.

// The choices of the window.
var (
	treeDepths = []string{"1", "2", "3", "4"}
	treeLimits = []string{"100", "500", "2000", "10000"}
	treeZooms  = []float32{0.6, 0.8, 1, 1.25, 1.5, 2}
	treeNames  = [2]string{"Alpha-beta", "Minimax"}
)

// treeMaxNodes stops a search of the window beyond this many nodes:
// minimax with its quiescence step reaches millions within depth 3 in the
// placement phase.
const treeMaxNodes = 5_000_000

// treeHint is the detail text before a node is chosen.
const treeHint = "Choose a node in either tree to see the line that leads to it, its position on the board and the node of the same line in the other tree."

// treeSearcher is what the window needs from the engines: the traced
// search with the database's values beside. DBEngines implements it.
type treeSearcher interface {
	SearchTree(ctx context.Context, g *muehle.Game, o play.TreeOptions) (*play.Tree, error)
}

// SearchTree traces the search of g (play.TraceTree) with the values of
// g's database (its game and stones) beside the search's where it is open.
func (e *DBEngines) SearchTree(ctx context.Context, g *muehle.Game, o play.TreeOptions) (*play.Tree, error) {
	if db, err := e.databaseOf(game.VariantOf(g)); err == nil {
		o.DB = db
	}
	return play.TraceTree(ctx, g, o)
}

// treeView is the search tree window.
type treeView struct {
	u      *App
	win    fyne.Window
	depth  *widget.Select
	limit  *widget.Select
	zoomL  *widget.Label
	zoomIn *widget.Button
	counts *widget.Label   // the two searches compared
	panes  [2]*treePane    // alpha-beta, minimax
	board  *Board          // the chosen node's position
	detail *widget.Label   // the chosen node's line and its labels in both trees
	root   muehle.Position // the position searched

	trees   [2]*play.Tree // alpha-beta, minimax; nil while searching or when stopped
	errs    [2]error
	zoom    int                // index in treeZooms
	syncing bool               // a pane selects the node that follows the other's choice
	gen     int                // counts searches started; a result of an older one is dropped
	cancel  context.CancelFunc // stops the search under way
}

// ShowSearchTree opens the search tree window (Analysis ▸ Search Tree).
func (u *App) ShowSearchTree() { u.searchTree() }

// searchTree opens the search tree window, or brings it to the front and
// searches the position on the board again.
func (u *App) searchTree() {
	if u.treeWin != nil {
		u.treeWin.search()
		u.treeWin.win.RequestFocus()
		return
	}
	v := &treeView{u: u, zoom: 1} // 80 %: two trees side by side
	v.win = u.app.NewWindow("Search Tree")
	v.depth = widget.NewSelect(treeDepths, func(string) { v.search() })
	v.limit = widget.NewSelect(treeLimits, func(string) { v.search() })
	v.zoomL = widget.NewLabel("")
	v.zoomIn = widget.NewButton("+", func() { v.setZoom(v.zoom + 1) })
	v.counts = widget.NewLabel("")
	v.counts.Wrapping = fyne.TextWrapWord
	for i := range v.panes {
		v.panes[i] = newTreePane(v, i)
	}
	v.board = NewBoard()
	v.detail = widget.NewLabel(treeHint)
	v.detail.Wrapping = fyne.TextWrapWord
	legend := widget.NewLabel(strings.ReplaceAll(play.TreeLegend, "\n", " "))
	legend.Wrapping = fyne.TextWrapWord
	bar := container.NewHBox(
		widget.NewLabel("Depth"), v.depth,
		widget.NewLabel("Nodes shown"), v.limit,
		widget.NewButton("−", func() { v.setZoom(v.zoom - 1) }), v.zoomL,
		v.zoomIn,
		widget.NewButton("Expand All", func() { v.each((*treePane).openAll) }),
		widget.NewButton("Collapse All", func() { v.each((*treePane).closeAll) }),
		widget.NewButton("Search Again", v.search),
	)
	trees := container.NewHSplit(v.panes[0].content, v.panes[1].content)
	left := container.NewBorder(nil, legend, nil, nil, trees)
	side := container.NewBorder(v.board, nil, nil, nil, container.NewVScroll(v.detail))
	main := container.NewHSplit(left, side)
	main.SetOffset(0.71)
	v.win.SetContent(container.NewBorder(container.NewVBox(bar, v.counts), nil, nil, nil, main))
	// Up to 1100×740, and no larger than the main window: a screen that
	// holds the one holds the other.
	mw := u.win.Canvas().Size()
	v.win.Resize(fyne.NewSize(min(1100, max(640, mw.Width)), min(740, max(480, mw.Height))))
	v.win.SetOnClosed(func() {
		v.stop()
		v.gen++ // drop the result of the search under way
		u.treeWin = nil
	})
	u.treeWin = v
	// Setting the choices searches once (the callbacks are set), the
	// zoom builds the empty trees.
	v.limit.SetSelected(treeLimits[2])
	v.setZoom(v.zoom)
	v.depth.SetSelected(treeDepths[2])
	v.win.Show()
}

// each calls f on both panes.
func (v *treeView) each(f func(*treePane)) {
	for _, p := range v.panes {
		f(p)
	}
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
	v.root = g.Position()
	v.counts.SetText(fmt.Sprintf("Searching %s to depth %d…", v.root, depth))
	v.detail.SetText(treeHint)
	v.board.SetView(game.EmptyView(v.root))
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

// setZoom sets the text size to treeZooms[i] and rebuilds the tree widgets
// (their rows take their height from the first row made).
func (v *treeView) setZoom(i int) {
	v.zoom = max(0, min(i, len(treeZooms)-1))
	v.zoomL.SetText(fmt.Sprintf("%d %%", int(treeZooms[v.zoom]*100+0.5)))
	v.each((*treePane).build)
}

// show puts the trees, where they are new, and the counts into the
// window. A new alpha-beta tree takes the keyboard focus (the arrow keys
// move through it, Space chooses). A node chosen in one tree is followed
// in the other when that one is new (minimax's tree arrives after
// alpha-beta's).
func (v *treeView) show() {
	var renewed [2]bool
	for i, p := range v.panes {
		renewed[i] = p.show()
	}
	if renewed[0] && v.trees[0] != nil {
		v.win.Canvas().Focus(v.panes[0].tree)
	}
	for i, p := range v.panes {
		if renewed[1-i] && !renewed[i] && p.sel != "" {
			v.chose(p, p.sel)
		}
	}
	v.counts.SetText(v.countsText())
}

// countsText compares the searches once both are done; until then it says
// what is under way.
func (v *treeView) countsText() string {
	ab, mm := v.trees[0], v.trees[1]
	switch {
	case ab != nil && mm != nil:
		s := fmt.Sprintf("Depth %d: alpha-beta searched %d nodes, %.1f %% of minimax's %d, and found the same value.",
			ab.Depth, ab.Visited, 100*float64(ab.Visited)/float64(mm.Visited), mm.Visited)
		if ab.Value != mm.Value || ab.Depth != mm.Depth {
			s = fmt.Sprintf("Alpha-beta searched %d nodes to depth %d, minimax %d to depth %d.", ab.Visited, ab.Depth, mm.Visited, mm.Depth)
		}
		if ab.Truncated || mm.Truncated {
			s += fmt.Sprintf(" Each tree shows its first %s nodes.", v.limit.Selected)
		}
		return s
	case v.errs[0] != nil || v.errs[1] != nil:
		var parts []string
		for i, err := range v.errs {
			if err != nil {
				parts = append(parts, v.heading(i)+".")
			}
		}
		return strings.Join(parts, " ")
	case ab != nil:
		return "Minimax is still searching."
	}
	return fmt.Sprintf("Searching %s to depth %s…", v.root, v.depth.Selected)
}

// heading says what search i found and how many nodes it visited.
func (v *treeView) heading(i int) string {
	name, t, err := treeNames[i], v.trees[i], v.errs[i]
	switch {
	case errors.Is(err, play.ErrTreeTooLarge):
		return fmt.Sprintf("%s: stopped after %d nodes", name, treeMaxNodes)
	case err != nil:
		return fmt.Sprintf("%s: %v", name, err)
	case t == nil:
		return name + ": searching…"
	}
	return fmt.Sprintf("%s: %d nodes, best %s, value %s", name, t.Visited, t.Move, play.ScoreText(t.Value, 0))
}

// chose shows the node with widget id id that the user chose in pane p:
// the pane of the other search chooses the node of the same line, and the
// board and the detail show its position.
func (v *treeView) chose(p *treePane, id string) {
	t, i, ok := p.node(id)
	if !ok {
		return
	}
	line := treeLine(t, i)
	other := v.panes[1-p.i]
	v.syncing = true
	note := other.follow(line)
	v.syncing = false
	labels := [2]string{}
	labels[p.i] = treeNames[p.i] + ": " + t.Label(i)
	labels[other.i] = note
	n := &t.Nodes[i]
	head := "The root, the position searched"
	if len(line) > 0 {
		moves := make([]string, len(line))
		for k, m := range line {
			moves[k] = m.String()
		}
		head = "Line: " + strings.Join(moves, " ")
	}
	v.detail.SetText(fmt.Sprintf("%s.\n%s to move: %s.\n\n%s\n\n%s", head, n.Pos.Turn, n.Pos, labels[0], labels[1]))
	v.board.SetView(lineView(t.Nodes[0].Pos, line, n.Pos))
}

// lineView is what the board shows for the end of line from root: the
// position, the move that led there and the mill it closed, as a walk
// through the line shows them; pos alone should the line not be legal.
func lineView(root muehle.Position, line []muehle.Move, pos muehle.Position) game.View {
	steps := make([]game.WalkStep, len(line))
	for k, m := range line {
		steps[k].Move = m
	}
	w, err := game.NewWalk("", root, steps)
	if err != nil {
		return game.EmptyView(pos)
	}
	w.Go(len(line))
	return w.View()
}

// treeLine returns the moves from the root of t to node i.
func treeLine(t *play.Tree, i int) []muehle.Move {
	var line []muehle.Move
	for j := i; t.Nodes[j].Ply > 0; j = t.Nodes[j].Parent {
		line = append(line, t.Nodes[j].Move)
	}
	for a, b := 0, len(line)-1; a < b; a, b = a+1, b-1 {
		line[a], line[b] = line[b], line[a]
	}
	return line
}

// treeFind follows line from the root of t as far as t recorded it and
// returns the last node reached and how many moves of line led there.
func treeFind(t *play.Tree, line []muehle.Move) (node, moves int) {
	for moves < len(line) {
		next := -1
		for _, c := range t.Nodes[node].Children {
			if t.Nodes[c].Move == line[moves] {
				next = c
				break
			}
		}
		if next < 0 {
			break
		}
		node, moves = next, moves+1
	}
	return node, moves
}
