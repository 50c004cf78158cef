// Package playtest holds the fakes and positions the players' tests share
// (retro/search, retro/play, retro/teach); only tests import it
// (TestImportGraph checks).
package playtest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// HashDB is a fake database: the value of a position is a fixed function
// of its stones, hands and side to move (not a consistent game value, but
// all the perfect player reads). Positions whose side to move has Missing
// stones on the board are absent, to test the fallback.
type HashDB struct {
	Missing int // side-to-move board count reported as a missing layer; 0 for none
}

// Probe returns the fake value of p.
func (h HashDB) Probe(p muehle.Position) (layers.Value, error) {
	if h.Missing > 0 && p.Stones[p.Turn].Count() == h.Missing {
		return layers.Unused, fmt.Errorf("fake layer %d: %w", h.Missing, layers.ErrMissing)
	}
	x := uint64(p.Stones[0])*0x9e3779b97f4a7c15 ^ uint64(p.Stones[1])*0xc2b2ae3d27d4eb4f
	x ^= uint64(p.Hand[0])<<40 | uint64(p.Hand[1])<<48 | uint64(p.Turn)<<56
	x ^= x >> 29
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 32
	d := int(x>>8) % 6
	switch x % 7 {
	case 0, 1, 2:
		return layers.Drawn, nil
	case 3, 4:
		return layers.WinIn(2*d + 1), nil
	}
	return layers.LossIn(2*d + 2), nil
}

// Value is the value of a position for its side to move as a player must
// read it: lost in 0 at the end of the game, else the database's.
func Value(t testing.TB, db layers.Prober, p muehle.Position) layers.Value {
	t.Helper()
	if p.IsOver() {
		return layers.LossIn(0)
	}
	v, err := db.Probe(p)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Positions returns positions from random games of k stones after the
// given numbers of plies, skipping finished games.
func Positions(seed uint64, k int, plies ...int) []muehle.Position {
	rng := rand.New(rand.NewPCG(seed, 2))
	var out []muehle.Position
	for _, n := range plies {
		for try := 0; try < 20; try++ {
			p := muehle.NewPosition(k)
			ok := true
			for range n {
				ms := p.Moves()
				if len(ms) == 0 {
					ok = false
					break
				}
				p = p.Play(ms[rng.IntN(len(ms))])
			}
			if ok && !p.IsOver() {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// Position parses s (muehle.ParsePosition) or fails t.
func Position(t testing.TB, s string) muehle.Position {
	t.Helper()
	p, err := muehle.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
