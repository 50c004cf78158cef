package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/teach"
	"muehle/ui/game"
)

// This file holds training mode: Analysis ▸ Training… asks for the stones on
// the board, the difficulty, what to find and a seed, draws positions of
// the game on the board (any game with a database, its stones per side)
// from its database (teach.DrawTraining, in the background) and puts the
// first on the board with people on both sides. The player
// answers with a move on the board; the database says right or wrong
// (teach.CheckAnswer), and a wrong answer's refutation opens on the board
// as a line to step through (walk.go). The bar above the side panel goes
// to the previous or next position, tries a position again, and ends
// training, which brings back the game and the players from before.

// trainer is what training needs from the engines, each from the database
// of variant v; DBEngines implements it.
type trainer interface {
	DrawTraining(ctx context.Context, v muehle.Variant, opt teach.TrainingOptions) (teach.Training, error)
	CheckAnswer(v muehle.Variant, pos muehle.Position, m muehle.Move) (teach.Answer, error)
	// TrainingStones returns the numbers of stones on the board for which
	// the database of v holds a layer to draw from, smallest first.
	TrainingStones(v muehle.Variant) []int
}

// trainingCount is how many positions one training draws.
const trainingCount = 10

// DrawTraining draws training positions from the database of v
// (teach.DrawTraining).
func (e *DBEngines) DrawTraining(ctx context.Context, v muehle.Variant, opt teach.TrainingOptions) (teach.Training, error) {
	db, err := e.databaseOf(v)
	if err != nil {
		return teach.Training{}, err
	}
	return teach.DrawTraining(ctx, db, opt)
}

// TrainingStones returns the numbers of stones on the board, from
// 2×layers.LoseBelow (6) to twice v's stones, of which the database of v
// holds a layer (teach.TrainingLayers).
func (e *DBEngines) TrainingStones(v muehle.Variant) []int {
	db, err := e.databaseOf(v)
	if err != nil {
		return nil
	}
	var ns []int
	for n := 2 * layers.LoseBelow; n <= 2*v.Stones; n++ {
		if slices.ContainsFunc(teach.TrainingLayers(v, n, true), db.Has) {
			ns = append(ns, n)
		}
	}
	return ns
}

// CheckAnswer judges m as the answer in pos (teach.CheckAnswer) by the
// database of v, with the refutation of a wrong answer.
func (e *DBEngines) CheckAnswer(v muehle.Variant, pos muehle.Position, m muehle.Move) (teach.Answer, error) {
	db, err := e.databaseOf(v)
	if err != nil {
		return teach.Answer{}, err
	}
	return teach.CheckAnswer(db, pos, m, refutationMax)
}

// training is the state of training mode.
type training struct {
	v        muehle.Variant // the game the positions are of
	run      *teach.TrainingRun
	prev     *muehle.Game // the game on the board before training
	checking bool         // an answer is being checked
	gen      int          // counts positions shown, to drop a stale check
	// shown is the answer to the position as the board shows it: nil
	// until the person has answered since it was put there (Try Again puts
	// it back unanswered); the recorded answer when Previous or Next comes
	// back to a position answered before. Until there is one, everything
	// that tells the answer stays hidden (trainingHides).
	shown *teach.Answer
}

// trainingChoices are the choices of the Training dialog, by index.
type trainingChoices struct {
	onBoard int // the stones on the board, 0 for any
	band    int // index into teach.Bands()
	goal    int // 0: either, 1: a win, 2: a draw
	seed    string
}

// trainingOptions returns the options the choices c stand for in variant
// v, or why the seed is bad.
func trainingOptions(v muehle.Variant, c trainingChoices) (teach.TrainingOptions, error) {
	seed, err := strconv.ParseUint(strings.TrimSpace(c.seed), 10, 64)
	if err != nil {
		return teach.TrainingOptions{}, fmt.Errorf("seed %q: want a whole number from 0 to %d", c.seed, uint64(1<<64-1))
	}
	return teach.TrainingOptions{
		Layers:     teach.TrainingLayers(v, c.onBoard, true),
		Goal:       []teach.Goal{teach.GoalAny, teach.FindWin, teach.HoldDraw}[c.goal],
		Band:       teach.Bands()[c.band],
		MaxAnswers: 1,
		Count:      trainingCount,
		Seed:       seed,
	}, nil
}

