package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// themeNames are the choices of the View menu: the system's (Fyne's
// default, which follows the desktop and FYNE_THEME), light and dark.
var themeNames = []struct{ name, label string }{
	{"system", "System Theme"},
	{"light", "Light Theme"},
	{"dark", "Dark Theme"},
}

// variantTheme is Fyne's default theme held to one variant.
type variantTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

// Color returns the default theme's colour n in the held variant.
func (t variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.variant)
}

// themeName returns the chosen theme: "system", "light" or "dark".
func (u *App) themeName() string {
	return u.app.Preferences().StringWithFallback(prefTheme, "system")
}

// setTheme switches to the theme called name and saves the choice.
func (u *App) setTheme(name string) {
	u.app.Preferences().SetString(prefTheme, name)
	u.applyTheme(name)
	u.changed(eventNone)
}

// applyTheme makes the theme called name the app's theme; an unknown name
// is the system's.
func (u *App) applyTheme(name string) { applyTheme(u.app, name) }

// applyTheme makes the theme called name a's theme.
func applyTheme(a fyne.App, name string) {
	var t fyne.Theme
	switch name {
	case "light":
		t = variantTheme{theme.DefaultTheme(), theme.VariantLight}
	case "dark":
		t = variantTheme{theme.DefaultTheme(), theme.VariantDark}
	default:
		t = theme.DefaultTheme()
	}
	a.Settings().SetTheme(t)
}
