package ui

import (
	"fmt"

	"muehle/muehle"
	"muehle/retro/play"
)

// supported returns nil when the window plays the game with rule set r,
// and otherwise an error that says so in words. The window draws the
// standard board only so far: a position or record of another game that
// the players know (play.Supported) is refused with a pointer to
// muehlectl, which plays it.
func supported(r *muehle.Rules) error {
	if err := play.Supported(r); err != nil {
		return err
	}
	if r.Game() != muehle.Standard {
		return fmt.Errorf("%w: a position of %s; the window plays %s only so far (muehlectl play --game %s plays it)",
			muehle.ErrPosition, r.Name, muehle.Games[muehle.Standard].Name, r.ID)
	}
	return nil
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
// the window's title and the Database tab name the game.
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
			if u.ctrl.Player(col) != nil && u.specs[col].NeedsEngines() {
				u.setPlayer(col, u.specs[col])
			}
		}
	}
	if u.db != nil {
		u.db.refresh()
	}
}

// windowTitle returns the window's title for a game of variant v: "Mühle",
// and the game's name when it is not Nine Men's Morris with nine stones.
func windowTitle(v muehle.Variant) string {
	if v == muehle.Standard.With(muehle.StonesPerSide) {
		return "Mühle"
	}
	return "Mühle · " + v.Name()
}
