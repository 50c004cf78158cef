// Command muehle is the desktop program: play Nine Men's Morris against a
// person, a random, an alpha-beta or a perfect computer opponent.
package main

import (
	"fyne.io/fyne/v2/app"

	"muehle/ui"
)

func main() {
	a := app.NewWithID("io.github.muehle")
	u := ui.New(a, ui.Options{})
	w := u.Window()
	w.Show()
	u.Start()
	a.Run()
}
