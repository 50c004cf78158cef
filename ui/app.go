package ui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/retro/play"
	"muehle/ui/game"
)

// Preference keys.
const (
	prefWhite   = "player.white"
	prefBlack   = "player.black"
	prefSpeed   = "speed.ms"
	prefPerfect = "show.perfect"
	prefDBDir   = "database.dir"
	prefOffered = "database.offered"
	prefGame    = "game.last"       // the record of the game on the board
	prefChosen  = "players.chosen"  // the opponent was offered on the first start
	prefTheme   = "view.theme"      // "system", "light" or "dark"
	prefNoRem   = "rules.noremoval" // the no-removal draw rule is on
	prefPaused  = "game.paused"     // the computer players are paused
	prefFlip    = "view.flipped"    // the board is turned, Black at the bottom
	prefVariant = "game.variant"    // the game chosen in New Game, its ID ("standard", "twelve")
	prefStones  = "game.stones"     // the stones per side chosen in New Game
)

// eventNone is a change without a move to animate.
var eventNone = game.Event{Move: muehle.NoMove}

// App is the main window with everything in it.
type App struct {
	app     fyne.App
	win     fyne.Window
	ctrl    *game.Controller
	board   *Board
	side    *sidePanel
	db      *dbPanel
	status  *widget.Label
	menu    *menus
	engines game.Engines
	specs   [2]play.Spec
	seeds   *rand.Rand // seeds each new computer player (Options.Seed)
	trace   func(action string)
	saved   string    // the game record last saved in the preferences
	savedAt time.Time // when it was saved
	// fileSaved is the record of the game last saved to a file (Save Game).
	fileSaved string
	do        func(func())
	review    gameReview     // the database's verdicts on the game's moves
	treeWin   *treeView      // the search tree window, nil when closed
	learn     learnBars      // training mode and the line of moves on the board
	hinted    hints          // the hints taken in the game on the board
	escDialog dialog.Dialog  // the dialog Escape closes (help, New Game), nil when none
	imp       *dbImport      // Database ▸ Import…, nil until first used
	variant   muehle.Variant // the game on the board the engines and the title follow (followVariant)
}

// Options are what the program passes to New.
type Options struct {
	// Engines makes the alpha-beta and perfect players; nil offers only
	// people and the random player.
	Engines game.Engines
	// Database is the database behind the database panel; nil hides it.
	Database Database
	// Do runs a function on the UI thread; nil means fyne.Do.
	Do func(func())
	// Seed seeds the computer players' random choices: each new player
	// draws its source from a generator seeded with it. The program passes
	// a different seed each start; tests may leave it 0.
	Seed uint64
	// Trace, when set, is called with the name of every menu command
	// before it runs, however it was chosen (menu, shortcut); the real-window
	// check of the shortcuts (make screenshots) reads it.
	Trace func(action string)
}

// New builds the main window of a and restores the saved settings. The
// caller shows it (ShowAndRun).
func New(a fyne.App, opt Options) *App {
	do := opt.Do
	if do == nil {
		do = fyne.Do
	}
	// The theme first: widgets made before it keep some colours of the
	// default theme until they are refreshed (the move list's header stayed
	// near white in the light theme).
	applyTheme(a, a.Preferences().StringWithFallback(prefTheme, "system"))
	u := &App{
		app:     a,
		win:     a.NewWindow("Mühle"),
		ctrl:    game.NewController(do),
		board:   NewBoard(),
		side:    newSidePanel(),
		status:  widget.NewLabel(""),
		engines: opt.Engines,
		seeds:   rand.New(rand.NewPCG(opt.Seed, 0x6d75656865)),
		trace:   opt.Trace,
		do:      do,
	}
	u.variant = u.ctrl.Variant()
	if f, ok := u.engines.(variantFollower); ok {
		f.SetVariant(u.variant)
	}
	u.status.Wrapping = fyne.TextWrapWord
	u.board.OnTapped = u.tapped
	u.board.OnHandTapped = u.handTapped
	u.ctrl.OnChange = u.changed
	u.ctrl.OnBranch = u.askBranch
	u.side.onReview = u.reviewTo

	// The tabs scroll when the window is too small for them, so that
	// their contents never make the window grow (panelColumn).
	tabs := container.NewAppTabs(container.NewTabItem("Game", container.NewVScroll(u.side.box)))
	if opt.Database != nil {
		u.db = newDBPanel(u, opt.Database, do)
		tabs.Append(container.NewTabItem("Database", container.NewVScroll(u.db.box)))
	}
	u.learn = newLearnBars(u)
	u.learn.column = container.New(panelColumn{}, container.NewVScroll(u.learn.box), tabs)
	split := container.NewHSplit(u.board, u.learn.column)
	split.Offset = 0.64
	fitted := container.New(&fitBoard{split: split}, split)
	// The status line keeps the height of two lines, wrapped or not, so
	// that the window does not jump when a longer explanation comes.
	status := container.NewVScroll(u.status)
	status.SetMinSize(fyne.NewSize(0, 2*u.status.MinSize().Height-theme.Padding()*2))
	u.win.SetContent(container.NewBorder(nil, status, nil, nil, fitted))
	u.win.Resize(fyne.NewSize(1040, 700))
	u.win.SetOnClosed(u.shutdown)

	u.menu = newMenus(u)
	u.win.SetMainMenu(u.menu.main)
	u.addShortcuts()
	u.win.Canvas().SetOnTypedKey(u.typedKey)
	u.restore()
	return u
}

