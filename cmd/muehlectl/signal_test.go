package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"muehle/muehle/testenv"
	"muehle/retro/retrotest"
)

// TestSignalEveryCommand starts each long-running command in its own
// process, sends SIGTERM (Ctrl-Break on Windows) at a few moments of its
// run, and checks that it ends within a second with exit status 1 (issue
// 48: every command honours the signal in every phase, the making of a
// large table included). A command that finished before the signal is
// passed over.
func TestSignalEveryCommand(t *testing.T) {
	testenv.Long(t, "about 40 s of commands in other processes")
	testenv.SlowUnderRace(t, "the commands' exits take long there")
	dir := t.TempDir()
	retrotest.CopyIn(t, dir, 4).Close()
	tmp := t.TempDir()
	k4 := []string{"--db", dir, "--stones", "4"}
	cmds := [][]string{
		{"solve", "--db", filepath.Join(tmp, "k5"), "--stones", "5"},
		append([]string{"verify"}, k4...),
		append([]string{"query", "--search", "--table-bits", "28", "--position", "........................ w 4 4"}, k4...),
		append([]string{"match", "--games", "1000", "--white", "ab:6", "--black", "ab:6"}, k4...),
		append([]string{"tactics", "--players", "ab:6", "--layers", "4-4", "--count", "10000"}, k4...),
		append([]string{"searcherrors", "--layer", "4-4", "--positions", "1000000", "--depth", "4"}, k4...),
		append([]string{"placement", "--positions", "1000000", "--check", "--table-bits", "27"}, k4...),
		append([]string{"export", "--all-phases", "--out", filepath.Join(tmp, "k4.mpk")}, k4...),
		{"perft", "--depth", "12", "--workers", "2"},
		{"play", "--seed", "1"},
	}
	for _, args := range cmds {
		for _, at := range []time.Duration{50 * time.Millisecond, 300 * time.Millisecond, 1500 * time.Millisecond} {
			os.RemoveAll(filepath.Join(tmp, "k4.mpk"))
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), mainEnv+"=1")
			ownGroup(cmd)
			var errOut strings.Builder
			cmd.Stderr = &errOut
			stdin, w, err := os.Pipe() // play waits for a move nobody types
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdin = stdin
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			stdin.Close()
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			name := strings.Join(args[:1], " ") + " at " + at.String()
			select {
			case err := <-waited:
				t.Logf("%s: ended before the signal: %v", name, err)
				w.Close()
				continue
			case <-time.After(at):
			}
			interrupt(t, cmd.Process)
			start := time.Now()
			select {
			case err := <-waited:
				var ee *exec.ExitError
				if d := time.Since(start); d > time.Second || !errors.As(err, &ee) || ee.ExitCode() != 1 {
					t.Errorf("%s: ended %v after SIGTERM with %v (%s); want exit status 1 within a second", name, d.Round(time.Millisecond), err, strings.TrimSpace(errOut.String()))
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-waited
				t.Errorf("%s: still running 10 s after SIGTERM", name)
			}
			w.Close()
		}
	}
}
