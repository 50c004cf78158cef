package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// This file keeps the terminal quiet on a desktop without a full session
// (no D-Bus, no runtime folder, no VIDEOS folder): the toolkit and the
// graphics libraries reported each of these on every start or file
// dialog, though nothing is wrong with the program and a player can do
// nothing about them.

// harmless are Fyne's reports that a quietLog drops: the theme's settings
// cannot be watched without D-Bus (the theme still follows the View menu),
// and the file dialog's favourite folders lack one the desktop does not
// define.
var harmless = []string{"failed to watch theme settings", "Getting favorite locations"}

// quietLog passes the standard logger's lines on to w, but for the
// harmless reports of Fyne (a "Fyne error:" line naming one of harmless,
// with the "Cause:" and "At:" lines that follow it).
type quietLog struct {
	w        io.Writer
	mu       sync.Mutex
	dropping bool
}

// Write writes p, one line of the logger, to w unless it is part of a
// harmless report.
func (q *quietLog) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := string(p)
	switch {
	case strings.Contains(s, "Fyne error: "):
		q.dropping = false
		for _, h := range harmless {
			if strings.Contains(s, h) {
				q.dropping = true
			}
		}
	case q.dropping && (strings.Contains(s, "  Cause:") || strings.Contains(s, "  At:")):
	default:
		q.dropping = false
	}
	if q.dropping {
		return len(p), nil
	}
	return q.w.Write(p)
}

// ensureRuntimeDir sets XDG_RUNTIME_DIR, when it is unset or no private
// folder, to a folder of this user's in the temporary folder: the graphics
// libraries print "XDG_RUNTIME_DIR is invalid" without one (a desktop
// session sets it; a bare X server, a container or su do not).
func ensureRuntimeDir() {
	private := func(d string) bool {
		fi, err := os.Stat(d)
		return err == nil && fi.IsDir() && fi.Mode().Perm() == 0o700
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && private(d) {
		return
	}
	d := filepath.Join(os.TempDir(), fmt.Sprintf("muehle-runtime-%d", os.Getuid()))
	if err := os.Mkdir(d, 0o700); err != nil && !os.IsExist(err) {
		return
	}
	if private(d) {
		os.Setenv("XDG_RUNTIME_DIR", d)
	}
}
