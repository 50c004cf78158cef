package play

import (
	"fmt"
	"math"

	"muehle/layers"
	"muehle/muehle"
)

// This file is Bahnsen's improved perfect play (Bahnsen, "Datenbanken für
// perfektes Spiel", §7.3): in a drawn position the computer plays, among
// its drawing moves, the one with the largest win probability G, built
// from the probability A that the opponent plays each of its losing
// replies. The plain-text copy of the thesis lost the shape of two
// formulas (d and z); they are rebuilt below from the properties the text
// states, and every choice where the text is ambiguous is written down.
//
// A(q) = v(q) · z(q) · f(q) for a losing reply q of the opponent (§7.3.3):
//
//   - v(q) = (1 − s) · d(x), the adjusted loss distance. x is the distance
//     to the loss after q in plies: the database depth of the computer's
//     win (1 = the computer wins with its next move). d(x) = 0.5^((w1/x)^r1)
//     with w1 = 7, w2 = 12 and r1 = log(log 0.5 / log 0.9) / log(w2/w1):
//     this is the thesis's r1 verbatim, and the one function of that form
//     with d(w1) = 0.5, d(w2) = 0.9 and limit 1 (the thesis writes it as
//     exp(−r2 / x^r1) with r2 = −log(0.5)·w1^r1). d(1) = 0 is stated by the
//     text; the formula gives 0.5^(7^r1) ≈ 1e−271 there, so d is 0 for
//     x ≤ 1 by definition. s is the share of positions the computer wins
//     with the move in the sub-database where the loss first shows: we
//     follow the perfect line from the position after q (the computer
//     wins as fast as possible, the opponent loses as slowly as possible,
//     ties by generation order) to the first removal by either side (a
//     removal by q itself does not count: the line starts after it), and
//     take the layer of the first position after it with the computer to
//     move; s = Won / (Won + Lost + Drawn) of that layer's header (counted
//     over symmetry classes). A line that ends the game before that (the
//     opponent drops below three stones or is blocked) gives s = 1: the
//     end of the game is known to everybody.
//   - z(q) = (1 − c)^√(Π freq), the variance of the winning replies. c is
//     the share of the computer's moves after q that win; freq(m) is, for
//     each winning move m after q, the number of the opponent's losing
//     replies at this node after which m also wins (moves are equal when
//     from, to and removal are). The text writes "c^√…" but says that
//     many winning moves make the loss less likely to be overlooked (c^…
//     would grow with c); (1 − c) obeys that and gives the thesis's
//     example as well (c = 0.5, frequencies 2 and 1: 0.5^√2 = 0.38).
//   - f(q) = 1 − |D(q) − ΣD(h)/5| over the five moves h of the game before
//     q (the game's own history, then the moves of the line being
//     searched; moves before the start of the game count 0), D = 1 for a
//     move with a removal. The thesis left f out of its own results; it
//     is part of the method as defined, and so it is here.
//
// The thesis relates the product "to the other moves" but gives no
// formula for it; A is the product v·z·f, unnormalised.
//
// G (§7.3.4), for a drawing move p of the computer at depth n (the number
// of own moves still looked at, DrawDepth at the root): at n = 1 it is
// (k/m)/2 for k losing replies among the opponent's m replies; above it,
// the geometric mean over all m replies of A(q) for a losing reply and
// G(q) = max G(p') over the computer's drawing moves p' after a drawing
// reply q, looking n − 1 own moves ahead. The recursion does not track
// repetitions (the database's drawn value already covers them).

// The constants of d: half of the opponents overlook a loss w1 plies away,
// nine in ten one w2 plies away.
const (
	bahnsenW1 = 7.0
	bahnsenW2 = 12.0
)

// bahnsenR1 is the exponent r1 of d.
var bahnsenR1 = math.Log(math.Log(0.5)/math.Log(0.9)) / math.Log(bahnsenW2/bahnsenW1)

// BahnsenD returns d(x), the share of opponents assumed to overlook a loss
// x plies away: 0 for x ≤ 1, 0.5 at 7, 0.9 at 12, tending to 1.
func BahnsenD(x int) float64 {
	if x <= 1 {
		return 0
	}
	return math.Pow(0.5, math.Pow(bahnsenW1/float64(x), bahnsenR1))
}

