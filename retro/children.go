package retro

import (
	"muehle/layers"
	"muehle/muehle"
)

// BestChild returns the value of pos from the values of its children, read
// through db: the best, for the side to move, of the values the moves lead
// to — a win as fast as possible, else a draw, else a loss as slow as
// possible. A position without moves is lost in 0, or drawn
// where the rules draw it (layers.NoMoves). Moves with a removal are
// tried first, and a win in 1 ends the search, since nothing is faster.
//
// It is the definition every stored value satisfies: the verifier checks it
// and the placement phase computes with it.
func BestChild(db layers.Prober, pos muehle.Position) (layers.Value, error) {
	var buf [muehle.MaxMoves]muehle.Move
	ms := pos.AppendMoves(buf[:0])
	if len(ms) == 0 {
		return layers.NoMoves(&pos), nil
	}
	best := layers.Unused
	for pass := range 2 {
		for _, m := range ms {
			if m.IsRemoval() != (pass == 0) {
				continue
			}
			v, err := db.Probe(pos.Play(m))
			if err != nil {
				return layers.Unused, err
			}
			if pv := v.Parent(); pv.Better(best) {
				best = pv
				if best == layers.WinIn(1) {
					return best, nil
				}
			}
		}
	}
	return best, nil
}
