package ui

import (
	"fmt"
	"runtime/debug"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// This file holds the Help menu: the rules of the game (docs/rules.md,
// passed in by cmd/muehle, which embeds it), the keyboard shortcuts, and
// About: the version and commit of the program, the database folder and
// what it holds.

// helpSize returns the size of a help dialog: most of the window, so that
// it fits however small the window is.
func (u *App) helpSize() fyne.Size {
	s := u.win.Canvas().Size()
	return fyne.NewSize(max(300, min(760, s.Width-60)), max(240, s.Height-80))
}

// showText shows a help dialog with the scrolled content c.
func (u *App) showText(title string, c fyne.CanvasObject) {
	d := dialog.NewCustom(title, "Close", container.NewVScroll(c), u.win)
	d.Resize(u.helpSize())
	d.Show()
}

// showRules shows the rules of the game.
func (u *App) showRules() {
	if u.rules == "" {
		u.ctrl.Say("This build does not carry the rules; they are in docs/rules.md.")
		return
	}
	t := widget.NewRichTextFromMarkdown(u.rules)
	t.Wrapping = fyne.TextWrapWord
	u.showText("Rules of the Game", t)
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
	b.WriteString("  Ctrl+Shift+Z     Redo, as Ctrl+Y\n\n")
	b.WriteString("On the board, when no list or field has the keyboard:\n")
	for _, l := range [][2]string{
		{"P", "Pause or resume the computer, as Ctrl+Space (which many desktops take to switch the input method)"},
		{"Left, Up", "one move back in the game (review)"},
		{"Right, Down", "one move forward"},
		{"Home, End", "the start, the end of the game"},
		{"R", "step through the refutation of a move the review marked"},
		{"Escape", "close a line of moves shown on the board"},
	} {
		fmt.Fprintf(&b, "  %-16s %s\n", l[0], l[1])
	}
	b.WriteString("\nIn the Search Tree window: the arrow keys move through a tree, Right opens a branch, " +
		"Left closes it, Space chooses a node.")
	return b.String()
}

// keyName returns a shortcut as a person writes it: "Ctrl+Shift+C".
func keyName(s fyne.Shortcut) string {
	switch s.(type) {
	case *fyne.ShortcutUndo:
		return "Ctrl+Z"
	case *fyne.ShortcutRedo:
		return "Ctrl+Y"
	}
	name := strings.TrimPrefix(s.ShortcutName(), "CustomDesktop:")
	r := strings.NewReplacer("Control", "Ctrl", "Super", "Cmd", "Period", ".", "Space", "Space")
	return r.Replace(name)
}

// showKeys shows the keyboard shortcuts.
func (u *App) showKeys() {
	l := widget.NewLabel(u.keyHelp())
	l.TextStyle.Monospace = true
	u.showText("Keyboard Shortcuts", l)
}

// aboutText returns what About says: the program, its version and commit,
// the database folder and its state.
func (u *App) aboutText() string {
	var b strings.Builder
	b.WriteString("Mühle (Nine Men's Morris): play against a person, a random, an alpha-beta or a perfect player, " +
		"which plays from a database of every position, computed on this machine.\n\n")
	fmt.Fprintf(&b, "Version: %s\n", programVersion(u.app.Metadata().Version))
	fmt.Fprintf(&b, "Commit: %s\n\n", buildCommit())
	if u.db == nil {
		b.WriteString("Database: none in this build.")
		return b.String()
	}
	fmt.Fprintf(&b, "Database folder: %s\n", u.db.db.Dir())
	if d := u.db.db.Damaged(); d != "" {
		fmt.Fprintf(&b, "Damaged layers (used as missing): %s\n", d)
	}
	b.WriteString("\n" + u.db.db.Summary())
	return b.String()
}

// programVersion returns the version fyne package writes (FyneApp.toml),
// else the module's from the build, else "development build".
func programVersion(meta string) string {
	if meta != "" {
		return meta
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
	l := widget.NewLabel(u.aboutText())
	l.Wrapping = fyne.TextWrapWord
	u.showText("About Mühle", l)
}
