package muehle

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// GameID names a rule set. A Position carries one in its Game field; the
// zero value is the standard game, so that a Position made without naming a
// game is one of Nine Men's Morris. The numbers are permanent: a database
// file names its game by GameID+1 (layers.RulesID), so a game keeps its
// number whatever the order of Games, and a new game takes a new one.
type GameID uint8

// The games by their permanent numbers.
const (
	Standard   GameID = 0  // Nine Men's Morris
	Twelve     GameID = 1  // Twelve Men's Morris
	Lasker     GameID = 2  // Lasker Morris
	Six        GameID = 3  // Six Men's Morris, without flying
	Three      GameID = 4  // Three Men's Morris, the board with diagonals
	ThreePlain GameID = 5  // Three Men's Morris on the board without diagonals
	Five       GameID = 6  // Five Men's Morris, without flying
	FiveFlying GameID = 7  // Five Men's Morris with flying
	SixFlying  GameID = 8  // Six Men's Morris with flying
	Ten        GameID = 9  // Ten Men's Morris
	Eleven     GameID = 10 // Eleven Men's Morris
)

// Rules is a rule set as data: the board, the stones per side and the
// rules in which the games of the family differ (docs/rules.md names the
// source of each). Everything in this package reads a
// position's rules through its Game field; docs/rules.md describes each
// entry of Games. The entries are shared: never change them.
type Rules struct {
	// ID is the short name used in text: position text, the [Variant]
	// header of a game record, the command line ("standard", "twelve",
	// "lasker", "six").
	ID string
	// Name is the game's name for a person, e.g. "Twelve Men's Morris".
	Name string
	// Board is the board the game is played on.
	Board *Board
	// Stones is the number of stones each side starts with. Smaller games,
	// from 3 stones a side up, use the same rules.
	Stones int
	// FlyAt: a side with at most this many stones, counting those on the
	// board and in hand, moves a stone to any empty point instead of
	// along a line (as Malom counts them; in the games with separate
	// phases a side moves only with an empty hand, so the count is the
	// board's). 3 in Nine Men's Morris; 0 in a game without flying.
	FlyAt int
	// LoseBelow: a side with fewer stones on the board and in hand has
	// lost. 3 in every game of Games: a mill that leaves the opponent two
	// stones wins.
	LoseBelow int
	// TakeFromMills: a mill may take any stone of the opponent's. Without
	// it (every game of Games, the rule of Gasser and Malom) a stone in a
	// mill of the opponent's is protected while the opponent has a stone
	// outside its mills.
	TakeFromMills bool
	// DoubleMillRemoves is the number of stones a move that closes two
	// mills at once removes: 1 in every game of Games. The move generators
	// remove one stone per move; Check refuses another number, and an
	// entry of Games it refuses names no game (CheckGames).
	DoubleMillRemoves int
	// FullBoardDraw: a position in which every point holds a stone (in
	// Twelve Men's Morris only the one after the last placement, when no
	// placement closed a mill) is drawn, not lost for the side to move.
	FullBoardDraw bool
	// Mixed: there is no separate placement phase. While a side has
	// stones in hand it may place one or move a stone on the board (Lasker
	// Morris); otherwise a side with stones in hand must place.
	Mixed bool

	// game is the entry's permanent number (GameID); Game returns it.
	game GameID
}

// Games lists the rule sets, each with its permanent GameID, in the order
// of the numbers (for menus and help; nothing stored depends on the order,
// TestGamesOrder, and code reaches a game by GameID.Rules, not by its
// place here).
var Games = []*Rules{
	{game: Standard, ID: "standard", Name: "Nine Men's Morris", Board: StandardBoard, Stones: StonesPerSide, FlyAt: 3, LoseBelow: 3, DoubleMillRemoves: 1},
	{game: Twelve, ID: "twelve", Name: "Twelve Men's Morris", Board: DiagonalBoard, Stones: 12, FlyAt: 3, LoseBelow: 3, DoubleMillRemoves: 1, FullBoardDraw: true},
	{game: Lasker, ID: "lasker", Name: "Lasker Morris", Board: StandardBoard, Stones: 10, FlyAt: 3, LoseBelow: 3, DoubleMillRemoves: 1, Mixed: true},
	{game: Six, ID: "six", Name: "Six Men's Morris", Board: SixBoard, Stones: 6, LoseBelow: 3, DoubleMillRemoves: 1},
	{game: Three, ID: "three", Name: "Three Men's Morris", Board: ThreeBoard, Stones: 3, LoseBelow: 3, DoubleMillRemoves: 1},
	{game: ThreePlain, ID: "three-plain", Name: "Three Men's Morris without diagonals", Board: ThreePlainBoard, Stones: 3, LoseBelow: 3, DoubleMillRemoves: 1},
	{game: Five, ID: "five", Name: "Five Men's Morris", Board: SixBoard, Stones: 5, LoseBelow: 3, DoubleMillRemoves: 1},
	{game: FiveFlying, ID: "five-flying", Name: "Five Men's Morris with flying", Board: SixBoard, Stones: 5, FlyAt: 3, LoseBelow: 3, DoubleMillRemoves: 1},
	{game: SixFlying, ID: "six-flying", Name: "Six Men's Morris with flying", Board: SixBoard, Stones: 6, FlyAt: 3, LoseBelow: 3, DoubleMillRemoves: 1},
	{game: Ten, ID: "ten", Name: "Ten Men's Morris", Board: StandardBoard, Stones: 10, FlyAt: 3, LoseBelow: 3, DoubleMillRemoves: 1},
	{game: Eleven, ID: "eleven", Name: "Eleven Men's Morris", Board: DiagonalBoard, Stones: 11, FlyAt: 3, LoseBelow: 3, DoubleMillRemoves: 1},
}

