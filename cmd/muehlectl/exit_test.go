package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"muehle/retro/retrotest"
)

// fullWriter fails every write as /dev/full does.
type fullWriter struct{}

func (fullWriter) Write(p []byte) (int, error) { return 0, syscall.ENOSPC }

// TestFullOutput checks that a command whose output cannot be written (a
// full disk, /dev/full) exits with status 1 and says so, where it
// answered with 0 before (issue 28).
func TestFullOutput(t *testing.T) {
	dir := solvedK3(t)
	for _, args := range [][]string{
		{"help"},
		{"layers"},
		{"perft", "--depth", "1"},
		{"stats", "--db", dir, "--stones", "3"},
		{"verify", "--db", dir, "--stones", "3"},
		{"report", "--db", dir, "--stones", "3"},
		{"query", "--db", dir, "--stones", "3", "--position", "WW.B.....W....B.......B. w 0 0"},
		{"solve", "--db", dir, "--stones", "3"},
	} {
		var errOut bytes.Buffer
		code := run(context.Background(), args, fullWriter{}, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), "writing the output") || !strings.Contains(errOut.String(), syscall.ENOSPC.Error()) {
			t.Errorf("%s > /dev/full: got exit %d, %q; want exit 1: writing the output: %v", strings.Join(args, " "), code, errOut.String(), syscall.ENOSPC)
		}
	}
	var w checkedWriter
	w.w = fullWriter{}
	if _, err := w.Write([]byte("x")); !errors.Is(err, syscall.ENOSPC) || !errors.Is(w.err, syscall.ENOSPC) {
		t.Errorf("checkedWriter: got %v, kept %v; want ENOSPC", err, w.err)
	}
}

// TestQueryBookNotSaved checks that a complete answer of the placement
// search exits 0 when its book cannot be saved (a folder that does not
// exist, a file where the folder should be: what a read-only database
// gives a user who may write anywhere), with a warning, and that --book
// creates no folder (issue 28).
func TestQueryBookNotSaved(t *testing.T) {
	dir := t.TempDir()
	retrotest.CopyIn(t, dir, 3).Close()
	missing := filepath.Join(t.TempDir(), "a", "b")
	locked := filepath.Join(t.TempDir(), "x.book")
	if err := os.Mkdir(locked+".lock", 0o755); err != nil { // its lock cannot be taken
		t.Fatal(err)
	}
	for _, book := range []string{filepath.Join(missing, "x.book"), locked} {
		code, out, stderr := muehlectl("query", "--db", dir, "--stones", "3", "--search", "--book", book, "--position", "........................ w 3 3")
		if code != 0 || !strings.Contains(out, "value    won in 23") || !strings.Contains(stderr, "the book is not saved") {
			t.Errorf("query --book %s: got exit %d, %q %q; want exit 0, won in 23 and the warning", book, code, out, stderr)
		}
	}
	if _, err := os.Stat(filepath.Dir(missing)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("query --book %s: created %s (%v), want no folder", missing, filepath.Dir(missing), err)
	}
}

// TestQueryDamagedLayerFails damages the layer of the empty board and
// checks that query, which still finds the value by the placement search,
// exits with status 1 and names the damaged layer (issue 28).
func TestQueryDamagedLayerFails(t *testing.T) {
	dir := t.TempDir()
	retrotest.CopyIn(t, dir, 3).Close()
	path := filepath.Join(dir, "k3", "p0+3-0+3.layer")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff // the body's one byte
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := muehlectl("query", "--db", dir, "--stones", "3", "--book", "", "--position", "........................ w 3 3")
	if code != 1 || !strings.Contains(out, "value    won in 23") || !strings.Contains(stderr, "layer p0+3-0+3 is damaged") {
		t.Errorf("query: got exit %d, %q %q; want exit 1, won in 23 and the damaged layer named", code, out, stderr)
	}
}
