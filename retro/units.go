package retro

import (
	"fmt"
	"slices"
	"strings"

	"muehle/layers"
	"muehle/muehle"
)

// Unit is one step of the computation, the smallest piece of work a solver
// claims: a moving pair M(w,b) + M(b,w) (or a layer M(w,w) alone), or one
// placement layer.
type Unit struct {
	// Name names the unit in claims, on the command line, in job names
	// and in the solve record.
	Name      UnitName
	Keys      []layers.Key // the unit's layers, in the order they are written
	Placement bool
	// Level numbers the stages of the computation from 0: the moving pairs
	// by stones on the board (level 0: 6 stones), then the placement
	// layers by stones in hand (the last placement first). A unit needs
	// only units of lower levels, so the units of one level are
	// independent of each other.
	Level int
	// Deps names the units whose layers this one reads: those its moves
	// and removals lead to; Needs lists those layers.
	Deps  []UnitName
	Needs []layers.Key
	// Reachable marks a placement unit of the reachable sweep (the
	// default; not SolveOptions.PlacementAll): it computes only the
	// classes a game can reach from the empty board. Reach marks the
	// first of them, which runs the forward pass (Reach) of the whole
	// game before its layer.
	Reachable, Reach bool

	variant muehle.Variant // the unit's game, for the cost model
}

// String returns the unit's layers: "3-4 + 4-3", "p5+2-4+2".
func (u Unit) String() string {
	s := make([]string, len(u.Keys))
	for i, k := range u.Keys {
		s[i] = k.String()
	}
	return strings.Join(s, " + ")
}

// has reports whether k is one of the unit's layers.
func (u Unit) has(k layers.Key) bool {
	for _, x := range u.Keys {
		if x == k {
			return true
		}
	}
	return false
}

// Slots returns the number of slots of the unit's layers.
func (u Unit) Slots(ix *layers.Indexer) uint64 {
	var n uint64
	for _, k := range u.Keys {
		n += ix.Layer(k).Size()
	}
	return n
}

// UnitName is the one name of a unit: "m3-4" for the pair 3-4 + 4-3,
// "m4-4", "p5+2-4+2" (layers.UnitName: the solve record, which layers
// owns, holds it).
type UnitName = layers.UnitName

// NameOf returns the name of the unit that computes layer k.
func NameOf(k layers.Key) UnitName { return layers.UnitOf(k) }

// Units returns the units of opts for variant v, in order of computation,
// with their levels and dependencies.
func Units(v muehle.Variant, opts SolveOptions) []Unit {
	stones := v.Stones
	mixed := v.Rules().Mixed
	var units []Unit
	seen := map[layers.Key]bool{}
	reach := false // the unit that runs the forward pass is chosen
	for _, k := range layers.OrderIn(v, opts.Placement) {
		if seen[k] {
			continue
		}
		u := Unit{Name: unitName(v, k), Keys: []layers.Key{k}, Placement: !k.IsMoving() && !mixed, variant: v}
		seen[k] = true
		switch {
		case k.IsMoving():
			if opts.MaxStones > 0 && int(k.W)+int(k.B) > opts.MaxStones {
				continue
			}
			if p := k.Partner(); p != k {
				u.Keys = append(u.Keys, p)
				seen[p] = true
			}
			u.Level = int(k.W) + int(k.B) - 6
		case mixed:
			// A pair of layers with stones in hand: after every level of
			// fewer stones in hand, and of fewer on the board.
			if p := k.MixedPartner(); p != k {
				u.Keys = append(u.Keys, p)
				seen[p] = true
			}
			u.Level = (int(k.WH)+int(k.BH))*(2*stones+1) + int(k.W) + int(k.B) - 6
		default:
			u.Level = 2*stones - 6 + int(k.WH) + int(k.BH)
			u.Reachable = !opts.PlacementAll
			u.Reach = u.Reachable && !reach
			reach = reach || u.Reach
		}
		deps := map[UnitName]bool{}
		for _, k := range u.Keys {
			for _, s := range layers.SuccessorsIn(v, k) {
				if u.has(s) || slices.Contains(u.Needs, s) {
					continue
				}
				u.Needs = append(u.Needs, s)
				if n := unitName(v, s); !deps[n] {
					deps[n] = true
					u.Deps = append(u.Deps, n)
				}
			}
		}
		units = append(units, u)
	}
	return units
}

// unitName returns the name of the unit of variant v that computes layer
// k: NameOf, but in a game whose phases mix a layer with stones in hand is
// computed with its partner, in the unit named after the smaller of the
// two, e.g. p2+1-3+0 for p2+1-3+0 and p3+0-2+1.
func unitName(v muehle.Variant, k layers.Key) UnitName {
	if !k.IsMoving() && v.Rules().Mixed {
		if p := k.MixedPartner(); layers.KeyLess(p, k) {
			k = p
		}
	}
	return NameOf(k)
}

// FindUnit returns the unit of units called name: a unit's name ("m3-4",
// "p5+2-4+2") or any of its layers ("4-3").
func FindUnit(units []Unit, name string) (Unit, error) {
	for _, u := range units {
		if string(u.Name) == name {
			return u, nil
		}
	}
	k, err := layers.ParseKey(strings.TrimPrefix(name, "m"))
	if err == nil {
		for _, u := range units {
			if u.has(k) {
				return u, nil
			}
		}
	}
	return Unit{}, fmt.Errorf("retro: no unit %q in this game (names look like m3-4 for the pair 3-4 + 4-3, or p5+2-4+2; muehlectl plan lists them)", name)
}
