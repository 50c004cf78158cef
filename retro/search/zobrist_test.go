package search

import (
	"math/rand/v2"
	"testing"

	"muehle/muehle"
)

// randomGamePositions plays n random games of k stones from the empty board
// and calls f with every position reached and the move played from it.
func randomGamePositions(seed uint64, n, k int, f func(p muehle.Position, m muehle.Move)) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var buf [muehle.MaxMoves]muehle.Move
	for range n {
		p := muehle.NewPosition(k)
		for ply := 0; ply < 200; ply++ {
			ms := p.AppendMoves(buf[:0])
			if len(ms) == 0 {
				break
			}
			m := ms[rng.IntN(len(ms))]
			f(p, m)
			p = p.Play(m)
		}
	}
}

func TestZobristIncremental(t *testing.T) {
	n := 0
	for _, k := range []int{3, 5, 9} {
		randomGamePositions(uint64(k), 20, k, func(p muehle.Position, m muehle.Move) {
			c := p.Play(m)
			if got, want := zobristAfter(zobristKey(&p), &p, m), zobristKey(&c); got != want {
				t.Fatalf("key after %s from %s: got %#x, want %#x", m, p, got, want)
			}
			n++
		})
	}
	if n < 1000 {
		t.Fatalf("only %d moves checked", n)
	}
}

func TestZobristDistinguishes(t *testing.T) {
	base := muehle.Position{Stones: [2]muehle.Bitboard{0b111, 0b111000}, Hand: [2]uint8{3, 4}}
	variants := map[string]muehle.Position{
		"base": base,
		"turn": {Stones: base.Stones, Hand: base.Hand, Turn: muehle.Black},
		"hand": {Stones: base.Stones, Hand: [2]uint8{4, 3}},
		"swap": {Stones: [2]muehle.Bitboard{0b111000, 0b111}, Hand: base.Hand},
		"less": {Stones: [2]muehle.Bitboard{0b11, 0b111000}, Hand: base.Hand},
	}
	seen := map[uint64]string{}
	for name, p := range variants {
		k := zobristKey(&p)
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share the key %#x", name, other, k)
		}
		seen[k] = name
	}
}
