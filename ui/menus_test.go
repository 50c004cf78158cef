package ui

import (
	"reflect"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"muehle/ui/game/gametest"
)

// driverShortcut returns the shortcut that Fyne's desktop driver
// (internal/driver/glfw, window.triggersShortcut, v2.8.1) makes of key
// pressed with mod on Linux: Ctrl+Z, Ctrl+Y, Ctrl+C, Ctrl+V, Ctrl+X and
// Ctrl+A become Fyne's own shortcuts, anything else with a modifier a
// custom shortcut. The driver then runs the first main-menu item whose
// shortcut has the same name.
func driverShortcut(key fyne.KeyName, mod fyne.KeyModifier) fyne.Shortcut {
	if mod == fyne.KeyModifierControl {
		switch key {
		case fyne.KeyZ:
			return &fyne.ShortcutUndo{}
		case fyne.KeyY:
			return &fyne.ShortcutRedo{}
		case fyne.KeyC:
			return &fyne.ShortcutCopy{}
		case fyne.KeyV:
			return &fyne.ShortcutPaste{}
		case fyne.KeyX:
			return &fyne.ShortcutCut{}
		case fyne.KeyA:
			return &fyne.ShortcutSelectAll{}
		}
	}
	return &desktop.CustomShortcut{KeyName: key, Modifier: mod}
}

// menuItems returns every item of m with a label, child menus included,
// in the order the driver searches them.
func menuItems(m *fyne.MainMenu) []*fyne.MenuItem {
	var out []*fyne.MenuItem
	var walk func([]*fyne.MenuItem)
	walk = func(items []*fyne.MenuItem) {
		for _, it := range items {
			if it.IsSeparator {
				continue
			}
			out = append(out, it)
			if it.ChildMenu != nil {
				walk(it.ChildMenu.Items)
			}
		}
	}
	for _, mm := range m.Items {
		walk(mm.Items)
	}
	return out
}

// TestEveryMenuShortcutWorks checks every shortcut the menus show: the
// keys it displays, pressed in the desktop driver, reach that item (and no
// other), and typed on the canvas run the same command. Ctrl+Z and Ctrl+Y
// once did nothing: the menu showed custom shortcuts the driver never
// sends for those keys.
func TestEveryMenuShortcutWorks(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	var trace []string
	u := New(a, Options{Do: q.Do, Trace: func(s string) { trace = append(trace, s) }})
	t.Cleanup(u.ctrl.Close)
	type shortcutTyper interface{ TypedShortcut(fyne.Shortcut) }
	// The test canvas wraps the software canvas, which handles shortcuts.
	canvas := reflect.ValueOf(u.Window().Canvas()).Elem().FieldByName("WindowlessCanvas").Interface().(shortcutTyper)
	items := menuItems(u.Window().MainMenu())
	n := 0
	for _, it := range items {
		if it.Shortcut == nil {
			continue
		}
		n++
		ks, ok := it.Shortcut.(fyne.KeyboardShortcut)
		if !ok {
			t.Errorf("%s: shortcut %s shows no keys", it.Label, it.Shortcut.ShortcutName())
			continue
		}
		sent := driverShortcut(ks.Key(), ks.Mod())
		i := slices.IndexFunc(items, func(o *fyne.MenuItem) bool {
			return o.Shortcut != nil && o.Shortcut.ShortcutName() == sent.ShortcutName()
		})
		if i < 0 || items[i] != it {
			got := "nothing"
			if i >= 0 {
				got = items[i].Label
			}
			t.Errorf("%s: pressing modifier %d + %s runs %s, want %s", it.Label, ks.Mod(), ks.Key(), got, it.Label)
			continue
		}
		if it.Label == "Quit" {
			continue // the test app would stop
		}
		trace = nil
		canvas.TypedShortcut(sent)
		if want := u.menu.names[it]; !slices.Equal(trace, []string{want}) {
			t.Errorf("%s: typing %s on the canvas ran %v, want [%s]", it.Label, sent.ShortcutName(), trace, want)
		}
		for u.Window().Canvas().Overlays().Top() != nil {
			u.Window().Canvas().Overlays().Remove(u.Window().Canvas().Overlays().Top())
		}
	}
	if n < 12 {
		t.Errorf("got %d menu items with a shortcut, want at least 12", n)
	}
}

func TestUndoRedoShortcuts(t *testing.T) {
	q := gametest.NewQueue()
	u := newTestApp(t, q, nil)
	g := u.ctrl.Game
	gametest.TapMove(u.Board().TapPoint, gametest.MustMove(t, "d6"))
	type shortcutTyper interface{ TypedShortcut(fyne.Shortcut) }
	c := reflect.ValueOf(u.Window().Canvas()).Elem().FieldByName("WindowlessCanvas").Interface().(shortcutTyper)
	steps := []struct {
		keys string
		s    fyne.Shortcut
		want int
	}{
		{"Ctrl+Z", driverShortcut(fyne.KeyZ, fyne.KeyModifierControl), 0},
		{"Ctrl+Y", driverShortcut(fyne.KeyY, fyne.KeyModifierControl), 1},
		{"Ctrl+Z", driverShortcut(fyne.KeyZ, fyne.KeyModifierControl), 0},
		{"Ctrl+Shift+Z", driverShortcut(fyne.KeyZ, fyne.KeyModifierControl|fyne.KeyModifierShift), 1},
	}
	for _, s := range steps {
		c.TypedShortcut(s.s)
		if got := g().Ply(); got != s.want {
			t.Fatalf("%s: got %d plies, want %d", s.keys, got, s.want)
		}
	}
}
