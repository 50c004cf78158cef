package main

import (
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCountLines(t *testing.T) {
	var b strings.Builder
	c := newCountLines(&b, "searcherrors: 3-7 depth 6", 4)
	c.add() // within countEvery of the start: no line
	if b.Len() != 0 {
		t.Fatalf("a line before countEvery: %q", b.String())
	}
	c.every = 0
	c.add()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "searcherrors: 3-7 depth 6: 2 of 4 positions after ") || !strings.Contains(lines[0], ", about ") {
		t.Errorf("line %q", b.String())
	}

	// The time left is the time so far scaled by the items left.
	b.Reset()
	c.start = time.Now().Add(-time.Minute)
	c.add() // 3 of 4 in a minute: 20 s left
	if got, want := b.String(), "searcherrors: 3-7 depth 6: 3 of 4 positions after 1m0s, about 20s left\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCountLinesConcurrent(t *testing.T) {
	var b strings.Builder
	c := newCountLines(&b, "tactics", 100)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 25 {
				c.add()
			}
		})
	}
	wg.Wait()
	if c.done != 100 {
		t.Errorf("counted %d of 100", c.done)
	}
}
