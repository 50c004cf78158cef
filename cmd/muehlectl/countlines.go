package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// countLines shows the progress of a long loop over a known number of
// items (the positions of a tactics or searcherrors row) as a line every
// countEvery: how many are done, after how long, and about how long the
// rest will take at the rate so far. It is safe for concurrent use, so
// the jobs of forEach can each report their item.
type countLines struct {
	w     io.Writer
	what  string // the line's beginning, e.g. "tactics: ab:1s"
	total int
	every time.Duration

	mu              sync.Mutex
	start, reported time.Time
	done            int
}

// countEvery is the time between two progress lines.
const countEvery = 10 * time.Second

func newCountLines(w io.Writer, what string, total int) *countLines {
	now := time.Now()
	return &countLines{w: w, what: what, total: total, every: countEvery, start: now, reported: now}
}

// add counts one item done and writes a line if the last is countEvery
// ago.
func (c *countLines) add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done++
	now := time.Now()
	if now.Sub(c.reported) < c.every {
		return
	}
	c.reported = now
	took := now.Sub(c.start)
	left := time.Duration(float64(took) * float64(c.total-c.done) / float64(c.done))
	fmt.Fprintf(c.w, "%s: %d of %d positions after %s, about %s left\n", c.what, c.done, c.total, took.Round(time.Second), left.Round(time.Second))
}
