package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/retro/search"
	"muehle/ui/game/gametest"
)

// openSearchTree opens Analysis ▸ Search Tree on u and waits until both
// searches are shown at the depth chosen.
func openSearchTree(t *testing.T, q *gametest.Queue, u *App, depth string) *treeView {
	t.Helper()
	menuItem(t, u.Window().MainMenu(), "Analysis", "Search Tree…").Action()
	v := u.treeWin
	if v == nil {
		t.Fatal("Search Tree opened no window")
	}
	v.depth.SetSelected(depth)
	q.Drain(t, 20*time.Second, func() bool { return v.trees[0] != nil && v.trees[1] != nil })
	return v
}

// row returns the text object of the row of node id, as the tree draws it.
func (p *treePane) row(id string) *canvas.Text {
	o := p.newRow(false)
	p.updateRow(id, false, o)
	return o.(*canvas.Text)
}

// choose chooses node id in pane p, as a click on its row does, and
// checks that the pane holds it chosen.
func (p *treePane) choose(t *testing.T, id string) {
	t.Helper()
	p.tree.Select(id)
	if p.sel != id {
		t.Fatalf("%s: chose node %s, the pane holds %q", p.name(), id, p.sel)
	}
}

// lineOf returns the line of node id of pane p as text.
func lineOf(p *treePane, id string) string {
	i, _ := strconv.Atoi(id)
	return fmt.Sprint(treeLine(p.data(), i))
}

// objectsOf lists o and every object inside it.
func objectsOf(o fyne.CanvasObject) []fyne.CanvasObject {
	all := []fyne.CanvasObject{o}
	switch c := o.(type) {
	case *fyne.Container:
		for _, k := range c.Objects {
			all = append(all, objectsOf(k)...)
		}
	case *container.Split:
		all = append(all, objectsOf(c.Leading)...)
		all = append(all, objectsOf(c.Trailing)...)
	case *container.Scroll:
		all = append(all, objectsOf(c.Content)...)
	}
	return all
}

