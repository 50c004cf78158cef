package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"muehle/muehle/testenv"
)

// TestSolveForwardPassBeside solves the whole k=4 game with the program
// itself, which runs the forward pass beside the moving units in a second
// process, and checks that it said so, that the second process finished
// the pass (or found it done), and that the folder ends with the layer
// files of a solve that runs the pass in its unit, no claim or reach file
// left.
func TestSolveForwardPassBeside(t *testing.T) {
	if testenv.Race {
		t.Skip("solves the k=4 game twice, slow under the race detector; run without it")
	}
	ref := t.TempDir()
	if code, _, errOut := muehlectl("solve", "--db", ref, "--stones", "4", "--all-phases", "--no-beside"); code != 0 {
		t.Fatal(errOut)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "solve", "--db", dir, "--stones", "4", "--all-phases")
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("solve: %v\n%s%s", err, &out, &errOut)
	}
	if !strings.Contains(out.String(), "the forward pass runs beside the moving units") {
		t.Errorf("solve's output: got %q, want it to say that the forward pass runs beside", &out)
	}
	if e := errOut.String(); !strings.Contains(e, "beside: database "+dir+" (k=4): forward pass done in") && !strings.Contains(e, "beside: database "+dir+" (k=4): the forward pass is done") {
		t.Errorf("solve's progress: got %q, want the pass's last line after \"beside: \"", e)
	}
	files, _ := filepath.Glob(filepath.Join(ref, "k4", "*.layer"))
	if len(files) == 0 {
		t.Fatal("the reference solve wrote no layer")
	}
	for _, f := range files {
		want, _ := os.ReadFile(f)
		got, err := os.ReadFile(filepath.Join(dir, "k4", filepath.Base(f)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from the solve without the pass beside (%v)", filepath.Base(f), err)
		}
	}
	for _, pattern := range []string{"*.claim", "*.reach"} {
		if left, _ := filepath.Glob(filepath.Join(dir, "k4", pattern)); len(left) > 0 {
			t.Errorf("left behind: %v", left)
		}
	}
}
