package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"muehle/layers"
	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// TestMemorySetting: the Database tab's Memory setting is 1 GiB at first;
// choosing another bounds every database open (the players' and the
// tab's) and every one opened later (layers.DB.CacheLimit), and is kept
// in the preferences, where a new window takes it from.
func TestMemorySetting(t *testing.T) {
	q := gametest.NewQueue()
	a := test.NewTempApp(t)
	a.Preferences().SetBool(prefChosen, true)
	e := NewEngines(t.TempDir())
	u := New(a, Options{Do: q.Do, Engines: e, Database: e})
	t.Cleanup(u.ctrl.Close)
	if got, want := u.db.memory.Selected, "1 GiB"; got != want {
		t.Errorf("Memory at first: %q, want %q", got, want)
	}
	players, _, err := e.gameDatabase()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := e.database()
	if err != nil {
		t.Fatal(err)
	}
	if got := players.CacheLimit(); got != layers.DefaultCacheBytes {
		t.Errorf("players' database at first: cache limit %d, want %d", got, int64(layers.DefaultCacheBytes))
	}

	u.db.memory.SetSelected("256 MiB") // as a choice in its pop-up does
	for name, db := range map[string]*layers.DB{"players'": players, "tab's": tab} {
		if got := db.CacheLimit(); got != 256<<20 {
			t.Errorf("the %s database after choosing 256 MiB: cache limit %d, want %d", name, got, 256<<20)
		}
	}
	later, err := e.databaseOf(muehle.Twelve.With(3))
	if err != nil {
		t.Fatal(err)
	}
	if got := later.CacheLimit(); got != 256<<20 {
		t.Errorf("a database opened after choosing 256 MiB: cache limit %d, want %d", got, 256<<20)
	}
	if got := a.Preferences().Int(prefDBMemory); got != 256 {
		t.Errorf("preference %s: %d, want 256", prefDBMemory, got)
	}

	// A new window (the next start) takes the setting from the preferences.
	e2 := NewEngines(t.TempDir())
	u2 := New(a, Options{Do: q.Do, Engines: e2, Database: e2})
	t.Cleanup(u2.ctrl.Close)
	db2, _, err := e2.gameDatabase()
	if err != nil {
		t.Fatal(err)
	}
	if got := u2.db.memory.Selected; got != "256 MiB" {
		t.Errorf("Memory in a new window: %q, want 256 MiB", got)
	}
	if got := db2.CacheLimit(); got != 256<<20 {
		t.Errorf("a new window's database: cache limit %d, want %d", got, 256<<20)
	}
}
