package ui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game"
)

// menus holds the main menu and the items whose state follows the game.
type menus struct {
	u        *App
	main     *fyne.MainMenu
	undo     *fyne.MenuItem
	redo     *fyne.MenuItem
	pause    *fyne.MenuItem
	step     *fyne.MenuItem
	perfect  *fyne.MenuItem
	stateNum *fyne.MenuItem
	noRemove *fyne.MenuItem
	hint     *fyne.MenuItem
	flip     *fyne.MenuItem
	themes   []themeItem
	players  [2][]playerItem
	speed    []*fyne.MenuItem
	shown    string                    // the state of the items when the menu was last refreshed
	names    map[*fyne.MenuItem]string // the name of each item's command, its first label
}

// playerItem is a menu item that chooses spec for a side.
type playerItem struct {
	item *fyne.MenuItem
	spec play.Spec
}

// themeItem is a menu item that chooses a theme variant.
type themeItem struct {
	item *fyne.MenuItem
	name string
}

// shortcut returns Ctrl (Cmd on macOS) with key k, plus Shift when shift is set.
func shortcut(k fyne.KeyName, shift bool) *desktop.CustomShortcut {
	m := fyne.KeyModifierShortcutDefault
	if shift {
		m |= fyne.KeyModifierShift
	}
	return &desktop.CustomShortcut{KeyName: k, Modifier: m}
}

// The keyboard shortcuts of the menus. Undo and redo are Fyne's own
// shortcuts: the desktop driver turns Ctrl+Z and Ctrl+Y into them (and
// never into a custom shortcut), and finds the menu item by the shortcut's
// name.
var (
	keyNew     = shortcut(fyne.KeyN, false)
	keyUndo    = &fyne.ShortcutUndo{}
	keyRedo    = &fyne.ShortcutRedo{}
	keyRedoAlt = shortcut(fyne.KeyZ, true)
	keyPause   = shortcut(fyne.KeySpace, false)
	keyStep    = shortcut(fyne.KeyPeriod, false)
	keySetUp   = shortcut(fyne.KeyE, false)
	keyCopy    = shortcut(fyne.KeyC, true)
	keyPaste   = shortcut(fyne.KeyV, true)
	keySave    = shortcut(fyne.KeyS, false)
	keyOpen    = shortcut(fyne.KeyO, false)
	keyState   = shortcut(fyne.KeyI, false)
	keyPerfect = shortcut(fyne.KeyP, false)
	keyQuit    = shortcut(fyne.KeyQ, false)
	keyHint    = shortcut(fyne.KeyH, false)
	keyFlip    = shortcut(fyne.KeyF, false)
)

// keyPauseAlt pauses and resumes too, when no text field or list has the
// keyboard: desktops often take Ctrl+Space to switch the input method.
const keyPauseAlt = fyne.KeyP

// item returns a menu item that runs action under the name label (for the
// trace, see Options.Trace).
func (m *menus) item(label string, key fyne.Shortcut, action func()) *fyne.MenuItem {
	it := fyne.NewMenuItem(label, m.u.traced(label, action))
	it.Shortcut = key
	m.names[it] = label
	return it
}

// traced returns f, reporting name to the trace first when there is one.
func (u *App) traced(name string, f func()) func() {
	return func() {
		if u.trace != nil {
			u.trace(name)
		}
		f()
	}
}

