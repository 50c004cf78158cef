package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"muehle/assets"
	"muehle/muehle"
	"muehle/ui"
)

// noDisplay is the one line the program says when it cannot open a window.
const noDisplay = "muehle: no display to open the window on"

// exitNoDisplay is the exit status when there is no display to open the
// window on: make run takes it for the one line said, not for a failure.
const exitNoDisplay = 3

// displayMissing reports why there is no display to open a window on, ""
// when there may be one: on Linux and the BSDs a window needs DISPLAY (X11)
// or WAYLAND_DISPLAY; macOS and Windows always have their own.
func displayMissing() string {
	switch runtime.GOOS {
	case "darwin", "windows", "android", "ios", "js":
		return ""
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return "neither DISPLAY nor WAYLAND_DISPLAY is set; start it in a desktop session, " +
			"or with a virtual one: xvfb-run ./bin/muehle"
	}
	return ""
}

func main() {
	dir := flag.String("db", "", "database `folder` (default: the last one chosen, else the user's data folder)")
	open := flag.String("open", "", "start with the game record in `file`")
	tree := flag.Bool("tree", false, "open the search tree window at the start")
	flag.Parse()
	if err := muehle.CheckGames(); err != nil {
		fmt.Fprintf(os.Stderr, "muehle: games left out: %v\n", err)
	}
	if why := displayMissing(); why != "" {
		fmt.Fprintf(os.Stderr, "%s: %s\n", noDisplay, why)
		os.Exit(exitNoDisplay)
	}
	// A display that is set but cannot be opened makes the window's
	// creation panic inside the graphics library: one line instead of the
	// stack trace.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "%s (DISPLAY=%q, WAYLAND_DISPLAY=%q): %v\n",
				noDisplay, os.Getenv("DISPLAY"), os.Getenv("WAYLAND_DISPLAY"), r)
			os.Exit(exitNoDisplay)
		}
	}()

	// Quiet on a desktop without a full session (quiet.go).
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
		ensureRuntimeDir()
	}
	log.SetOutput(&quietLog{w: os.Stderr})
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
