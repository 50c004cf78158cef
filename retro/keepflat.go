package retro

import (
	"context"

	"muehle/layers"
	"muehle/muehle"
)

// A layer kept flat for its placement parent.
//
// In a game whose phases mix (Lasker Morris) the count phase of a pair
// reads the layer its placements lead to as the file stores it. Kept
// compressed (form 2), a won slot there is "won" without its depth, and
// where a position's moves out of the pair all lead to won positions the
// count needs the slowest of them: it finds their depths by one ply
// (layers.DB.FillWon) and counts those positions again. Where the
// placements' layer holds the side ahead to move, nearly all its won
// slots are needed so (docs/solver.md, "Where a unit with stones in both
// hands spends its count": p4+1-7+1 needed 99.9 % of p7+1-5+0's), and
// the unit spends a third of its time on them. The same layer lying
// flat, its won depths in it, is read as it is.
//
// So with SolveOptions.Compress a verified layer of such a game whose
// side to move has at least as many stones (on the board and in hand) as
// the other, and whose placement parent is not verified yet, stays flat
// while the disk has room for it beside the largest unit of the plan
// (keepsFlat). When the parent's unit is verified, the layer is
// compressed (compressPlacementChildren); a layer left flat by a stop is
// compressed when the solve ends, or first when the disk is short
// (solver.makeRoom).

// placementParent returns the layer whose placements without removal
// lead to k (its Key.Child(true, false) is k), if there is one of the
// game: valid tells.
func placementParent(k layers.Key, valid func(layers.Key) bool) (layers.Key, bool) {
	if k.B == 0 {
		return layers.Key{}, false
	}
	p := layers.Key{W: k.B - 1, WH: k.BH + 1, B: k.W, BH: k.WH}
	return p, valid(p)
}

// placementChild returns the layer that k's placements without removal
// lead to, if k's side to move has a stone in hand (placementParent's
// inverse).
func placementChild(k layers.Key) (layers.Key, bool) {
	if k.WH == 0 {
		return layers.Key{}, false
	}
	return k.Child(true, false)
}

// flatCandidate returns the placement parent of layer k of game v if a
// solve that compresses keeps k flat for it while the parent is not
// verified (and the disk has room): v's phases mix, k has stones in hand,
// its side to move has at least as many stones (on the board and in
// hand) as the other, and the parent is a layer of v.
func flatCandidate(v muehle.Variant, k layers.Key) (layers.Key, bool) {
	if r := v.Rules(); r == nil || !r.Mixed || k.IsMoving() || int(k.W)+int(k.WH) < int(k.B)+int(k.BH) {
		return layers.Key{}, false
	}
	return placementParent(k, func(p layers.Key) bool { return layers.ValidIn(v, p) })
}

// keepsAnyFlat reports whether the run keeps layers flat for their
// placement parents at all: a solve that compresses, of a game whose
// phases mix.
func (r *run) keepsAnyFlat() bool {
	return r.opts.Compress && r.db.Rules() != nil && r.db.Rules().Mixed
}

// keepsFlat reports whether layer k of the run's unit, just verified,
// stays flat for its placement parent (see above).
func (r *run) keepsFlat(k layers.Key) bool {
	if !r.opts.Compress {
		return false
	}
	p, ok := flatCandidate(r.db.Variant(), k)
	if !ok || r.db.Verified(p) {
		return false
	}
	free, err := freeBytes(r.db.Dir())
	if err != nil {
		return false
	}
	return free >= r.db.Indexer().Layer(k).Size()+r.flatRoom+diskReserve
}

// compressPlacementChildren compresses the layers the placements of the
// unit's layers lead to, once the unit is verified, where they were kept
// flat for it (keepsFlat). Each was verified when it was written and its
// body is checked against its header as it is read (layers.DB.Borrow), so
// its won depths are those the verifier derived from its children:
// CompressDerived's promise holds, and the compressing does not find them
// all again by one ply.
func (r *run) compressPlacementChildren(ctx context.Context) error {
	if !r.keepsAnyFlat() {
		return nil
	}
	for _, k := range r.unit.Keys {
		if err := ctx.Err(); err != nil {
			return err
		}
		c, ok := placementChild(k)
		if !ok || !layers.ValidIn(r.db.Variant(), c) || !r.db.Verified(c) || r.db.Form(c) != 0 {
			continue
		}
		if _, _, _, err := r.db.CompressDerived(c); err != nil {
			return err
		}
	}
	return nil
}

// KeptFlatPeak replays the units not done yet (done tells), in the order
// given (a solve's), and returns the most disk that layers kept
// flat for their placement parents take at once beyond their compressed
// size (CompressedShare), and the unit after which it is reached: a layer
// counts from its own unit until its parent's. The layers lying flat
// already are not counted: the free disk holds them. The figure assumes
// room for every layer (keepsFlat keeps one flat only with it), so it is
// the most the rule asks for, what a plan adds to a solve's peak.
func KeptFlatPeak(ix *layers.Indexer, units []Unit, done func(Unit) bool) (uint64, UnitName) {
	unitOf := map[layers.Key]int{}
	for i, u := range units {
		for _, k := range u.Keys {
			unitOf[k] = i
		}
	}
	live := map[layers.Key]uint64{} // layer kept flat: the bytes it takes beyond compressed
	var cur, peak uint64
	var at UnitName
	for i, u := range units {
		if done(u) {
			continue
		}
		for _, k := range u.Keys {
			p, ok := flatCandidate(u.variant, k)
			if j, planned := unitOf[p]; ok && planned && j > i {
				live[k] = uint64(float64(ix.Layer(k).Size()) * (1 - CompressedShare))
				cur += live[k]
			}
		}
		for _, k := range u.Keys {
			if c, ok := placementChild(k); ok {
				cur -= live[c]
				delete(live, c)
			}
		}
		if cur > peak {
			peak, at = cur, u.Name
		}
	}
	return peak, at
}

// PlanKeptFlat returns KeptFlatPeak of the tasks of a plan (Plan): what the
// layers kept flat for their placement parents take beyond compressed at
// the most while the plan is solved with SolveOptions.Compress.
func PlanKeptFlat(ix *layers.Indexer, tasks []Task) uint64 {
	units := make([]Unit, len(tasks))
	for i, t := range tasks {
		units[i] = t.Unit
	}
	peak, _ := KeptFlatPeak(ix, units, func(Unit) bool { return false })
	return peak
}
