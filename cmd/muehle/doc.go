// Command muehle is the desktop program: play Nine Men's Morris and the
// games of its family against a person, a random, an alpha-beta or a
// perfect computer opponent.
//
// Usage:
//
//	muehle [-db DIR] [-open GAME.txt] [-tree]
//
// -db chooses the database folder (default: the one chosen last in the
// Database tab, else the user's data folder); -open starts with a saved game;
// -tree opens the search tree window (Analysis ▸ Search Tree) at the start.
// With MUEHLE_TRACE=1 in the environment, every menu command prints
// "muehle: command NAME" on standard error as it runs, however it was chosen;
// the real-window check of the keyboard shortcuts (make screenshots) reads it.
//
// Without a display (no DISPLAY or WAYLAND_DISPLAY on Linux and the BSDs,
// or one that cannot be opened) it says so in one line and exits with
// status 3.
//
// # Files
//
//	main.go       the flags, the display check, the window started
//	quiet.go      the terminal quiet without a desktop session: the
//	              runtime folder, Fyne's harmless reports dropped
package main
