package game

import (
	"context"
	"fmt"
	"slices"
	"time"

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
	hand    bool         // a stone in hand is chosen (a game whose phases mix): the next tap places it
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
	fellBack    [2]fellBack // per side: why its last computer move did not come from the database

	paused     bool         // the computer players wait
	stepping   bool         // while paused, one computer move is allowed
	review     int          // the ply shown while reviewing; -1: the end of the game
	reviewGame *muehle.Game // the game up to the reviewed ply, nil when not reviewing

	do func(func()) // runs a function on the UI thread

	// OnChange is called after every change; the window redraws the board
	// and the panels.
	OnChange func(Event)

	// OnBranch, when set, is asked before a move played on an earlier
	// position (while reviewing) drops the later moves of the game; it
	// calls play to go ahead, or nothing to keep the game. When nil, the
	// move is played at once.
	OnBranch func(m muehle.Move, later int, play func())
}

// fellBack is why a computer player's move did not come from the
// database, and the ply of the game after that move.
type fellBack struct {
	why string
	ply int
}

// fellBackNote returns why the last move of the game, if side col made it,
// did not come from the database; "" otherwise: an older move's reason
// (a placement search's, say, after moves of the moving phase) is stale.
func (c *Controller) fellBackNote(col muehle.Color) string {
	f := c.fellBack[col]
	if f.why == "" || f.ply != c.game.Ply() || c.Reviewing() {
		return ""
	}
	return f.why
}

// NewController returns a controller for a new game of nine stones between
// two people. do runs a function on the UI thread (fyne.Do in the program).
func NewController(do func(func())) *Controller {
	c := &Controller{
		game:    muehle.NewGame(muehle.StonesPerSide),
		speed:   500 * time.Millisecond,
		sel:     muehle.NoPoint,
		pending: muehle.NoMove,
		review:  -1,
		do:      do,
	}
	return c
}

// Game returns the game. Callers must not change it; they read it to draw.
func (c *Controller) Game() *muehle.Game { return c.game }

// Variant returns the variant of the game: its rules and stones per side.
func (c *Controller) Variant() muehle.Variant { return VariantOf(c.game) }

// VariantOf returns the variant of g: its rules and stones per side.
func VariantOf(g *muehle.Game) muehle.Variant { return g.Rules().Game().With(g.Stones()) }

// Position returns the position whose moves the board offers: the game's,
// or the reviewed one; with a removal pending, the position before the
// move that closed the mill (View.Pos shows that move made).
func (c *Controller) Position() muehle.Position { return c.current().Position() }

// Current returns the game up to the position on the board: the game, or
// while reviewing its beginning up to the reviewed ply. Callers must not
// change it.
func (c *Controller) Current() *muehle.Game { return c.current() }

// Pending returns the move that closed a mill and waits for the stone it
// removes; To == NoPoint when there is none.
func (c *Controller) Pending() muehle.Move { return c.pending }

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

// SetPerfect sets the source of the perfect-move marks (nil: none) and
// whether the board shows them; with e set, a reviewed position is
// evaluated even when the marks are off.
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

// NewGame starts a new game of variant v: its rules, with v.Stones stones
// a side.
func (c *Controller) NewGame(v muehle.Variant) {
	limit := c.game.NoRemovalLimit
	c.game = v.Rules().NewGame(v.Stones)
	c.game.NoRemovalLimit = limit
	c.fellBack = [2]fellBack{}
	c.paused, c.stepping = false, false // a new game starts with its players moving
	c.endReview()
	c.restart(Event{Move: muehle.NoMove})
}

// SetNoRemovalLimit sets the draw rule of the game and of new games:
// after n moves in a row without a removal the game is drawn (0: off).
func (c *Controller) SetNoRemovalLimit(n int) {
	c.game.NoRemovalLimit = max(0, n)
	c.restart(Event{Move: muehle.NoMove})
}

// SetGame continues with g (a loaded game or a set-up position).
func (c *Controller) SetGame(g *muehle.Game) {
	c.game = g
	c.fellBack = [2]fellBack{}
	c.endReview()
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
	c.endReview()
	if c.game.UndoTurn(c.isPerson) == 0 {
		c.Say("There is no move to undo.")
		return
	}
	c.restart(Event{Move: muehle.NoMove})
}

// Redo plays the last undone move again; against a computer, also the
// computer's reply that was undone with it.
func (c *Controller) Redo() {
	c.endReview()
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
	c.sel, c.hand, c.pending, c.status = muehle.NoPoint, false, muehle.NoMove, ""
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
	if p == nil || c.Reviewing() || (c.paused && !c.stepping) {
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
		why := FallbackReason(p)
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
	c.thinking, c.stepping = false, false
	name := c.players[turn].Name()
	if err != nil {
		c.Say("%s (%s) could not move: %v", turn, name, err)
		return
	}
	if err := c.game.Play(m); err != nil {
		c.Say("%s (%s) chose a bad move: %v", turn, name, err)
		return
	}
	c.fellBack[turn] = fellBack{}
	if why != "" {
		c.fellBack[turn] = fellBack{
			why: fmt.Sprintf("%s (%s) played its last move outside the database: %s", turn, name, why),
			ply: c.game.Ply(),
		}
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

// startEvaluation computes the perfect-move marks in a goroutine: when
// they are shown, and while reviewing, for the verdict of the position.
func (c *Controller) startEvaluation(ctx context.Context) {
	if c.evaluator == nil || !c.showPerfect && !c.Reviewing() {
		return
	}
	if r, _ := c.current().Result(); r != muehle.Ongoing {
		return
	}
	gen, pos, e := c.gen, c.current().Position(), c.evaluator
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
