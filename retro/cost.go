package retro

import "muehle/layers"

// The cost model of a unit, for planning a run on a batch system. It is
// calibrated on units measured on the development machine (2 cores, shared
// with other work): the per-unit log lines of muehlectl solve, which give
// each unit's slots, wall time (solving and verifying) and peak memory.
// `muehlectl plan --calibrate LOG...` compares the model with such lines;
// docs/cluster.md gives the comparison and how far off the model is.
const (
	// costBaseBytes is the memory of a solver process before its unit's
	// arrays: the group-B index table (172 MB), the Go runtime, the pages
	// of mapped layer files in use.
	costBaseBytes = 300 << 20
	// Processor throughput, in slots per core-second, solving and then
	// verifying. Pairs with a flying side (3 stones) propagate over long
	// depths, and once their state is hundreds of megabytes (3-8 + 8-3,
	// 3-9 + 9-3) ten times slower still; pairs of sliding stones are fast
	// while their state stays small and about three times slower once it
	// is large; placement layers search each position's children in the
	// database.
	costFlyingRate      = 300_000
	costFlyingLargeRate = 30_000
	costSlidingRate     = 1_000_000
	costLargeRate       = 300_000
	costLargeSlots      = 40_000_000
	costPlacementRate   = 250_000
	// costUnitSeconds is what every unit costs besides its slots: writing
	// and syncing files, opening the layers it reads.
	costUnitSeconds = 0.02
)

// Cost is what a unit is expected to take.
type Cost struct {
	// MemBytes is the expected peak memory of a solver process computing
	// and verifying the unit: the base, the state words (4 bytes per slot),
	// the bodies being written (1 byte per slot) and the copies of the
	// layers the removals lead to (1 byte per slot of those).
	MemBytes uint64
	// CPUSeconds is the expected processor time, solving and verifying:
	// the wall time on one core, or on n cores about CPUSeconds/n.
	CPUSeconds float64
}

// UnitCost returns the expected cost of unit u.
func UnitCost(ix *layers.Indexer, u Unit) Cost {
	slots := u.Slots(ix)
	mem := uint64(costBaseBytes) + slots // the bodies written
	if u.Placement {
		return Cost{MemBytes: mem, CPUSeconds: costUnitSeconds + float64(slots)/costPlacementRate}
	}
	mem += 4 * slots // the state words
	flying := false
	for _, k := range u.Keys {
		if r, ok := k.RemovalLayer(); ok {
			mem += ix.Layer(r).Size()
		}
		flying = flying || k.W == 3 || k.B == 3
	}
	large := slots > costLargeSlots
	rate := float64(costSlidingRate)
	switch {
	case flying && large:
		rate = costFlyingLargeRate
	case flying:
		rate = costFlyingRate
	case large:
		rate = costLargeRate
	}
	return Cost{MemBytes: mem, CPUSeconds: costUnitSeconds + float64(slots)/rate}
}
