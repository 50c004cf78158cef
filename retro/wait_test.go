package retro

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWaitLineOnce checks that a solver waiting with WaitLock for a unit
// another solver holds says so once, not at every look (the line names
// the holder's heartbeat age, which changes every second), and once more
// when the holder changes (issue 28).
func TestWaitLineOnce(t *testing.T) {
	db := openDB(t, t.TempDir(), 3)
	held, err := db.Claim(context.Background(), "m3-3", false)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var lines []string
	opts := SolveOptions{Workers: 1, WaitLock: true, Note: func(s string) {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasPrefix(s, "waiting:") {
			lines = append(lines, s)
		}
	}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Solve(ctx, db, opts) }()
	time.Sleep(2500 * time.Millisecond) // five looks, the heartbeat's age 0 s to 2 s
	// Another holder: the claim released and taken again (a new start).
	held.Release()
	if held, err = db.Claim(context.Background(), "m3-3", false); err != nil {
		// The solver may have taken it in between: then it is computing.
		cancel()
		<-done
		t.Skipf("the solver took the claim between release and claim: %v", err)
	}
	time.Sleep(1500 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Solve: got %v, want context.Canceled", err)
	}
	held.Release()
	mu.Lock()
	defer mu.Unlock()
	if len(lines) != 2 {
		t.Errorf("waiting lines: got %d, want 2 (one for each holder):\n%s", len(lines), strings.Join(lines, "\n"))
	}
}
