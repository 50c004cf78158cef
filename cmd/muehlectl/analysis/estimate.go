package analysis

import (
	"context"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/search"
)

// Estimate is alpha-beta's estimate of a position, for a position the
// database cannot answer: a search's best move and score, never a
// database value. Exact reports that the search proved the score (a
// forced win or loss, or every root move's value read from the database).
type Estimate struct {
	Move  muehle.Move
	Score int // from the side to move's view (search.WinScore)
	Depth int
	Nodes uint64
	PV    []muehle.Move
	Exact bool
}

// Estimation bounds are the limits of an estimate: at most EstimateDepth
// plies and EstimateTime, reading db's layers where it has them.
const (
	EstimateDepth = 8
	EstimateTime  = 250 * time.Millisecond
)

// Estimated returns alpha-beta's estimate of pos (Estimate), reading db
// where it has the layers, within EstimateDepth and EstimateTime or less
// when ctx ends first. pos must be of db's game and not over.
func Estimated(ctx context.Context, db layers.Prober, stones int, pos muehle.Position) (Estimate, error) {
	g, err := muehle.NewGameFrom(pos, stones)
	if err != nil {
		return Estimate{}, err
	}
	ab := search.NewAlphaBeta(search.Limits{Depth: EstimateDepth, MoveTime: EstimateTime}, nil, db)
	ab.SetOptions(search.SearchOptions{TTBits: 16})
	r, err := ab.Search(ctx, g)
	if err != nil {
		return Estimate{}, err
	}
	return Estimate{Move: r.Move, Score: r.Score, Depth: r.Depth, Nodes: r.Nodes, PV: r.PV, Exact: r.Exact}, nil
}
