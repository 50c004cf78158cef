package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"muehle/ui/game/gametest"
)

// TestShutdownStopsComputation starts a database computation, closes the
// program and expects the computation to be cancelled and its progress
// after that never to reach the panel's widgets.
func TestShutdownStopsComputation(t *testing.T) {
	e := NewEngines(t.TempDir())
	q := gametest.NewQueue()
	u := New(test.NewTempApp(t), Options{Do: q.Do, Engines: e, Database: e})
	t.Cleanup(u.ctrl.Close)
	cancelled, sent, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
	u.db.start(func(ctx context.Context, progress func(DBProgress)) error {
		<-ctx.Done()
		close(cancelled)
		progress(DBProgress{Unit: "late progress", Fraction: 1, Overall: 1})
		close(sent)
		<-release
		return ctx.Err()
	})
	u.shutdown()
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("closing the program did not cancel the computation")
	}
	<-sent
	q.Drain(t, time.Second, func() bool { return true }) // what the late progress queued
	if strings.Contains(u.db.progress.Text, "late progress") {
		t.Errorf("progress sent after closing reached the panel: %q", u.db.progress.Text)
	}
	close(release)
	q.Drain(t, 10*time.Second, func() bool { return u.db.stop == nil })
}