// TestSearchTreeWindow checks the window on the empty board at depth 2,
// whose tree retro/search's TestTreeStartPosition checks by hand: both trees
// in the window with the node counts of search.TraceTree, the root's moves
// open, the cut moves dimmed in alpha-beta's tree and none in minimax's,
// the zoom, collapse and expand.
func TestSearchTreeWindow(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	g := muehle.NewGame(9)
	u.ctrl.SetGame(g)
	v := openSearchTree(t, q, u, "2")

	// Both trees and the board are in the window.
	var trees []*widget.Tree
	board := false
	for _, o := range objectsOf(v.win.Content()) {
		switch w := o.(type) {
		case *widget.Tree:
			trees = append(trees, w)
		case *Board:
			board = board || w == v.board
		}
	}
	if len(trees) != 2 || trees[0] != v.panes[0].tree || trees[1] != v.panes[1].tree || !board {
		t.Fatalf("window: got %d trees (the panes' %t), board %t; want alpha-beta's and minimax's tree and the board",
			len(trees), len(trees) == 2 && trees[0] == v.panes[0].tree && trees[1] == v.panes[1].tree, board)
	}
	// Each heading counts the nodes search.TraceTree visits: 74 and 577.
	for i, minimax := range []bool{false, true} {
		want, err := search.TraceTree(context.Background(), g, search.TreeOptions{Depth: 2, Minimax: minimax, MaxNodes: treeMaxNodes})
		if err != nil {
			t.Fatal(err)
		}
		head := fmt.Sprintf("%d nodes, best %s, value %s", want.Visited, want.Move, search.ScoreText(want.Value, 0))
		if i == 0 { // the right pane's search is named by the select beside its heading
			head = "Alpha-beta: " + head
		}
		if got := v.panes[i].heading.Text; got != head || v.trees[i].Visited != want.Visited {
			t.Errorf("%s: got heading %q, %d nodes; want %q", v.panes[i].name(), got, v.trees[i].Visited, head)
		}
	}
	if got, want := v.counts.Text, "Depth 2: alpha-beta searched 74 nodes, 12.8 % of minimax's 577, and found the same value."; got != want {
		t.Errorf("counts: got %q, want %q", got, want)
	}

	ab, mm := v.panes[0], v.panes[1]
	for _, p := range v.panes {
		if got := p.childIDs(""); len(got) != 1 || got[0] != "0" || !p.tree.IsBranchOpen("0") || len(p.childIDs("0")) != 24 {
			t.Fatalf("%s: got top %v, root open %v, %d root moves; want the root open with 24 moves",
				p.name(), got, p.tree.IsBranchOpen("0"), len(p.childIDs("0")))
		}
	}
	// The second root move, a7: its first reply searched, the next cut.
	a7 := ab.childIDs("0")[1]
	replies := ab.childIDs(a7)
	first, second := ab.row(replies[0]), ab.row(replies[1])
	if first.Text != "1. d7 (history 0) [0, +∞] = -3 eval -3" || second.Text != "2. g7 (history 0) cut" {
		t.Errorf("a7's replies: got %q, %q; want d7 searched, g7 cut", first.Text, second.Text)
	}
	if second.Color != theme.Color(theme.ColorNameDisabled) || first.Color != theme.Color(theme.ColorNameForeground) {
		t.Errorf("colours: got %v searched, %v cut; want the foreground and the disabled colour", first.Color, second.Color)
	}
	// Minimax: all 23 replies of a7, nothing cut.
	mmA7 := mm.childIDs("0")[1]
	if mm.row(mmA7).Text[:6] != "2. a7 " || len(mm.childIDs(mmA7)) != 23 {
		t.Errorf("minimax: got %q with %d replies; want a7 with 23", mm.row(mmA7).Text, len(mm.childIDs(mmA7)))
	}
	for _, id := range mm.childIDs(mmA7) {
		if r := mm.row(id); strings.HasSuffix(r.Text, " cut") {
			t.Errorf("minimax row %q is cut", r.Text)
		}
	}

	// The keyboard: alpha-beta's tree has the focus on its root; Down
	// moves to the first move, Space chooses it, in both trees.
	if got := v.win.Canvas().Focused(); got != ab.tree {
		t.Fatalf("focus: got %T, want alpha-beta's tree", got)
	}
	ab.tree.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	ab.tree.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if d6 := ab.childIDs("0")[0]; ab.sel != d6 || lineOf(mm, mm.sel) != "[d6]" || lineOf(ab, d6) != "[d6]" {
		t.Errorf("Down, Space: got alpha-beta's node %q, minimax's %q; want d6 in both", ab.sel, mm.sel)
	}

	// Zoom in: larger rows in both trees.
	size := ab.row("0").TextSize
	test.Tap(v.zoomIn)
	for _, p := range v.panes {
		if got := p.row("0").TextSize; got <= size || v.zoomL.Text != "100 %" {
			t.Errorf("%s, zoom +: got text size %v (was %v), label %q; want larger, 100 %%", p.name(), got, size, v.zoomL.Text)
		}
	}
	// Collapse and expand both.
	v.each((*treePane).closeAll)
	if ab.tree.IsBranchOpen("0") || mm.tree.IsBranchOpen("0") {
		t.Errorf("Collapse All left a root open")
	}
	v.each((*treePane).openAll)
	if !ab.tree.IsBranchOpen(a7) || !mm.tree.IsBranchOpen(mmA7) {
		t.Errorf("Expand All left a7 closed")
	}
	v.win.Close()
	if u.treeWin != nil {
		t.Errorf("the window closed, the app still holds it")
	}
}

