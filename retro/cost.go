package retro

import (
	"slices"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// The cost model of a unit: its memory, processor time and disk space. It
// is the one model behind muehlectl plan, the resources muehlectl slurm
// asks for and the estimate of the program's Database tab.
//
// The rates are fitted to the solve records of the development machine
// (2 cores, 2 workers, 23 GiB), copied into testdata/: the standard game
// computed from an empty folder with --compress on the otherwise idle
// machine in one run, each unit with its processor time:
// solve-record-k9-60m.tsv (2026-11-30 12:43, 6d135c6, 60 min 31 s) for
// the moving units, solve-record-k9-57m.tsv (2026-11-30 19:30, fe8cb97,
// 57 min 31 s; docs/solver.md, "A dense layer copied at one byte per
// slot") for the placement units; solve-record-k5.tsv, the k=5 game with
// its 67 placement layers of the full sweep. The runs of the machine
// before (solve-record-k9-compress.tsv, af59930; -58m.tsv, a1f4a6f;
// -compress-placement.tsv, c2152d7), solve-record-k9-idle.tsv (the flat
// run of 2026-11-27, 1 h 34 min, whose rates these were before the
// solver's round three) and solve-record-k9.tsv, an earlier campaign on a
// shared machine, are kept
// for muehlectl plan --calibrate. docs/cluster.md ("What each unit
// costs") tells the runs and how well the model fits them. Read the rates
// as that rough:
//
//   - The 9-stone rates are this machine's best: one solver, nothing else
//     heavy beside it. The full sweep's rate comes from a run beside other
//     builds, tests and solves (load average often 3 to 10), where the
//     same unit measured twice has differed by 4.4× (docs/cluster.md).
//   - Within a kind the rate of single units varies: the large sliding
//     pairs from 0.76 to 2.7 million slots per core-second in the flat
//     run (small pairs are faster, their arrays closer to the caches).
//   - The time includes verification, and with --compress compressing
//     the unit's layers.
//   - Other games differ: Lasker Morris's units took 1.27 times the
//     model's processor time (48 units of its campaign's record).
//
// TestCostModelFitsRecords compares the model with those records unit by
// unit; `muehlectl plan --calibrate FILE.tsv` prints the comparison.
const (
	// costBaseBytes is the memory of a solver process before its unit's
	// arrays: the group-B index table (172 MB), the Go runtime, the pages
	// of mapped layer files in use.
	costBaseBytes = 300 << 20
	// Processor throughput, in slots per processor second, solving and
	// then verifying (and compressing, with --compress), fitted to the
	// processor time of the standard game's run from an empty folder
	// with --compress on the idle machine (2026-11-30 12:43, 6d135c6,
	// 60 min 31 s; the machine before took 0.76 to 0.94 of its time for
	// the same work, docs/solver.md). Pairs with a flying side (3
	// stones) propagate over long depths: 1,780,000 (3-3 to 3-7 + 7-3:
	// 51 million slots in 28.8 processor seconds), and above
	// costFlyingLargeSlots (3-8 + 8-3, 3-9 + 9-3) 1,530,000 (127 million
	// slots in 83.2). Pairs of sliding stones are fast while they are
	// small: 6,280,000 (4-4, 4-5 + 5-4: 24 million in 3.9); above
	// costLargeSlots 2,060,000 (the other 19 units: 8.75 billion slots in
	// 4,248.9 processor seconds; 1,210,000 per core-second of wall time
	// in the flat run of 2026-11-27, before the solver's round three).
	// The full placement sweep (every class) probes each position's
	// children in the database: 50,000 (the k=5 game's 67 layers: 26
	// million in 516 core-seconds of wall time). The reachable sweep
	// computes a share of the classes (ReachableShare) at
	// costReachableRate reachable classes per processor second,
	// verification included, the reading of compressed layers apart (the
	// 9-stone sweep's 496 units after the first in the timed run of
	// 2026-11-30 19:30 on this machine, fe8cb97, which copies the dense
	// children at one byte per slot: 1,626.0 processor seconds against
	// 2,073.6 in the run of 12:43, 6d135c6, whose rate was 1,590,000;
	// 3.22 billion reachable classes at the game's share: 2,040,000; the
	// share of a single layer ranges from almost none to all, which the
	// model does not know, so only the sum fits). A unit whose dense
	// children's copies do not fit in the memory budget (copiesFit) reads
	// them where they lie, at costReachableInPlaceRate: the 448 units
	// with dense children took 797.9 s of wall time in the run of 12:43
	// and 574.6 s in that of 19:30 (0.720), so 2,040,000 × 0.720. The
	// sweep's first unit runs the forward pass first, at
	// costReachPassRate reachable classes of the whole game per
	// processor second (3.20 billion reachable classes in 436.1
	// processor seconds in that run: 7,340,000; on the machine before
	// 355.8 and 357.9, 9,000,000; docs/placement.md).
	costFlyingRate           = 1_780_000
	costFlyingLargeRate      = 1_530_000
	costFlyingLargeSlots     = 40_000_000
	costSlidingRate          = 6_280_000
	costLargeRate            = 2_060_000
	costLargeSlots           = 25_000_000
	costPlacementRate        = 50_000
	costReachableRate        = 2_040_000
	costReachableInPlaceRate = 1_469_000
	costReachPassRate        = 7_340_000
	// costUnitSeconds is what every unit costs besides its slots: writing
	// and syncing files, opening the layers it reads.
	costUnitSeconds = 0.02
	// Reading a finished layer kept compressed (compressed forms 1 and
	// 2, layers/doc.go), in processor nanoseconds: decoding it,
	// costDecodeNanos per byte of its body (and the CRC and the counts
	// that check it); in form 2 also finding each won slot's depth by one
	// ply over its children as they lie (DB.Layer's fill): costFillNanos
	// per won slot, and the children's blocks decoded for their probes,
	// each compressed child once at costDecodeNanos a byte. A layer not
	// computed yet counts the game's WonShare of its slots won.
	// Measured on this machine with BenchmarkReadCompressed
	// (layers/readcost_bench_test.go; docs/solver.md, "Processor time in
	// the record, and reading compressed layers in the model"), a
	// database opened afresh for each read, processor time, three runs:
	//   - decoding: the standard game's 6-6 in form 2 (157 M slots) 1.71
	//     to 1.78 s, 10.9 to 11.3 ns a byte (2026-11-29 19:25, the folder
	//     of the timed run with --compress, the Lasker Morris campaign at
	//     nice 19 beside it); 11.5 to 12.0 the first time (load 13 to
	//     15). Lasker Morris's p6+0-4+1 9.5 to 9.9, p4+1-6+0 (almost all
	//     lost) 2.3 to 2.6: the rate is the largest layers', an upper
	//     bound. Since 3b3ca40 (the context loop, layers/codec.go) 6-6
	//     decodes at 7.9 to 8.3 ns a byte (six runs, 2026-11-29 21:40,
	//     the campaign beside it at the lowest priority): 8; read in
	//     full 5.87 to 6.24 s (three runs), the model 5.91;
	//   - the fill: 6-6 read in full, with its child 5-6 decoded whole
	//     for the ply (DB.Layer since a2eedf5), 6.49 to 6.60 s for 23.25
	//     M won slots (9.62 to 9.93 before, its children's blocks decoded
	//     probe by probe); less decoding the two (230 M bytes) at 11 ns
	//     a byte, 174 ns a won slot, which the constant rounds to 175;
	//   - checked on Lasker Morris with 6 stones, solved with --compress
	//     (every layer form 2, the program of 420c4d0): its 6-6 read in
	//     full 9.59 s, the model 9.62 then; p6+0-4+1 (696 K won,
	//     children 33 M bytes) 0.67 s, the model 0.89; p4+1-6+0 (26 K
	//     won, children 141 M bytes, mostly lost, decoding fast) 0.75 s,
	//     the model 1.92. For Lasker Morris's layers with stones in hand
	//     the term was high by up to 2.6x;
	//   - the won share (WonShare).
	costDecodeNanos = 8
	costFillNanos   = 175
	// costListBytes is the disk space reserved for a pair's work lists,
	// per slot of the pair. A slot enters a list at most twice (8 bytes
	// each: a seed from a removal and its decision), and the lists of a
	// finished depth are removed; at their fullest they held 4.4 MB on
	// 3-5 + 5-3 (5.3 million slots, under 1 byte per slot) and next to
	// nothing on 5-5.
	costListBytes = 8
)

// reachableShares are the shares of the placement classes reachable from
// the empty board, by game and stones per side (0 where not known):
//   - the standard game: exact for 3 to 6 and 9 (muehlectl reach, and the
//     reach files of the 9-stone game's sweep: 3,198,110,285 of
//     17,856,763,819 classes), interpolated geometrically between 6 and 9
//     for 7 and 8 (not counted);
//   - Twelve Men's Morris: exact for 3 to 6 (muehlectl reach --game
//     twelve: 99.03, 68.58, 53.04, 39.65 %) and 12 (the complete game's
//     dense layers: 18,744,419,256 of 96,006,100,983 classes, 19.52 %),
//     interpolated geometrically between 6 and 12 for 7 to 11 (0.889 a
//     stone; not counted). An extrapolation from 3 to 6 had given 12
//     stones 6.9 %, and plan 34 GB for a game that took 44.5 GiB.
var reachableShares = map[muehle.GameID][]float64{
	muehle.Standard: {3: 0.9924, 4: 0.6908, 5: 0.5397, 6: 0.4076, 7: 0.3100, 8: 0.2357, 9: 0.1791},
	muehle.Twelve:   {3: 0.9903, 4: 0.6858, 5: 0.5304, 6: 0.3965, 7: 0.3523, 8: 0.3131, 9: 0.2782, 10: 0.2472, 11: 0.2197, 12: 0.1952},
}

// wonShares are the shares of won slots among a game's slots, by game,
// for the layers not computed yet (WonShare): the standard game's 43
// moving layers 3-3 to 8-8 hold 45.2 % won slots (2,638 M of 5,833 M);
// Lasker Morris's first 33 layers (its moving layers up to 3-10 + 10-3 and
// 5-7 + 7-5, 2026-11-29) 36.7 % (531 M of 1,447 M), the whole game with 6
// stones a side 16.0 % (165 M of 1,032 M; 19.2 % of its layers with
// stones in hand). Single layers range from none (3-9) to 99 % (9-3),
// which the header says once the layer exists.
var wonShares = map[muehle.GameID]float64{muehle.Standard: 0.45, muehle.Lasker: 0.37}

// WonShare returns the share of won slots the model expects in a layer of
// variant v not computed yet: the share measured on v's game's largest
// layers, the standard game's for a game not measured.
func WonShare(v muehle.Variant) float64 {
	if s, ok := wonShares[v.Game]; ok {
		return s
	}
	return wonShares[muehle.Standard]
}

// ReachableShare returns the share of the placement classes of variant v
// that a game can reach from the empty board, which the reachable sweep
// computes (the rest of its layers' slots stay Unused). A game or stone
// count the table does not know counts as all.
func ReachableShare(v muehle.Variant) float64 {
	if t := reachableShares[v.Game]; v.Stones >= 3 && v.Stones < len(t) {
		return t[v.Stones]
	}
	return 1
}

// CompressedShare is the size of a game's layer files kept compressed
// (SolveOptions.Compress, layers/doc.go: compressed form 2, a won slot
// stored without its depth) as a share of their size lying flat,
// measured where a game's bytes lie: in its largest moving layers. The
// standard game's 7-8, 8-7 and 7-7 took 392 MB of 1,479 MB in form 2
// (26.5 %: 3.119, 1.157 and 2.116 bits per stored value; TestForm2Sizes
// on /tmp/bench-k9, 2026-11-29), its 43 moving layers up to 15 stones 20.8
// % (1.677 bits per value); in form 1, every depth stored, the five
// largest had taken 46.9 %. Small games compress far better, so the share
// overstates them; a game with fewer draws or longer wins differs, good
// to a factor 1.5 for the large ones. Those figures took for each block
// the smaller of zstd and the context streams; since 2026-11-30 a block
// is zstd unless the streams save a sixteenth of it (layers/codec.go,
// streamsGain), which made five of Lasker Morris's moving layers (7-6,
// 4-9, 6-6, 5-9, 8-6) 7.9 % larger and the 6-stone game's folder 17.6 %
// (TestCoderTrial): 0.27 × 1.079 = 0.291, rounded up, until the standard game's
// largest layers are measured again.
const CompressedShare = 0.30

// KeptCompressed returns what layers of flat bytes lying flat take kept
// compressed once verified (at CompressedShare), and the most disk they
// take while computed: that, plus the largest unit's flat layer files
// (largest), which lie flat until verified, plus its work lists (work),
// plus what the layers kept flat for their placement parents take beyond
// compressed at the most (keptFlat, KeptFlatPeak).
func KeptCompressed(flat, largest, work, keptFlat uint64) (kept, peak uint64) {
	kept = uint64(float64(flat) * CompressedShare)
	return kept, kept + largest + work + keptFlat
}

// CalibrationCores is the number of cores of the machine the rates were
// measured on (with one worker per core). A unit's wall time on a machine
// with n cores is about CPUSeconds/(n·CoreUse) (WallSeconds); more cores
// help less than that, since the solver waits for memory much of the
// time.
const CalibrationCores = 2

// CoreUse is the share of its cores a unit keeps busy on the calibration
// machine: the standard game's run from an empty folder with --compress
// (2026-11-29, 2 workers) used 7,482 s of processor time in 4,090 s of
// wall time (/usr/bin/time: 182 %), its units 1.59 to 1.94 of the 2 cores.
const CoreUse = 0.91

// WallSeconds returns the expected wall seconds of cpu processor seconds
// of the model on a machine of cores cores, one worker per core.
func WallSeconds(cpu float64, cores int) float64 {
	return cpu / (CoreUse * float64(max(1, cores)))
}

// VerifyShare is the share of a unit's time spent verifying its layers
// (40 % in the moving phase's run), for the progress of a run that only
// verifies.
const VerifyShare = 0.4

// Cost is what a unit is expected to take.
type Cost struct {
	// MemBytes is the expected peak memory of a solver process computing
	// and verifying the unit: the base, the state words of a moving pair
	// (4 bytes per slot; the bodies written are made in them) and the
	// copies of the layers its removals lead to (1 byte per slot of
	// those); for a placement layer its values (1 byte per slot, or per
	// reachable class with the reach bits of its slots and of its parents'
	// slots) and the copies of the layers its children lie in (their file
	// bodies); with CostOptions.Held, the layers the DB holds decoded
	// for later units.
	MemBytes uint64
	// CPUSeconds is the expected processor time, solving and verifying:
	// on n cores it takes WallSeconds of it.
	CPUSeconds float64
	// DiskBytes is the disk space of the unit's layer files, kept (a
	// placement layer of the reachable sweep is dense).
	DiskBytes uint64
	// ReachCPUSeconds is the part of CPUSeconds that the forward pass
	// takes (Unit.Reach), 0 for the other units.
	ReachCPUSeconds float64
	// ReadCPUSeconds is the part of CPUSeconds that reading the finished
	// layers kept compressed takes (CostOptions): decoding them, and in
	// form 2 finding their won depths.
	ReadCPUSeconds float64
	// TempBytes is the temporary disk space while the unit is computed
	// (the solver's TempDir): the work lists, and the state words when
	// they exceed the memory budget (see UnitCostIn); for the unit that
	// runs the forward pass, the reach files of all placement layers,
	// which stay until every placement layer is dense and verified.
	TempBytes uint64
}

// Wall returns the expected wall time of c on a machine with cores cores.
func (c Cost) Wall(cores int) time.Duration {
	return time.Duration(WallSeconds(c.CPUSeconds, cores) * float64(time.Second))
}

// UnitCost returns the expected cost of unit u, with the state words in
// memory and the layers it reads lying flat.
func UnitCost(ix *layers.Indexer, u Unit) Cost { return UnitCostIn(ix, u, 0) }

// UnitCostIn returns the expected cost of unit u for a solver whose memory
// budget is memBytes (SolveOptions.MemBytes: 0 means in memory whatever
// the size): a larger state goes into a file beside the work lists. The
// layers it reads lie flat.
func UnitCostIn(ix *layers.Indexer, u Unit, memBytes int64) Cost {
	return UnitCostWith(ix, u, CostOptions{MemBytes: memBytes})
}

// CostOptions says how a unit is solved, for its cost.
type CostOptions struct {
	// MemBytes is the solver's memory budget (UnitCostIn).
	MemBytes int64
	// Compress says the layers not computed yet will be kept compressed
	// in form 2 (SolveOptions.Compress), so that a unit reading them
	// decodes them and finds their won depths.
	Compress bool
	// Layer returns how a present layer is kept (0: one byte per value,
	// read in place; 1 or 2: compressed form 1 or 2) and the won slots
	// its header counts; ok false for a layer not present. nil: none is.
	Layer func(k layers.Key) (form int, won uint64, ok bool)
	// Held, when set, follows the compressed layers a solver in one
	// process holds decoded from one unit to the next (HeldLayers): a
	// unit that reads one of them does not pay for it again. The units
	// must then be costed once each, in the order they run. nil: every
	// unit reads the layers afresh, as a unit run alone does
	// (SolveUnit, a Slurm job).
	Held *HeldLayers
}

// HeldLayers follows, for the cost model, the compressed layers a DB
// holds decoded while Solve runs in one process, by Solve's rules
// (hold.go): the layers a unit's reads decoded, their won depths found,
// and with --compress the unit's own layers once written, up to the DB's
// bound less the block cache's floor (an eighth), the bound unitBound in
// the moving phase (what the unit leaves of the memory budget) and
// placementBound in the placement phase, letting go first of the layers
// the units read last.
type HeldLayers struct {
	bound, placement uint64 // the DB's bound: now, and once in the placement phase
	opts             SolveOptions
	bytes            uint64
	keys             []layers.Key // oldest first
	held             map[layers.Key]heldLayer
	reads            readPlan
	index            map[UnitName]int // the units' places in the read plan
	at               int              // the unit being costed
}

// heldLayer is a layer HeldLayers holds: its bytes, and whether with its
// won depths found (read by DB.Layer), not only as stored (a child read
// for that fill).
type heldLayer struct {
	size   uint64
	filled bool
}

// NewHeldLayers returns an empty HeldLayers for a solver with opts of
// variant v, which does the units of Units(v, opts) in order.
func NewHeldLayers(ix *layers.Indexer, v muehle.Variant, opts SolveOptions) *HeldLayers {
	units := Units(v, opts)
	own := int64(layers.DefaultCacheBytes) // a new DB's
	h := &HeldLayers{bound: uint64(max(movingBound(opts), own)), placement: uint64(max(placementBound(ix, v, opts), own)),
		opts: opts,
		held: map[layers.Key]heldLayer{}, reads: readsOf(v, units), index: map[UnitName]int{}}
	for i, u := range units {
		h.index[u.Name] = i
	}
	return h
}

// start notes that unit u, which needs own bytes of its own (unitCost), is
// costed next: the read plan's place, and its bound: in the placement
// phase the larger one, for a moving unit what it leaves (unitBound, not
// below a new DB's bound), the layers beyond it let go.
func (h *HeldLayers) start(u Unit, own uint64) {
	h.at = h.index[u.Name]
	if u.Placement {
		h.bound = max(h.bound, h.placement)
		return
	}
	h.bound = uint64(max(unitBound(own, h.opts), layers.DefaultCacheBytes))
	h.fit()
}

// room is what the layers held may take: the bound less the block
// cache's floor.
func (h *HeldLayers) room() uint64 { return h.bound - h.bound/8 }

// Bytes returns the bytes of the layers held.
func (h *HeldLayers) Bytes() uint64 { return h.bytes }

// has reports whether k is held, and whether with its won depths (none
// is when h is nil).
func (h *HeldLayers) has(k layers.Key) (held, filled bool) {
	if h == nil {
		return false, false
	}
	l, held := h.held[k]
	return held, l.filled
}

// hold records that layer k of n bytes is held (filled: with its won
// depths found), the newest, and lets go of the layers read last while
// the layers exceed the room, never the newest (DB.holdDecoded). On a
// nil h it does nothing.
func (h *HeldLayers) hold(k layers.Key, n uint64, filled bool) {
	if h == nil {
		return
	}
	if old, ok := h.held[k]; ok {
		h.bytes -= old.size
		h.keys = slices.DeleteFunc(h.keys, func(x layers.Key) bool { return x == k })
	}
	h.keys = append(h.keys, k)
	h.held[k] = heldLayer{size: n, filled: filled}
	h.bytes += n
	h.fit()
}

// fit lets go of the layers read last while the layers held exceed the
// room, never the newest.
func (h *HeldLayers) fit() {
	for h.bytes > h.room() && len(h.keys) > 1 {
		i := layers.NeededLast(h.keys, func(x layers.Key) int { return h.reads.next(x, h.at) })
		x := h.keys[i]
		h.keys = slices.Delete(h.keys, i, i+1)
		h.bytes -= h.held[x].size
		delete(h.held, x)
	}
}

// CostOptionsFor returns the cost options of solving opts in db: its
// present layers as they are kept, the others as opts keeps them.
func CostOptionsFor(db *layers.DB, opts SolveOptions) CostOptions {
	seen := map[layers.Key]struct {
		form int
		won  uint64
		ok   bool
	}{}
	return CostOptions{MemBytes: opts.memBudget(), Compress: opts.Compress, Layer: func(k layers.Key) (int, uint64, bool) {
		if l, ok := seen[k]; ok {
			return l.form, l.won, l.ok
		}
		h, err := db.Header(k)
		l := seen[k]
		if err == nil {
			l.form, l.won, l.ok = db.Form(k), h.Won, true
		}
		seen[k] = l
		return l.form, l.won, l.ok
	}}
}

// kept returns how layer k of variant v is kept (its compressed form, 0
// for flat) and its won slots: as it lies if present, else as the solve
// keeps it, at the game's WonShare.
func (o CostOptions) kept(ix *layers.Indexer, v muehle.Variant, k layers.Key) (form int, won uint64) {
	form, won, ok := 0, uint64(0), false
	if o.Layer != nil {
		form, won, ok = o.Layer(k)
	}
	if !ok && o.Compress {
		form, won = 2, uint64(WonShare(v)*float64(ix.Layer(k).Size()))
	}
	return form, won
}

// readSeconds returns the processor seconds unit u spends reading the
// finished layers its moves lead to out of the unit (each once, in full:
// DB.Layer) that are kept compressed: decoding each; in form 2 finding
// the depths of its won slots, as counted by its header or, for a layer
// not computed yet, at the game's WonShare of its slots, and decoding its
// children kept compressed for their probes (each layer decoded once in
// the unit). A placement unit reads a layer of one byte per slot in form
// 2 as stored (solvePlacement): decoded, the few depths it needs found
// among its won slots, which the model leaves out.
func readSeconds(ix *layers.Indexer, u Unit, o CostOptions) float64 {
	state := func(k layers.Key) (form int, won uint64) { return o.kept(ix, u.variant, k) }
	var ns float64
	decoded := map[layers.Key]bool{}
	decode := func(k layers.Key) {
		if held, _ := o.Held.has(k); held {
			return
		}
		if !decoded[k] && !slices.Contains(u.Keys, k) { // the unit's own lie flat until verified
			decoded[k] = true
			ns += costDecodeNanos * float64(u.bodyBytes(ix, k))
			o.Held.hold(k, u.bodyBytes(ix, k), false)
		}
	}
	read := map[layers.Key]bool{}
	for _, k := range u.Keys {
		for _, x := range layers.SuccessorsIn(u.variant, k) {
			if read[x] || slices.Contains(u.Keys, x) {
				continue
			}
			form, won := state(x)
			if form == 0 {
				continue
			}
			if _, filled := o.Held.has(x); filled {
				continue
			}
			read[x] = true // decoded perhaps as another's child, its depths still to find
			decode(x)
			if form != 2 || u.Placement && u.oneByte(x) {
				continue
			}
			ns += costFillNanos * float64(won)
			for _, c := range layers.SuccessorsIn(u.variant, x) {
				if f, _ := state(c); f != 0 {
					decode(c)
				}
			}
			o.Held.hold(x, u.bodyBytes(ix, x), true)
		}
	}
	return ns / 1e9
}

// UnitCostWith returns the expected cost of unit u solved with o.
func UnitCostWith(ix *layers.Indexer, u Unit, o CostOptions) Cost {
	if o.Held != nil {
		o.Held.start(u, unitCost(ix, u, o.MemBytes, 0).MemBytes)
	}
	read := readSeconds(ix, u, o)
	// The layers held for later units, beside those the unit reads
	// (counted by unitCost: a placement unit borrows them), which leave
	// less room for a placement unit's copies.
	var others uint64
	if o.Held != nil {
		others = o.Held.Bytes()
		if u.Placement {
			for _, x := range layers.SuccessorsIn(u.variant, u.Keys[0]) {
				others -= o.Held.held[x].size
			}
		}
	}
	c := unitCost(ix, u, o.MemBytes, others)
	c.ReadCPUSeconds = read
	c.CPUSeconds += read
	c.MemBytes += others
	if o.Held != nil {
		// Written, verified and compressed, the unit's own layers are
		// held decoded (DB.CompressDerived) if one fits the DB's bound.
		for _, k := range u.Keys {
			if form, _ := o.kept(ix, u.variant, k); form != 0 && u.bodyBytes(ix, k) <= o.Held.bound {
				o.Held.hold(k, u.bodyBytes(ix, k), true)
			}
		}
	}
	return c
}

// bodyBytes returns the bytes of the body of layer k as unit u's solve
// keeps it: one per slot, or dense (a placement layer of the reachable
// sweep, at the game's reachable share).
func (u Unit) bodyBytes(ix *layers.Indexer, k layers.Key) uint64 {
	n := ix.Layer(k).Size()
	if u.oneByte(k) {
		return n
	}
	return layers.DenseBodySize(n, uint64(ReachableShare(u.variant)*float64(n)))
}

// CostAsRecorded returns the cost c of unit u as the solve record r shows
// the unit done: the forward pass of the first placement unit counts only
// when r has its reach phase. Without one the pass was found done, or
// another solver sharing the folder computed it while this one waited,
// and the unit's times hold none of it.
func CostAsRecorded(u Unit, c Cost, r layers.Record) Cost {
	if u.Reach && !slices.ContainsFunc(r.Phases, func(p layers.PhaseTime) bool { return p.Phase == PhaseReach }) {
		c.CPUSeconds -= c.ReachCPUSeconds
		c.ReachCPUSeconds = 0
	}
	return c
}

// oneByte reports whether unit u's solve keeps layer k at one byte per
// slot: a moving layer, or any layer of the full sweep.
func (u Unit) oneByte(k layers.Key) bool { return k.IsMoving() || !u.Reachable }

// unitCost is UnitCostIn without the reading of compressed layers, for
// a unit beside held bytes of layers held decoded for later units.
func unitCost(ix *layers.Indexer, u Unit, memBytes int64, held uint64) Cost {
	slots := u.Slots(ix)
	c := Cost{MemBytes: uint64(costBaseBytes),
		DiskBytes: slots + uint64(len(u.Keys))*layers.HeaderSize}
	if u.Placement {
		body := func(k layers.Key) uint64 { return u.bodyBytes(ix, k) }
		k := u.Keys[0]
		var copies uint64
		for _, s := range k.Successors() {
			c.MemBytes += body(s) // the children's layers, as read
			if !u.oneByte(s) {
				copies += ix.Layer(s).Size() // a dense one's copy at one byte per slot (layers.File.Copy)
			}
		}
		if !u.Reachable {
			c.MemBytes += slots // the body written
			c.CPUSeconds = costUnitSeconds + float64(slots)/costPlacementRate
			return c
		}
		c.MemBytes += placementOwnBytes(ix, u) - costBaseBytes
		share := ReachableShare(u.variant)
		rate := float64(costReachableRate)
		switch {
		case copies == 0:
		case memBytes <= 0 || copiesFit(memBytes, c.MemBytes+held, copies):
			c.MemBytes += copies
		default:
			rate = costReachableInPlaceRate
		}
		c.DiskBytes = body(k) + layers.HeaderSize
		c.CPUSeconds = costUnitSeconds + share*float64(slots)/rate
		if u.Reach {
			var all uint64
			var ply [2 * muehle.MaxStones]uint64
			for _, k := range layers.PlacementLayers(u.variant.Stones) {
				all += ix.Layer(k).Size()
				ply[PlyOf(u.variant.Stones, k)] += ix.Layer(k).Size()
				c.TempBytes += layers.ReachFileBytes(ix.Layer(k).Size())
			}
			c.ReachCPUSeconds = share * float64(all) / costReachPassRate
			c.CPUSeconds += c.ReachCPUSeconds
			var two uint64 // the pass holds two plies of bits
			for p := 1; p < len(ply); p++ {
				two = max(two, (ply[p-1]+ply[p])/8)
			}
			c.MemBytes += two
		}
		return c
	}
	c.MemBytes += 4 * slots // the state words, which become the bodies written
	c.TempBytes = costListBytes * slots
	if memBytes > 0 && 4*slots > uint64(memBytes) {
		c.TempBytes += 4 * slots
	}
	for _, k := range u.Keys {
		if r, ok := k.RemovalLayer(); ok {
			c.MemBytes += ix.Layer(r).Size()
		}
	}
	flying := u.flies()
	rate := float64(costSlidingRate)
	switch {
	case flying && slots > costFlyingLargeSlots:
		rate = costFlyingLargeRate
	case flying:
		rate = costFlyingRate
	case slots > costLargeSlots:
		rate = costLargeRate
	}
	c.CPUSeconds = costUnitSeconds + float64(slots)/rate
	return c
}

// placementOwnBytes returns the memory placement unit u of the reachable
// sweep needs of its own, beside its children's layers and their copies:
// the base, the values and the reach bits, and the reach bits of the
// parents' layers that the verifier reads.
func placementOwnBytes(ix *layers.Indexer, u Unit) uint64 {
	k, slots := u.Keys[0], u.Slots(ix)
	own := costBaseBytes + uint64(ReachableShare(u.variant)*float64(slots)) + slots/8
	if ply := PlyOf(u.variant.Stones, k); ply > 0 {
		for _, p := range PlyLayers(u.variant.Stones, ply-1) {
			own += ix.Layer(p).Size() / 8
		}
	}
	return own
}

// DefaultMemBytes returns the memory budget Solve uses when
// SolveOptions.MemBytes is 0: three quarters of the machine's memory.
func DefaultMemBytes() int64 { return defaultMemBytes() }

// flies reports whether a side of one of u's layers flies by its game's
// rules (muehle.Rules.FlyAt, counting the stones on the board and in
// hand): the model's flying rates, for the many jumps.
func (u Unit) flies() bool {
	r := u.variant.Rules()
	for _, k := range u.Keys {
		if r.Flies(int(k.W)+int(k.WH)) || r.Flies(int(k.B)+int(k.BH)) {
			return true
		}
	}
	return false
}
