package main

import (
	"log"
	"strings"
	"testing"
)

// TestQuietLog: Fyne's harmless reports, with their cause and place, are
// dropped; any other line, a Fyne error too, passes.
func TestQuietLog(t *testing.T) {
	var b strings.Builder
	l := log.New(&quietLog{w: &b}, "", 0)
	l.Println("Fyne error: ", "failed to watch theme settings")
	l.Println("  Cause:", `exec: "dbus-launch": executable file not found in $PATH`)
	l.Printf("  At: %s:%d", "app_xdg.go", 152)
	l.Println("muehle: command Save Game…")
	l.Println("Fyne error: ", "Getting favorite locations")
	l.Println("  Cause:", "this computer does not define a VIDEOS folder")
	l.Println("Fyne error: ", "Preferences load error:")
	l.Println("  Cause:", "EOF")
	want := "muehle: command Save Game…\nFyne error:  Preferences load error:\n  Cause: EOF\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