// engine is what the move and un-move generators read of a game: a copy
// of its board's tables and its rules as plain values. engines holds one
// for every GameID, so that a position reaches its game's tables by its
// Game byte alone (an index into an array of 256, no bounds check and no
// pointer to follow); an entry whose rules are nil names no game.
type engine struct {
	boardTables
	flyAt, loseBelow                    int
	mixed, fullBoardDraw, takeFromMills bool
	rules                               *Rules
}

// engines holds the engine of each game by GameID; gamesErr says why an
// entry of Games has none (CheckGames).
var engines, gamesErr = buildEngines(Games)

// ErrRules is wrapped by the errors of Check and CheckGames: a rule set
// this package cannot play.
var ErrRules = errors.New("muehle: rules not supported")

// Check returns nil when this package can play r, and otherwise an error
// wrapping ErrRules that says, in a sentence per fault, what it cannot. The
// stones must fit on the board with a point to spare for each side's
// stones in hand: 2×Stones ≤ points, so a side with stones in hand can
// always place; a side loses below 1 to Stones stones; a side flies with
// at most three stones or never (MaxUnmoves counts on it: the un-move
// generators write that many by index); and a move removes one stone,
// also when it closes two mills (DoubleMillRemoves 1: docs/rules.md, "The
// rule switches").
func (r *Rules) Check() error {
	if r == nil || r.Board == nil {
		return fmt.Errorf("%w: a rule set without a board", ErrRules)
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %s: "+format, append([]any{ErrRules, r.Name}, args...)...))
	}
	switch {
	case r.Stones < MinStones || r.Stones > MaxStones:
		bad("%d stones a side; the package plays %d to %d", r.Stones, MinStones, MaxStones)
	case 2*r.Stones > r.Board.n:
		bad("%d stones a side do not fit on the %d points of its board with room to place them all", r.Stones, r.Board.n)
	}
	if r.LoseBelow < 1 || r.LoseBelow > r.Stones {
		bad("a side loses below %d stones; want 1 to its %d stones", r.LoseBelow, r.Stones)
	}
	if r.FlyAt < 0 || r.FlyAt > 3 {
		bad("a side flies at %d stones; want 0 (never) to 3, the most the bound on un-moves (MaxUnmoves) allows", r.FlyAt)
	}
	if r.DoubleMillRemoves != 1 {
		bad("a move closing two mills removes %d stones, and the move generators remove one stone per move (DoubleMillRemoves must be 1)", r.DoubleMillRemoves)
	}
	return errors.Join(errs...)
}

// CheckGames returns nil when every entry of Games is a game this package
// plays, and otherwise the errors of those it refuses (Rules.Check, or a
// GameID given twice), wrapping ErrRules. A refused entry names no game:
// its GameID's Rules is nil and init leaves it out of Games, so no
// menu offers it; the commands report the error when they start.
func CheckGames() error { return gamesErr }

// buildEngines fills engines from the entries of games, each at its
// GameID, but for those Check refuses or whose GameID an earlier one has;
// the error says why.
func buildEngines(games []*Rules) ([256]engine, error) {
	var t [256]engine
	var errs []error
	for _, r := range games {
		if err := r.Check(); err != nil {
			errs = append(errs, err)
			continue
		}
		if t[r.game].rules != nil {
			errs = append(errs, fmt.Errorf("%w: %s: game number %d is %s's already", ErrRules, r.Name, r.game, t[r.game].rules.Name))
			continue
		}
		t[r.game] = r.engine()
	}
	return t, errors.Join(errs...)
}

// init leaves the entries of Games that name no game (CheckGames) out of
// it, so that nothing offers them.
func init() {
	Games = slices.DeleteFunc(Games, func(r *Rules) bool { return r == nil || engines[r.game].rules != r })
}

// anywhere is the steps table of a side that flies: from every point to
// every point.
var anywhere = func() (t [MaxPoints]Bitboard) {
	for i := range t {
		t[i] = ^Bitboard(0)
	}
	return t
}()

