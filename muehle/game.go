package muehle

import (
	"errors"
	"fmt"
	"slices"
)

// Result is the state of a game: still running, won by a side, or drawn.
type Result uint8

// The results of a game.
const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
)

// String returns a short name of the result.
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "White wins"
	case BlackWins:
		return "Black wins"
	case Draw:
		return "Draw"
	case Ongoing:
		return "Ongoing"
	}
	return fmt.Sprintf("Result(%d)", r)
}

// ErrIllegalMove is wrapped by the error of Game.Play for a move that is not legal.
var ErrIllegalMove = errors.New("muehle: illegal move")

// ErrGameOver is wrapped by the error of Game.Play when the game has ended.
var ErrGameOver = errors.New("muehle: game over")

// Game is a game in progress: a start position, the moves played since, the
// moves undone (for redo), and the optional draw rule. Its zero value is
// not usable; make one with NewGame or NewGameFrom.
type Game struct {
	stones    int
	positions []Position // positions[0] is the start; positions[i+1] follows moves[i]
	moves     []Move
	redo      []Move // undone moves, the next one to redo last

	// NoRemovalLimit, when positive, draws the game after that many plies
	// in a row without a removal. The database does not know this rule.
	NoRemovalLimit int
}

// NewGame returns a game of the standard rules from the empty board with k
// stones per side, k from 3 to 9 (StonesPerSide is the standard game).
func NewGame(k int) *Game {
	return &Game{stones: k, positions: []Position{NewPosition(k)}}
}

// NewGame returns a game of r from the empty board with k stones per side,
// k from 3 to r.Stones.
func (r *Rules) NewGame(k int) *Game {
	return &Game{stones: k, positions: []Position{r.NewPosition(k)}}
}

// NewGameFrom returns a game of k stones per side that starts from p, under
// p's rules.
func NewGameFrom(p Position, k int) (*Game, error) {
	if err := p.Validate(k); err != nil {
		return nil, err
	}
	return &Game{stones: k, positions: []Position{p}}, nil
}

// Clone returns an independent copy of g, for a player running in another goroutine.
func (g *Game) Clone() *Game {
	c := *g
	c.positions = slices.Clone(g.positions)
	c.moves = slices.Clone(g.moves)
	c.redo = slices.Clone(g.redo)
	return &c
}

// Stones returns the number of stones per side.
func (g *Game) Stones() int { return g.stones }

// Rules returns the rule set of the game.
func (g *Game) Rules() *Rules { return g.positions[0].Rules() }

// Start returns the start position.
func (g *Game) Start() Position { return g.positions[0] }

// Position returns the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// History returns the moves played from the start to the current position.
func (g *Game) History() []Move { return slices.Clone(g.moves) }

// Positions returns the positions from the start to the current one.
func (g *Game) Positions() []Position { return slices.Clone(g.positions) }

// Ply returns the number of moves played.
func (g *Game) Ply() int { return len(g.moves) }

// LegalMoves returns the legal moves, none when the game is over.
func (g *Game) LegalMoves() []Move {
	if r, _ := g.Result(); r != Ongoing {
		return nil
	}
	p := g.Position()
	return p.Moves()
}

// Play plays m if it is legal, clearing the moves that could be redone.
// An illegal move leaves g unchanged and returns an error wrapping
// ErrIllegalMove that says why (see Position.CheckMove); a move after the
// end returns one wrapping ErrGameOver.
func (g *Game) Play(m Move) error {
	if r, why := g.Result(); r != Ongoing {
		return fmt.Errorf("%w: %s (%s)", ErrGameOver, r, why)
	}
	p := g.Position()
	if err := p.CheckMove(m); err != nil {
		return err
	}
	g.push(m)
	g.redo = g.redo[:0]
	return nil
}

func (g *Game) push(m Move) {
	g.positions = append(g.positions, g.Position().Play(m))
	g.moves = append(g.moves, m)
}

// CanUndo reports whether a move can be taken back.
func (g *Game) CanUndo() bool { return len(g.moves) > 0 }

// CanRedo reports whether an undone move can be played again.
func (g *Game) CanRedo() bool { return len(g.redo) > 0 }

// Undo takes back the last move and reports whether there was one.
func (g *Game) Undo() bool {
	if !g.CanUndo() {
		return false
	}
	n := len(g.moves) - 1
	g.redo = append(g.redo, g.moves[n])
	g.moves = g.moves[:n]
	g.positions = g.positions[:n+1]
	return true
}

// Redo plays the last undone move again and reports whether there was one.
func (g *Game) Redo() bool {
	if !g.CanRedo() {
		return false
	}
	n := len(g.redo) - 1
	g.push(g.redo[n])
	g.redo = g.redo[:n]
	return true
}

// UndoTurn takes back moves until a person is to move again: the last
// move, and the computer's reply to it, where person reports which sides
// are played by people. When no side is, it takes back one move. When it
// reaches the start with a computer to move (the computer opened), it plays
// the moves again up to the first position with the person to move. It
// returns the number of moves taken back; 0 means nothing changed.
func (g *Game) UndoTurn(person func(Color) bool) int {
	n := g.stepTurn(g.Undo, person)
	for n > 0 && hasPerson(person) && !person(g.Position().Turn) && g.Redo() {
		n--
	}
	return n
}

// RedoTurn plays undone moves again until a person is to move (see
// UndoTurn), or one move when no side is played by a person, and returns
// how many it played.
func (g *Game) RedoTurn(person func(Color) bool) int {
	return g.stepTurn(g.Redo, person)
}

// stepTurn calls step (Undo or Redo) until it fails or a person is to
// move, once when no side is a person, and returns how often it succeeded.
func (g *Game) stepTurn(step func() bool, person func(Color) bool) int {
	n := 0
	for step() {
		n++
		if !hasPerson(person) || person(g.Position().Turn) {
			break
		}
	}
	return n
}

// hasPerson reports whether person reports either side.
func hasPerson(person func(Color) bool) bool { return person(White) || person(Black) }

// Repetitions returns how often the current position has occurred so far,
// counting itself (board, side to move and stones in hand).
func (g *Game) Repetitions() int {
	cur := g.Position()
	n := 0
	for _, p := range g.positions {
		if p == cur {
			n++
		}
	}
	return n
}

// Result returns the state of the game and, when it has ended, the reason.
func (g *Game) Result() (Result, string) {
	p := g.Position()
	c := p.Turn
	win := WhiteWins
	if c == White {
		win = BlackWins
	}
	if r := p.Rules(); r.Lost(p.Total(c)) {
		return win, fmt.Sprintf("%s has fewer than %s stones", c, numberWord(r.LoseBelow))
	}
	if p.IsDrawn() {
		return Draw, "the board is full"
	}
	if p.Hand[c] == 0 && p.Blocked() {
		return win, fmt.Sprintf("%s cannot move", c)
	}
	if g.Repetitions() >= 3 {
		return Draw, "the same position occurred three times"
	}
	if g.NoRemovalLimit > 0 {
		n := 0
		for i := len(g.moves) - 1; i >= 0 && !g.moves[i].IsRemoval(); i-- {
			n++
		}
		if n >= g.NoRemovalLimit {
			return Draw, fmt.Sprintf("%d moves without a removal", n)
		}
	}
	return Ongoing, ""
}