func newMenus(u *App) *menus {
	m := &menus{u: u, names: map[*fyne.MenuItem]string{}}
	c := u.ctrl
	m.undo = m.item("Undo", keyUndo, c.Undo)
	m.redo = m.item("Redo", keyRedo, c.Redo)
	m.pause = m.item("Pause Computer", keyPause, func() { u.setPaused(!c.Paused()) })
	m.step = m.item("Step: One Computer Move", keyStep, c.Step)
	m.perfect = m.item("Show Perfect Moves", keyPerfect, func() { u.setShowPerfect(!c.ShowPerfect()) })
	m.stateNum = m.item("Show State Number", keyState, u.stateNumber)
	m.noRemove = m.item(fmt.Sprintf("Draw After %d Plies Without a Removal", noRemovalMoves), nil,
		func() { u.setNoRemovalRule(!u.noRemovalRule()) })
	m.hint = m.item("Hint: Show the Best Move", keyHint, u.hint)
	m.flip = m.item("Flip Board", keyFlip, func() { u.setFlipped(!u.board.Flipped()) })
	quit := m.item("Quit", keyQuit, u.quit)
	quit.IsQuit = true
	// The Game menu fits a window 700 pixels high: looking at the
	// position is in the Analysis menu, the board's look in View.
	gameMenu := fyne.NewMenu("Game",
		m.item("New Game…", keyNew, u.newGame),
		fyne.NewMenuItemSeparator(),
		m.undo, m.redo,
		fyne.NewMenuItemSeparator(),
		m.pause, m.step, m.hint,
		fyne.NewMenuItemSeparator(),
		m.item("Set Up Position…", keySetUp, u.setUp),
		m.item("Open Game…", keyOpen, u.openGame),
		m.item("Save Game…", keySave, u.saveGame),
		fyne.NewMenuItemSeparator(),
		m.item("Copy Position", keyCopy, u.copyPosition),
		m.item("Copy Game", nil, u.copyGame),
		m.item("Paste Position or Game", keyPaste, u.paste),
		fyne.NewMenuItemSeparator(),
		m.noRemove,
		fyne.NewMenuItemSeparator(),
		quit,
	)
	analysis := fyne.NewMenu("Analysis",
		m.perfect, m.stateNum,
		fyne.NewMenuItemSeparator(),
		m.item("Review Game", nil, u.reviewGame),
		m.item("Search Tree…", nil, u.searchTree),
		m.item("Training…", nil, u.showTraining),
	)
	white := m.playerMenu(muehle.White)
	black := m.playerMenu(muehle.Black)
	// The first item says what the times are; it does nothing.
	speedItems := []*fyne.MenuItem{{Label: "Least Time per Computer Move:", Disabled: true}}
	for _, d := range speeds {
		it := m.item(speedName(d), nil, func() { u.setSpeed(d) })
		m.speed = append(m.speed, it)
		speedItems = append(speedItems, it)
	}
	themeItems := []*fyne.MenuItem{m.flip, fyne.NewMenuItemSeparator()}
	for _, t := range themeNames {
		it := m.item(t.label, nil, func() { u.setTheme(t.name) })
		m.themes = append(m.themes, themeItem{it, t.name})
		themeItems = append(themeItems, it)
	}
	help := fyne.NewMenu("Help",
		m.item("Rules of the Game", nil, u.showRules),
		m.item("Keyboard Shortcuts", nil, u.showKeys),
		m.item("About Mühle", nil, u.showAbout),
	)
	m.main = fyne.NewMainMenu(gameMenu, analysis, white, black,
		fyne.NewMenu("Speed", speedItems...), fyne.NewMenu("View", themeItems...),
		fyne.NewMenu("Database", m.item("Import…", nil, u.importDatabase)), help)
	return m
}

// playerMenu returns the White or Black menu: Human, then the players of
// play.Offered in its order, alpha-beta's depths and the levels each in a
// sub-menu of their own.
func (m *menus) playerMenu(col muehle.Color) *fyne.Menu {
	add := func(spec play.Spec, label string) *fyne.MenuItem {
		it := m.item(label, nil, func() { m.u.setPlayer(col, spec) })
		m.players[col] = append(m.players[col], playerItem{it, spec})
		return it
	}
	items := []*fyne.MenuItem{add(game.Human, "Human")}
	subs := map[play.Kind]*fyne.MenuItem{}
	for _, sp := range play.Offered() {
		var sub string
		switch sp.Kind {
		case play.KindAlphaBeta:
			sub = "Alpha-beta"
		case play.KindLevel:
			sub = "Level"
		default:
			items = append(items, add(sp, game.Title(sp)))
			continue
		}
		parent := subs[sp.Kind]
		if parent == nil {
			parent = fyne.NewMenuItem(sub, nil)
			parent.ChildMenu = fyne.NewMenu("")
			subs[sp.Kind] = parent
			items = append(items, parent)
		}
		parent.ChildMenu.Items = append(parent.ChildMenu.Items, add(sp, subLabel(sp)))
	}
	return fyne.NewMenu(col.String(), items...)
}

