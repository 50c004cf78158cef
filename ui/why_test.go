package ui

import (
	"math/rand/v2"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/ui/game/gametest"
)

// drawn33 returns a drawn 3-3 position of the solved test database with
// White to move, at least two drawing moves and drawing moves of different
// win chances (share of losing replies), found by a seeded random search.
func drawn33(t *testing.T, db layers.Prober) muehle.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(13, 13))
	for range 20000 {
		b := []byte(strings.Repeat(".", muehle.NumPoints))
		for _, c := range []byte("WWWBBB") {
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
		shares := map[float64]bool{}
		for _, m := range p.Moves() {
			c := p.Play(m)
			if c.IsOver() {
				continue
			}
			if v, err := db.Probe(c); err != nil || v.Parent().Outcome() != layers.Draw {
				continue
			}
			lose, n := 0, 0
			for _, r := range c.Moves() {
				n++
				cc := c.Play(r)
				if cc.IsOver() {
					continue // the reply wins for the opponent
				}
				if w, err := db.Probe(cc); err == nil && w.Parent().Outcome() == layers.Loss {
					lose++
				}
			}
			shares[float64(lose)/float64(n)] = true
		}
		if len(shares) >= 2 {
			return p
		}
	}
	t.Fatal("no drawn 3-3 position with drawing moves of different chances found")
	return muehle.Position{}
}

// TestPerfectMarksShowWhy checks the marks of a drawn position with the
// database: each drawing move's chance is the share of the opponent's
// replies that lose, by its own reply counts; the picks are exactly the
// drawing moves of the largest chance; the board shows the chances and
// the picks, and the side panel's table stars the picks.
func TestPerfectMarksShowWhy(t *testing.T) {
	e := solvedEngines(t)
	db, err := e.database()
	if err != nil {
		t.Fatal(err)
	}
	p := drawn33(t, db)
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
		n := m.Replies[0] + m.Replies[1] + m.Replies[2]
		if want := float64(m.Replies[2]) / float64(n); m.Chance != want {
			t.Errorf("%s: got chance %v, want %d of %d replies = %v", m.Move, m.Chance, m.Replies[2], n, want)
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
