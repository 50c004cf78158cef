//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFileInputs lists every file a command takes at a path on its command
// line and gives each a FIFO nobody writes and /dev/zero (issue 48, items
// 3, 4 and 10): each command refuses it at once, exit 1, saying that it
// is not a regular file, instead of waiting for a writer or reading
// without end.
func TestFileInputs(t *testing.T) {
	dir := solvedK3(t)
	tmp := t.TempDir()
	game := filepath.Join(tmp, "game.txt")
	if err := os.WriteFile(game, []byte("[Stones \"3\"]\n1. d6 d2 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const in = "INPUT"
	inputs := [][]string{
		{"import", in, "--db", filepath.Join(tmp, "to")},
		{"import", "PARTS", "--db", filepath.Join(tmp, "to")}, // a folder of parts whose part-0001.mpk is the input
		{"review", "--db", dir, in},
		{"review", "--stored", in},
		{"review", "--db", dir, "--write", in, game},
		{"match", "--db", dir, "--stones", "3", "--games", "1", "--white", "random", "--rows", in},
		{"tactics", "--db", dir, "--stones", "3", "--layers", "3-3", "--count", "2", "--players", "random", "--rows", in},
		{"searcherrors", "--db", dir, "--stones", "3", "--layer", "3-3", "--positions", "2", "--depth", "0", "--rows", in},
		{"plan", "--db", dir, "--stones", "3", "--calibrate", in},
		{"query", "--db", dir, "--stones", "3", "--search", "--book", in, "--position", "W....................... b 2 3"},
	}
	fifo := filepath.Join(tmp, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, kind := range []string{"FIFO", "/dev/zero"} {
		path := fifo
		if kind == "/dev/zero" {
			path = "/dev/zero"
		}
		parts := filepath.Join(tmp, "parts-"+strings.ReplaceAll(kind, "/", ""))
		if err := os.Mkdir(parts, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(path, filepath.Join(parts, "part-0001.mpk")); err != nil {
			t.Fatal(err)
		}
		for _, args := range inputs {
			args = append([]string(nil), args...)
			for i, a := range args {
				switch a {
				case in:
					args[i] = path
				case "PARTS":
					args[i] = parts
				}
			}
			done := make(chan struct{})
			var code int
			var errOut string
			go func() { defer close(done); code, _, errOut = muehlectl(args...) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				panic(strings.Join(args, " ") + ": still running after 10 s")
			}
			if code != 1 || !strings.Contains(errOut, "not a regular file") {
				t.Errorf("%s: got exit %d, stderr %q; want exit 1 and \"not a regular file\"", strings.Join(args, " "), code, errOut)
			}
		}
	}
}

// TestSmallFaults checks the rest of issue 48's item 12: an explicit
// --game that the position's game contradicts is a flag error; convert
// of another game names that game's folder; a game record that starts
// with a UTF-8 byte-order mark reads; a layer replaced by a FIFO is
// called damaged, not missing, by match.
func TestSmallFaults(t *testing.T) {
	dir := solvedK3(t)
	code, _, errOut := muehlectl("query", "--db", dir, "--game", "standard", "--stones", "3", "--position", "WW.W............BB.B.... w 0 0 lasker")
	if code != 2 || !strings.Contains(errOut, "the position is of lasker") {
		t.Errorf("query --game standard of a Lasker position: got exit %d, %q; want 2 and the conflict", code, errOut)
	}
	code, out, errOut := muehlectl("convert", "--db", dir, "--game", "lasker", "--stones", "3")
	if code != 0 || !strings.Contains(out, filepath.Join(dir, "lasker", "k3")) {
		t.Errorf("convert --game lasker: got exit %d, %q, %q; want the folder lasker/k3 named", code, out, errOut)
	}
	rec := filepath.Join(t.TempDir(), "bom.txt")
	if err := os.WriteFile(rec, []byte("\uFEFF[Stones \"3\"]\n1. d6 {drawn -> drawn} d2 {drawn -> drawn} *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := muehlectl("review", "--stored", rec); code != 0 {
		t.Errorf("review --stored of a record with a byte-order mark: got exit %d, %q, %q; want 0", code, out, errOut)
	}
	layer := filepath.Join(dir, "k3", "m3-3.layer")
	if err := os.Remove(layer); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(layer, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	code, out, errOut = muehlectl("match", "--db", dir, "--stones", "3", "--games", "2", "--white", "perfect", "--black", "random", "--plies", "40")
	if !strings.Contains(out, "damaged: 3-3") {
		t.Errorf("match with layer 3-3 a FIFO: got exit %d, %q, %q; want the layer called damaged", code, out, errOut)
	}
}
