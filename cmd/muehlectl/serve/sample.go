package serve

import (
	"context"
	"math/rand/v2"
	"net/url"

	"muehle/cmd/muehlectl/analysis"
	"muehle/layers"
	"muehle/muehle"
)

// Paths returns the API paths of positions of db's game, for Load:
// "/api/v1/NAME?position=TEXT".
func Paths(db *layers.DB, positions []muehle.Position) []string {
	name := VariantName(db.Variant())
	out := make([]string, len(positions))
	for i, pos := range positions {
		out[i] = "/api/v1/" + name + "?position=" + url.QueryEscape(pos.String())
	}
	return out
}

// SamplePositions returns up to n positions of db's game that the
// database answers (analysis.Of) and that are not over, from random games
// from the empty board (seeded, up to 4 plies a stone), at most 50·n
// games, fewer when ctx ends. They are the positions of openings and
// early middle games, and only those the database holds the layers of.
func SamplePositions(ctx context.Context, db *layers.DB, n int, seed uint64) []muehle.Position {
	rng := rand.New(rand.NewPCG(seed, 54))
	var out []muehle.Position
	var buf [muehle.MaxMoves]muehle.Move
	for tries := 0; len(out) < n && tries < 50*n && ctx.Err() == nil; tries++ {
		pos := db.Variant().NewPosition()
		for range rng.IntN(4 * db.Stones()) {
			ms := pos.AppendMoves(buf[:0])
			if len(ms) == 0 || pos.IsOver() {
				break
			}
			pos = pos.Play(ms[rng.IntN(len(ms))])
		}
		if a, err := analysis.Of(db, pos); err == nil && !a.Over {
			out = append(out, pos)
		}
	}
	return out
}

// sampleTries is how many slots in a row SampleLayers draws from a layer
// without finding a position it answers before it gives the layer up.
const sampleTries = 200

// SampleLayers returns up to n positions that the database answers
// (analysis.Of) and that are not over, drawn from every verified layer
// db holds, moving and placement, small and large alike: round by round
// one position from each layer, a random slot of it (seeded) with either
// side to move, until n are found. A layer in which sampleTries slots in a
// row give none (a placement layer's slots that no game reaches, a layer
// whose moves lead into a layer the database lacks) drops out. It also
// returns the layers the positions came from, in the game's order.
func SampleLayers(ctx context.Context, db *layers.DB, n int, seed uint64) ([]muehle.Position, []layers.Key) {
	rng := rand.New(rand.NewPCG(seed, 5454))
	v := db.Variant()
	var live []*layers.LayerIndex
	for _, k := range layers.OrderIn(v, true) {
		if db.Verified(k) {
			live = append(live, db.Indexer().Layer(k))
		}
	}
	used := map[layers.Key]bool{}
	var out []muehle.Position
	for len(out) < n && len(live) > 0 && ctx.Err() == nil {
		next := live[:0]
		for _, l := range live {
			if len(out) == n || ctx.Err() != nil {
				next = append(next, l)
				continue
			}
			if pos, ok := sampleLayer(db, l, rng); ok {
				out = append(out, pos)
				used[l.Key()] = true
				next = append(next, l)
			}
		}
		live = next
	}
	var keys []layers.Key
	for _, k := range layers.OrderIn(v, true) {
		if used[k] {
			keys = append(keys, k)
		}
	}
	return out, keys
}

// sampleLayer draws slots of layer l until one is a position db answers
// and is not over, at most sampleTries.
func sampleLayer(db *layers.DB, l *layers.LayerIndex, rng *rand.Rand) (muehle.Position, bool) {
	if l.Size() == 0 {
		return muehle.Position{}, false
	}
	for range sampleTries {
		pos, ok := l.Position(rng.Uint64N(l.Size()))
		if !ok {
			continue
		}
		pos.Game = db.Variant().Game
		if rng.IntN(2) == 1 { // the same slot with Black to move
			pos.Stones[0], pos.Stones[1] = pos.Stones[1], pos.Stones[0]
			pos.Hand[0], pos.Hand[1] = pos.Hand[1], pos.Hand[0]
			pos.Turn = muehle.Black
		}
		if a, err := analysis.Of(db, pos); err == nil && !a.Over {
			return pos, true
		}
	}
	return muehle.Position{}, false
}
