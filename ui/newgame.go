package ui

import (
	"fmt"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game"
)

// noRemovalMoves is the limit of the optional draw rule: the game is drawn
// after this many plies (moves of either side, as everywhere in this program) in a row
// without a removal.
const noRemovalMoves = 50

// noRemovalRule reports whether the game on the board has the no-removal
// draw rule.
func (u *App) noRemovalRule() bool { return u.ctrl.Game().NoRemovalLimit > 0 }

// setNoRemovalRule switches the no-removal draw rule on or off, for this
// game and the next ones.
func (u *App) setNoRemovalRule(on bool) {
	n := 0
	if on {
		n = noRemovalMoves
	}
	u.app.Preferences().SetBool(prefNoRem, on)
	u.ctrl.SetNoRemovalLimit(n)
}

// unfinished reports whether the game on the board has moves and no result
// and was not saved to a file since its last move: something a person
// would not want to lose without being asked.
func (u *App) unfinished() bool {
	g := u.ctrl.Game()
	r, _ := g.Result()
	return r == muehle.Ongoing && g.Ply() > 0 && g.Record() != u.fileSaved
}

// askDiscard runs then at once when the game on the board is finished or
// has no moves, and otherwise after the person agreed to give it up for
// what (say, "Opening a game").
func (u *App) askDiscard(what string, then func()) {
	if !u.unfinished() {
		then()
		return
	}
	msg := fmt.Sprintf("The game on the board (%s) is not finished.\n%s replaces it; Save Game keeps it first.",
		game.Plies(u.ctrl.Game().Ply()), what)
	d := dialog.NewConfirm("Give up the game?", msg, func(ok bool) {
		if ok {
			then()
		}
	}, u.win)
	d.SetConfirmText("Replace It")
	d.SetDismissText("Keep Playing")
	d.Show()
}

// askBranch asks before a move on a reviewed position drops the later
// moves of the game.
func (u *App) askBranch(m muehle.Move, later int, play func()) {
	name := u.ctrl.Game().Rules().Board.MoveString(m)
	msg := fmt.Sprintf("Playing %s here starts a new line from this position:\nthe %d later moves of the game are dropped.", name, later)
	d := dialog.NewConfirm("Start a new line?", msg, func(ok bool) {
		if ok {
			play()
		}
	}, u.win)
	d.SetConfirmText("Play " + name)
	d.SetDismissText("Keep the Game")
	d.Show()
}

// newGame shows the New Game dialog.
func (u *App) newGame() { u.showNewGame(false, nil) }

// offeredSpecs returns the players the New Game dialog offers: people and
// random always; the other players of play.Offered, in its order, when the
// engines are there.
func (u *App) offeredSpecs() []play.Spec {
	specs := []play.Spec{game.Human}
	for _, sp := range play.Offered() {
		if u.engines != nil || !game.NeedsEngines(sp) {
			specs = append(specs, sp)
		}
	}
	return specs
}

// levelLabel returns the menu label of difficulty level n.
func levelLabel(n int) string {
	switch n {
	case 1:
		return "Level 1 (weakest)"
	case play.Levels:
		return fmt.Sprintf("Level %d (perfect)", n)
	}
	return fmt.Sprintf("Level %d", n)
}

// defaultOpponent is the computer player offered against a person: the
// perfect player where there is a database, else alpha-beta, else random.
func (u *App) defaultOpponent() play.Spec {
	switch {
	case u.engines == nil:
		return play.Spec{Kind: play.KindRandom}
	case u.db == nil || u.db.db.Empty():
		return play.Spec{Kind: play.KindAlphaBeta}
	}
	return play.DefaultPerfect
}

// newGameForm is the content of the New Game dialog.
type newGameForm struct {
	game    *widget.Select // the games the window plays (playedGames)
	stones  *widget.Select // 3 to the chosen game's own stones
	sides   [2]*widget.Select
	rule    *widget.Check
	specs   []play.Spec
	games   []*muehle.Rules
	content fyne.CanvasObject
}

