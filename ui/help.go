package ui

import (
	"fmt"
	"runtime/debug"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// This file holds the Help menu: the rules of the game (rules.go,
// rulespic.go), the keyboard shortcuts, and About: the version and commit
// of the program, the database folder and what it holds.

// helpSize returns the size of a help dialog: most of the window, so that
// it fits however small the window is.
func (u *App) helpSize() fyne.Size {
	s := u.win.Canvas().Size()
	return fyne.NewSize(max(300, min(760, s.Width-60)), max(240, s.Height-80))
}

// showText shows a help dialog with the scrolled content c; Escape or
// Close closes it.
func (u *App) showText(title string, c fyne.CanvasObject) {
	u.showDialog(title, container.NewVScroll(c))
}

// showDialog shows a help dialog with the content c, which scrolls itself;
// Escape or Close closes it.
func (u *App) showDialog(title string, c fyne.CanvasObject) {
	d := dialog.NewCustom(title, "Close", c, u.win)
	d.Resize(u.helpSize())
	u.showEscapable(d)
}

// showEscapable shows d, which Escape closes as its dismiss button does.
func (u *App) showEscapable(d dialog.Dialog) {
	d.SetOnClosed(func() {
		if u.escDialog == d {
			u.escDialog = nil
		}
	})
	u.escDialog = d
	d.Show()
}

// keyHelp returns the keyboard shortcuts as lines "keys: what they do",
// the menu shortcuts read from the menus themselves.
func (u *App) keyHelp() string {
	var b strings.Builder
	b.WriteString("In the menus (Ctrl is Cmd on macOS):\n")
	for _, mm := range u.menu.main.Items {
		for _, it := range mm.Items {
			if it.Shortcut == nil || it.IsSeparator {
				continue
			}
			fmt.Fprintf(&b, "  %-16s %s ▸ %s\n", keyName(it.Shortcut), mm.Label, u.menu.names[it])
		}
	}
	fmt.Fprintf(&b, "  %-16s %s\n\n", keyName(keyRedoAlt), "Game ▸ Redo, as Ctrl+Y")
	b.WriteString("On the board, when no list or field has the keyboard:\n")
	for _, l := range [][2]string{
		{"P", "pause or resume the computer, as Ctrl+Space\n                   (which many desktops take for the input method)"},
		{"Left, Up", "one move back in the game (review)"},
		{"Right, Down", "one move forward"},
		{"Home, End", "the start, the end of the game"},
		{"R", "step through the refutation of a move the review marked"},
		{"Escape", "close a line of moves shown on the board"},
	} {
		fmt.Fprintf(&b, "  %-16s %s\n", l[0], l[1])
	}
	b.WriteString("\nIn the Search Tree window: the arrow keys move through a tree,\n" +
		"Right opens a branch, Left closes it, Space chooses a node.")
	return b.String()
}

// keyName returns a shortcut as a person writes it: "Ctrl+Shift+C".
func keyName(s fyne.Shortcut) string {
	switch k := s.(type) {
	case *fyne.ShortcutUndo:
		return "Ctrl+Z"
	case *fyne.ShortcutRedo:
		return "Ctrl+Y"
	case *desktop.CustomShortcut:
		var b strings.Builder
		for _, m := range []struct {
			mod  fyne.KeyModifier
			name string
		}{{fyne.KeyModifierControl, "Ctrl+"}, {fyne.KeyModifierSuper, "Cmd+"}, {fyne.KeyModifierAlt, "Alt+"}, {fyne.KeyModifierShift, "Shift+"}} {
			if k.Modifier&m.mod != 0 {
				b.WriteString(m.name)
			}
		}
		b.WriteString(string(k.KeyName))
		return b.String()
	}
	return s.ShortcutName()
}

// showKeys shows the keyboard shortcuts.
func (u *App) showKeys() {
	l := widget.NewLabel(u.keyHelp())
	l.TextStyle.Monospace = true
	u.showText("Keyboard Shortcuts", l)
}

// aboutText returns what About says: the program, its version and commit,
// the database folder; and, monospaced apart, the database's state.
func (u *App) aboutText() (head, state string) {
	var b strings.Builder
	var names []string
	for _, r := range playedGames() {
		names = append(names, r.Name)
	}
	fmt.Fprintf(&b, "Mühle plays %s, each also with fewer stones: against a person, a random, an alpha-beta "+
		"or a perfect player, which plays from a database of every position, computed on this machine. "+
		"Help ▸ Rules of the Game explains every game of the family.\n\n", andList(names))
	meta := u.app.Metadata()
	fmt.Fprintf(&b, "Version: %s\n", programVersion(meta.Version, meta.Build))
	fmt.Fprintf(&b, "Commit: %s\n\n", buildCommit())
	if u.db == nil {
		b.WriteString("Database: none in this build.")
		return b.String(), ""
	}
	fmt.Fprintf(&b, "Database folder: %s", u.db.db.Dir())
	if d := u.db.db.Damaged(); d != "" {
		fmt.Fprintf(&b, "\nDamaged layers (used as missing): %s", d)
	}
	if o := u.db.db.Old(); o.Layers > 0 {
		fmt.Fprintf(&b, "\nLayers of the older file format (used as missing until the Database tab converts them): %d", o.Layers)
	}
	return b.String(), u.db.db.Summary()
}

// programVersion returns the version fyne package writes (FyneApp.toml),
// else the module's from the build, else "development build". Fyne's
// default when nothing was written is version 0.0.1, build 1.
func programVersion(meta string, build int) string {
	if meta != "" && (meta != "0.0.1" || build != 1) {
		return fmt.Sprintf("%s (build %d)", meta, build)
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "development build (go build)"
}

// buildCommit returns the commit the program was built from, with its
// time and whether the tree had changes, from the build's VCS stamp.
func buildCommit() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	var rev, at, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "unknown (built without version control information)"
	}
	s := rev
	if at != "" {
		s += " of " + at
	}
	if modified == "true" {
		s += ", with uncommitted changes"
	}
	return s
}

// showAbout shows the version, the commit and the database.
func (u *App) showAbout() {
	head, state := u.aboutText()
	l := widget.NewLabel(head)
	l.Wrapping = fyne.TextWrapWord
	st := widget.NewLabel(state)
	st.TextStyle.Monospace = true
	st.Wrapping = fyne.TextWrapWord // the table's lines are short; the prose below it wraps
	u.showText("About Mühle", container.NewVBox(l, st))
}
