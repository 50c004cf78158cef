package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// openSearchTree opens Game ▸ Search Tree on u and waits until both
// searches are shown at the depth chosen.
func openSearchTree(t *testing.T, q *gametest.Queue, u *App, depth string) *treeView {
	t.Helper()
	menuItem(t, u.Window().MainMenu(), "Game", "Search Tree…").Action()
	v := u.treeWin
	if v == nil {
		t.Fatal("Search Tree opened no window")
	}
	v.depth.SetSelected(depth)
	q.Drain(t, 20*time.Second, func() bool { return v.trees[0] != nil && v.trees[1] != nil })
	return v
}

// row returns the text object of the row of node id, as the tree draws it.
func (v *treeView) row(id string) *canvas.Text {
	o := v.newRow(false)
	v.updateRow(id, false, o)
	return o.(*canvas.Text)
}

// TestSearchTreeWindow checks the window on the empty board at depth 2,
// whose tree retro/play's TestTreeStartPosition checks by hand: the counts,
// the root's moves open, the cut moves dimmed, minimax without cuts, the
// zoom and the node limit.
func TestSearchTreeWindow(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	u.ctrl.SetGame(muehle.NewGame(9))
	v := openSearchTree(t, q, u, "2")
	for _, want := range []string{"Alpha-beta: best d6, value 0, 74 nodes.", "Minimax: best d6, value 0, 577 nodes.", "12.8 %"} {
		if got := v.counts.Text; !strings.Contains(got, want) {
			t.Errorf("counts: got %q, want %q in it", got, want)
		}
	}
	if got := v.childIDs(""); len(got) != 1 || got[0] != "0" || !v.tree.IsBranchOpen("0") || len(v.childIDs("0")) != 24 {
		t.Fatalf("tree: got top %v, root open %v, %d root moves; want the root open with 24 moves", got, v.tree.IsBranchOpen("0"), len(v.childIDs("0")))
	}
	// The second root move, a7: its first reply searched, the next cut.
	a7 := v.childIDs("0")[1]
	replies := v.childIDs(a7)
	first, second := v.row(replies[0]), v.row(replies[1])
	if first.Text != "1. d7 (history 0) [0, +∞] = -3 eval -3" || second.Text != "2. g7 (history 0) cut" {
		t.Errorf("a7's replies: got %q, %q; want d7 searched, g7 cut", first.Text, second.Text)
	}
	if second.Color != theme.Color(theme.ColorNameDisabled) || first.Color != theme.Color(theme.ColorNameForeground) {
		t.Errorf("colours: got %v searched, %v cut; want the foreground and the disabled colour", first.Color, second.Color)
	}

	// Minimax: the other tree, all 23 replies of a7, nothing cut.
	v.mode.SetSelected("Minimax")
	if v.showing != v.trees[1] {
		t.Fatalf("minimax chosen, the window shows the other tree")
	}
	for _, id := range v.childIDs(v.childIDs("0")[1]) {
		if r := v.row(id); strings.HasSuffix(r.Text, " cut") {
			t.Errorf("minimax row %q is cut", r.Text)
		}
	}
	if n := len(v.childIDs(v.childIDs("0")[1])); n != 23 {
		t.Errorf("minimax: got %d replies to a7, want 23", n)
	}

	// Zoom in: larger rows.
	size := v.row("0").TextSize
	test.Tap(v.zoomIn)
	if got := v.row("0").TextSize; got <= size || v.zoomL.Text != "125 %" {
		t.Errorf("zoom +: got text size %v (was %v), label %q; want larger, 125 %%", got, size, v.zoomL.Text)
	}
	// Collapse and expand.
	v.tree.CloseAllBranches()
	if v.tree.IsBranchOpen("0") {
		t.Errorf("Collapse All left the root open")
	}
	v.tree.OpenAllBranches()
	if !v.tree.IsBranchOpen(a7) {
		t.Errorf("Expand All left a7 closed")
	}

	// The node limit: the first 10 nodes recorded, the counts unchanged.
	v.limit.SetSelected("100")
	v.depth.SetSelected("3")
	q.Drain(t, 20*time.Second, func() bool { return v.trees[0] != nil && v.trees[1] != nil })
	if !strings.Contains(v.counts.Text, "Showing the first 100 nodes.") || v.trees[1].Searched() != 100 {
		t.Errorf("limit 100 at depth 3: got counts %q, %d minimax nodes recorded; want the first 100 shown", v.counts.Text, v.trees[1].Searched())
	}
	v.win.Close()
	if u.treeWin != nil {
		t.Errorf("the window closed, the app still holds it")
	}
}

// TestSearchTreeDatabase checks the database's values in the window on a
// 3-3 endgame where White closes a mill at once (the search stops at depth
// 1, a proven win): the database knows every node, and the replies the
// evaluation misjudges are drawn in the error colour.
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
			if r := v.row(itoa(uint64(i))); r.Color != theme.Color(theme.ColorNameError) || !strings.Contains(r.Text, "≠db") {
				t.Errorf("row %q: got colour %v, want the error colour", r.Text, r.Color)
			}
		}
	}
	if disagree == 0 {
		t.Errorf("no node of the 3-3 tree disagrees with the database; want the horizon effect shown")
	}
	t.Logf("%d of %d nodes disagree with the database", disagree, tr.Searched())
}
