package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"muehle/retro/dbservice"
)

// countLines shows the progress of a long loop over a known number of
// items (the positions of a tactics or searcherrors row) as a line every
// countEvery: how many are done, after how long, and about how long the
// rest will take (dbservice.Left). The time left is reckoned from the rate
// of recent lines, not of the whole loop, as the rate can change on the way (a draw of
// positions slows once it leaves the pages another run left in the cache).
// It is safe for concurrent use, so the jobs of forEach can each report
// their item.
type countLines struct {
	w     io.Writer
	what  string // the line's beginning, e.g. "tactics: ab:1s"
	total int
	every time.Duration

	mu              sync.Mutex
	start, reported time.Time
	done, doneThen  int     // items done now and at the last line
	rate            float64 // items a second, weighted to the recent lines
}

// countEvery is the time between two progress lines.
const countEvery = 10 * time.Second

func newCountLines(w io.Writer, what string, total int) *countLines {
	now := time.Now()
	return &countLines{w: w, what: what, total: total, every: countEvery, start: now, reported: now}
}

// add counts one item done and writes a line if the last one (or the
// start) is c.every ago.
func (c *countLines) add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done++
	now := time.Now()
	since := now.Sub(c.reported)
	if since < c.every {
		return
	}
	if since > 0 {
		r := float64(c.done-c.doneThen) / since.Seconds()
		if c.rate == 0 {
			c.rate = r
		} else {
			c.rate = (c.rate + r) / 2
		}
	}
	c.reported, c.doneThen = now, c.done
	left := "?"
	if d := dbservice.Left(float64(c.total-c.done), c.rate); d >= 0 {
		left = d.Round(time.Second).String()
	}
	fmt.Fprintf(c.w, "%s: %d of %d positions after %s, about %s left\n", c.what, c.done, c.total, now.Sub(c.start).Round(time.Second), left)
}
