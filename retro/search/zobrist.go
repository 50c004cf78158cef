package search

import "muehle/muehle"

// zobrist holds the random keys of the Zobrist hash of a position: one per
// stone of each colour on each point of any board (muehle.MaxPoints), one
// for Black to move, and one for each count 0..12 of stones in hand of
// each side (muehle.MaxStones). The key of a position is the exclusive or
// of the keys of its parts.
var zobrist struct {
	stone [2][muehle.MaxPoints]uint64
	black uint64
	hand  [2][muehle.MaxStones + 1]uint64
}

func init() {
	// splitmix64 with a fixed seed: the keys are the same in every run, so
	// node counts and table contents are reproducible.
	x := uint64(0x6d75656869652121) // "muehie!!"
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	// The keys of the hands above 9 (Twelve Men's Morris) and of the
	// points beyond the standard board's 24 are drawn last, so that the
	// keys of the standard game, and with them its node counts
	// (TestSearchBench), stay those of before.
	for c := range 2 {
		for p := range muehle.NumPoints {
			zobrist.stone[c][p] = next()
		}
		for h := range muehle.StonesPerSide + 1 {
			zobrist.hand[c][h] = next()
		}
	}
	zobrist.black = next()
	for c := range 2 {
		for h := muehle.StonesPerSide + 1; h <= muehle.MaxStones; h++ {
			zobrist.hand[c][h] = next()
		}
	}
	for c := range 2 {
		for p := muehle.NumPoints; p < muehle.MaxPoints; p++ {
			zobrist.stone[c][p] = next()
		}
	}
}

// zobristKey returns the Zobrist hash of p: stones, side to move and stones
// in hand. Hands above 12 (impossible positions) share the key of 12.
func zobristKey(p *muehle.Position) uint64 {
	var k uint64
	for c := range 2 {
		for b := p.Stones[c]; b != 0; b &= b - 1 {
			k ^= zobrist.stone[c][b.First()]
		}
		k ^= zobrist.hand[c][min(p.Hand[c], muehle.MaxStones)]
	}
	if p.Turn == muehle.Black {
		k ^= zobrist.black
	}
	return k
}

// zobristAfter returns the key of p.Play(m) given k, the key of p.
func zobristAfter(k uint64, p *muehle.Position, m muehle.Move) uint64 {
	c := p.Turn
	if m.From == muehle.NoPoint {
		h := min(p.Hand[c], muehle.MaxStones)
		k ^= zobrist.hand[c][h] ^ zobrist.hand[c][h-1]
	} else {
		k ^= zobrist.stone[c][m.From]
	}
	k ^= zobrist.stone[c][m.To]
	if m.Remove != muehle.NoPoint {
		k ^= zobrist.stone[c^1][m.Remove]
	}
	return k ^ zobrist.black
}