// showTraining asks for the kind of positions and starts training.
func (u *App) showTraining() {
	t, ok := u.engines.(trainer)
	if !ok {
		u.ctrl.Say("Training needs the database.")
		return
	}
	// The game on the board, and only the stone counts its database holds
	// layers of.
	v := u.ctrl.Variant()
	counts := t.TrainingStones(v)
	if len(counts) == 0 {
		u.ctrl.Say("Training draws positions of %s from its database, which holds no layer yet: "+
			"compute the small endgames or more in the Database tab.", v.Name())
		return
	}
	onBoard := []string{"Any"}
	for _, n := range counts {
		s := strconv.Itoa(n)
		if n == 2*layers.LoseBelow {
			s += fmt.Sprintf(" (%d against %d)", layers.LoseBelow, layers.LoseBelow)
		}
		onBoard = append(onBoard, s)
	}
	var bands []string
	for _, b := range teach.Bands() {
		lo, hi := b.Range()
		switch {
		case b == teach.BandAny:
			bands = append(bands, "Any")
		case hi == layers.MaxDepth:
			bands = append(bands, fmt.Sprintf("%s (%d plies and more)", titleCase(b.String()), lo))
		default:
			bands = append(bands, fmt.Sprintf("%s (%d to %d plies)", titleCase(b.String()), max(lo, 1), hi))
		}
	}
	goals := []string{"A win or the only drawing move", "A win", "The only drawing move"}
	sOn, sBand, sGoal := widget.NewSelect(onBoard, nil), widget.NewSelect(bands, nil), widget.NewSelect(goals, nil)
	sOn.SetSelectedIndex(0)
	sBand.SetSelectedIndex(0)
	sGoal.SetSelectedIndex(0)
	seed := widget.NewEntry()
	seed.SetText(strconv.FormatUint(u.learn.trainSeed+1, 10))
	form := container.NewVBox(
		widget.NewLabel(fmt.Sprintf("Positions of %s from its database where exactly one move keeps the value.\n"+
			"%d positions; the same seed gives the same positions, so a set can be shared.\n"+
			"The game on the board waits until training ends.", v.Name(), trainingCount)),
		widget.NewForm(widget.NewFormItem("Stones on the board", sOn), widget.NewFormItem("Difficulty", sBand),
			widget.NewFormItem("Find", sGoal), widget.NewFormItem("Seed", seed)))
	dialog.NewCustomConfirm("Training", "Start", "Cancel", form, func(ok bool) {
		if !ok {
			return
		}
		n := 0
		if i := sOn.SelectedIndex(); i > 0 {
			n = counts[i-1]
		}
		opt, err := trainingOptions(v, trainingChoices{n, sBand.SelectedIndex(), sGoal.SelectedIndex(), seed.Text})
		if err != nil {
			u.ctrl.Say("Training: %v", err)
			return
		}
		u.startTraining(v, opt)
	}, u.win).Show()
}

// titleCase returns s with its first letter upper-case.
func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// startTraining draws the positions of opt from the database of v in the
// background and enters training mode with them.
func (u *App) startTraining(v muehle.Variant, opt teach.TrainingOptions) {
	t, ok := u.engines.(trainer)
	if !ok {
		u.ctrl.Say("Training needs the database.")
		return
	}
	u.learn.trainSeed = opt.Seed
	u.learn.trainGen++
	gen := u.learn.trainGen
	u.ctrl.Say("Drawing %d training positions (seed %d)…", opt.Count, opt.Seed)
	go func() {
		tr, err := t.DrawTraining(context.Background(), v, opt)
		u.do(func() {
			if gen != u.learn.trainGen {
				return
			}
			switch {
			case err != nil:
				u.ctrl.Say("Training: %v", err)
			case len(tr.Exercises) == 0:
				u.ctrl.Say("Training: no position fits in %d tries (%d of the %d layers are not in the database); "+
					"choose other stones or difficulty, or compute more layers.", tr.Tries, len(tr.Skipped), len(opt.Layers))
			default:
				u.enterTraining(v, teach.NewTrainingRun(opt, tr.Exercises))
			}
		})
	}()
}

