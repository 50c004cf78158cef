package muehle

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// playoutPositions returns n positions of the standard game reached by
// random playouts (gamePlayouts).
func playoutPositions(seed uint64, n int) ([]Position, []int) {
	return gamePlayouts(Standard.Rules(), seed, n)
}

// gamePlayouts returns n positions of r reached by random playouts from
// the empty board with 3 to r.Stones stones per side (seeded, so every run
// tests the same positions), with the stone count k of each. Long playouts
// reach the moving and flying phases; terminal positions are included. A
// third of the games are played by a greedy blocker as White against a
// random Black, so that blocked positions occur as well.
func gamePlayouts(r *Rules, seed uint64, n int) ([]Position, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var ps []Position
	var ks []int
	var buf [MaxMoves]Move
	for len(ps) < n {
		k := 3 + rng.IntN(r.Stones-2)
		p := r.NewPosition(k)
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

// scatteredPositions returns n scattered positions of the standard game
// (gameScattered).
func scatteredPositions(seed uint64, n int) []Position {
	return gameScattered(Standard.Rules(), seed, n)
}

// gameScattered returns n random positions of r that pass
// Validate(r.Stones) but need not be reachable: stones scattered at random,
// many of them dense (blocked sides) or sparse (all stones in mills,
// flying), hands at random; with FullBoardDraw some boards are full.
func gameScattered(r *Rules, seed uint64, n int) []Position {
	rng := rand.New(rand.NewPCG(seed, 2))
	b, k := r.Board, r.Stones
	var ps []Position
	for len(ps) < n {
		p := Position{Game: r.game}
		p.Turn = Color(rng.IntN(2))
		for c := White; c <= Black; c++ {
			onBoard := rng.IntN(k + 1)
			if rng.IntN(3) == 0 {
				onBoard = k - 2 + rng.IntN(3) // dense boards block sides
			}
			for p.Stones[c].Count() < onBoard {
				q := Point(rng.IntN(b.n))
				if !(p.Stones[0] | p.Stones[1]).Has(q) {
					p.Stones[c] |= q.Bit()
				}
			}
			if rng.IntN(2) == 0 {
				p.Hand[c] = uint8(rng.IntN(k + 1 - onBoard))
			}
		}
		switch rng.IntN(6) {
		case 0:
			p = blockedPosition(r, rng)
		case 1:
			p = allInMillPosition(r, rng)
		}
		if rng.IntN(4) == 0 { // a full mill for each side makes all-in-mill removals likely
			for c := White; c <= Black; c++ {
				m := b.mills[rng.IntN(b.nMills)]
				if m&p.Stones[c^1] == 0 && (p.Stones[c]|m).Count() <= k-int(p.Hand[c]) {
					p.Stones[c] |= m
				}
			}
		}
		if rng.IntN(10) == 0 { // the opponent's stones all in hand (or removed)
			p.Stones[p.Turn^1] = 0
			p.Hand[p.Turn^1] = uint8(3 + rng.IntN(k-2))
			p.Hand[p.Turn] = 0
		}
		if r.FullBoardDraw && rng.IntN(20) == 0 {
			p = fullBoard(r, rng)
		}
		if r.Mixed && rng.IntN(10) == 0 { // three stones on the board and in hand: place or jump
			c := p.Turn
			for p.Stones[c].Count() > 2 {
				p.Stones[c] &= p.Stones[c] - 1
			}
			p.Hand[c] = uint8(3 - p.Stones[c].Count())
		}
		fitHands(r, &p)
		if p.Validate(k) == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// fitHands changes the hands of p so that they fit its side to move in a
// game of r.Stones stones, where that is easy.
func fitHands(r *Rules, p *Position) {
	k := r.Stones
	if r.HandsFit(p.Hand, p.Turn, k) {
		return
	}
	if !r.Mixed {
		if p.Turn == White {
			p.Hand[White] = p.Hand[Black]
		} else if p.Hand[Black] > 0 {
			p.Hand[White] = p.Hand[Black] - 1 // Black to move holds one more
		}
		return
	}
	// Mixed: a side holding all its stones has not moved; take one out of
	// its hand (as if placed and lost) until the hands fit.
	for c := White; c <= Black && !r.HandsFit(p.Hand, p.Turn, k); c++ {
		if int(p.Hand[c]) == k {
			p.Hand[c]--
		}
	}
}

// fullBoard returns a board of r on which every point holds a stone, half
// of them White's, with both hands empty and White to move: the position
// after the last placement of a game of r.Stones = points/2 stones.
func fullBoard(r *Rules, rng *rand.Rand) Position {
	p := Position{Game: r.game}
	for i, q := range rng.Perm(r.Board.n) {
		p.Stones[i%2] |= Point(q).Bit()
	}
	return p
}

// testPositions returns the playout positions and the scattered ones of
// the standard game: the sample on which move generation is checked.
func testPositions(t testing.TB, n int) []Position {
	t.Helper()
	return gameTestPositions(t, Standard.Rules(), n)
}

// sampleSize returns n, or a quarter of it for the games other than the
// standard one under the race detector: the slow tests check the other
// games in full in the pass without it (make test runs both).
func sampleSize(r *Rules, n int) int {
	if raceEnabled && r.game != Standard {
		return n / 4
	}
	return n
}

// gameTestPositions returns playout positions and scattered ones of r.
func gameTestPositions(t testing.TB, r *Rules, n int) []Position {
	t.Helper()
	ps, _ := gamePlayouts(r, 1, n/2)
	return append(ps, gameScattered(r, 2, n-n/2)...)
}

// features counts what a sample of positions covers, so that a test can
// show it exercised every rule it claims to.
type features struct {
	placing, moving, flying, blocked, lost, mills, allInMill, noOpponent int
	// The rules of the other games: a full board drawn, a side with stones
	// in hand that may also move (Mixed), and jumping too (Mixed with
	// three stones), a move along a diagonal, and a mill closed on one.
	drawn, placeOrMove, placeOrJump, diagonal, diagonalMill int
}

func (f *features) add(p Position) {
	switch {
	case p.Total(p.Turn) < 3:
		f.lost++
		return
	case p.IsDrawn():
		f.drawn++
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
	mill, slide, jump, diagonal, diagonalMill := false, false, false, false, false
	b := p.Board()
	for _, m := range p.AppendMoves(buf[:0]) {
		if m.IsRemoval() {
			mill = true
		}
		if m.From != NoPoint {
			slide = true
			if !b.neighbors[m.From].Has(m.To) {
				jump = true
			}
			if b == DiagonalBoard && !StandardBoard.neighbors[m.From].Has(m.To) {
				diagonal = true
			}
		}
		if m.IsRemoval() {
			rest := p.Mover()
			if m.From != NoPoint {
				rest &^= m.From.Bit()
			}
			if b == DiagonalBoard && !StandardBoard.ClosesMill(rest, m.To) {
				diagonalMill = true
			}
		}
	}
	opp := p.Opponent()
	if mill {
		f.mills++
		if opp != 0 && b.InMill(opp) == opp {
			f.allInMill++
		}
	}
	if opp == 0 {
		f.noOpponent++
	}
	if p.Hand[p.Turn] > 0 && slide {
		f.placeOrMove++
		if jump {
			f.placeOrJump++
		}
	}
	if diagonal {
		f.diagonal++
	}
	if diagonalMill {
		f.diagonalMill++
	}
}

// baseFeatures returns the features of the standard game's rules that a
// sample of a game must show: all of them, without "flying" in a game
// without flying, and without the rare ones (a blocked side, a removal
// with all stones in mills) when rare is false.
func baseFeatures(flying, rare bool) []string {
	names := []string{"placing", "moving", "lost", "mills", "no opponent stone"}
	if flying {
		names = append(names, "flying")
	}
	if rare {
		names = append(names, "blocked", "all-in-mill removal")
	}
	return names
}

// check fails t when one of the features want ("placing", "moving",
// "flying", "blocked", "lost", "mills", "all-in-mill removal", "no
// opponent stone", "drawn", "place or move", "place or jump", "diagonal",
// "diagonal mill") was seen fewer than min times, or flying was seen though
// it is not asked for.
func (f features) check(t *testing.T, min int, want []string) {
	t.Helper()
	t.Logf("features: %+v", f)
	all := map[string]int{
		"placing": f.placing, "moving": f.moving, "flying": f.flying, "blocked": f.blocked,
		"lost": f.lost, "mills": f.mills, "all-in-mill removal": f.allInMill, "no opponent stone": f.noOpponent,
		"drawn": f.drawn, "place or move": f.placeOrMove, "place or jump": f.placeOrJump,
		"diagonal": f.diagonal, "diagonal mill": f.diagonalMill,
	}
	if !slices.Contains(want, "flying") && f.flying != 0 {
		t.Errorf("sample has %d positions with flying, want none", f.flying)
	}
	for _, name := range want {
		n, ok := all[name]
		if !ok {
			t.Fatalf("no feature %q", name)
		}
		if n < min {
			t.Errorf("sample has %d positions with %s, want at least %d", n, name, min)
		}
	}
}

// blockedPosition returns a position of r in which the side to move, with
// no stones in hand, is likely blocked: a cluster of its stones whose empty
// neighbours are all taken by the opponent, when that takes at most
// r.Stones.
func blockedPosition(r *Rules, rng *rand.Rand) Position {
	p := Position{Game: r.game}
	nb := &r.Board.neighbors
	p.Turn = Color(rng.IntN(2))
	own := Point(rng.IntN(r.Board.n)).Bit()
	size := 4 + rng.IntN(max(1, r.Stones-4))
	if r.Stones < 5 { // Three Men's Morris: a cluster of 2 or 3
		size = 2 + rng.IntN(r.Stones-1)
	}
	for own.Count() < size {
		var next Bitboard
		for b := own; b != 0; b &= b - 1 {
			next |= nb[b.First()]
		}
		next &^= own
		ns := next.Points()
		own |= ns[rng.IntN(len(ns))].Bit()
	}
	var around Bitboard
	for b := own; b != 0; b &= b - 1 {
		around |= nb[b.First()]
	}
	around &^= own
	if around.Count() > r.Stones {
		return p
	}
	p.Stones[p.Turn] = own
	p.Stones[p.Turn^1] = around
	p.Hand[p.Turn^1] = uint8(rng.IntN(r.Stones + 1 - around.Count()))
	return p
}

// allInMillPosition returns a position in which every opponent stone is
// in a mill and the side to move can likely close one: the opponent holds
// one or two whole mills, the mover two points of a third and a few more.
func allInMillPosition(r *Rules, rng *rand.Rand) Position {
	p := Position{Game: r.game}
	mills := r.Board.mills[:r.Board.nMills]
	p.Turn = Color(rng.IntN(2))
	o := p.Turn ^ 1
	for range 1 + rng.IntN(2) {
		if m := mills[rng.IntN(len(mills))]; m&p.Stones[o] == 0 || rng.IntN(2) == 0 {
			p.Stones[o] |= m // two crossing mills share a point: 5 stones, all in mills
		}
	}
	free := r.Board.all &^ p.Stones[o]
	for _, m := range rng.Perm(len(mills)) {
		if mills[m]&free == mills[m] {
			ps := mills[m].Points()
			p.Stones[p.Turn] = ps[0].Bit() | ps[1].Bit()
			break
		}
	}
	for range rng.IntN(4) {
		q := Point(rng.IntN(r.Board.n))
		if !(p.Stones[0] | p.Stones[1]).Has(q) {
			p.Stones[p.Turn] |= q.Bit()
		}
	}
	if rng.IntN(2) == 0 && p.Stones[p.Turn].Count() < r.Stones {
		p.Hand[p.Turn] = uint8(1 + rng.IntN(r.Stones-p.Stones[p.Turn].Count()))
	}
	return p
}
