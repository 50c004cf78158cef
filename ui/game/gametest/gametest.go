// Package gametest provides what the tests of the game flow and of the
// window share: a stand-in for the UI thread, a computer player that
// thinks until told, and moves made by taps. Like net/http/httptest it is
// imported by tests only; it imports no Fyne.
package gametest

import (
	"context"
	"sync"
	"testing"
	"time"

	"muehle/muehle"
)

// Queue stands in for the UI thread: goroutines queue functions with Do,
// the test goroutine runs them in Drain. (Fyne's test driver would run
// them on the calling goroutine, which is not what the program does.)
type Queue struct {
	mu    sync.Mutex
	fs    []func()
	ready chan struct{}
}

// NewQueue returns an empty queue.
func NewQueue() *Queue { return &Queue{ready: make(chan struct{}, 1)} }

// Do queues f to run on the test goroutine; it is the controller's do.
func (q *Queue) Do(f func()) {
	q.mu.Lock()
	q.fs = append(q.fs, f)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// Drain runs queued functions until cond holds, failing the test after
// timeout.
func (q *Queue) Drain(t testing.TB, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		q.mu.Lock()
		fs := q.fs
		q.fs = nil
		q.mu.Unlock()
		for _, f := range fs {
			f()
		}
		if cond() {
			return
		}
		select {
		case <-q.ready:
		case <-deadline:
			t.Fatalf("condition not reached within %v", timeout)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// BlockingPlayer thinks until it is cancelled or released; then it plays
// the first legal move. Started receives a value each time it starts
// thinking, Cancelled each time its context ends the thinking.
type BlockingPlayer struct {
	Release   chan struct{}
	Cancelled chan struct{}
	Started   chan struct{}
}

// NewBlockingPlayer returns a player that has not started.
func NewBlockingPlayer() *BlockingPlayer {
	return &BlockingPlayer{Release: make(chan struct{}), Cancelled: make(chan struct{}, 8), Started: make(chan struct{}, 8)}
}

// Name returns "Blocking".
func (p *BlockingPlayer) Name() string { return "Blocking" }

// Move waits for ctx or Release.
func (p *BlockingPlayer) Move(ctx context.Context, g *muehle.Game) (muehle.Move, error) {
	p.Started <- struct{}{}
	select {
	case <-ctx.Done():
		p.Cancelled <- struct{}{}
		return muehle.Move{}, ctx.Err()
	case <-p.Release:
		return g.LegalMoves()[0], nil
	}
}

// TapMove plays m by taps on its points, as a person would: the stone to
// move (if any), its target, the stone to remove (if any).
func TapMove(tap func(muehle.Point), m muehle.Move) {
	if m.From != muehle.NoPoint {
		tap(m.From)
	}
	tap(m.To)
	if m.Remove != muehle.NoPoint {
		tap(m.Remove)
	}
}

// MustMove parses a move or fails the test.
func MustMove(t testing.TB, s string) muehle.Move {
	t.Helper()
	m, err := muehle.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// MustGame returns a game of k stones a side starting at the position
// text (muehle.ParsePosition), or fails the test.
func MustGame(t testing.TB, text string, k int) *muehle.Game {
	t.Helper()
	p, err := muehle.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	g, err := muehle.NewGameFrom(p, k)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
