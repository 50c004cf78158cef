package ui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"muehle/muehle"
	"muehle/ui/game"
)

// menus holds the main menu and the items whose state follows the game.
type menus struct {
	u       *App
	main    *fyne.MainMenu
	undo    *fyne.MenuItem
	redo    *fyne.MenuItem
	perfect *fyne.MenuItem
	state   *fyne.MenuItem
	players [2][]playerItem
	speed   []*fyne.MenuItem
}

// playerItem is a menu item that chooses spec for a side.
type playerItem struct {
	item *fyne.MenuItem
	spec game.PlayerSpec
}

// shortcut returns Ctrl (Cmd on macOS) with key k, plus Shift when shift is set.
func shortcut(k fyne.KeyName, shift bool) *desktop.CustomShortcut {
	m := fyne.KeyModifierShortcutDefault
	if shift {
		m |= fyne.KeyModifierShift
	}
	return &desktop.CustomShortcut{KeyName: k, Modifier: m}
}

// The keyboard shortcuts of the Game menu.
var (
	keyNew     = shortcut(fyne.KeyN, false)
	keyUndo    = shortcut(fyne.KeyZ, false)
	keyRedo    = shortcut(fyne.KeyY, false)
	keySetUp   = shortcut(fyne.KeyE, false)
	keyCopy    = shortcut(fyne.KeyC, true)
	keyPaste   = shortcut(fyne.KeyV, true)
	keySave    = shortcut(fyne.KeyS, false)
	keyOpen    = shortcut(fyne.KeyO, false)
	keyState   = shortcut(fyne.KeyI, false)
	keyPerfect = shortcut(fyne.KeyP, false)
	keyQuit    = shortcut(fyne.KeyQ, false)
)

func item(label string, key fyne.Shortcut, action func()) *fyne.MenuItem {
	it := fyne.NewMenuItem(label, action)
	it.Shortcut = key
	return it
}

func newMenus(u *App) *menus {
	m := &menus{u: u}
	c := u.ctrl
	m.undo = item("Undo", keyUndo, c.Undo)
	m.redo = item("Redo", keyRedo, c.Redo)
	m.perfect = item("Show Perfect Moves", keyPerfect, func() { u.setShowPerfect(!c.ShowPerfect()) })
	m.state = item("Show State Number", keyState, u.stateNumber)
	quit := item("Quit", keyQuit, u.quit)
	quit.IsQuit = true
	game := fyne.NewMenu("Game",
		item("New", keyNew, c.NewGame),
		fyne.NewMenuItemSeparator(),
		m.undo, m.redo,
		fyne.NewMenuItemSeparator(),
		item("Set Up Position…", keySetUp, u.setUp),
		item("Copy Position", keyCopy, u.copyPosition),
		item("Copy Game", nil, u.copyGame),
		item("Paste Position or Game", keyPaste, u.paste),
		fyne.NewMenuItemSeparator(),
		item("Open Game…", keyOpen, u.openGame),
		item("Save Game…", keySave, u.saveGame),
		fyne.NewMenuItemSeparator(),
		m.state, m.perfect,
		fyne.NewMenuItemSeparator(),
		quit,
	)
	white := m.playerMenu(muehle.White)
	black := m.playerMenu(muehle.Black)
	var speedItems []*fyne.MenuItem
	for _, d := range speeds {
		it := fyne.NewMenuItem(speedName(d), func() { u.setSpeed(d) })
		m.speed = append(m.speed, it)
		speedItems = append(speedItems, it)
	}
	m.main = fyne.NewMainMenu(game, white, black, fyne.NewMenu("Speed", speedItems...))
	return m
}

// playerMenu returns the White or Black menu.
func (m *menus) playerMenu(col muehle.Color) *fyne.Menu {
	add := func(spec game.PlayerSpec, label string) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, func() { m.u.setPlayer(col, spec) })
		m.players[col] = append(m.players[col], playerItem{it, spec})
		return it
	}
	items := []*fyne.MenuItem{
		add(game.PlayerSpec{Kind: game.Human}, "Human"),
		add(game.PlayerSpec{Kind: game.RandomPlayer}, "Random"),
	}
	ab := fyne.NewMenuItem("Alpha-beta", nil)
	var depths []*fyne.MenuItem
	depths = append(depths, add(game.PlayerSpec{Kind: game.AlphaBetaPlayer}, "Automatic"))
	for d := 1; d <= game.MaxDepth; d++ {
		depths = append(depths, add(game.PlayerSpec{Kind: game.AlphaBetaPlayer, Depth: d}, fmt.Sprintf("Depth %d", d)))
	}
	ab.ChildMenu = fyne.NewMenu("", depths...)
	items = append(items, ab, add(game.PlayerSpec{Kind: game.PerfectPlayer}, "Perfect"))
	return fyne.NewMenu(col.String(), items...)
}

// update sets the checks and the enabled state of the items.
func (m *menus) update() {
	g := m.u.ctrl.Game()
	m.undo.Disabled = !g.CanUndo()
	m.redo.Disabled = !g.CanRedo()
	m.perfect.Checked = m.u.ctrl.ShowPerfect()
	noEngines := m.u.engines == nil
	m.perfect.Disabled = noEngines
	m.state.Disabled = noEngines
	for col := range m.players {
		for _, pi := range m.players[col] {
			pi.item.Checked = pi.spec == m.u.specs[col]
			pi.item.Disabled = noEngines && (pi.spec.Kind == game.AlphaBetaPlayer || pi.spec.Kind == game.PerfectPlayer)
		}
	}
	for i, it := range m.speed {
		it.Checked = speeds[i] == m.u.ctrl.Speed()
	}
	m.main.Refresh()
}

// addShortcuts makes the shortcuts work when the menu is not open.
func (u *App) addShortcuts() {
	c := u.ctrl
	add := func(s *desktop.CustomShortcut, f func()) {
		u.win.Canvas().AddShortcut(s, func(fyne.Shortcut) { f() })
	}
	add(keyNew, c.NewGame)
	add(keyUndo, c.Undo)
	add(keyRedo, c.Redo)
	add(shortcut(fyne.KeyZ, true), c.Redo)
	add(keySetUp, u.setUp)
	add(keyCopy, u.copyPosition)
	add(keyPaste, u.paste)
	add(keySave, u.saveGame)
	add(keyOpen, u.openGame)
	add(keyState, u.stateNumber)
	add(keyPerfect, func() { u.setShowPerfect(!c.ShowPerfect()) })
	add(keyQuit, u.quit)
}

func (u *App) quit() {
	u.ctrl.Close()
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