// enterTraining puts the first position of run, of variant v, on the
// board, with people on both sides.
func (u *App) enterTraining(v muehle.Variant, run *teach.TrainingRun) {
	prev := u.ctrl.Game()
	if u.learn.train != nil {
		prev = u.learn.train.prev
	}
	u.learn.train = &training{v: v, run: run, prev: prev}
	for col := muehle.White; col <= muehle.Black; col++ {
		u.ctrl.SetPlayer(col, nil)
	}
	u.showExercise(false)
}

// showExercise puts the current position of the training on the board:
// unanswered when again is set (Try Again), else with the answer recorded
// for it, if any.
func (u *App) showExercise(again bool) {
	tr := u.learn.train
	tr.gen++
	tr.checking = false
	tr.shown = nil
	if a, ok := tr.run.Answer(); ok && !again {
		tr.shown = &a
	}
	u.learn.walk = nil
	g, err := muehle.NewGameFrom(tr.run.Current().Pos, tr.v.Stones)
	if err != nil {
		u.ctrl.Say("Training: %v", err)
		return
	}
	u.ctrl.SetGame(g)
	if u.treeWin != nil {
		u.treeWin.search() // it shows nothing while the answer is hidden
	}
}

// trainingGo shows position i of the training.
func (u *App) trainingGo(i int) {
	if u.learn.train != nil && u.learn.train.run.Go(i) {
		u.showExercise(false)
	}
}

// endTraining brings back the game and the players from before training.
func (u *App) endTraining() {
	tr := u.learn.train
	if tr == nil {
		return
	}
	u.learn.train, u.learn.walk = nil, nil
	u.ctrl.SetGame(tr.prev)
	for col := muehle.White; col <= muehle.Black; col++ {
		u.setPlayer(col, u.specs[col])
	}
}

// trainingHides reports whether the window hides what the database says
// (the marks, the value, the table of moves, the value in the state
// number, the hint, the search tree, the verdict of an earlier try): in
// training, until the position on the board has been answered, again
// after Try Again.
func (u *App) trainingHides() bool {
	tr := u.learn.train
	return tr != nil && tr.shown == nil
}

// hiddenText is what the side panel says in place of the database's
// verdict while training hides it.
const hiddenText = "Training: the perfect-move marks, the database's verdict and the table of moves " +
	"stay hidden until you have answered."

// trainingMoved checks a person's move from the training position on the
// board as the answer, in the background; the first answer counts. On a
// wrong answer the refutation opens on the board.
func (u *App) trainingMoved(ev game.Event) {
	tr := u.learn.train
	if tr == nil || ev.Move.To == muehle.NoPoint || ev.Computer || tr.checking {
		return
	}
	g, e := u.ctrl.Game(), tr.run.Current()
	if tr.shown != nil || g.Ply() != 1 || g.Start() != e.Pos || g.History()[0] != ev.Move {
		return
	}
	t, ok := u.engines.(trainer)
	if !ok {
		return
	}
	tr.checking = true
	gen, m := tr.gen, ev.Move
	go func() {
		a, err := t.CheckAnswer(tr.v, e.Pos, m)
		u.do(func() {
			if u.learn.train != tr || tr.gen != gen {
				return // another position, or training ended
			}
			tr.checking = false
			if err != nil {
				u.ctrl.Say("Training: %v", err)
				return
			}
			tr.run.Record(a) // the first answer counts; a later try is only shown
			tr.shown = &a
			if !a.Right && len(a.Refutation) > 0 {
				u.openWalk(refutationTitle(e.Pos, a.Mover, a.Move, a.After), e.Pos.Play(a.Move), a.Refutation)
				return
			}
			u.changed(eventNone)
		})
	}()
}