// subLabel returns the label of sp in its sub-menu: "Automatic",
// "Depth 4"; "Level 1 (weakest)", "Level 3", "Level 10 (perfect)".
func subLabel(sp play.Spec) string {
	switch {
	case sp.Kind == play.KindLevel:
		return levelLabel(sp.Level)
	case sp.Limits.Depth == 0:
		return "Automatic"
	}
	return fmt.Sprintf("Depth %d", sp.Limits.Depth)
}

// update sets the checks, labels and enabled state of the items, and
// refreshes the menu only when one of them changed: a refresh closes an
// open menu, and a computer game changes the game several times a second.
func (m *menus) update() {
	c := m.u.ctrl
	g := c.Game()
	m.undo.Disabled = !g.CanUndo()
	m.redo.Disabled = !g.CanRedo()
	m.pause.Label = "Pause Computer (or P)"
	if c.Paused() {
		m.pause.Label = "Resume Computer (or P)"
	}
	m.step.Disabled = !c.CanStep()
	m.perfect.Checked = c.ShowPerfect()
	noEngines := m.u.engines == nil
	m.perfect.Disabled = noEngines
	m.stateNum.Disabled = noEngines
	m.hint.Disabled = noEngines
	m.flip.Checked = m.u.board.Flipped()
	m.noRemove.Checked = m.u.noRemovalRule()
	for col := range m.players {
		for _, pi := range m.players[col] {
			pi.item.Checked = pi.spec == m.u.specs[col]
			pi.item.Disabled = noEngines && game.NeedsEngines(pi.spec)
		}
	}
	for i, it := range m.speed {
		it.Checked = speeds[i] == c.Speed()
	}
	for _, t := range m.themes {
		t.item.Checked = t.name == m.u.themeName()
	}
	if s := m.itemStates(); s != m.shown {
		m.shown = s
		m.main.Refresh()
	}
}

// itemStates returns the label, check and enabled state of every item.
func (m *menus) itemStates() string {
	var b []byte
	var walk func(items []*fyne.MenuItem)
	walk = func(items []*fyne.MenuItem) {
		for _, it := range items {
			b = fmt.Appendf(b, "%s|%t|%t;", it.Label, it.Checked, it.Disabled)
			if it.ChildMenu != nil {
				walk(it.ChildMenu.Items)
			}
		}
	}
	for _, mm := range m.main.Items {
		walk(mm.Items)
	}
	return string(b)
}

// addShortcuts makes every shortcut shown in the menus work from the
// canvas too (the desktop driver tries the main menu first, the canvas
// after), and adds Ctrl+Shift+Z for redo.
func (u *App) addShortcuts() {
	var walk func(items []*fyne.MenuItem)
	walk = func(items []*fyne.MenuItem) {
		for _, it := range items {
			if it.Shortcut != nil && it.Action != nil {
				f := it.Action
				u.win.Canvas().AddShortcut(it.Shortcut, func(fyne.Shortcut) { f() })
			}
			if it.ChildMenu != nil {
				walk(it.ChildMenu.Items)
			}
		}
	}
	for _, mm := range u.menu.main.Items {
		walk(mm.Items)
	}
	u.win.Canvas().AddShortcut(keyRedoAlt, func(fyne.Shortcut) { u.traced("Redo", u.ctrl.Redo)() })
}

func (u *App) quit() {
	u.shutdown()
	u.app.Quit()
}

// speeds are the move speeds the menu offers.
var speeds = []time.Duration{100 * time.Millisecond, 500 * time.Millisecond, time.Second, 3 * time.Second}

// speedName returns a menu label for d: "100 ms", "1 s".
func speedName(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%d s", int(d.Seconds()))
}
