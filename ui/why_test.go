package ui

import (
	"math/rand/v2"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game/gametest"
)

// drawn34 returns a drawn position of three stones against four with
// White to move whose drawing moves have different sector scores (the
// measure of the default perfect player), found by a seeded random
// search.
func drawn34(t *testing.T, db *layers.DB) muehle.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(13, 13))
	pl := play.NewPerfect(db, nil, nil)
	for range 20000 {
		b := []byte(strings.Repeat(".", muehle.NumPoints))
		for _, c := range []byte("WWWBBBB") {
			i := rng.IntN(muehle.NumPoints)
			for b[i] != '.' {
				i = rng.IntN(muehle.NumPoints)
			}
			b[i] = c
		}
		p, err := muehle.ParsePosition(string(b) + " w 0 0")
		if err != nil || p.IsOver() {
			continue
		}
		if v, err := db.Probe(p); err != nil || v.Outcome() != layers.Draw {
			continue
		}
		scores := map[float64]bool{}
		for _, m := range p.Moves() {
			if v, err := db.Probe(p.Play(m)); err != nil || v.Parent().Outcome() != layers.Draw {
				continue
			}
			s, err := pl.SectorScore(p, m, play.SectorPlies)
			if err != nil {
				t.Fatal(err)
			}
			scores[s] = true
		}
		if len(scores) >= 2 {
			return p
		}
	}
	t.Fatal("no drawn 3-4 position with drawing moves of different sector scores found")
	return muehle.Position{}
}

// TestPerfectMarksShowWhy checks the marks of a drawn position with the
// database: each drawing move's chance is its sector score, the measure
// the default perfect player chooses by (retro/play checks the score
// against a plain minimax); the picks are exactly the drawing moves of the
// largest chance; the board shows the chances and the picks, and the side
// panel's table stars the picks.
func TestPerfectMarksShowWhy(t *testing.T) {
	e := solved43.engines(t)
	db, err := e.database()
	if err != nil {
		t.Fatal(err)
	}
	p := drawn34(t, db)
	g, err := muehle.NewGameFrom(p, 9)
	if err != nil {
		t.Fatal(err)
	}
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	u.ctrl.SetGame(g)
	marks := shownMarks(t, u, q)
	best := -1.0
	for _, m := range marks {
		if m.Value.Outcome() != layers.Draw {
			if m.Chance != 0 || m.Pick {
				t.Errorf("%s (%s): got chance %v, pick %v; want 0 and no pick", m.Move, m.Value, m.Chance, m.Pick)
			}
			continue
		}
		want, err := play.NewPerfect(db, nil, nil).SectorScore(p, m.Move, play.SectorPlies)
		if err != nil {
			t.Fatal(err)
		}
		if m.Chance != want {
			t.Errorf("%s: got chance %v, want the sector score %v", m.Move, m.Chance, want)
		}
		best = max(best, m.Chance)
	}
	picks := 0
	for _, m := range marks {
		want := m.Value.Outcome() == layers.Draw && m.Chance == best
		if m.Pick != want {
			t.Errorf("%s (%s, chance %v): got pick %v, want %v (best chance %v)", m.Move, m.Value, m.Chance, m.Pick, want, best)
		}
		if m.Pick {
			picks++
			if !u.Board().View().Picks.Has(m.Move.From) {
				t.Errorf("the board does not frame %s, the stone of the pick %s", m.Move.From, m.Move)
			}
			if !strings.Contains(u.side.perfect.Text, "* "+m.Move.String()) {
				t.Errorf("side panel table does not star %s:\n%s", m.Move, u.side.perfect.Text)
			}
		}
	}
	if picks == 0 {
		t.Error("no pick among the marks")
	}
	for pt, c := range u.Board().View().Chances {
		if c < 0 || c > 1 || u.Board().View().Marks[pt] != layers.Drawn {
			t.Errorf("chance %v on %s with mark %s", c, pt, u.Board().View().Marks[pt])
		}
	}
	if len(u.Board().View().Chances) == 0 {
		t.Error("no chances on the board")
	}
}
