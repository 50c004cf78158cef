package game

import (
	"muehle/layers"
	"muehle/muehle"
)

// View is what the board shows: a snapshot the controller hands over. The
// board never looks at the game itself.
type View struct {
	Pos      muehle.Position // the stones to draw
	Selected muehle.Point    // the stone picked up to move, or NoPoint
	Hand     bool            // the stones in hand of the side to move are chosen: a tap places one (Lasker Morris)
	Targets  muehle.Bitboard // the points a tap may choose now
	Removing bool            // Targets are opponent stones to remove
	Last     muehle.Move     // the last move played; Last.To == NoPoint for none
	Mill     muehle.Bitboard // the stones of the mill just closed, by Last or by a move waiting for its removal
	Players  [2]string       // the names of White's and Black's players
	Stones   int             // the stones per side of the game; 0: its rules' own
	// Marks holds, when perfect moves are shown, the value of the best move
	// that chooses each target, from the view of the side to move.
	Marks map[muehle.Point]layers.Value
	// Chances holds, for the marks that draw, the largest win chance
	// (MoveMark.Chance) of the drawing moves that choose the target.
	Chances map[muehle.Point]float64
	// Picks are the marked targets chosen by a move the perfect player
	// would play (MoveMark.Pick).
	Picks muehle.Bitboard
	// Best is a better move than Last, drawn as an arrow (the review's best
	// move where the move played gave up value); Best.To == NoPoint for none.
	Best muehle.Move
}

// EmptyView returns a view of p with nothing selected or marked.
func EmptyView(p muehle.Position) View {
	return View{
		Pos:      p,
		Selected: muehle.NoPoint,
		Last:     muehle.NoMove,
		Best:     muehle.NoMove,
	}
}