// steps returns where the stones of a side with total stones on the board
// and in hand may go from each point (before the occupied points are
// taken out): the neighbours, or anywhere when it flies.
func (e *engine) steps(total int) *[MaxPoints]Bitboard {
	if total <= e.flyAt {
		return &anywhere
	}
	return &e.neighbors
}

// removableOf returns the stones of opp a mill may take: all of them
// under TakeFromMills, else the board's rule (boardTables.removable).
func (e *engine) removableOf(opp Bitboard) Bitboard {
	if e.takeFromMills {
		return opp
	}
	return e.removable(opp)
}

// engine returns the engine of r.
func (r *Rules) engine() engine {
	return engine{boardTables: r.Board.boardTables, flyAt: r.FlyAt, loseBelow: r.LoseBelow,
		mixed: r.Mixed, fullBoardDraw: r.FullBoardDraw, takeFromMills: r.TakeFromMills, rules: r}
}

// Flies reports whether a side with total stones on the board and in hand
// moves a stone to any empty point (FlyAt).
func (r *Rules) Flies(total int) bool { return total <= r.FlyAt }

// Lost reports whether a side with total stones on the board and in hand
// has lost by its count (LoseBelow).
func (r *Rules) Lost(total int) bool { return total < r.LoseBelow }

// SharesMovingLayer reports whether the moving layer of w stones of the
// side to move and b of the opponent's, both hands empty, is one and the
// same under r and o: a layer of both games (at most each game's stones
// a side), on one board, with the same moves, mills, captures and ends
// (FlyAt, LoseBelow, TakeFromMills, DoubleMillRemoves, and FullBoardDraw
// where the layer fills the board). Mixed and the stones a side start
// with play no part once both hands are empty, and a moving layer's
// moves lead only into moving layers, so such a layer holds the same
// values in both games: Nine Men's Morris shares every moving layer with
// Lasker Morris and Ten Men's Morris, Eleven Men's Morris with Twelve,
// Five Men's Morris with Six (layers.DB.Adopt).
func (r *Rules) SharesMovingLayer(o *Rules, w, b int) bool {
	if r.Board != o.Board || r.FlyAt != o.FlyAt || r.LoseBelow != o.LoseBelow ||
		r.TakeFromMills != o.TakeFromMills || r.DoubleMillRemoves != o.DoubleMillRemoves {
		return false
	}
	if r.FullBoardDraw != o.FullBoardDraw && w+b >= r.Board.NumPoints() {
		return false
	}
	k := min(r.Stones, o.Stones)
	return w >= 0 && b >= 0 && w <= k && b <= k
}

// Rules returns the rules g names, or nil when it names none.
func (g GameID) Rules() *Rules { return engines[g].rules }

// String returns the game's ID, e.g. "twelve", or "GameID(n)" for a number
// that names no game.
func (g GameID) String() string {
	if r := engines[g].rules; r != nil {
		return r.ID
	}
	return "GameID(" + strconv.Itoa(int(g)) + ")"
}

// GameByName returns the rule set whose ID or Name is s (ignoring case and
// surrounding spaces).
func GameByName(s string) (*Rules, bool) {
	s = strings.TrimSpace(s)
	for _, r := range Games {
		if strings.EqualFold(s, r.ID) || strings.EqualFold(s, r.Name) {
			return r, true
		}
	}
	return nil, false
}

// GameIDs returns the IDs of all games, for messages and help: "standard,
// twelve, lasker, three, …".
func GameIDs() string {
	ids := make([]string, len(Games))
	for i, r := range Games {
		ids[i] = r.ID
	}
	return strings.Join(ids, ", ")
}

// Game returns the GameID of r, the value of Position.Game in its positions.
func (r *Rules) Game() GameID { return r.game }

// String returns r's ID.
func (r *Rules) String() string { return r.ID }

// NewPosition returns the empty board of r with k stones in hand for each
// side and White to move.
func (r *Rules) NewPosition(k int) Position {
	return Position{Hand: [2]uint8{uint8(k), uint8(k)}, Game: r.game}
}

// HandsFit reports whether stones in hand hand (by colour) fit turn as the
// side to move in a game of k stones a side under r. With separate phases
// it is the package function HandsFit, whatever k. In a Mixed game the
// hands say only this: with White to move both sides have made equally
// many moves, so either both or neither still hold all k stones; with
// Black to move White has moved, so it holds fewer than k, and if Black
// holds all k, White has made exactly one move, a placement.
func (r *Rules) HandsFit(hand [2]uint8, turn Color, k int) bool {
	if !r.Mixed {
		return HandsFit(hand, turn)
	}
	full := [2]bool{int(hand[White]) == k, int(hand[Black]) == k}
	if turn == White {
		return full[White] == full[Black]
	}
	return !full[White] && (!full[Black] || int(hand[White]) == k-1)
}
