package muehle

import (
	"math/rand/v2"
	"testing"
)

// playoutPositions returns n positions reached by random playouts from
// the empty board with 3 to 9 stones per side (seeded, so every run tests
// the same positions), with the stone count k of each. Long playouts reach
// the moving and flying phases; terminal positions are included. A third
// of the games are played by a greedy blocker as White against a random
// Black, so that blocked positions occur as well.
func playoutPositions(seed uint64, n int) ([]Position, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var ps []Position
	var ks []int
	var buf [MaxMoves]Move
	for len(ps) < n {
		k := 3 + rng.IntN(7)
		p := NewPosition(k)
		greedy := rng.IntN(3) == 0 // some games squeeze the opponent to reach blocked positions
		for ply := 0; ply < 200 && len(ps) < n; ply++ {
			ps = append(ps, p)
			ks = append(ks, k)
			ms := p.AppendMoves(buf[:0])
			if len(ms) == 0 {
				break
			}
			m := ms[rng.IntN(len(ms))]
			if greedy && p.Turn == White {
				m = blockingMove(p, ms)
			}
			p = p.Play(m)
		}
	}
	return ps, ks
}

// blockingMove returns the first move of ms that leaves the opponent the
// fewest moves: a crude player whose games sometimes end with a blocked
// side.
func blockingMove(p Position, ms []Move) Move {
	best, fewest := ms[0], MaxMoves+1
	for _, m := range ms {
		q := p.Play(m)
		n := q.CountMoves()
		if n < fewest {
			best, fewest = m, n
		}
	}
	return best
}

