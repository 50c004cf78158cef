//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNoHang checks that nothing in the database folder makes a command
// wait (issue 28): a FIFO named like a layer makes stats, verify and
// query report the layer damaged at once; review of an endless input
// stops with an error; and a command waiting for its input (play, whose
// standard input nobody writes) ends within about a second of SIGINT.
// A FIFO given as a command's input is refused at once (TestFileInputs).
func TestNoHang(t *testing.T) {
	dir := solvedK3(t)
	layer := filepath.Join(dir, "k3", "m3-3.layer")
	os.Remove(layer)
	if err := syscall.Mkfifo(layer, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{
		{"stats", "--db", dir, "--stones", "3"},
		{"verify", "--db", dir, "--stones", "3"},
		{"query", "--db", dir, "--stones", "3", "--position", "WW.B.....W....B.......B. w 0 0"},
	} {
		done := make(chan struct{})
		var code int
		var out, stderr string
		go func() { defer close(done); code, out, stderr = muehlectl(args...) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			panic(args[0] + " on a FIFO layer: still waiting after 10 s")
		}
		if code != 1 || !strings.Contains(out+stderr, "not a regular file") {
			t.Errorf("%s on a FIFO layer: got exit %d, %q %q; want exit 1 and \"not a regular file\"", args[0], code, out, stderr)
		}
	}

	code, _, stderr := muehlectl("review", "--db", dir, "/dev/zero")
	if code != 1 || !strings.Contains(stderr, "not a game record") {
		t.Errorf("review /dev/zero: got exit %d, %q; want exit 1: not a game record", code, stderr)
	}

	cmd := exec.Command(os.Args[0], "play", "--seed", "1")
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	stdin, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close() // nobody writes: play waits for a move
	cmd.Stdin = stdin
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	defer cmd.Process.Kill()
	time.Sleep(300 * time.Millisecond) // play waits for the person now
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("play waiting for input, after SIGINT: got %v, want exit status 1", err)
		}
		if d := time.Since(start); d > 1500*time.Millisecond {
			t.Errorf("play waiting for input: ended %v after SIGINT, want within a second", d)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("play waiting for input: still running 5 s after SIGINT")
	}
}
