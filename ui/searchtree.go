package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/search"
	"muehle/ui/game"
)

// This file holds Analysis ▸ Search Tree: a window that runs the alpha-beta
// player on the position on the board to a small depth and shows its tree
// (search.TraceTree) beside minimax's or, as the select above them chooses,
// beside the conspiracy number player's (search.TraceCCNS, the safety
// sequence's pairs up to the same depth), side by side (treepane.go), with
// node counts, the database's values where it knows the positions, and the
// moves a search left out. Choosing a node in one tree chooses the node of
// the same line in the other, and a small board beside the trees draws its
// position. The searches run in a goroutine; the results reach the widgets
// through u.do, and a result for an older request is dropped.

// The choices of the window.
var (
	treeDepths = []string{"1", "2", "3", "4"}
	treeLimits = []string{"100", "500", "2000", "10000"}
	treeZooms  = []float32{0.6, 0.8, 1, 1.25, 1.5, 2}
	treeBeside = []string{"Minimax", "Conspiracy numbers"} // the searches the right pane shows
)

// treeLeft names the search of the left pane.
const treeLeft = "Alpha-beta"

// treeTrainingText is what the window says in place of the trees while
// training hides the answer.
const treeTrainingText = "Training: the search trees show the database's values, so they wait until you have answered. " +
	"Search Again then searches the position on the board."

// treeMaxNodes stops a search of the window beyond this many nodes:
// minimax with its quiescence step reaches millions within depth 3 in the
// placement phase.
const treeMaxNodes = 5_000_000

// treeHint is the detail text before a node is chosen.
const treeHint = "Choose a node in either tree to see the line that leads to it, its position on the board and the node of the same line in the other tree."

// treeSearcher is what the window needs from the engines: the traced
// searches with the database's values beside. DBEngines implements it;
// plainTrees is the window's own without a database.
type treeSearcher interface {
	SearchTree(ctx context.Context, g *muehle.Game, o search.TreeOptions) (*search.Tree, error)
	SearchCCNSTree(ctx context.Context, g *muehle.Game, o search.CCNSTreeOptions) (*search.CCNSTree, error)
}

// SearchTree traces the search of g (search.TraceTree) with the values of
// g's database beside the search's where it is open (treeDB).
func (e *DBEngines) SearchTree(ctx context.Context, g *muehle.Game, o search.TreeOptions) (*search.Tree, error) {
	o.DB = e.treeDB(g)
	return search.TraceTree(ctx, g, o)
}

// SearchCCNSTree traces the conspiracy number search of g
// (search.TraceCCNS) with the values of g's database beside the search's
// where it is open (treeDB).
func (e *DBEngines) SearchCCNSTree(ctx context.Context, g *muehle.Game, o search.CCNSTreeOptions) (*search.CCNSTree, error) {
	o.DB = e.treeDB(g)
	return search.TraceCCNS(ctx, g, o)
}

// treeDB returns the database of g's game and stones when it is open, nil
// when not.
func (e *DBEngines) treeDB(g *muehle.Game) layers.Prober {
	if db, err := e.databaseOf(game.VariantOf(g)); err == nil {
		return db
	}
	return nil
}

// plainTrees traces the searches without a database: the window's
// treeSearcher when the engines are not DBEngines.
type plainTrees struct{}

// SearchTree is search.TraceTree.
func (plainTrees) SearchTree(ctx context.Context, g *muehle.Game, o search.TreeOptions) (*search.Tree, error) {
	return search.TraceTree(ctx, g, o)
}

// SearchCCNSTree is search.TraceCCNS.
func (plainTrees) SearchCCNSTree(ctx context.Context, g *muehle.Game, o search.CCNSTreeOptions) (*search.CCNSTree, error) {
	return search.TraceCCNS(ctx, g, o)
}

