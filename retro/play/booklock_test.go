//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows

package play

import (
	"path/filepath"
	"testing"
	"time"
)

// TestLockFileExcludes checks that a second lockFile of the same file
// waits until the first is released (flock on Unix, LockFileEx on
// Windows: each open file is its own holder, so this holds within one
// process as between two).
func TestLockFileExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "placement.book.lock")
	unlock, err := lockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan func())
	go func() {
		u, err := lockFile(path)
		if err != nil {
			t.Error(err)
			u = func() {}
		}
		got <- u
	}()
	select {
	case u := <-got:
		u()
		t.Fatal("second lockFile returned while the first held the lock")
	case <-time.After(300 * time.Millisecond):
	}
	unlock()
	select {
	case u := <-got:
		u()
	case <-time.After(10 * time.Second):
		t.Fatal("second lockFile still waiting 10 s after the first was released")
	}
}
