package game

import (
	"context"
	"fmt"
	"slices"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// Event tells the window what changed: after a move, the move itself (to
// animate it) and who played it; after undo, redo, a new game or a new
// position, no move.
type Event struct {
	Move     muehle.Move // Move.To == NoPoint: no move to animate
	Mover    muehle.Color
	Computer bool // the move was chosen by a computer player
}

// Controller runs a game between two players, each a person at the board
// (nil) or a computer player. The window calls it on the UI thread only;
// computer moves and perfect-move evaluations run in goroutines with a
// cancellable context and come back through do, tagged with the game
// generation, so that a result for a position that is no longer on the board
// is dropped.
type Controller struct {
	game    *muehle.Game
	players [2]muehle.Player
	speed   time.Duration

	sel     muehle.Point // the stone picked up, or NoPoint
	pending muehle.Move  // a move waiting for its removal; To == NoPoint for none
	status  string       // an explanation that overrides the default status

	gen      uint64             // incremented on every change of the game
	cancel   context.CancelFunc // stops the running computer move and evaluation
	thinking bool
	aiDone   chan struct{} // closed when the last computer-move goroutine ends

	evaluator   Evaluator
	showPerfect bool
	marks       []MoveMark // the evaluated moves of the current position, best first
	evalErr     error
	evaluating  bool
	fellBack    [2]string // per side: why its last computer move did not come from the database

	do func(func()) // runs a function on the UI thread

	// OnChange is called after every change; the window redraws the board
	// and the panels.
	OnChange func(Event)
}

// NewController returns a controller for a new game of nine stones between
// two people. do runs a function on the UI thread (fyne.Do in the program).
func NewController(do func(func())) *Controller {
	c := &Controller{
		game:    muehle.NewGame(muehle.StonesPerSide),
		speed:   500 * time.Millisecond,
		sel:     muehle.NoPoint,
		pending: muehle.NoMove,
		do:      do,
	}
	return c
}

// Game returns the game. Callers must not change it; they read it to draw.
func (c *Controller) Game() *muehle.Game { return c.game }

// Player returns the player of side col, nil for a person.
func (c *Controller) Player(col muehle.Color) muehle.Player { return c.players[col] }

// Thinking reports whether a computer player is choosing a move.
func (c *Controller) Thinking() bool { return c.thinking }

// Speed returns the time a computer move takes at least, and the time its
// stone travels.
func (c *Controller) Speed() time.Duration { return c.speed }

// SetSpeed sets the move speed.
func (c *Controller) SetSpeed(d time.Duration) { c.speed = d }

// SetPlayer makes p (nil: a person) play side col and restarts the
// computer's thinking if it is that side's turn.
func (c *Controller) SetPlayer(col muehle.Color, p muehle.Player) {
	c.players[col] = p
	c.restart(Event{Move: muehle.NoMove})
}

// SetPerfect turns the perfect-move marks on (from e) or off.
func (c *Controller) SetPerfect(e Evaluator, on bool) {
	c.evaluator, c.showPerfect = e, on && e != nil
	c.restart(Event{Move: muehle.NoMove})
}

// ShowPerfect reports whether perfect-move marks are on.
func (c *Controller) ShowPerfect() bool { return c.showPerfect }

// Evaluating reports whether the perfect-move marks are being computed.
func (c *Controller) Evaluating() bool { return c.evaluating }

// Marks returns the evaluated moves of the current position, best first,
// and the error of the evaluation, if any.
func (c *Controller) Marks() ([]MoveMark, error) { return c.marks, c.evalErr }

// NewGame starts a new game of nine stones.
func (c *Controller) NewGame() {
	c.game = muehle.NewGame(muehle.StonesPerSide)
	c.fellBack = [2]string{}
	c.restart(Event{Move: muehle.NoMove})
}

// SetGame continues with g (a loaded game or a set-up position).
func (c *Controller) SetGame(g *muehle.Game) {
	c.game = g
	c.fellBack = [2]string{}
	c.restart(Event{Move: muehle.NoMove})
}

// Close stops the computer's thinking; the window calls it when it closes.
func (c *Controller) Close() {
	c.gen++
	c.stop()
}

// Undo takes back the last move; against a computer, also the computer's
// reply, so that the person is to move again (muehle.Game.UndoTurn).
func (c *Controller) Undo() {
	if c.game.UndoTurn(c.isPerson) == 0 {
		c.Say("There is no move to undo.")
		return
	}
	c.restart(Event{Move: muehle.NoMove})
}

// Redo plays the last undone move again; against a computer, also the
// computer's reply that was undone with it.
func (c *Controller) Redo() {
	if c.game.RedoTurn(c.isPerson) == 0 {
		c.Say("There is no move to redo.")
		return
	}
	c.restart(Event{Move: muehle.NoMove})
}

func (c *Controller) isComputer(col muehle.Color) bool { return c.players[col] != nil }

func (c *Controller) isPerson(col muehle.Color) bool { return c.players[col] == nil }

// Say sets an explanation in the status line and redraws.
func (c *Controller) Say(format string, args ...any) {
	c.status = fmt.Sprintf(format, args...)
	c.notify(Event{Move: muehle.NoMove})
}

func (c *Controller) notify(ev Event) {
	if c.OnChange != nil {
		c.OnChange(ev)
	}
}

// stop cancels the running computer move and evaluation.
func (c *Controller) stop() {
	if c.cancel != nil {
		c.cancel()
		c.cancel = nil
	}
	c.thinking = false
	c.evaluating = false
}

// restart is called after every change of the game: it forgets the half-made
// move and the old marks, drops running work, starts the computer if it is to
// move and the evaluation if marks are on, and redraws.
func (c *Controller) restart(ev Event) {
	c.gen++
	c.stop()
	c.sel, c.pending, c.status = muehle.NoPoint, muehle.NoMove, ""
	c.marks, c.evalErr = nil, nil
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	c.startComputer(ctx)
	c.startEvaluation(ctx)
	c.notify(ev)
}

// startComputer lets the computer player of the side to move, if any,
// choose a move in a goroutine.
func (c *Controller) startComputer(ctx context.Context) {
	if r, _ := c.game.Result(); r != muehle.Ongoing {
		return
	}
	turn := c.game.Position().Turn
	p := c.players[turn]
	if p == nil {
		return
	}
	gen, g, delay, prev := c.gen, c.game.Clone(), c.speed, c.aiDone
	done := make(chan struct{})
	c.aiDone, c.thinking = done, true
	go func() {
		defer close(done)
		if prev != nil {
			<-prev // a player is never asked twice at once
		}
		start := time.Now()
		m, err := p.Move(ctx, g)
		why := fallbackReason(p)
		if err == nil {
			sleep(ctx, delay-time.Since(start))
		}
		if ctx.Err() != nil {
			return
		}
		c.do(func() { c.computerMoved(gen, turn, m, why, err) })
	}()
}

// computerMoved plays the move a computer chose, unless the game has
// changed since it started thinking.
func (c *Controller) computerMoved(gen uint64, turn muehle.Color, m muehle.Move, why string, err error) {
	if gen != c.gen {
		return
	}
	c.thinking = false
	name := c.players[turn].Name()
	if err != nil {
		c.Say("%s (%s) could not move: %v", turn, name, err)
		return
	}
	if err := c.game.Play(m); err != nil {
		c.Say("%s (%s) chose a bad move: %v", turn, name, err)
		return
	}
	c.fellBack[turn] = ""
	if why != "" {
		c.fellBack[turn] = fmt.Sprintf("%s (%s) played its last move outside the database: %s", turn, name, why)
	}
	c.restart(Event{Move: m, Mover: turn, Computer: true})
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// startEvaluation computes the perfect-move marks in a goroutine.
func (c *Controller) startEvaluation(ctx context.Context) {
	if !c.showPerfect || c.evaluator == nil {
		return
	}
	if r, _ := c.game.Result(); r != muehle.Ongoing {
		return
	}
	gen, pos, e := c.gen, c.game.Position(), c.evaluator
	c.evaluating = true
	go func() {
		marks, err := e.Evaluate(ctx, pos)
		if ctx.Err() != nil {
			return
		}
		c.do(func() {
			if gen != c.gen {
				return
			}
			c.evaluating = false
			slices.SortStableFunc(marks, func(a, b MoveMark) int {
				switch {
				case a.Value.Better(b.Value):
					return -1
				case b.Value.Better(a.Value):
					return 1
				}
				return 0
			})
			c.marks, c.evalErr = marks, err
			c.notify(Event{Move: muehle.NoMove})
		})
	}()
}

// Tap handles a tap on point p by the person to move: place, pick up a
// stone, move it, or remove an opponent stone after a mill. An illegal tap
// changes nothing and explains itself in the status line.
func (c *Controller) Tap(p muehle.Point) {
	if r, why := c.game.Result(); r != muehle.Ongoing {
		c.Say("The game is over: %s, %s. Game ▸ New starts another.", r, why)
		return
	}
	pos := c.game.Position()
	me, opp := pos.Turn, pos.Turn.Other()
	if c.isComputer(me) {
		c.Say("It is %s's turn (%s); please wait.", me, c.players[me].Name())
		return
	}
	moves := pos.Moves()
	if c.pending.To != muehle.NoPoint {
		c.tapRemoval(pos, moves, p)
		return
	}
	switch {
	case pos.Phase() == muehle.Placing:
		if !pos.Empty().Has(p) {
			c.Say("%s is occupied: place your stone on an empty point.", p)
			return
		}
		c.choose(me, filter(moves, muehle.NoPoint, p))
	case pos.Stones[me].Has(p):
		if len(filter(moves, p, muehle.NoPoint)) == 0 {
			c.Say("The stone on %s cannot move: no empty point next to it.", p)
			return
		}
		if c.sel == p {
			c.sel = muehle.NoPoint
		} else {
			c.sel = p
		}
		c.status = ""
		c.notify(Event{Move: muehle.NoMove})
	case pos.Stones[opp].Has(p):
		c.Say("%s is a %s stone: pick up one of your own (%s).", p, opp, me)
	case c.sel == muehle.NoPoint:
		c.Say("First pick up one of your stones, then tap where it goes.")
	default:
		ms := filter(moves, c.sel, p)
		if len(ms) == 0 {
			c.Say("%s is not next to %s: a stone slides along a line to a neighbouring point (it may jump only when its side has three stones left).", p, c.sel)
			return
		}
		c.choose(me, ms)
	}
}

// tapRemoval handles a tap while a move waits for the stone it removes.
func (c *Controller) tapRemoval(pos muehle.Position, moves []muehle.Move, p muehle.Point) {
	me, opp := pos.Turn, pos.Turn.Other()
	for _, m := range moves {
		if m.From == c.pending.From && m.To == c.pending.To && m.Remove == p {
			c.play(me, m)
			return
		}
	}
	switch {
	case p == c.pending.To || p == c.pending.From:
		c.pending, c.sel, c.status = muehle.NoMove, muehle.NoPoint, ""
		c.notify(Event{Move: muehle.NoMove})
	case pos.Stones[opp].Has(p):
		c.Say("The %s stone on %s is in a mill: remove one that is not (stones in a mill may be taken only when all are).", opp, p)
	default:
		c.Say("Your mill is closed: tap a %s stone to remove it (tap your stone on %s to take the move back).", opp, c.pending.To)
	}
}

// choose plays the only candidate, or waits for the removal when the
// candidates differ only by the stone they remove.
func (c *Controller) choose(me muehle.Color, ms []muehle.Move) {
	switch {
	case len(ms) == 0:
		c.Say("That move is not legal here.")
	case len(ms) == 1 && !ms[0].IsRemoval():
		c.play(me, ms[0])
	default:
		c.pending = muehle.Move{From: ms[0].From, To: ms[0].To, Remove: muehle.NoPoint}
		c.sel = muehle.NoPoint
		c.status = ""
		c.notify(Event{Move: muehle.NoMove})
	}
}

func (c *Controller) play(me muehle.Color, m muehle.Move) {
	if err := c.game.Play(m); err != nil {
		c.Say("%v", err)
		return
	}
	c.restart(Event{Move: m, Mover: me})
}

// filter returns the moves from from (NoPoint: any origin or a placement)
// to to (NoPoint: any target).
func filter(ms []muehle.Move, from, to muehle.Point) []muehle.Move {
	var out []muehle.Move
	for _, m := range ms {
		if (from == muehle.NoPoint || m.From == from) && (to == muehle.NoPoint || m.To == to) {
			out = append(out, m)
		}
	}
	return out
}

// View returns what the board should show now.
func (c *Controller) View() View {
	pos := c.game.Position()
	v := EmptyView(pos)
	if h := c.game.History(); len(h) > 0 {
		v.Last = h[len(h)-1]
	}
	v.Selected = c.sel
	over := false
	if r, _ := c.game.Result(); r != muehle.Ongoing {
		over = true
	}
	human := !over && !c.isComputer(pos.Turn)
	moves := pos.Moves()
	if over {
		moves = nil
	}
	// key returns the target of a move under the current half-made move,
	// or NoPoint when the move does not fit it.
	var key func(m muehle.Move) muehle.Point
	switch {
	case c.pending.To != muehle.NoPoint:
		v.Pos = pos.Play(c.pending)
		v.Pos.Turn = pos.Turn
		v.Removing = true
		key = func(m muehle.Move) muehle.Point {
			if m.From == c.pending.From && m.To == c.pending.To {
				return m.Remove
			}
			return muehle.NoPoint
		}
	case pos.Phase() == muehle.Placing:
		key = func(m muehle.Move) muehle.Point { return m.To }
	case c.sel != muehle.NoPoint:
		key = func(m muehle.Move) muehle.Point {
			if m.From == c.sel {
				return m.To
			}
			return muehle.NoPoint
		}
	default:
		key = func(m muehle.Move) muehle.Point { return m.From }
	}
	// Every empty point takes a placement: marking them all would say nothing.
	placing := c.pending.To == muehle.NoPoint && pos.Phase() == muehle.Placing
	if human && !placing {
		for _, m := range moves {
			if k := key(m); k != muehle.NoPoint {
				v.Targets |= k.Bit()
			}
		}
	}
	if c.showPerfect && len(c.marks) > 0 {
		v.Marks = map[muehle.Point]layers.Value{}
		for _, mm := range c.marks {
			k := key(mm.Move)
			if k == muehle.NoPoint {
				continue
			}
			if old, ok := v.Marks[k]; !ok || mm.Value.Better(old) {
				v.Marks[k] = mm.Value
			}
		}
	}
	return v
}

// Status returns the line that tells the person what to do or why a tap
// was refused.
func (c *Controller) Status() string {
	if c.status != "" {
		return c.status
	}
	if r, why := c.game.Result(); r != muehle.Ongoing {
		return fmt.Sprintf("%s: %s.", r, why)
	}
	pos := c.game.Position()
	me, opp := pos.Turn, pos.Turn.Other()
	if p := c.players[me]; p != nil {
		s := fmt.Sprintf("%s (%s) is thinking…", me, p.Name())
		if c.fellBack[me] != "" {
			s += " " + c.fellBack[me] + "."
		}
		return s
	}
	prefix := ""
	if c.fellBack[opp] != "" {
		prefix = c.fellBack[opp] + ". "
	}
	switch {
	case c.pending.To != muehle.NoPoint:
		return prefix + fmt.Sprintf("%s closed a mill: tap a %s stone to remove it.", me, opp)
	case pos.Phase() == muehle.Placing:
		return prefix + fmt.Sprintf("%s to move: tap an empty point to place a stone (%d in hand).", me, pos.Hand[me])
	case c.sel != muehle.NoPoint && pos.Phase() == muehle.Flying:
		return prefix + fmt.Sprintf("%s to move: tap any empty point for the stone on %s to jump to.", me, c.sel)
	case c.sel != muehle.NoPoint:
		return prefix + fmt.Sprintf("%s to move: tap a marked point for the stone on %s.", me, c.sel)
	case pos.Phase() == muehle.Flying:
		return prefix + fmt.Sprintf("%s to move: three stones left, they may jump. Pick one up.", me)
	}
	return prefix + fmt.Sprintf("%s to move: pick up a stone to slide it.", me)
}