// fitBoard lays out the split of board and panels, giving the board, each
// time the window's size changes, the width its height lets it use (the
// board is taller than wide) and the panels the rest: in a small or wide
// window the side panel is not squeezed beside an empty margin. The divider
// can still be dragged until the next change of size.
type fitBoard struct {
	split *container.Split
	last  fyne.Size
}

// Layout sets the split's offset for a new size and fills size with it.
func (f *fitBoard) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size != f.last && size.Width > 0 {
		f.last = size
		want := size.Height*8/(8+2*handStrip) + 4*theme.Padding()
		f.split.Offset = float64(max(0.4, min(0.64, want/size.Width)))
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// MinSize is the split's.
func (f *fitBoard) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

// panelColumn lays out the column beside the board: the bars of training
// and of a line of moves (a scroll, objs[0]) above the tabs (objs[1]). The
// bars ask for no height of their own: they take what they need up to two
// thirds of the column and scroll beyond, and the tabs, which scroll too,
// the rest, so that entering training or opening a line never makes the
// window larger (it grew off small screens).
type panelColumn struct{}

// Layout gives the bars their height, up to two thirds of size, and
// the tabs the rest.
func (panelColumn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	bars, tabs := objs[0].(*container.Scroll), objs[1]
	h := float32(0)
	if bars.Content.Visible() {
		h = min(bars.Content.MinSize().Height, size.Height*2/3)
	}
	bars.Move(fyne.NewPos(0, 0))
	bars.Resize(fyne.NewSize(size.Width, h))
	tabs.Move(fyne.NewPos(0, h))
	tabs.Resize(fyne.NewSize(size.Width, size.Height-h))
}

// MinSize is the wider of the two and the tabs' height.
func (panelColumn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(max(objs[0].MinSize().Width, objs[1].MinSize().Width), objs[1].MinSize().Height)
}

// Window returns the main window.
func (u *App) Window() fyne.Window { return u.win }

// Controller returns the controller of the game on the board.
func (u *App) Controller() *game.Controller { return u.ctrl }

// Board returns the board widget.
func (u *App) Board() *Board { return u.board }

// restore applies the saved settings.
func (u *App) restore() {
	p := u.app.Preferences()
	rec := p.String(prefGame) // read first: every change saves the game on the board
	u.saved = rec
	ms := p.IntWithFallback(prefSpeed, 500)
	u.setSpeed(time.Duration(ms) * time.Millisecond)
	u.setPlayer(muehle.White, game.DecodeSpec(p.StringWithFallback(prefWhite, "human")))
	u.setPlayer(muehle.Black, game.DecodeSpec(p.StringWithFallback(prefBlack, "human")))
	u.setShowPerfect(p.BoolWithFallback(prefPerfect, false))
	u.setFlipped(p.Bool(prefFlip))
	// The computer players wait as they were left; a game between two
	// computers restored from the last run waits too, so that it does not
	// play on behind the first questions of the start (the database's).
	paused := p.Bool(prefPaused)
	var g *muehle.Game
	if rec != "" {
		var err error
		if g, err = muehle.ParseRecord(rec); err == nil {
			err = supported(g.Rules())
		}
		if err != nil {
			u.showError("The last game could not be restored", err)
			g = nil
		} else if r, _ := g.Result(); r == muehle.Ongoing && g.Ply() > 0 &&
			u.ctrl.Player(muehle.White) != nil && u.ctrl.Player(muehle.Black) != nil {
			paused = true
		}
	}
	u.ctrl.SetPaused(paused)
	if g != nil {
		u.ctrl.SetGame(g)
	}
	if p.Bool(prefNoRem) {
		u.ctrl.SetNoRemovalLimit(noRemovalMoves)
	}
	u.changed(eventNone)
}

// keepGame saves the game on the board in the preferences, to be
// restored on the next start, when it changed: at once when a person is to
// move, the game is over or now is set, else (computer against computer)
// at most every two seconds, so that a fast computer game does not write
// the preferences file several times a second.
func (u *App) keepGame(now bool) {
	g := u.ctrl.Game()
	rec := g.Record()
	if rec == u.saved {
		return
	}
	r, _ := g.Result()
	person := u.ctrl.Player(g.Position().Turn) == nil
	if !now && !person && r == muehle.Ongoing && time.Since(u.savedAt) < 2*time.Second {
		return
	}
	u.saved, u.savedAt = rec, time.Now()
	u.app.Preferences().SetString(prefGame, rec)
}

// typedKey steps through the game with the arrow keys, Home and End, and
// pauses or resumes the computer with P, when no widget has the keyboard.
func (u *App) typedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && u.escDialog != nil {
		u.escDialog.Hide()
		return
	}
	if u.walkKey(ev) {
		return
	}
	switch ev.Name {
	case fyne.KeyLeft, fyne.KeyUp:
		u.ctrl.ReviewBack()
	case fyne.KeyRight, fyne.KeyDown:
		u.ctrl.ReviewForward()
	case fyne.KeyHome:
		u.ctrl.ReviewStart()
	case fyne.KeyEnd:
		u.ctrl.ReviewEnd()
	case keyPauseAlt:
		u.traced("Pause Computer", func() { u.setPaused(!u.ctrl.Paused()) })()
	}
}

