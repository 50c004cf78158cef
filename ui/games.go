package ui

import (
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game"
)

// supported returns nil when the window plays the game with rule set r,
// and otherwise an error that says so in words: the window plays every
// game whose database the players can read (play.Supported), on any board
// (the Board widget draws each from its own geometry).
func supported(r *muehle.Rules) error { return play.Supported(r) }

// playedGames returns the games the window plays, in the order of
// muehle.Games.
func playedGames() []*muehle.Rules {
	var rs []*muehle.Rules
	for _, r := range muehle.Games {
		if supported(r) == nil {
			rs = append(rs, r)
		}
	}
	return rs
}

// lastVariant returns the game and stones last chosen in New Game (the
// preferences), Nine Men's Morris with nine stones when none or one the
// window does not play.
func (u *App) lastVariant() muehle.Variant {
	p := u.app.Preferences()
	r, ok := muehle.GameByName(p.StringWithFallback(prefVariant, muehle.Standard.Rules().ID))
	if !ok || supported(r) != nil {
		r = muehle.Standard.Rules()
	}
	v := r.Game().With(p.IntWithFallback(prefStones, r.Stones))
	if v.Check() != nil {
		v.Stones = r.Stones
	}
	return v
}

// setLastVariant remembers v as the game chosen in New Game.
func (u *App) setLastVariant(v muehle.Variant) {
	p := u.app.Preferences()
	p.SetString(prefVariant, v.Rules().ID)
	p.SetInt(prefStones, v.Stones)
}

// variantFollower is what the window tells the engines when the game on
// the board becomes one of another variant; DBEngines implements it.
type variantFollower interface {
	SetVariant(v muehle.Variant)
}

// followVariant follows the game on the board when it became one of
// another game or stone count (New Game, a game opened or pasted,
// training): the engines read the database of that variant from now on,
// so the computer players and the perfect-move marks are made anew, and
// the window's title and the Database tab name the game; the tab offers
// to compute a small game's database that is missing (offerGame).
func (u *App) followVariant() {
	v := u.ctrl.Variant()
	if v == u.variant {
		return
	}
	u.variant = v
	u.win.SetTitle(windowTitle(v))
	if f, ok := u.engines.(variantFollower); ok {
		f.SetVariant(v)
		u.setShowPerfect(u.ctrl.ShowPerfect())
		for col := muehle.White; col <= muehle.Black; col++ {
			// A side a person plays for now (training) stays a person.
			if u.ctrl.Player(col) != nil && game.NeedsEngines(u.specs[col]) {
				u.setPlayer(col, u.specs[col])
			}
		}
	}
	if u.db != nil {
		u.db.refresh()
		u.db.offerGame(v)
	}
}

// windowTitle returns the window's title for a game of variant v: "Mühle",
// and the game's name when it is not Nine Men's Morris with nine stones.
func windowTitle(v muehle.Variant) string {
	if v == muehle.NineMensMorris {
		return "Mühle"
	}
	return "Mühle · " + v.Name()
}