// TestSearchTreeChoose checks that a node chosen in one tree chooses the
// node of the same line in the other, opening the branches above it, and
// that the board draws its position with the move that led there: on the
// empty board at depth 3, from alpha-beta's tree to minimax's, from a cut
// move to the same move searched, from below a cut to the cut, and to a
// line the node limit left out.
func TestSearchTreeChoose(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.ctrl.SetGame(muehle.NewGame(9))
	v := openSearchTree(t, q, u, "3")
	ab, mm := v.panes[0], v.panes[1]
	if v.board.View().Pos != muehle.NewPosition(9) {
		t.Errorf("board before a choice: got %s, want the empty board", v.board.View().Pos)
	}
	ta, tm := v.trees[0], v.trees[1]

	// A searched node three plies deep: the same line in minimax, its
	// branches opened, its position on the board.
	deep := -1
	for i, n := range ta.Nodes {
		if n.Ply == 3 && !n.Cut && ta.Nodes[n.Parent].Rank > 0 {
			deep = i
			break
		}
	}
	if deep < 0 {
		t.Fatal("alpha-beta's tree has no searched node three plies deep below a second move")
	}
	id := strconv.Itoa(deep)
	mm.tree.CloseAllBranches()
	ab.choose(t, id)
	if mm.sel == "" || lineOf(mm, mm.sel) != lineOf(ab, id) {
		t.Fatalf("minimax: got node %q (line %s), want the line %s", mm.sel, lineOf(mm, mm.sel), lineOf(ab, id))
	}
	j, _ := strconv.Atoi(mm.sel)
	for a := tm.Nodes[j].Parent; a >= 0; a = tm.Nodes[a].Parent {
		if !mm.tree.IsBranchOpen(strconv.Itoa(a)) {
			t.Errorf("minimax: the branch of %s above the chosen node is closed", lineOf(mm, strconv.Itoa(a)))
		}
	}
	n := &ta.Nodes[deep]
	if bv := v.board.View(); bv.Pos != n.Pos || bv.Last != n.Move || tm.Nodes[j].Pos != n.Pos {
		t.Errorf("board: got %s after %s, want %s after %s", bv.Pos, bv.Last, n.Pos, n.Move)
	}
	line := treeLine(ta, deep)
	if want := fmt.Sprintf("Line: %s %s %s.", line[0], line[1], line[2]); !strings.HasPrefix(v.detail.Text, want) ||
		!strings.Contains(v.detail.Text, "Minimax: "+tm.Label(j)) {
		t.Errorf("detail: got %q, want %q and minimax's node", v.detail.Text, want)
	}

	// Minimax's tree, arriving after the choice (as it does, after
	// alpha-beta's), follows it.
	done := v.trees[1]
	v.trees[1] = nil
	v.show()
	if mm.sel != "" || !strings.Contains(v.detail.Text, "Minimax: no tree yet.") {
		t.Errorf("minimax searching: got node %q, detail %q; want none and no tree yet", mm.sel, v.detail.Text)
	}
	v.trees[1] = done
	v.show()
	if mm.sel == "" || lineOf(mm, mm.sel) != lineOf(ab, id) || ab.sel != id {
		t.Errorf("minimax arrived: got node %q, alpha-beta's %q; want the line %s in both", mm.sel, ab.sel, lineOf(ab, id))
	}

	// A cut move in alpha-beta's tree: minimax searched it.
	cut := slices.IndexFunc(ta.Nodes, func(n search.TreeNode) bool { return n.Cut && n.Ply == 2 })
	if cut < 0 {
		t.Fatal("alpha-beta's tree cut no move two plies deep")
	}
	ab.choose(t, strconv.Itoa(cut))
	if lineOf(mm, mm.sel) != lineOf(ab, strconv.Itoa(cut)) || strings.HasSuffix(mm.row(mm.sel).Text, " cut") {
		t.Errorf("minimax after the cut %s: got node %q %q, want the same line searched", lineOf(ab, strconv.Itoa(cut)), mm.sel, mm.row(mm.sel).Text)
	}

	// A minimax node below it: alpha-beta's cut is chosen and says so.
	below := strconv.Itoa(tm.Nodes[nodeNum(t, mm.sel)].Children[0])
	mm.choose(t, below)
	if ab.sel != strconv.Itoa(cut) || !strings.Contains(v.detail.Text, "Alpha-beta cut this line at "+ta.Nodes[cut].Move.String()) {
		t.Errorf("alpha-beta after minimax's %s: got node %q, detail %q; want the cut node %d", lineOf(mm, below), ab.sel, v.detail.Text, cut)
	}
	if got, want := v.board.View().Pos, tm.Nodes[nodeNum(t, below)].Pos; got != want {
		t.Errorf("board: got %s, want minimax's chosen node %s", got, want)
	}

	// A line beyond the nodes minimax recorded: nothing chosen there.
	v.limit.SetSelected("100")
	q.Drain(t, 20*time.Second, func() bool { return v.trees[0] != nil && v.trees[1] != nil })
	ta, tm = v.trees[0], v.trees[1]
	missing := -1
	for i := range ta.Nodes {
		if _, moves := treeFind(tm, treeLine(ta, i)); moves < ta.Nodes[i].Ply {
			missing = i
			break
		}
	}
	if missing < 0 {
		t.Fatal("every line alpha-beta recorded at limit 100 is in minimax's tree")
	}
	ab.choose(t, strconv.Itoa(missing))
	if mm.sel != "" || !strings.Contains(v.detail.Text, "Minimax: this line is not among the first 100 nodes shown.") {
		t.Errorf("minimax after alpha-beta's %s: got node %q, detail %q; want none chosen", lineOf(ab, strconv.Itoa(missing)), mm.sel, v.detail.Text)
	}
}

// nodeNum returns the node number of widget id id.
func nodeNum(t *testing.T, id string) int {
	t.Helper()
	i, err := strconv.Atoi(id)
	if err != nil {
		t.Fatalf("node id %q: %v", id, err)
	}
	return i
}

