package muehle

import (
	"strconv"
	"strings"
)

// GameID names a rule set: its entry in Games. A Position carries one in
// its Game field; the zero value is the standard game, so that a Position
// made without naming a game is one of Nine Men's Morris.
type GameID uint8

// The games, in the order of Games.
const (
	Standard GameID = iota // Nine Men's Morris
	Twelve                 // Twelve Men's Morris
	Lasker                 // Lasker Morris
	Six                    // Six Men's Morris
)

// Rules is a rule set as data: the board, the stones per side and the
// three rules in which the games differ. Everything in this package reads a
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
	// Flying: a side with exactly three stones, counting those on the
	// board and in hand, moves a stone to any empty point instead of
	// along a line (as Malom counts them; in the games with separate
	// phases a side moves only with an empty hand, so the count is the
	// board's).
	Flying bool
	// FullBoardDraw: a position in which every point holds a stone (in
	// Twelve Men's Morris only the one after the last placement, when no
	// placement closed a mill) is drawn, not lost for the side to move.
	FullBoardDraw bool
	// Mixed: there is no separate placement phase. While a side has
	// stones in hand it may place one or move a stone on the board (Lasker
	// Morris); otherwise a side with stones in hand must place.
	Mixed bool

	game GameID
}

// Games lists the rule sets; entry i has GameID i.
var Games = []*Rules{
	Standard: {ID: "standard", Name: "Nine Men's Morris", Board: StandardBoard, Stones: StonesPerSide, Flying: true},
	Twelve:   {ID: "twelve", Name: "Twelve Men's Morris", Board: DiagonalBoard, Stones: 12, Flying: true, FullBoardDraw: true},
	Lasker:   {ID: "lasker", Name: "Lasker Morris", Board: StandardBoard, Stones: 10, Flying: true, Mixed: true},
	Six:      {ID: "six", Name: "Six Men's Morris", Board: SixBoard, Stones: 6, Flying: true},
}

// engine is what the move and un-move generators read of a game: a copy
// of its board's tables and its rules as plain values. engines holds one
// for every GameID, so that a position reaches its game's tables by its
// Game byte alone (an index into an array of 256, no bounds check and no
// pointer to follow); an entry whose rules are nil names no game.
type engine struct {
	boardTables
	flying, mixed, fullBoardDraw bool
	rules                        *Rules
}

// engines holds the engine of each game by GameID.
var engines = buildEngines()

// buildEngines numbers the entries of Games and fills engines. The stones
// must fit on the board with a point to spare for each side's stones in
// hand: 2×Stones ≤ points, so a side with stones in hand can always place.
func buildEngines() [256]engine {
	var t [256]engine
	for i, r := range Games {
		if r == nil || r.Board == nil || r.Stones < 3 || r.Stones > MaxStones || 2*r.Stones > r.Board.n {
			panic("muehle: bad entry " + strconv.Itoa(i) + " of Games")
		}
		r.game = GameID(i)
		t[i] = r.engine()
	}
	return t
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
	if total == 3 && e.flying {
		return &anywhere
	}
	return &e.neighbors
}

// engine returns the engine of r.
func (r *Rules) engine() engine {
	return engine{boardTables: r.Board.boardTables, flying: r.Flying, mixed: r.Mixed, fullBoardDraw: r.FullBoardDraw, rules: r}
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
// twelve, lasker, six".
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
