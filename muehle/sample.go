package muehle

import "math/rand/v2"

// RandomPositions returns n positions from random games of the standard
// game (9 stones), played from the empty board with a source seeded by
// seed, so the same seed gives the same positions. Each game contributes
// every position it passes through, the final one included, until n are
// collected; games are cut after 300 plies. Benchmarks and tests use them
// as a sample of all phases.
func RandomPositions(seed uint64, n int) []Position {
	return Standard.Rules().RandomPositions(StonesPerSide, seed, n)
}

// RandomPositions returns n positions from random games of r with k stones
// a side, as the package function RandomPositions does for the standard
// game.
func (r *Rules) RandomPositions(k int, seed uint64, n int) []Position {
	rng := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	ps := make([]Position, 0, n)
	var buf [MaxMoves]Move
	for len(ps) < n {
		p := r.NewPosition(k)
		for ply := 0; ply < 300 && len(ps) < n; ply++ {
			ps = append(ps, p)
			ms := p.AppendMoves(buf[:0])
			if len(ms) == 0 {
				break
			}
			p = p.Play(ms[rng.IntN(len(ms))])
		}
	}
	return ps
}