// TestSearchTreeDatabase checks the database's values in the window on a
// 3-3 endgame where White closes a mill at once (the search stops at depth
// 1, a proven win): the database knows every node, and the replies the
// evaluation misjudges are drawn in the error colour; every node of the
// conspiracy number search beside it has its database value too.
func TestSearchTreeDatabase(t *testing.T) {
	e := solvedEngines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	p, err := muehle.ParsePosition("WW.B.....W....B.......B. w 0 0")
	if err != nil {
		t.Fatal(err)
	}
	g, err := muehle.NewGameFrom(p, 9)
	if err != nil {
		t.Fatal(err)
	}
	u.ctrl.SetGame(g)
	v := openSearchTree(t, q, u, "2")
	tr := v.trees[0]
	disagree := 0
	for i := range tr.Nodes {
		n := &tr.Nodes[i]
		if n.Cut || n.Pos.IsOver() {
			continue // the database holds no layer of 2 stones
		}
		if n.DB == 0 {
			t.Errorf("node %s: no database value", tr.Label(i))
		}
		if n.Disagrees() {
			disagree++
			if r := v.panes[0].row(itoa(uint64(i))); r.Color != theme.Color(theme.ColorNameError) || !strings.Contains(r.Text, "≠db") {
				t.Errorf("row %q: got colour %v, want the error colour", r.Text, r.Color)
			}
		}
	}
	if disagree == 0 {
		t.Errorf("no node of the 3-3 tree disagrees with the database; want the horizon effect shown")
	}
	t.Logf("%d of %d nodes disagree with the database", disagree, tr.Searched())

	// Conspiracy numbers beside it: the database's values in their tree too.
	v.beside.SetSelected("Conspiracy numbers")
	q.Drain(t, 20*time.Second, func() bool { return v.cn != nil })
	for i := range v.cn.Nodes {
		if n := &v.cn.Nodes[i]; !n.Pos.IsOver() && n.DB == 0 {
			t.Fatalf("conspiracy numbers, node %s: no database value", v.cn.Label(i))
		}
	}
}