// scatteredPositions returns n random positions that pass Validate(9) but
// need not be reachable: stones scattered at random, many of them dense
// (blocked sides) or sparse (all stones in mills, flying), hands at random.
func scatteredPositions(seed uint64, n int) []Position {
	rng := rand.New(rand.NewPCG(seed, 2))
	var ps []Position
	for len(ps) < n {
		var p Position
		p.Turn = Color(rng.IntN(2))
		for c := White; c <= Black; c++ {
			onBoard := rng.IntN(10)
			if rng.IntN(3) == 0 {
				onBoard = 7 + rng.IntN(3) // dense boards block sides
			}
			for p.Stones[c].Count() < onBoard {
				q := Point(rng.IntN(NumPoints))
				if !(p.Stones[0] | p.Stones[1]).Has(q) {
					p.Stones[c] |= q.Bit()
				}
			}
			if rng.IntN(2) == 0 {
				p.Hand[c] = uint8(rng.IntN(10 - onBoard))
			}
		}
		switch rng.IntN(6) {
		case 0:
			p = blockedPosition(rng)
		case 1:
			p = allInMillPosition(rng)
		}
		if rng.IntN(4) == 0 { // a full mill for each side makes all-in-mill removals likely
			for c := White; c <= Black; c++ {
				m := Mills[rng.IntN(len(Mills))]
				if m&p.Stones[c^1] == 0 && (p.Stones[c]|m).Count() <= 9-int(p.Hand[c]) {
					p.Stones[c] |= m
				}
			}
		}
		if rng.IntN(10) == 0 { // the opponent's stones all in hand (or removed)
			p.Stones[p.Turn^1] = 0
			p.Hand[p.Turn^1] = uint8(3 + rng.IntN(7))
			p.Hand[p.Turn] = 0
		}
		if !HandsFit(p.Hand, p.Turn) { // make the hands fit the side to move
			if p.Turn == White {
				p.Hand[White] = p.Hand[Black]
			} else if p.Hand[Black] > 0 {
				p.Hand[White] = p.Hand[Black] - 1 // Black to move holds one more
			}
		}
		if p.Validate(StonesPerSide) == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// testPositions returns the playout positions and the scattered ones: the
// sample on which move generation is checked.
func testPositions(t testing.TB, n int) []Position {
	t.Helper()
	ps, _ := playoutPositions(1, n/2)
	return append(ps, scatteredPositions(2, n-n/2)...)
}

// features counts what a sample of positions covers, so that a test can
// show it exercised every rule it claims to.
type features struct {
	placing, moving, flying, blocked, lost, mills, allInMill, noOpponent int
}

func (f *features) add(p Position) {
	switch {
	case p.Total(p.Turn) < 3:
		f.lost++
		return
	case p.Hand[p.Turn] == 0 && p.Blocked():
		f.blocked++
		return
	}
	switch p.Phase() {
	case Placing:
		f.placing++
	case Moving:
		f.moving++
	case Flying:
		f.flying++
	}
	var buf [MaxMoves]Move
	mill := false
	for _, m := range p.AppendMoves(buf[:0]) {
		if m.IsRemoval() {
			mill = true
		}
	}
	opp := p.Opponent()
	if mill {
		f.mills++
		if opp != 0 && InMill(opp) == opp {
			f.allInMill++
		}
	}
	if opp == 0 {
		f.noOpponent++
	}
}

// check fails t when a feature was seen fewer than min times.
func (f features) check(t *testing.T, min int) {
	t.Helper()
	t.Logf("features: %+v", f)
	for name, n := range map[string]int{
		"placing": f.placing, "moving": f.moving, "flying": f.flying, "blocked": f.blocked,
		"lost": f.lost, "mills": f.mills, "all-in-mill removal": f.allInMill, "no opponent stone": f.noOpponent,
	} {
		if n < min {
			t.Errorf("sample has %d positions with %s, want at least %d", n, name, min)
		}
	}
}

// blockedPosition returns a position in which the side to move, with no
// stones in hand, is likely blocked: a cluster of its stones whose empty
// neighbours are all taken by the opponent, when that takes at most 9.
func blockedPosition(rng *rand.Rand) Position {
	var p Position
	p.Turn = Color(rng.IntN(2))
	own := Point(rng.IntN(NumPoints)).Bit()
	size := 4 + rng.IntN(5)
	for own.Count() < size {
		var next Bitboard
		for b := own; b != 0; b &= b - 1 {
			next |= Neighbors[b.First()]
		}
		next &^= own
		ns := next.Points()
		own |= ns[rng.IntN(len(ns))].Bit()
	}
	var around Bitboard
	for b := own; b != 0; b &= b - 1 {
		around |= Neighbors[b.First()]
	}
	around &^= own
	if around.Count() > 9 {
		return p
	}
	p.Stones[p.Turn] = own
	p.Stones[p.Turn^1] = around
	p.Hand[p.Turn^1] = uint8(rng.IntN(10 - around.Count()))
	return p
}

// allInMillPosition returns a position in which every opponent stone is
// in a mill and the side to move can likely close one: the opponent holds
// one or two whole mills, the mover two points of a third and a few more.
func allInMillPosition(rng *rand.Rand) Position {
	var p Position
	p.Turn = Color(rng.IntN(2))
	o := p.Turn ^ 1
	for range 1 + rng.IntN(2) {
		if m := Mills[rng.IntN(len(Mills))]; m&p.Stones[o] == 0 || rng.IntN(2) == 0 {
			p.Stones[o] |= m // two crossing mills share a point: 5 stones, all in mills
		}
	}
	free := AllPoints &^ p.Stones[o]
	for _, m := range rng.Perm(len(Mills)) {
		if Mills[m]&free == Mills[m] {
			ps := Mills[m].Points()
			p.Stones[p.Turn] = ps[0].Bit() | ps[1].Bit()
			break
		}
	}
	for range rng.IntN(4) {
		q := Point(rng.IntN(NumPoints))
		if !(p.Stones[0] | p.Stones[1]).Has(q) {
			p.Stones[p.Turn] |= q.Bit()
		}
	}
	if rng.IntN(2) == 0 {
		p.Hand[p.Turn] = uint8(1 + rng.IntN(9-p.Stones[p.Turn].Count()))
	}
	return p
}