// setPlayer makes spec play side col and saves it. When the player cannot
// be made (no database, engine missing), the side stays as it was and the
// status line says why.
func (u *App) setPlayer(col muehle.Color, spec play.Spec) {
	p, err := game.NewPlayer(spec, u.engines, rand.NewPCG(u.seeds.Uint64(), u.seeds.Uint64()))
	if err != nil {
		u.ctrl.Say("%s cannot be %s: %v", col, game.Title(spec), err)
		return
	}
	changed := u.specs[col] != spec
	u.specs[col] = spec
	key := prefWhite
	if col == muehle.Black {
		key = prefBlack
	}
	u.app.Preferences().SetString(key, game.Encode(spec))
	if u.learn.train != nil {
		// In training a person plays both sides: a computer would play
		// the answer. The choice counts from End Training on.
		if changed {
			u.ctrl.Say("In training you play both sides; %s plays %s after End Training.", game.Title(spec), col)
		}
		return
	}
	u.ctrl.SetPlayer(col, p)
}

// setPaused pauses the computer players or lets them go on, and keeps the
// choice for the next start.
func (u *App) setPaused(on bool) {
	u.app.Preferences().SetBool(prefPaused, on)
	u.ctrl.SetPaused(on)
}

// setFlipped turns the board (Black at the bottom) or back, and keeps the
// choice for the next start.
func (u *App) setFlipped(on bool) {
	u.app.Preferences().SetBool(prefFlip, on)
	u.board.SetFlipped(on)
	if u.menu != nil {
		u.menu.update()
	}
}

func (u *App) setSpeed(d time.Duration) {
	u.ctrl.SetSpeed(d)
	u.app.Preferences().SetInt(prefSpeed, int(d.Milliseconds()))
	u.changed(eventNone)
}