// BahnsenZ returns z = (1 − c)^√(Π freqs), where c is the share of winning
// moves among all moves and freqs are the frequencies of the winning moves.
func BahnsenZ(c float64, freqs []int) float64 {
	logProd := 0.0
	for _, f := range freqs {
		logProd += math.Log(float64(f))
	}
	return math.Pow(1-c, math.Exp(logProd/2))
}

// BahnsenF returns f = 1 − |D(move) − (removals among the five moves
// before it)/5|.
func BahnsenF(removal bool, recentRemovals int) float64 {
	d := 0.0
	if removal {
		d = 1
	}
	return 1 - math.Abs(d-float64(recentRemovals)/5)
}

// LayerSource gives the headers of the database's layers; *layers.DB
// implements it. Bahnsen's method and the sector variant read the share
// of won positions of a layer from it. Header reads only the header, not
// the body: a move must not wait for a large layer to be checked.
type LayerSource interface {
	Header(k layers.Key) (layers.Header, error)
}

var _ LayerSource = (*layers.DB)(nil) // NewPerfect finds it by a type assertion

// wonShare returns the share of positions of layer k won for its side to
// move, over its canonical slots.
func (p *Perfect) wonShare(k layers.Key) (won, lost float64, err error) {
	if s, ok := p.shares[k]; ok {
		return s[0], s[1], nil
	}
	if p.layers == nil {
		return 0, 0, fmt.Errorf("play: perfect: layer %s: the database gives no layer headers", k)
	}
	h, err := p.layers.Header(k)
	if err != nil {
		return 0, 0, fmt.Errorf("play: perfect: layer %s: %w", k, err)
	}
	n := float64(h.Won + h.Lost + h.Drawn)
	if n == 0 {
		return 0, 0, fmt.Errorf("play: perfect: layer %s has no positions", k)
	}
	if p.shares == nil {
		p.shares = map[layers.Key][2]float64{}
	}
	s := [2]float64{float64(h.Won) / n, float64(h.Lost) / n}
	p.shares[k] = s
	return s[0], s[1], nil
}

// recent holds whether each of the last five moves was a removal.
type recent [5]bool

// push returns r after move m.
func (r recent) push(m muehle.Move) recent {
	copy(r[:], r[1:])
	r[4] = m.IsRemoval()
	return r
}

// count returns the number of removals in r.
func (r recent) count() int {
	n := 0
	for _, b := range r {
		if b {
			n++
		}
	}
	return n
}

// recentOf returns the removals of the last five moves of hist.
func recentOf(hist []muehle.Move) recent {
	var r recent
	for _, m := range hist[max(0, len(hist)-5):] {
		r = r.push(m)
	}
	return r
}

// children returns the moves of pos and the values of the positions they
// lead to, for their side to move.
func (p *Perfect) children(pos muehle.Position) ([]muehle.Move, []layers.Value, error) {
	var buf [muehle.MaxMoves]muehle.Move
	ms := pos.AppendMoves(buf[:0])
	vs := make([]layers.Value, len(ms))
	for i, m := range ms {
		v, err := p.value(pos.Play(m))
		if err != nil {
			return nil, nil, fmt.Errorf("play: perfect: after %s: %w", pos.Board().MoveString(m), err)
		}
		vs[i] = v
	}
	return append([]muehle.Move(nil), ms...), vs, nil
}

// BahnsenG returns G of the drawing move m of the computer in pos, with
// hist the game's moves before pos, looking depth own moves ahead (see the
// top of this file).
func (p *Perfect) BahnsenG(pos muehle.Position, hist []muehle.Move, m muehle.Move, depth int) (float64, error) {
	return p.bahnsenG(pos, recentOf(hist), m, max(depth, 1))
}

