// Package layerstest holds helpers for the tests of layers and the
// packages above it; only tests import it (TestImportGraph checks).
package layerstest

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// DeadPID returns the id of a process that has ended: a run of the test
// binary that runs no test.
func DeadPID(tb testing.TB) int {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		tb.Fatal(err)
	}
	return cmd.Process.Pid
}

// DeletedMappings returns the files under dir that this process still
// maps although they are deleted (/proc/self/maps; the test is skipped
// where there is none): a layer file replaced, whose disk space stays
// taken while it is mapped.
func DeletedMappings(tb testing.TB, dir string) []string {
	tb.Helper()
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		tb.Skipf("no /proc/self/maps: %v", err)
	}
	var names []string
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, dir); i >= 0 && strings.HasSuffix(line, " (deleted)") {
			names = append(names, line[i:])
		}
	}
	return names
}

// Resident returns the resident memory, in KiB, of this process's
// mappings of the file at path (also of a file deleted since that had the
// path), and the number of those mappings, from /proc/self/smaps; the
// test is skipped where there is none.
func Resident(tb testing.TB, path string) (kib, mappings int) {
	tb.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		tb.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			name := strings.TrimSuffix(line, " (deleted)")
			in = len(fields) >= 6 && strings.HasSuffix(name, " "+path)
			if in {
				mappings++
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "Rss:"); ok && in {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				tb.Fatalf("smaps: %q: %v", line, err)
			}
			kib += n
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return kib, mappings
}

// Hammer calls work(g, n) for n = 0, 1, 2, ... in each of goroutines
// goroutines g, as readers racing the test's main goroutine, until stop is
// called or work fails; stop waits for them and returns the error of each
// that failed, and the calls made in all.
func Hammer(goroutines int, work func(g, n int) error) (stop func() ([]error, int)) {
	done := make(chan struct{})
	type result struct {
		err   error
		calls int
	}
	results := make(chan result, goroutines)
	for g := range goroutines {
		go func() {
			for n := 0; ; n++ {
				select {
				case <-done:
					results <- result{nil, n}
					return
				default:
				}
				if err := work(g, n); err != nil {
					results <- result{err, n}
					return
				}
			}
		}()
	}
	return func() ([]error, int) {
		close(done)
		var errs []error
		calls := 0
		for range goroutines {
			r := <-results
			calls += r.calls
			if r.err != nil {
				errs = append(errs, r.err)
			}
		}
		return errs, calls
	}
}