// setShowPerfect shows or hides the perfect-move marks. The evaluator is
// set either way where there is one: reviewing shows the verdict of every
// position.
func (u *App) setShowPerfect(on bool) {
	var e game.Evaluator
	err := fmt.Errorf("this build has no database engines")
	if u.engines != nil {
		e, err = u.engines.Evaluator()
	}
	if on {
		if err != nil {
			u.ctrl.SetPerfect(nil, false)
			u.app.Preferences().SetBool(prefPerfect, false)
			u.ctrl.Say("Perfect moves cannot be shown: %v", err)
			return
		}
	}
	u.app.Preferences().SetBool(prefPerfect, on)
	u.ctrl.SetPerfect(e, on)
}

// changed redraws the board, the panels, the status line and the menus,
// and saves the game, to be restored on the next start.
func (u *App) changed(ev game.Event) {
	u.followVariant()
	u.keepGame(false)
	u.trainingMoved(ev)
	u.redraw(ev)
}

// redraw draws the board (the open line of moves instead of the game, if
// there is one), the panels, the status line and the menus.
func (u *App) redraw(ev game.Event) {
	v := u.ctrl.View()
	v.Best = u.bestShown()
	if m := u.hintShown(); m.To != muehle.NoPoint {
		v.Best = m
	}
	hidden := u.trainingHides()
	if hidden {
		v.Marks, v.Chances, v.Picks = nil, nil, 0
	}
	if u.learn.walk != nil {
		v = u.walkView(v)
	}
	if ev.Move.To != muehle.NoPoint {
		u.board.Animate(v, ev.Move, ev.Mover, u.animDuration(ev))
	} else {
		u.board.Update(v)
	}
	u.side.verdicts = u.verdicts()
	u.showRefutation()
	u.side.hidden = hidden
	u.side.update(u.ctrl, u.engines)
	u.sideForWalk()
	u.learn.update()
	u.status.SetText(u.ctrl.Status())
	if u.menu != nil {
		u.menu.update()
	}
}

// animDuration is how long the stone of a move travels: most of the move
// time for the computer, a short glide for a person's tap.
func (u *App) animDuration(ev game.Event) time.Duration {
	d := u.ctrl.Speed()
	if ev.Computer {
		return d * 3 / 4
	}
	return min(d/2, 150*time.Millisecond)
}

// showError reports err in the status line, in words for a person: the
// packages' prefixes ("muehle: ") of the wrapped errors left out.
func (u *App) showError(what string, err error) {
	u.ctrl.Say("%s: %s", what, plainError(err))
}

// plainError returns err's text without the prefixes that name the
// package an error came from.
func plainError(err error) string {
	s := err.Error()
	for _, p := range []string{"muehle: ", "layers: ", "play: ", "retro: ", "game: "} {
		s = strings.ReplaceAll(s, p, "")
	}
	return s
}

// stateNumber shows the layer and index of the position on the board (the
// one reviewed, and with a removal pending the one before the mill's
// move, whose moves the side panel lists), as the side panel does.
func (u *App) stateNumber() {
	if u.engines == nil {
		u.ctrl.Say("State numbers need the database engines, which this build does not have.")
		return
	}
	pos := u.ctrl.Position()
	if u.trainingHides() {
		u.ctrl.Say("%s (its value stays hidden until you have answered).", hiddenStateText(u.engines, pos))
		return
	}
	u.ctrl.Say("%s.", stateText(u.engines, pos))
}

// databaseChanged is called when layers were computed or the folder
// changed: the marks and the computer players see the new layers.
func (u *App) databaseChanged() {
	if u.ctrl.ShowPerfect() {
		u.setShowPerfect(true)
	}
	for col := range u.specs {
		if s := u.specs[col]; game.NeedsEngines(s) {
			u.setPlayer(muehle.Color(col), s)
		}
	}
}

// Start shows the window's first-start offers, call it after Show: the
// choice of opponent, then the small endgame database.
func (u *App) Start() {
	offerDB := func() {
		if u.db != nil {
			u.db.offerSmall()
		}
	}
	p := u.app.Preferences()
	if p.Bool(prefChosen) {
		offerDB()
		return
	}
	p.SetBool(prefChosen, true)
	u.showNewGame(true, offerDB)
}

// shutdown keeps the game for the next start, stops the computer players
// and any database computation; on closing the window or quitting.
func (u *App) shutdown() {
	u.keepGame(true)
	u.stopHint()
	u.ctrl.Close()
	if u.db != nil {
		u.db.shutdown()
	}
}
