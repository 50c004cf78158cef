package retro

import (
	"math"
	"runtime/debug"
	"slices"
	"sync/atomic"

	"muehle/layers"
	"muehle/muehle"
)

// What one solve holds in memory from one unit to the next.
//
// A unit reads each compressed layer it needs decoded whole, a form-2 layer
// with its won depths found again (a large moving layer of the standard
// game: about a minute), and the next units read many of the same layers.
// Under the players' bound (1 GiB by default) each unit decoded them
// again: the standard game's first 26 placement units took 225 s instead
// of 14.5. So while Solve runs, its DB holds the layers decoded:
//
//   - in the moving phase, up to the budget less three times what the
//     unit being done needs of its own by the model (unitBound: the
//     model's memory of a unit, set against the peaks its records
//     measured, was low by up to about that), and at least a quarter of
//     the budget: a large unit needs the rest for its state words, the
//     small ones leave room to keep the layers the next units read, as
//     Lasker Morris's units read their neighbours' layers again and again;
//     the DB lets go at once of what a lower bound leaves out;
//   - in the placement phase, once no moving unit is left, up to the
//     budget less twice what the largest placement unit needs of its own
//     (placementBound): its units are small, and every placement ply
//     reads the moving layers again;
//   - letting go first of the layers the plan reads last (readPlan,
//     layers.DB.SetNextUse), not of the oldest: the placement units of
//     one ply read the moving layers in turn, each ply again, which a
//     hold that drops the oldest first reads afresh each time;
//   - with the Go runtime's memory limit at the budget while the bound is
//     above a quarter of it (the placement phase, a small moving unit), so
//     that the garbage collector does not let the heap grow to twice the
//     layers held before it collects; not while a moving unit's own needs
//     are large, for its copies and verifier tables can exceed the budget
//     on a small machine, where a limit would make the collector run
//     without end.
//
// SolveUnit does none of this: a unit run alone (a Slurm job) keeps to the
// memory its plan asks for (Cost.MemBytes), which does not count layers
// held for later units. The cost model follows the same rules
// (HeldLayers).

// readPlan says which units of a list in order read each layer: the
// layers a unit's moves lead to out of the unit, and, for the won depths
// of those kept in form 2, the layers their moves lead to.
type readPlan map[layers.Key][]int

// readsOf returns the readPlan of units, in variant v.
func readsOf(v muehle.Variant, units []Unit) readPlan {
	r := readPlan{}
	add := func(k layers.Key, i int) {
		if n := len(r[k]); n == 0 || r[k][n-1] != i {
			r[k] = append(r[k], i)
		}
	}
	for i, u := range units {
		for _, k := range u.Keys {
			for _, x := range layers.SuccessorsIn(v, k) {
				if slices.Contains(u.Keys, x) {
					continue
				}
				add(x, i)
				for _, c := range layers.SuccessorsIn(v, x) {
					add(c, i)
				}
			}
		}
	}
	return r
}

// next returns the index of the first unit at or after at that reads k,
// math.MaxInt when none does.
func (r readPlan) next(k layers.Key, at int) int {
	uses := r[k]
	if i, _ := slices.BinarySearch(uses, at); i < len(uses) {
		return uses[i]
	}
	return math.MaxInt
}

// movingBound is the least bound of the layers held decoded in the moving
// phase: a quarter of the memory budget.
func movingBound(opts SolveOptions) int64 { return opts.memBudget() / 4 }

// ownMargin is what unitBound leaves a moving unit: this many times its
// own memory by the model (UnitCost.MemBytes). The peaks the Lasker Morris
// campaign recorded, less the layers held then, were up to about twice and
// a half the model's.
const ownMargin = 3

// unitBound is the DB's bound of the layers held decoded while a moving
// unit runs that needs own bytes of its own (unitCost's MemBytes): the
// memory budget less ownMargin times that, at least movingBound.
func unitBound(own uint64, opts SolveOptions) int64 {
	return max(opts.memBudget()-ownMargin*int64(own), movingBound(opts))
}

