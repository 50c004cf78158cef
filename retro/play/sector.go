package play

import (
	"fmt"

	"muehle/layers"
	"muehle/muehle"
)

// The sector variant, in the spirit of the "ultra-strong" solution of
// Malom (Gévay and Danner): among its drawing moves the computer prefers
// the one whose eventual sub-database, the layer the game enters at the
// next removal, holds the largest share of positions won for it. The
// eventual layer is found by a minimax over drawing moves only, DrawDepth
// plies deep: the computer maximises the share, the opponent, assumed to
// keep the draw, minimises it. A line ends at its first removal (by either
// side) or at the horizon; its score is the share of positions won for the
// computer in the layer of the position reached, which is the layer's
// share of wins when the computer is to move there and its share of losses
// when the opponent is. Ties are broken at random by Move.

// sectorShare returns the share of positions of pos's layer won for me.
func (p *Perfect) sectorShare(pos muehle.Position, me muehle.Color) (float64, error) {
	won, lost, err := p.wonShare(layers.KeyOf(pos))
	if err != nil {
		return 0, err
	}
	if pos.Turn == me {
		return won, nil
	}
	return lost, nil
}

// SectorScore returns the sector score of the drawing move m of the side
// to move in pos, looking plies plies deep (at least 1).
func (p *Perfect) SectorScore(pos muehle.Position, m muehle.Move, plies int) (float64, error) {
	return p.sectorAfter(pos.Play(m), m, pos.Turn, max(plies, 1)-1, 0, 1)
}

// sectorAfter scores the drawn position pos reached by move m, with plies
// plies still to look at, inside the window (alpha, beta).
func (p *Perfect) sectorAfter(pos muehle.Position, m muehle.Move, me muehle.Color, plies int, alpha, beta float64) (float64, error) {
	if m.IsRemoval() || plies == 0 || pos.IsOver() {
		return p.sectorShare(pos, me)
	}
	maxing := pos.Turn == me
	var buf [muehle.MaxMoves]muehle.Move
	ms := pos.AppendMoves(buf[:0])
	if plies == 1 {
		if v, ok, err := p.sectorLast(pos, ms, me, maxing); ok {
			return v, err
		}
	}
	best, any := 0.0, false
	for _, c := range ms {
		// Each move's outcome is read only when the window still asks for
		// it: a cut-off spares the probes of the moves after it.
		o, _, err := p.outcome(pos.Play(c))
		if err != nil {
			return 0, fmt.Errorf("play: perfect: after %s: %w", pos.Board().MoveString(c), err)
		}
		if o != layers.Draw {
			continue // only the moves that keep the draw
		}
		s, err := p.sectorAfter(pos.Play(c), c, me, plies-1, alpha, beta)
		if err != nil {
			return 0, err
		}
		if !any || (maxing && s > best) || (!maxing && s < best) {
			best, any = s, true
		}
		if maxing {
			alpha = max(alpha, best)
		} else {
			beta = min(beta, best)
		}
		if alpha >= beta {
			break
		}
	}
	if !any {
		return p.sectorShare(pos, me)
	}
	return best, nil
}

// sectorLast is sectorAfter of the drawn position pos one ply before the
// horizon, whose moves are ms, when every share it needs can be read (ok;
// else the caller looks at the moves in order). Every move leads to a
// line's end, so a drawing move's score is the share of the layer it
// leads to, known before its outcome is read; the moves lead to few
// layers. So the moves are looked at by the share they lead to, the best
// for the side to move first (the computer maximises), and the first that
// keeps the draw gives the exact value: the outcomes of the others are not
// read. That value is the one the minimax over all moves gives, whatever
// the caller's window, so the scores stay those of the search in
// generation order (TestBestAsBefore).
func (p *Perfect) sectorLast(pos muehle.Position, ms []muehle.Move, me muehle.Color, maxing bool) (v float64, ok bool, err error) {
	better := func(a, b float64) bool { return maxing && a > b || !maxing && a < b }
	// The layer a move leads to depends only on whether it places a stone
	// and whether it removes one (muehle.Position.Play changes the counts
	// of stones so and no otherwise): four kinds of move, a share each.
	var shares [4]float64
	var known [4]bool
	share := func(m muehle.Move) (float64, bool) {
		k := 0
		if m.IsPlacement() {
			k = 2
		}
		if m.IsRemoval() {
			k |= 1
		}
		if !known[k] {
			s, err := p.sectorShare(pos.Play(m), me)
			if err != nil {
				return 0, false
			}
			shares[k], known[k] = s, true
		}
		return shares[k], true
	}
	var bound float64 // the share looked at before, none drawing
	bounded := false
	for {
		found := false
		for _, m := range ms {
			s, ok := share(m)
			if !ok {
				return 0, false, nil
			}
			if (!bounded || better(bound, s)) && (!found || better(s, v)) {
				v, found = s, true
			}
		}
		if !found {
			break
		}
		for _, m := range ms {
			if s, _ := share(m); s != v {
				continue
			}
			o, _, err := p.outcome(pos.Play(m))
			if err != nil {
				return 0, true, fmt.Errorf("play: perfect: after %s: %w", pos.Board().MoveString(m), err)
			}
			if o == layers.Draw {
				return v, true, nil
			}
		}
		bound, bounded = v, true
	}
	v, err = p.sectorShare(pos, me)
	return v, true, err
}
