package ui

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if solved33.dir != "" {
		os.RemoveAll(solved33.dir)
	}
	os.Exit(code)
}

// uiQueue stands in for the UI thread: goroutines queue functions with do,
// the test goroutine runs them in drain. (The test driver's fyne.Do would
// run them on the calling goroutine, which is not what the program does.)
type uiQueue struct {
	mu    sync.Mutex
	fs    []func()
	ready chan struct{}
}

func newQueue() *uiQueue { return &uiQueue{ready: make(chan struct{}, 1)} }

func (q *uiQueue) do(f func()) {
	q.mu.Lock()
	q.fs = append(q.fs, f)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// drain runs queued functions until cond holds, failing after timeout.
func (q *uiQueue) drain(t *testing.T, timeout time.Duration, cond func() bool) {
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

// newTestApp returns the main window on a test app, sized for the board to
// be 560 pixels square, with the UI queue q.
func newTestApp(t *testing.T, q *uiQueue, e Engines) *App {
	t.Helper()
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.do, Engines: e})
	u.Window().Resize(fyne.NewSize(1000, 700))
	t.Cleanup(u.ctrl.Close)
	return u
}

// tapMove plays m on the board by taps, as a person would.
func tapMove(b *Board, m muehle.Move) {
	if m.From != muehle.NoPoint {
		b.TapPoint(m.From)
	}
	b.TapPoint(m.To)
	if m.Remove != muehle.NoPoint {
		b.TapPoint(m.Remove)
	}
}

// blockingPlayer thinks until it is cancelled or released; then it plays
// the first legal move.
type blockingPlayer struct {
	release   chan struct{}
	cancelled chan struct{}
	started   chan struct{}
}

func newBlockingPlayer() *blockingPlayer {
	return &blockingPlayer{release: make(chan struct{}), cancelled: make(chan struct{}, 8), started: make(chan struct{}, 8)}
}

func (p *blockingPlayer) Name() string { return "Blocking" }

func (p *blockingPlayer) Move(ctx context.Context, g *muehle.Game) (muehle.Move, error) {
	p.started <- struct{}{}
	select {
	case <-ctx.Done():
		p.cancelled <- struct{}{}
		return muehle.Move{}, ctx.Err()
	case <-p.release:
		return g.LegalMoves()[0], nil
	}
}

func layersKeyOf(p muehle.Position) layers.Key { return layers.KeyOf(p) }

func itoa(i uint64) string { return strconv.FormatUint(i, 10) }

// endgame33 returns a 3-3 position with White to move and a 9-stone game
// that starts there.
func endgame33(t *testing.T) (muehle.Position, *muehle.Game) {
	t.Helper()
	p, err := muehle.ParsePosition("WWB" + "W.." + "..." + "....B." + "B.." + "..." + "..." + " w 0 0")
	if err != nil {
		t.Fatal(err)
	}
	g, err := muehle.NewGameFrom(p, 9)
	if err != nil {
		t.Fatal(err)
	}
	return p, g
}