// TestSearchTreeCCNS checks the conspiracy number search beside
// alpha-beta on the empty board at depth 2 (the pairs (1,1) and (2,1)):
// chosen in the select, it is searched alone, alpha-beta's tree and its
// chosen node kept; its pane shows search.TraceCCNS's tree, each row with
// the node's value, target and conspiracy number, the moves never examined
// dimmed; the detail explains a chosen node; a node chosen in one tree
// chooses the same line in the other, the node where conspiracy numbers
// left it out (at depth 3), or nothing where the line is missing (100
// nodes shown); Minimax comes back.
func TestSearchTreeCCNS(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	g := muehle.NewGame(9)
	u.ctrl.SetGame(g)
	v := openSearchTree(t, q, u, "2")
	ab, cp := v.panes[0], v.panes[1]
	left := v.trees[0]
	d6 := ab.childIDs("0")[0]
	ab.choose(t, d6)

	v.beside.SetSelected("Conspiracy numbers")
	if v.trees[1] != nil || cp.data() != nil || !strings.Contains(v.detail.Text, "Conspiracy numbers: no tree yet.") {
		t.Errorf("conspiracy numbers searching: got minimax's tree %v, pane %v, detail %q; want none, and no tree yet", v.trees[1] != nil, cp.data(), v.detail.Text)
	}
	q.Drain(t, 20*time.Second, func() bool { return v.cn != nil })
	if v.trees[0] != left || ab.sel != d6 {
		t.Errorf("alpha-beta: got tree %p chosen %q, want the same tree %p with d6 chosen", v.trees[0], ab.sel, left)
	}
	want, err := search.TraceCCNS(context.Background(), g, search.CCNSTreeOptions{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	cn := v.cn
	if cn.Result != want.Result || len(cn.Nodes) != len(want.Nodes) {
		t.Fatalf("got result %+v with %d nodes, want search.TraceCCNS's %+v with %d", cn.Result, len(cn.Nodes), want.Result, len(want.Nodes))
	}
	if got, head := cp.heading.Text, "577 nodes, best d6, value -6, safe by 1"; got != head || v.heading(1) != "Conspiracy numbers: "+head {
		t.Errorf("heading: got %q, want %q", got, head)
	}
	if got, sum := v.counts.Text, "Depth 2: alpha-beta searched 74 nodes; "+cn.Summary()+"."; got != sum {
		t.Errorf("counts: got %q, want %q", got, sum)
	}
	// The followed choice: d6, with its target and conspiracy number,
	// explained in the detail.
	cd6 := cp.childIDs("0")[0]
	if cp.sel != cd6 || cp.row(cd6).Text != "1. d6 # +6 evals 2 target ≤ +6 δ1 γ1 cn 1" ||
		!strings.Contains(v.detail.Text, "Conspiracy numbers: "+cn.Label(1)+"\n"+cn.Explain(1)) ||
		!strings.Contains(cn.Explain(1), "Its last target: at most +6 with leaves at least 1 ply below, by 1 leaf-disjoint strategy.") {
		t.Errorf("d6: got node %q, row %q, detail %q; want d6 chosen and explained", cp.sel, cp.row(cd6).Text, v.detail.Text)
	}
	// A move never examined: dimmed; alpha-beta follows its line.
	skipped := slices.IndexFunc(cn.Nodes, func(n search.CCNSNode) bool { return !n.Examined() })
	if skipped < 0 {
		t.Fatal("conspiracy numbers examined every move")
	}
	id := strconv.Itoa(skipped)
	if r := cp.row(id); r.Color != theme.Color(theme.ColorNameDisabled) || !strings.HasSuffix(r.Text, " not examined") {
		t.Errorf("row %q: got colour %v, want the disabled colour", r.Text, r.Color)
	}
	cp.choose(t, id)
	if j, k := treeFind(left, treeLine(cn, skipped)); ab.sel != strconv.Itoa(j) || k != cn.Nodes[skipped].Ply {
		t.Errorf("alpha-beta after %s: got node %q, want the same line (%d of %d moves found)", lineOf(cp, id), ab.sel, k, cn.Nodes[skipped].Ply)
	}
	// At depth 3, below a move conspiracy numbers never examined: that
	// move is chosen, and the detail says so.
	v.depth.SetSelected("3")
	if want := treeHint + "\n\nConspiracy numbers: " + strings.ReplaceAll(search.CCNSTreeLegend, "\n", " "); v.detail.Text != want {
		t.Errorf("detail of a new search: got %q, want the hint and the legend of conspiracy numbers", v.detail.Text)
	}
	q.Drain(t, 20*time.Second, func() bool { return v.trees[0] != nil && v.cn != nil })
	left, cn = v.trees[0], v.cn
	below := -1
	for i := range left.Nodes {
		if j, k := treeFind(cn, treeLine(left, i)); k < left.Nodes[i].Ply && !cn.Nodes[j].Examined() {
			below = i
			break
		}
	}
	if below < 0 {
		t.Fatal("alpha-beta searched no line conspiracy numbers left unexamined")
	}
	ab.choose(t, strconv.Itoa(below))
	j, _ := treeFind(cn, treeLine(left, below))
	if cp.sel != strconv.Itoa(j) || !strings.Contains(v.detail.Text, "Conspiracy numbers generated "+cn.Nodes[j].Move.String()+" and never examined it") {
		t.Errorf("conspiracy numbers after alpha-beta's %s: got node %q, detail %q; want the unexamined node %d", lineOf(ab, strconv.Itoa(below)), cp.sel, v.detail.Text, j)
	}
	// With 100 nodes shown, a line alpha-beta searched beyond the nodes
	// conspiracy numbers show: nothing chosen there.
	v.limit.SetSelected("100")
	q.Drain(t, 20*time.Second, func() bool { return v.trees[0] != nil && v.cn != nil })
	left, cn = v.trees[0], v.cn
	missing := -1
	for i := range left.Nodes {
		if j, k := treeFind(cn, treeLine(left, i)); k < left.Nodes[i].Ply && cn.Nodes[j].Examined() {
			missing = i
			break
		}
	}
	if missing < 0 {
		t.Fatal("conspiracy numbers show every line alpha-beta searched")
	}
	ab.choose(t, strconv.Itoa(missing))
	if cp.sel != "" || !strings.Contains(v.detail.Text, "Conspiracy numbers: this line is not among the first 100 nodes shown.") {
		t.Errorf("conspiracy numbers after alpha-beta's %s: got node %q, detail %q; want none chosen", lineOf(ab, strconv.Itoa(missing)), cp.sel, v.detail.Text)
	}

	// Minimax again, beside the same alpha-beta tree.
	v.beside.SetSelected("Minimax")
	q.Drain(t, 20*time.Second, func() bool { return v.trees[1] != nil })
	if v.cn != nil || v.trees[0] != left || cp.name() != "Minimax" || !strings.HasPrefix(v.heading(1), "Minimax: 12721 nodes") {
		t.Errorf("back to minimax: got conspiracy numbers %v, heading %q, the same alpha-beta tree %v", v.cn != nil, cp.heading.Text, v.trees[0] == left)
	}
}
