package retro

import (
	"math"
	"slices"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// TestUnits checks named units of the k=4 game and, for every game, that
// each unit's dependencies come before it at a lower level and cover every
// layer its moves lead to.
func TestUnits(t *testing.T) {
	units := Units(muehle.Standard.With(4), SolveOptions{Placement: true})
	if got, want := len(units), 30; got != want {
		t.Errorf("k=4 units: got %d, want %d", got, want)
	}
	for _, tc := range []struct {
		name, layers string
		level        int
		deps         []UnitName
	}{
		{"m3-3", "3-3", 0, nil},
		{"m3-4", "3-4 + 4-3", 1, []UnitName{"m3-3"}},
		{"m4-4", "4-4", 2, []UnitName{"m3-4"}},
		{"p2+1-3+0", "p2+1-3+0", 3, []UnitName{"m3-3"}},
		{"p3+1-3+1", "p3+1-3+1", 4, []UnitName{"p3+1-4+0", "p2+1-4+0"}},
	} {
		u, err := FindUnit(units, tc.name)
		if err != nil {
			t.Errorf("FindUnit(%q): %v", tc.name, err)
			continue
		}
		if string(u.Name) != tc.name || u.String() != tc.layers || u.Level != tc.level || !slices.Equal(u.Deps, tc.deps) {
			t.Errorf("unit %s: got %s %q level %d deps %v, want %q level %d deps %v",
				tc.name, u.Name, u.String(), u.Level, u.Deps, tc.layers, tc.level, tc.deps)
		}
	}
	for _, name := range []string{"4-3", "m4-3", "3-4"} {
		if u, err := FindUnit(units, name); err != nil || u.Name != "m3-4" {
			t.Errorf("FindUnit(%q): got %s, %v, want m3-4", name, u.Name, err)
		}
	}
	for _, name := range []string{"", "m5-5", "p9+1-9+0", "3-4+4-3", "x"} {
		if _, err := FindUnit(units, name); err == nil {
			t.Errorf("FindUnit(%q): got no error, want one", name)
		}
	}
	for k := 3; k <= 9; k++ {
		units := Units(muehle.Standard.With(k), SolveOptions{Placement: true})
		level := map[UnitName]int{}
		for i, u := range units {
			if i > 0 && u.Level < units[i-1].Level {
				t.Errorf("k=%d: unit %s (level %d) after level %d", k, u.Name, u.Level, units[i-1].Level)
			}
			for _, d := range u.Deps {
				l, ok := level[d]
				if !ok || l >= u.Level {
					t.Errorf("k=%d: unit %s (level %d) needs %s (level %d, seen %v)", k, u.Name, u.Level, d, l, ok)
				}
			}
			for _, key := range u.Keys {
				for _, s := range key.Successors() {
					if n := NameOf(s); !u.has(s) && !slices.Contains(u.Deps, n) {
						t.Errorf("k=%d: unit %s reads %s, but its deps %v lack %s", k, u.Name, s, u.Deps, n)
					}
				}
			}
			level[u.Name] = u.Level
		}
	}
}

// TestUnitCost checks the cost model on units whose sizes are known: the
// memory is the base, four bytes per slot (one for a placement layer) and
// the removal layers, and the time follows the kind of the unit.
func TestUnitCost(t *testing.T) {
	ix, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	units := Units(muehle.NineMensMorris, SolveOptions{Placement: true})
	size := func(w, b int) uint64 { return ix.Layer(layers.Moving(w, b)).Size() }
	placeSize := ix.Layer(layers.Key{W: 8, WH: 1, B: 9}).Size()
	plyBits := func(ply int) (n uint64) {
		for _, k := range PlyLayers(9, ply) {
			n += ix.Layer(k).Size() / 8
		}
		return n
	}
	for _, tc := range []struct {
		name string
		mem  uint64
		rate float64
	}{
		{"m3-3", costBaseBytes + 4*size(3, 3), costFlyingRate},
		{"m3-4", costBaseBytes + 4*(size(3, 4)+size(4, 3)) + size(3, 3), costFlyingRate},
		{"m4-4", costBaseBytes + 4*size(4, 4) + size(3, 4), costSlidingRate},
		{"m3-8", costBaseBytes + 4*(size(3, 8)+size(8, 3)) + size(7, 3), costFlyingLargeRate},
		{"m5-6", costBaseBytes + 4*(size(5, 6)+size(6, 5)) + size(5, 5) + size(4, 6), costLargeRate},
		// The reachable sweep computes 17.91 % of the classes: their
		// values, the layer's reach bits, the bits of the layers of the
		// ply before (its parents'), and copies of 9-9 and 8-9, where the
		// children are.
		{"p8+1-9+0", costBaseBytes + size(9, 9) + size(8, 9) + uint64(0.1791*float64(placeSize)) + placeSize/8 + plyBits(16), costReachableRate / 0.1791},
	} {
		u, err := FindUnit(units, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		c := UnitCost(ix, u)
		if want := costUnitSeconds + float64(u.Slots(ix))/tc.rate; c.MemBytes != tc.mem || math.Abs(c.CPUSeconds-want) > 1e-9*want {
			t.Errorf("UnitCost(%s): got %d bytes, %.1f s, want %d bytes, %.1f s", tc.name, c.MemBytes, c.CPUSeconds, tc.mem, want)
		}
	}
}