// bahnsenG is BahnsenG with the recent removals.
func (p *Perfect) bahnsenG(pos muehle.Position, r recent, m muehle.Move, depth int) (float64, error) {
	c := pos.Play(m)
	r = r.push(m)
	qs, vs, err := p.children(c)
	if err != nil {
		return 0, err
	}
	if len(qs) == 0 {
		return 0, nil
	}
	if depth <= 1 {
		k := 0
		for _, v := range vs {
			if v.Outcome() == layers.Win { // won for the computer, to move there
				k++
			}
		}
		return float64(k) / float64(len(qs)) / 2, nil
	}
	// The computer's winning moves after each losing reply, for z.
	wins := make([][]muehle.Move, len(qs))
	share := make([]float64, len(qs))
	freq := map[muehle.Move]int{}
	for i, q := range qs {
		if vs[i].Outcome() != layers.Win {
			continue
		}
		gs, gv, err := p.children(c.Play(q))
		if err != nil {
			return 0, err
		}
		for j, g := range gs {
			if gv[j].Outcome() == layers.Loss {
				wins[i] = append(wins[i], g)
				freq[g]++
			}
		}
		share[i] = float64(len(wins[i])) / float64(len(gs))
	}
	logSum := 0.0
	for i, q := range qs {
		var a float64
		switch vs[i].Outcome() {
		case layers.Win:
			fs := make([]int, len(wins[i]))
			for j, g := range wins[i] {
				fs[j] = freq[g]
			}
			a = BahnsenF(q.IsRemoval(), r.count()) * BahnsenD(vs[i].Depth()) * BahnsenZ(share[i], fs)
			if a > 0 {
				s, err := p.lossSector(c.Play(q))
				if err != nil {
					return 0, err
				}
				a *= 1 - s
			}
		case layers.Draw:
			a, err = p.bahnsenBest(c.Play(q), r.push(q), depth-1)
			if err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("play: perfect: reply %s to drawing move %s wins for the opponent", c.Board().MoveString(q), c.Board().MoveString(m))
		}
		if a <= 0 {
			return 0, nil
		}
		logSum += math.Log(a)
	}
	return math.Exp(logSum / float64(len(qs))), nil
}

// bahnsenBest returns the largest G among the computer's drawing moves in
// the drawn position pos, 0 when it has none.
func (p *Perfect) bahnsenBest(pos muehle.Position, r recent, depth int) (float64, error) {
	ms, vs, err := p.children(pos)
	if err != nil {
		return 0, err
	}
	best := 0.0
	for i, m := range ms {
		if vs[i].Outcome() != layers.Draw {
			continue
		}
		g, err := p.bahnsenG(pos, r, m, depth)
		if err != nil {
			return 0, err
		}
		best = max(best, g)
	}
	return best, nil
}

// lossSector returns s of v for the position pos, won for its side to
// move (the computer): the share of won positions of the layer where the
// perfect line from pos first has the computer to move after a removal; 1
// when the line ends the game first.
func (p *Perfect) lossSector(pos muehle.Position) (float64, error) {
	if s, ok := p.sectorMemo[pos]; ok {
		return s, nil
	}
	me := pos.Turn
	cur := pos
	removed := false
	for range 1024 { // a won line shortens by a ply each move; the cap guards a broken database
		if cur.IsOver() {
			break
		}
		if cur.Turn == me && removed {
			won, _, err := p.wonShare(layers.KeyOf(cur))
			if err != nil {
				return 0, err
			}
			p.memoSector(pos, won)
			return won, nil
		}
		ms, vs, err := p.children(cur)
		if err != nil {
			return 0, err
		}
		if len(ms) == 0 {
			break
		}
		best := 0
		for i := range ms {
			// The mover's value is the child's Parent: a faster win or a
			// slower loss is Better.
			if vs[i].Parent().Better(vs[best].Parent()) {
				best = i
			}
		}
		removed = removed || ms[best].IsRemoval()
		cur = cur.Play(ms[best])
	}
	p.memoSector(pos, 1)
	return 1, nil
}

// memoSector remembers s for pos during one move.
func (p *Perfect) memoSector(pos muehle.Position, s float64) {
	if p.sectorMemo == nil {
		p.sectorMemo = map[muehle.Position]float64{}
	}
	p.sectorMemo[pos] = s
}
