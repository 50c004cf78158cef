// Command muehle is the desktop program: play Nine Men's Morris against a
// person, a random, an alpha-beta or a perfect computer opponent.
//
// Usage:
//
//	muehle [-db DIR] [-open GAME.txt] [-tree]
//
// -db chooses the database folder (default: the one chosen last in the
// Database tab, else the user's data folder); -open starts with a saved game;
// -tree opens the search tree window (Game ▸ Search Tree) at the start.
// With MUEHLE_TRACE=1 in the environment, every menu command prints
// "muehle: command NAME" on standard error as it runs, however it was chosen;
// the real-window check of the keyboard shortcuts (make screenshots) reads it.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"muehle/assets"
	"muehle/ui"
)

func main() {
	dir := flag.String("db", "", "database `folder` (default: the last one chosen, else the user's data folder)")
	open := flag.String("open", "", "start with the game record in `file`")
	tree := flag.Bool("tree", false, "open the search tree window at the start")
	flag.Parse()

	a := app.NewWithID("io.github.muehle")
	if a.Metadata().Icon == nil { // go build; fyne package sets it from FyneApp.toml
		a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	}
	opt := ui.DefaultOptions(a, *dir)
	opt.Seed = rand.Uint64() // the computer players choose differently each start
	if os.Getenv("MUEHLE_TRACE") != "" {
		opt.Trace = func(name string) { fmt.Fprintln(os.Stderr, "muehle: command", name) }
	}
	u := ui.New(a, opt)
	if *open != "" {
		if err := u.OpenFile(*open); err != nil {
			fmt.Fprintln(os.Stderr, "muehle:", err)
			os.Exit(2)
		}
	}
	u.Window().Show()
	if *tree {
		u.ShowSearchTree()
	}
	u.Start()
	a.Run()
}
