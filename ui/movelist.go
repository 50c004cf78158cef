package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/retro/teach"
)

// moveRow is one line of the move list: a label that reports a tap with
// the ply of its position.
type moveRow struct {
	widget.Label
	ply   int
	onTap func(ply int)
}

func newMoveRow(ply int, onTap func(int)) *moveRow {
	r := &moveRow{ply: ply, onTap: onTap}
	r.TextStyle.Monospace = true
	r.ExtendBaseWidget(r)
	return r
}

// Tapped shows the position of the row.
func (r *moveRow) Tapped(*fyne.PointEvent) { r.onTap(r.ply) }

// moveList is the list of the game's moves, one a row after a row for the
// start, with the row of the position on the board highlighted. Tapping a
// row shows its position. The rows take no keyboard focus, so that the
// arrow keys reach the window (App.typedKey).
type moveList struct {
	rows   []*moveRow
	box    *fyne.Container
	scroll *container.Scroll
	view   *fyne.Container // the scroll, kept on the shown row when its size changes (followShown)
	onTap  func(ply int)
	texts  []string // the text of each row, to redraw only what changed
	shown  int      // the highlighted row
}

func newMoveList(onTap func(int)) *moveList {
	l := &moveList{box: container.NewVBox(), onTap: onTap, shown: -1}
	l.scroll = container.NewVScroll(l.box)
	l.view = container.New(&followShown{l: l}, l.scroll)
	return l
}

// followShown lays out the move list's scroll and scrolls it to the shown
// row whenever its size changes: after a resize, or when the panel around
// it makes room for a review's verdict, the last moves stayed below the
// visible part.
type followShown struct {
	l    *moveList
	last fyne.Size
}

// Layout fills size with the scroll, and scrolls to the shown row when
// size is new.
func (f *followShown) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
	if size != f.last {
		f.last = size
		f.l.scrollTo(f.l.shown)
	}
}

// MinSize is the scroll's.
func (f *followShown) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

// rowTexts returns the rows of g: "Start", then "1. d6", "1… d2", …
// numbered in pairs of moves; with the verdicts of a review (one a move,
// or nil) a move that gave up value gets "?" and the best move.
func rowTexts(g *muehle.Game, vs []teach.Verdict) []string {
	texts := []string{"    Start"}
	b := g.Rules().Board // moves are named on the game's board
	n := 1
	h := g.History()
	for i, p := range g.Positions()[:g.Ply()] {
		m := h[i]
		var t string
		if p.Turn == muehle.White {
			t = fmt.Sprintf("%3d. %s", n, b.MoveString(m))
		} else {
			t = fmt.Sprintf("%3d… %s", n, b.MoveString(m))
			n++
		}
		if i < len(vs) {
			if note := verdictNote(b, vs[i]); note != "" {
				t = fmt.Sprintf("%-16s %s", t, note)
			}
		}
		texts = append(texts, t)
	}
	return texts
}

// marked reports whether row i (0 for the start) is a move that gave up value.
func marked(vs []teach.Verdict, i int) bool {
	return i > 0 && i <= len(vs) && vs[i-1].Mark == teach.MarkWorse
}

// update shows the moves of g with the row of ply shown highlighted, and
// the verdicts vs of a review (nil: none).
func (l *moveList) update(g *muehle.Game, shown int, vs []teach.Verdict) {
	texts := rowTexts(g, vs)
	changed := false
	for i, t := range texts {
		if i == len(l.rows) {
			l.rows = append(l.rows, newMoveRow(i, l.onTap))
			l.box.Add(l.rows[i])
		}
		if i >= len(l.texts) || l.texts[i] != t {
			l.rows[i].SetText(t)
			changed = true
		}
	}
	if len(l.rows) > len(texts) {
		for _, r := range l.rows[len(texts):] {
			l.box.Remove(r)
		}
		l.rows = l.rows[:len(texts)]
		changed = true
	}
	l.texts = texts
	if shown != l.shown || changed {
		for i, r := range l.rows {
			imp := widget.MediumImportance
			switch {
			case i == shown:
				imp = widget.HighImportance
			case marked(vs, i):
				imp = widget.DangerImportance
			}
			if r.Importance != imp {
				r.Importance = imp
				r.Refresh()
			}
		}
		l.shown = shown
		l.scrollTo(shown)
	}
}

// scrollTo scrolls the list so that row i is visible.
func (l *moveList) scrollTo(i int) {
	if i < 0 || i >= len(l.rows) {
		return
	}
	// Rows just added have no place yet, and the scroll does not know the
	// list's new height: lay them out first (after Open or a redo the
	// list scrolled to where the end used to be).
	l.box.Resize(fyne.NewSize(max(l.box.Size().Width, l.box.MinSize().Width), l.box.MinSize().Height))
	l.scroll.Refresh()
	if i == len(l.rows)-1 {
		l.scroll.ScrollToBottom()
		return
	}
	r := l.rows[i]
	top, h := r.Position().Y, l.scroll.Size().Height
	off := l.scroll.Offset
	switch {
	case top < off.Y:
		off.Y = top
	case top+r.Size().Height > off.Y+h:
		off.Y = top + r.Size().Height - h
	}
	l.scroll.ScrollToOffset(off)
}

// Text returns the rows as lines, for tests.
func (l *moveList) Text() string { return strings.Join(l.texts, "\n") }