// treeView is the search tree window.
type treeView struct {
	u      *App
	win    fyne.Window
	depth  *widget.Select
	limit  *widget.Select
	beside *widget.Select // the search of the right pane: one of treeBeside
	zoomL  *widget.Label
	zoomIn *widget.Button
	counts *widget.Label   // the two searches compared
	panes  [2]*treePane    // alpha-beta, and minimax or conspiracy numbers
	board  *Board          // the chosen node's position
	detail *widget.Label   // the chosen node's line and its labels in both trees
	root   muehle.Position // the position searched
	game   *muehle.Game    // the game whose position is searched

	// trees holds alpha-beta's and minimax's trees, cn the conspiracy
	// number search's; nil while searching, when stopped, or when the
	// right pane shows the other search. errs holds the left and the
	// right search's errors.
	trees   [2]*search.Tree
	cn      *search.CCNSTree
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
	v.beside = widget.NewSelect(treeBeside, func(string) { v.start(true) })
	v.beside.PlaceHolder = treeBeside[1] // the longest: its width is the select's
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
	legend := widget.NewLabel(strings.ReplaceAll(search.TreeLegend, "\n", " "))
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
	v.beside.SetSelected(treeBeside[0])
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
// reviewing) with alpha-beta and the search beside it, in the background.
func (v *treeView) search() { v.start(false) }

// start begins a search in the background: of the position on the board
// with alpha-beta and the search chosen beside it, or with besideOnly of
// the position alpha-beta's tree shows with the search beside it alone
// (both while alpha-beta has no tree).
func (v *treeView) start(besideOnly bool) {
	if v.depth.Selected == "" || v.limit.Selected == "" || v.beside.Selected == "" {
		return // still setting up
	}
	besideOnly = besideOnly && v.trees[0] != nil
	v.stop()
	v.gen++
	gen := v.gen
	depth, _ := strconv.Atoi(v.depth.Selected)
	limit, _ := strconv.Atoi(v.limit.Selected)
	ccns := v.beside.Selected == treeBeside[1]
	if !besideOnly {
		v.game = v.u.ctrl.Game().Clone()
		for v.game.Ply() > v.u.ctrl.Shown() {
			v.game.Undo()
		}
		v.trees[0], v.errs[0] = nil, nil
		v.root = v.game.Position()
		v.board.SetView(game.EmptyView(v.root))
	}
	if v.u.trainingHides() {
		// The trees carry the database's values: the answer.
		hidden := errors.New("hidden until you have answered the training position")
		v.trees, v.cn, v.errs = [2]*search.Tree{}, nil, [2]error{hidden, hidden}
		v.show()
		v.counts.SetText(treeTrainingText)
		v.detail.SetText("")
		return
	}
	if !besideOnly || v.panes[0].sel == "" {
		v.detail.SetText(v.hint())
	}
	v.trees[1], v.cn, v.errs[1] = nil, nil, nil
	g := v.game.Clone() // the search's own: an older one may still read v.game
	ctx, cancel := context.WithCancel(context.Background())
	v.cancel = cancel
	v.counts.SetText(fmt.Sprintf("Searching %s to depth %d…", v.root, depth))
	v.show()
	ts, ok := v.u.engines.(treeSearcher)
	if !ok {
		ts = plainTrees{}
	}
	o := search.TreeOptions{Depth: depth, Limit: limit, MaxNodes: treeMaxNodes}
	go func() {
		if !besideOnly {
			// Alpha-beta first: shown while the other still searches.
			t, err := ts.SearchTree(ctx, g, o)
			v.u.do(func() {
				if gen == v.gen {
					v.trees[0], v.errs[0] = t, err
					v.show()
				}
			})
		}
		var mm *search.Tree
		var cn *search.CCNSTree
		var err error
		if ccns {
			cn, err = ts.SearchCCNSTree(ctx, g, search.CCNSTreeOptions{Depth: depth, Limit: limit})
		} else {
			o.Minimax = true
			mm, err = ts.SearchTree(ctx, g, o)
		}
		v.u.do(func() {
			if gen == v.gen {
				v.trees[1], v.cn, v.errs[1] = mm, cn, err
				v.show()
			}
		})
	}()
}

// hint is the detail text before a node is chosen: with conspiracy
// numbers beside alpha-beta, the legend of their marks too.
func (v *treeView) hint() string {
	if v.beside.Selected != treeBeside[1] {
		return treeHint
	}
	return treeHint + "\n\nConspiracy numbers: " + strings.ReplaceAll(search.CCNSTreeLegend, "\n", " ")
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
// in the other when that one is new (the right pane's tree arrives after
// alpha-beta's, or alone when the search beside it is changed).
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
	ab, mm, cn := v.trees[0], v.trees[1], v.cn
	switch {
	case ab != nil && cn != nil:
		s := fmt.Sprintf("Depth %d: alpha-beta searched %d nodes; %s.", ab.Depth, ab.Visited, cn.Summary())
		if ab.Truncated || cn.Truncated {
			s += fmt.Sprintf(" Each tree shows its first %s nodes.", v.limit.Selected)
		}
		return s
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
		return v.panes[1].name() + " is still searching."
	}
	return fmt.Sprintf("Searching %s to depth %s…", v.root, v.depth.Selected)
}

// heading says which search pane i shows, what it found and how many
// nodes it visited.
func (v *treeView) heading(i int) string { return v.panes[i].name() + ": " + v.status(i) }

// status says what the search of pane i found and how many nodes it
// visited, or that it still searches, or why it stopped.
func (v *treeView) status(i int) string {
	t, err := v.panes[i].data(), v.errs[i]
	switch {
	case errors.Is(err, search.ErrTreeTooLarge):
		return fmt.Sprintf("stopped after %d nodes", treeMaxNodes)
	case err != nil:
		return err.Error()
	case t == nil:
		return "searching…"
	}
	return t.heading()
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
	labels[p.i] = p.describe(t, i)
	labels[other.i] = note
	n := t.Link(i)
	head := "The root, the position searched"
	if len(line) > 0 {
		moves := make([]string, len(line))
		for k, m := range line {
			moves[k] = n.Pos.Board().MoveString(m)
		}
		head = "Line: " + strings.Join(moves, " ")
	}
	v.detail.SetText(fmt.Sprintf("%s.\n%s to move: %s.\n\n%s\n\n%s", head, n.Pos.Turn, n.Pos, labels[0], labels[1]))
	v.board.SetView(lineView(t.Link(0).Pos, line, n.Pos))
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

// linkedTree is a recorded search tree as its lines are followed:
// search.Tree and search.CCNSTree.
type linkedTree interface {
	Len() int
	Link(i int) *search.TreeLink
}

// treeLine returns the moves from the root of t to node i.
func treeLine(t linkedTree, i int) []muehle.Move {
	var line []muehle.Move
	for j := i; t.Link(j).Ply > 0; j = t.Link(j).Parent {
		line = append(line, t.Link(j).Move)
	}
	slices.Reverse(line)
	return line
}

// treeFind follows line from the root of t as far as t recorded it and
// returns the last node reached and how many moves of line led there.
func treeFind(t linkedTree, line []muehle.Move) (node, moves int) {
	for moves < len(line) {
		next := -1
		for _, c := range t.Link(node).Children {
			if t.Link(c).Move == line[moves] {
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
