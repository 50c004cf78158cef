package ui

import (
	"errors"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"muehle/muehle"
	"muehle/ui/game"
)

// editor is the set-up dialog: choose the game and its stones per side;
// tap a point to cycle it through empty, White and Black; choose the
// stones in hand and the side to move. OK refuses a position that cannot
// occur in a game and says why.
type editor struct {
	pos     muehle.Position
	stones  int
	board   *Board
	games   []*muehle.Rules // the games the window plays (playedGames)
	game    *widget.Select
	perSide *widget.Select // the stones per side, 3 to the game's own
	hands   [2]*widget.Select
	turn    *widget.RadioGroup
	message *widget.Label
	clear   *widget.Button
	content fyne.CanvasObject
	onOK    func(muehle.Position)
	dlg     dialog.Dialog
}

func newEditor(start muehle.Position, stones int, onOK func(muehle.Position)) *editor {
	e := &editor{pos: start, stones: stones, board: NewBoard(), onOK: onOK}
	e.board.OnTapped = e.tap
	for col := muehle.White; col <= muehle.Black; col++ {
		e.hands[col] = widget.NewSelect(nil, func(s string) {
			n, _ := strconv.Atoi(s)
			e.pos.Hand[col] = uint8(n)
			e.show()
		})
	}
	e.turn = widget.NewRadioGroup([]string{"White", "Black"}, func(s string) {
		e.pos.Turn = muehle.White
		if s == "Black" {
			e.pos.Turn = muehle.Black
		}
		e.show()
	})
	e.turn.Horizontal = true
	e.turn.Required = true
	e.message = widget.NewLabel("")
	e.message.Wrapping = fyne.TextWrapWord
	e.message.Importance = widget.DangerImportance

	// Clear empties the hands too: a position set up from an empty board
	// is mostly an endgame, whose stones are all on the board (with nine
	// left in each hand, three stones a side were "12 stones").
	e.clear = widget.NewButton("Clear board", func() {
		e.pos.Stones = [2]muehle.Bitboard{}
		e.pos.Hand = [2]uint8{}
		e.syncControls()
		e.show()
	})
	// The game: another one starts from its empty board with its own
	// stones; fewer stones per side keep the board.
	e.games = playedGames()
	var names []string
	for _, r := range e.games {
		names = append(names, r.Name)
	}
	e.perSide = widget.NewSelect(nil, func(s string) {
		if n, err := strconv.Atoi(s); err == nil && n != e.stones {
			e.stones = n
			e.pos.Hand = [2]uint8{min(e.pos.Hand[0], uint8(n)), min(e.pos.Hand[1], uint8(n))}
			e.syncControls()
			e.show()
		}
	})
	e.game = widget.NewSelect(names, func(name string) {
		r, ok := muehle.GameByName(name)
		if !ok || r.Game() == e.pos.Game {
			return
		}
		e.pos, e.stones = r.NewPosition(r.Stones), r.Stones
		e.syncControls()
		e.show()
	})
	e.game.PlaceHolder = longest(names)
	form := widget.NewForm(
		widget.NewFormItem("Game", e.game),
		widget.NewFormItem("Stones per side", e.perSide),
		widget.NewFormItem("White in hand", e.hands[muehle.White]),
		widget.NewFormItem("Black in hand", e.hands[muehle.Black]),
		widget.NewFormItem("To move", e.turn),
	)
	help := widget.NewLabel("Tap a point to cycle it: empty, White, Black, empty again.")
	help.Wrapping = fyne.TextWrapWord
	buttons := container.NewHBox(e.clear, widget.NewButton("Cancel", e.cancel),
		widget.NewButtonWithIcon("Use position", nil, func() { e.ok() }))
	side := container.NewVBox(help, form, buttons, e.message)
	e.content = container.NewBorder(nil, nil, nil, container.NewGridWrap(fyne.NewSize(320, 440), side), e.board)
	e.syncControls()
	e.show()
	return e
}

// tap cycles point p: empty → White → Black → empty.
func (e *editor) tap(p muehle.Point) {
	w, b := &e.pos.Stones[muehle.White], &e.pos.Stones[muehle.Black]
	switch {
	case w.Has(p):
		*w &^= p.Bit()
		*b |= p.Bit()
	case b.Has(p):
		*b &^= p.Bit()
	default:
		*w |= p.Bit()
	}
	e.show()
}

// syncControls sets the selects and the radio group from e.pos and
// e.stones.
func (e *editor) syncControls() {
	r := e.pos.Rules()
	e.game.SetSelected(r.Name)
	var per, hand []string
	for n := 0; n <= r.Stones; n++ {
		if n >= muehle.MinStones {
			per = append(per, strconv.Itoa(n))
		}
		if n <= e.stones {
			hand = append(hand, strconv.Itoa(n))
		}
	}
	e.perSide.SetOptions(per)
	e.perSide.SetSelected(strconv.Itoa(e.stones))
	for col := muehle.White; col <= muehle.Black; col++ {
		e.hands[col].SetOptions(hand)
		e.hands[col].SetSelected(strconv.Itoa(int(e.pos.Hand[col])))
	}
	e.turn.SetSelected(e.pos.Turn.String())
}

func (e *editor) show() {
	e.board.SetView(game.EmptyView(e.pos))
	if err := checkSetup(e.pos, e.stones); err != nil {
		e.message.SetText(muehle.Reason(err))
	} else {
		e.message.SetText(unreachableNote(e.pos, e.stones))
	}
}

// ok hands the position over when it is possible and reports whether it was.
func (e *editor) ok() bool {
	if err := checkSetup(e.pos, e.stones); err != nil {
		e.message.SetText("Refused: " + muehle.Reason(err))
		return false
	}
	if e.dlg != nil {
		e.dlg.Hide()
	}
	e.onOK(e.pos)
	return true
}

func (e *editor) cancel() {
	if e.dlg != nil {
		e.dlg.Hide()
	}
}

// checkSetup reports why p cannot occur in a game of k stones per side:
// Position.Validate, the one check of a position.
func checkSetup(p muehle.Position, k int) error { return p.Validate(k) }

// unreachableNote returns "" when p may arise in a game of k stones per
// side, and otherwise the warning that it cannot, with the reason
// (Position.CheckReachable): the window allows such a set-up position
// where the command line refuses it.
func unreachableNote(p muehle.Position, k int) string {
	if err := p.CheckReachable(k); errors.Is(err, muehle.ErrUnreachable) {
		return muehle.Reason(err) + ". It can be set up, but no game reaches it."
	}
	return ""
}

// showEditor opens the set-up dialog over w.
func showEditor(w fyne.Window, start muehle.Position, stones int, onOK func(muehle.Position)) *editor {
	e := newEditor(start, stones, onOK)
	e.dlg = dialog.NewCustomWithoutButtons("Set Up Position", e.content, w)
	e.dlg.Resize(fyne.NewSize(780, 540))
	e.dlg.Show()
	return e
}