// newGameForm returns the dialog's form: the game and its stones per side
// (the last ones chosen), a choice of player for each side (the current
// ones; Black the default opponent when both are people) and the
// no-removal rule, with a warning when a game would be given up.
func (u *App) newGameForm(first bool) *newGameForm {
	f := &newGameForm{specs: u.offeredSpecs(), games: playedGames()}
	var gameNames []string
	for _, r := range f.games {
		gameNames = append(gameNames, r.Name)
	}
	f.stones = widget.NewSelect(nil, nil)
	f.game = widget.NewSelect(gameNames, func(string) { f.offerStones(0) })
	f.game.PlaceHolder = longest(gameNames) // a select is as wide as its placeholder: no name cut
	v := u.lastVariant()
	f.game.SetSelected(v.Rules().Name)
	f.offerStones(v.Stones)
	var names []string
	for _, s := range f.specs {
		names = append(names, game.Title(s))
	}
	chosen := u.specs
	if chosen[muehle.White] == game.Human && chosen[muehle.Black] == game.Human {
		chosen[muehle.Black] = u.defaultOpponent()
	}
	for col := range f.sides {
		f.sides[col] = widget.NewSelect(names, nil)
		f.sides[col].PlaceHolder = longest(names)
		f.sides[col].SetSelected(game.Title(chosen[col]))
	}
	f.rule = widget.NewCheck(fmt.Sprintf("Draw after %d plies without a removal", noRemovalMoves), nil)
	f.rule.Checked = u.noRemovalRule()
	intro := "Who plays which side? White moves first."
	if first {
		intro = "Welcome to Mühle (Nine Men's Morris).\n" +
			"Choose your opponent: you play White, the computer Black, or change it here.\n" +
			"The White and Black menus change the players during a game too."
	}
	items := []fyne.CanvasObject{
		widget.NewLabel(intro),
		widget.NewForm(widget.NewFormItem("Game", f.game), widget.NewFormItem("Stones per side", f.stones),
			widget.NewFormItem("White", f.sides[muehle.White]), widget.NewFormItem("Black", f.sides[muehle.Black])),
		f.rule,
	}
	if u.unfinished() {
		items = append(items, widget.NewLabelWithStyle(
			fmt.Sprintf("The game on the board (%s) is not finished; a new game replaces it.", game.Plies(u.ctrl.Game().Ply())),
			fyne.TextAlignLeading, fyne.TextStyle{Italic: true}))
	}
	f.content = container.NewVBox(items...)
	return f
}

// longest returns the longest of ss.
func longest(ss []string) string {
	l := ""
	for _, s := range ss {
		if len(s) > len(l) {
			l = s
		}
	}
	return l
}

// offerStones offers the stones per side of the chosen game, 3 to its own,
// and selects k, or the game's own when k is out of its range.
func (f *newGameForm) offerStones(k int) {
	r := f.rules()
	if k < muehle.MinStones || k > r.Stones {
		k = r.Stones
	}
	var opts []string
	for n := muehle.MinStones; n <= r.Stones; n++ {
		opts = append(opts, strconv.Itoa(n))
	}
	f.stones.SetOptions(opts)
	f.stones.SetSelected(strconv.Itoa(k))
}

// rules returns the rules of the game chosen.
func (f *newGameForm) rules() *muehle.Rules {
	if i := f.game.SelectedIndex(); i >= 0 {
		return f.games[i]
	}
	return muehle.Standard.Rules()
}

// variant returns the game and stones chosen.
func (f *newGameForm) variant() muehle.Variant {
	r := f.rules()
	k, err := strconv.Atoi(f.stones.Selected)
	if err != nil || k < muehle.MinStones || k > r.Stones {
		k = r.Stones
	}
	return r.Game().With(k)
}

// chosen returns the player chosen for col.
func (f *newGameForm) chosen(col muehle.Color) play.Spec {
	i := f.sides[col].SelectedIndex()
	if i < 0 {
		return game.Human
	}
	return f.specs[i]
}

// showNewGame shows the New Game dialog; Start sets the game, the players
// and the rule and starts a new game. then, if set, runs when the dialog
// closes.
func (u *App) showNewGame(first bool, then func()) {
	f := u.newGameForm(first)
	d := dialog.NewCustomConfirm("New Game", "Start", "Cancel", f.content, func(ok bool) {
		if ok {
			u.startNewGame(f.variant(), f.chosen(muehle.White), f.chosen(muehle.Black), f.rule.Checked)
		}
		if then != nil {
			then()
		}
	}, u.win)
	u.showEscapable(d) // Escape cancels
}

// startNewGame sets the players and the rule and starts a new game of
// variant v, remembered for the next New Game.
func (u *App) startNewGame(v muehle.Variant, white, black play.Spec, noRemoval bool) {
	u.setPaused(false) // the new opponent moves at once
	u.setLastVariant(v)
	u.ctrl.NewGame(v)
	u.setPlayer(muehle.White, white)
	u.setPlayer(muehle.Black, black)
	u.setNoRemovalRule(noRemoval)
}
