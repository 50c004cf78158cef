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

	// The time left follows the rate of the recent lines.
	c = newCountLines(&b, "searcherrors: 3-7 depth 6", 10)
	c.every = 0
	b.Reset()
	c.start = time.Now().Add(-time.Minute)
	c.reported = c.start
	c.add() // 1 in a minute: 9 minutes left
	if got, want := b.String(), "searcherrors: 3-7 depth 6: 1 of 10 positions after 1m0s, about 9m0s left\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	b.Reset()
	c.reported = time.Now().Add(-time.Minute)
	c.done += 2
	c.add() // 3 more in a minute: 2 a minute on average with the line before, 6 left
	if got, want := b.String(), ": 4 of 10 positions after 1m0s, about 3m0s left\n"; !strings.HasSuffix(got, want) {
		t.Errorf("got %q, want it to end in %q", got, want)
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
