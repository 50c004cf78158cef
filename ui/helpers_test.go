package ui

import (
	"os"
	"strconv"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if solved33.dir != "" {
		os.RemoveAll(solved33.dir)
	}
	os.Exit(code)
}

// newTestApp returns the main window on a test app, sized for the board to
// be 560 pixels square, with the UI queue q.
func newTestApp(t *testing.T, q *gametest.Queue, e game.Engines) *App {
	t.Helper()
	a := test.NewTempApp(t)
	u := New(a, Options{Do: q.Do, Engines: e})
	u.Window().Resize(fyne.NewSize(1000, 700))
	t.Cleanup(u.ctrl.Close)
	return u
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

// layersKey parses a layer key or fails the test.
func layersKey(t *testing.T, s string) layers.Key {
	t.Helper()
	k, err := layers.ParseKey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
