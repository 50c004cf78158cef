package play

import (
	"cmp"
	"fmt"
	"slices"

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
		return p.sectorLast(pos, ms, me, maxing)
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
// horizon, whose moves are ms: every move leads to a line's end, so a
// drawing move's score is the share of the layer it leads to, known
// before its outcome is read. The moves are looked at best score first
// for the side to move (the computer maximises), and the first that keeps
// the draw gives the exact value: the outcomes of the others are not
// read. Its value is the one the minimax over all moves gives, whatever
// the window (alpha, beta) of the caller, so the scores stay those of the
// search in generation order (TestBestAsBefore).
func (p *Perfect) sectorLast(pos muehle.Position, ms []muehle.Move, me muehle.Color, maxing bool) (float64, error) {
	type leaf struct {
		c     muehle.Position
		m     muehle.Move
		share float64
		err   error // of the share, reported only if the move keeps the draw
	}
	var buf [muehle.MaxMoves]leaf
	ls := buf[:0]
	for _, m := range ms {
		c := pos.Play(m)
		if c.IsOver() {
			continue // lost for the side to move there: not a drawing move
		}
		s, err := p.sectorShare(c, me)
		ls = append(ls, leaf{c, m, s, err})
	}
	slices.SortStableFunc(ls, func(a, b leaf) int {
		if maxing {
			return cmp.Compare(b.share, a.share)
		}
		return cmp.Compare(a.share, b.share)
	})
	for _, l := range ls {
		o, _, err := p.outcome(l.c)
		if err != nil {
			return 0, fmt.Errorf("play: perfect: after %s: %w", pos.Board().MoveString(l.m), err)
		}
		if o != layers.Draw {
			continue
		}
		return l.share, l.err
	}
	return p.sectorShare(pos, me)
}
