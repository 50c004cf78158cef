package dbservice

import (
	"errors"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

// Damaged returns the layers of db known to be damaged: those whose
// header fails its checks, and those that failed when opened (DamagedBy
// db.Damage).
func Damaged(db *layers.DB) []layers.Key { return DamagedBy(db.Variant(), db.Damage) }

// DamagedBy returns the layers of variant v that damage says are damaged
// (layers.DB.Damage, or the window's, which asks its players' database
// too). Files of the older format are not among them: Convert rewrites
// them.
func DamagedBy(v muehle.Variant, damage func(layers.Key) error) []layers.Key {
	var keys []layers.Key
	for _, k := range layers.OrderIn(v, true) {
		if err := damage(k); err != nil && !errors.Is(err, layers.ErrOldFormat) {
			keys = append(keys, k)
		}
	}
	return keys
}

// RepairOptions returns the solver's options that recompute the damaged
// layers of db (RepairFor of Damaged).
func RepairOptions(db *layers.DB) (retro.SolveOptions, bool) { return RepairFor(Damaged(db)) }

// RepairFor returns the solver's options that recompute the damaged
// layers, and the missing layers they depend on: the moving layers up to
// the largest damaged one, and the placement layers if one of them is
// damaged; ok is false when no layer is damaged.
func RepairFor(damaged []layers.Key) (opts retro.SolveOptions, ok bool) {
	opts.MaxStones = -1
	for _, k := range damaged {
		if !k.IsMoving() {
			opts.Placement, opts.MaxStones = true, 0
		} else if opts.MaxStones != 0 {
			opts.MaxStones = max(opts.MaxStones, int(k.W+k.B))
		}
	}
	if opts.MaxStones < 0 {
		return retro.SolveOptions{}, false
	}
	return opts, true
}

// CheckAll checks every layer file of db completely (layers.DB.Check), so
// that Damaged knows the layers whose bodies fail their checksums too, not
// only those whose headers do or that failed when read before. It reads
// every layer present, as retro.Plan does.
func CheckAll(db *layers.DB) {
	for _, k := range layers.OrderIn(db.Variant(), true) {
		db.Check(k)
	}
}