// placementBound is the DB's bound of the layers held decoded once only
// placement units are left: the memory budget less twice the largest
// placement unit's own memory (the model's with the copies of its
// children, their layers left out: they are among the layers held), at
// least the moving phase's.
func placementBound(ix *layers.Indexer, v muehle.Variant, opts SolveOptions) int64 {
	var own uint64
	for _, u := range Units(v, SolveOptions{Placement: true, PlacementAll: opts.PlacementAll}) {
		if !u.Placement {
			continue
		}
		c := unitCost(ix, u, 0, 0)
		for _, s := range layers.SuccessorsIn(v, u.Keys[0]) {
			c.MemBytes -= u.bodyBytes(ix, s)
		}
		own = max(own, c.MemBytes)
	}
	return max(opts.memBudget()-2*int64(own), movingBound(opts))
}

// hold is what one Solve holds decoded: the DB's bound, raised while it
// runs and put back after, and the unit it is at for the read plan.
type hold struct {
	db        *layers.DB
	units     []Unit
	opts      SolveOptions
	reads     readPlan
	at        atomic.Int64 // the index of the unit being done
	old       int64        // the DB's bound before
	placement int64        // the bound once only placement units are left
	raised    []int64      // the bounds set, to put back only those
	limit     int64        // the runtime's memory limit before, -1: unchanged
}

// holdWhileSolving raises db's bound to movingBound for Solve over units
// and tells db the read plan; release puts both back (the bound unless it
// was changed meanwhile), and the memory limit the placement phase set.
func holdWhileSolving(db *layers.DB, opts SolveOptions, units []Unit) *hold {
	h := &hold{db: db, units: units, opts: opts, reads: readsOf(db.Variant(), units), old: db.CacheLimit(), limit: -1}
	h.placement = placementBound(db.Indexer(), db.Variant(), opts)
	h.raise(movingBound(opts))
	db.SetNextUse(func(k layers.Key) int { return h.reads.next(k, int(h.at.Load())) })
	return h
}

// raise sets the DB's bound to n if that is higher.
func (h *hold) raise(n int64) {
	if n > h.db.CacheLimit() {
		h.set(n)
	}
}

// set sets the DB's bound to n, not below its own (the bound before the
// solve).
func (h *hold) set(n int64) {
	if n = max(n, h.old); n != h.db.CacheLimit() {
		h.db.SetCacheBytes(n)
		h.raised = append(h.raised, n)
	}
}

// starting notes that Solve starts unit i of its list; placement says
// whether only placement units are left.
func (h *hold) starting(i int, placement bool) {
	h.at.Store(int64(i))
	if placement {
		h.raise(h.placement)
		h.limitMemory(true)
		return
	}
	if i < len(h.units) && !h.units[i].Placement {
		b := unitBound(unitCost(h.db.Indexer(), h.units[i], 0, 0).MemBytes, h.opts)
		h.set(b)
		h.limitMemory(b > movingBound(h.opts))
	}
}

// limitMemory sets the Go runtime's memory limit to the budget (on) or
// puts back the limit before (off).
func (h *hold) limitMemory(on bool) {
	switch {
	case on && h.limit < 0 && h.opts.memBudget() < debug.SetMemoryLimit(-1):
		h.limit = debug.SetMemoryLimit(h.opts.memBudget())
	case !on && h.limit >= 0:
		debug.SetMemoryLimit(h.limit)
		h.limit = -1
	}
}

// release puts back what holdWhileSolving changed.
func (h *hold) release() {
	h.db.SetNextUse(nil)
	if len(h.raised) > 0 && slices.Contains(h.raised, h.db.CacheLimit()) {
		h.db.SetCacheBytes(h.old)
	}
	if h.limit >= 0 {
		debug.SetMemoryLimit(h.limit)
	}
}
