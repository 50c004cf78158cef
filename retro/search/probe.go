package search

import (
	"muehle/layers"
	"muehle/muehle"
)

// The layers.Prober interface is how the players read the database.

// ProbeScore converts the database value v of a position at ply plies from
// the root into a search score: a win in d plies scores WinScore-ply-d, a
// loss in d plies -WinScore+ply+d, a draw 0. ok is false for Unused.
func ProbeScore(v layers.Value, ply int) (score int32, ok bool) {
	switch v.Outcome() {
	case layers.Win:
		return winScore - int32(ply+v.Depth()), true
	case layers.Loss:
		return -winScore + int32(ply+v.Depth()), true
	case layers.Draw:
		return 0, true
	}
	return 0, false
}

// probeLayerCache remembers, during one search, the layers the database
// could not answer for, so that a missing layer costs one failed probe and
// not one per node. A layer is named from the side to move: stones on the
// board and in hand of the mover and of the opponent.
type probeLayerCache [muehle.MaxStones + 1][muehle.MaxStones + 1][muehle.MaxStones + 1][muehle.MaxStones + 1]bool

// missing returns the flag of the layer of p, or nil when the counts are
// out of range (an impossible position: never probed).
func (c *probeLayerCache) missing(p *muehle.Position) *bool {
	t := p.Turn
	a, b := p.Stones[t].Count(), p.Stones[t^1].Count()
	ha, hb := int(p.Hand[t]), int(p.Hand[t^1])
	if n := muehle.MaxStones; a > n || b > n || ha > n || hb > n {
		return nil
	}
	return &c[a][b][ha][hb]
}
