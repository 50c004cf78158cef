package ui

import (
	"testing"
	"time"

	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game"
	"muehle/ui/game/gametest"
)

// TestLevelsOffered checks that the New Game dialog and the Black menu
// offer the ten levels, that choosing one makes that level the player, and
// that level 10 answers like the perfect player with a move of the best
// value.
func TestLevelsOffered(t *testing.T) {
	e := solvedEngines(t)
	q := gametest.NewQueue()
	u := newTestApp(t, q, e)
	f := u.newGameForm(false)
	for n := 1; n <= play.Levels; n++ {
		spec := play.Spec{Kind: play.KindLevel, Level: n}
		f.sides[muehle.Black].SetSelected(game.Title(spec))
		if got := f.chosen(muehle.Black); got != spec {
			t.Errorf("New Game dialog, %q chosen: got %+v, want %+v", game.Title(spec), got, spec)
		}
	}
	u.startNewGame(muehle.NineMensMorris, game.Human, f.chosen(muehle.Black), false)
	if got := u.ctrl.Player(muehle.Black); got == nil || got.Name() != "Level 10" {
		t.Errorf("Black after New Game with Level 10: got %v, want Level 10", got)
	}
	var item bool
	for _, it := range menuItems(u.menu.main) {
		if it.Label == "Level 3" {
			it.Action()
			item = true
			break // the White menu comes first
		}
	}
	if got := u.ctrl.Player(muehle.White); !item || got == nil || got.Name() != "Level 3" {
		t.Errorf("White after its menu's Level 3: got %v (item found: %v), want Level 3", got, item)
	}
	if got, want := u.specs[muehle.White], (play.Spec{Kind: play.KindLevel, Level: 3}); got != want {
		t.Errorf("White's spec: got %+v, want %+v", got, want)
	}

	// Level 10 as Black answers in the 3-3 endgame with a best move.
	u.setPlayer(muehle.White, game.Human)
	p, g := endgame33(t)
	u.ctrl.SetGame(g)
	u.setSpeed(100 * time.Millisecond)
	ms := p.Moves()
	gametest.TapMove(u.Board().TapPoint, ms[0])
	q.Drain(t, 10*time.Second, func() bool { return g.Ply() == 2 })
	db, err := e.database()
	if err != nil {
		t.Fatal(err)
	}
	checkBestReply(t, db, g, "level 10")
}