// trainingPanel is the bar above the side panel in training mode.
type trainingPanel struct {
	task, verdict, score   *widget.Label
	prev, next, again, end *widget.Button
	box                    *fyne.Container
}

func newTrainingPanel(u *App) *trainingPanel {
	p := &trainingPanel{task: widget.NewLabel(""), verdict: widget.NewLabel(""), score: widget.NewLabel("")}
	p.task.Wrapping = fyne.TextWrapWord
	p.task.TextStyle.Bold = true
	p.verdict.Wrapping = fyne.TextWrapWord
	p.score.Importance = widget.LowImportance
	p.score.Wrapping = fyne.TextWrapWord
	p.prev = widget.NewButton("◀ Previous", func() {
		if u.learn.train != nil {
			u.trainingGo(u.learn.train.run.Index() - 1)
		}
	})
	p.next = widget.NewButton("Next ▶", func() {
		if u.learn.train != nil {
			u.trainingGo(u.learn.train.run.Index() + 1)
		}
	})
	p.again = widget.NewButton("Try Again", func() {
		if u.learn.train != nil {
			u.showExercise(true)
		}
	})
	p.end = widget.NewButton("End Training", u.endTraining)
	// Two buttons a row: the bar stays narrow beside the board in a small window.
	p.box = container.NewVBox(p.task, p.verdict, container.NewGridWithColumns(2, p.prev, p.next, p.again, p.end), p.score, widget.NewSeparator())
	p.box.Hide()
	return p
}

// update shows the state of tr, or hides the bar when tr is nil.
func (p *trainingPanel) update(tr *training) {
	if tr == nil {
		if p.box.Visible() {
			p.box.Hide()
		}
		return
	}
	r := tr.run
	task := "Training. " + r.Task() + " Play your move on the board."
	if tr.shown == nil {
		task += " The marks and the database's verdict stay hidden until you have answered."
	}
	p.task.SetText(task)
	switch a := tr.shown; {
	case tr.checking:
		p.verdict.SetText("Asking the database…")
		p.verdict.Importance = widget.MediumImportance
	case a != nil:
		p.verdict.SetText(tryVerdict(r, *a))
		p.verdict.Importance = widget.SuccessImportance
		if !a.Right {
			p.verdict.Importance = widget.DangerImportance
		}
	default:
		p.verdict.SetText("")
	}
	showIf(p.verdict, p.verdict.Text != "") // an empty verdict takes no line
	p.verdict.Refresh()
	right, wrong := r.Score()
	p.score.SetText(fmt.Sprintf("Seed %d, %s stones on the board, difficulty %s: %d right, %d wrong of %d.",
		r.Options.Seed, onBoardText(r.Options.Layers), r.Options.Band, right, wrong, r.Len()))
	setEnabled(p.prev, r.Index() > 0)
	setEnabled(p.next, r.Index() < r.Len()-1)
	if !p.box.Visible() {
		p.box.Show()
	}
}

// tryVerdict is the verdict on a, the answer to the position on the board:
// the run's for the answer it recorded, else that of a later try, which
// does not count.
func tryVerdict(r *teach.TrainingRun, a teach.Answer) string {
	if first, ok := r.Answer(); ok && first.Move == a.Move {
		return r.Verdict()
	}
	pos := r.Current().Pos
	move := pos.Board().MoveString(a.Move)
	s := fmt.Sprintf("Another try: %s keeps the value (%s).", move, a.After)
	if !a.Right {
		s = fmt.Sprintf("Another try: %s gives up the value: %s for %s after it.", move, a.After, a.Mover)
		if len(a.Refutation) > 0 {
			s += " Its refutation is on the board."
		}
	}
	return s + " The first answer counts for the score."
}

// onBoardText says how many stones the layers ks have on the board: one
// number, or "any".
func onBoardText(ks []layers.Key) string {
	n := -1
	for _, k := range ks {
		switch t := int(k.W + k.B); {
		case n == -1:
			n = t
		case n != t:
			return "any"
		}
	}
	if n < 0 {
		return "any"
	}
	return strconv.Itoa(n)
}
