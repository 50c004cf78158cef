package retro

import (
	"math"
	"slices"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// readRecord reads the solve record in file (layers.ReadRecordFile); a unit
// recorded twice counts with its last line.
func readRecord(t *testing.T, file string) []layers.Record {
	t.Helper()
	recs, err := layers.ReadRecordFile(file)
	if err != nil || len(recs) == 0 {
		t.Fatalf("%s: %d records, %v", file, len(recs), err)
	}
	return layers.Latest(recs)
}

// TestCostModelFitsRecords compares the cost model with the solve records
// it was fitted to (cost.go), each for the kinds of unit it calibrates: for
// each kind of unit the total measured time over the total the model
// expects (the ratio that decides a whole run's estimate) within 0.8 to
// 1.25, and every unit of at least a million slots within a factor 4 (what
// a shared machine does to one unit). A record with the units' processor
// time is compared by it, the model costing the units in order as one
// solve with --compress does (CostOptions.Held); one without, by wall
// time. The rates were chosen from these records, so this checks the fit
// and guards the rates and the kinds against an unnoticed change; it is
// not an independent test of the model.
func TestCostModelFitsRecords(t *testing.T) {
	ix, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file   string
		stones int
		kinds  []string // the kinds of unit whose rates come from the file
		every  bool     // placement units of the full sweep, not the reachable one
	}{
		// The standard game from an empty folder with --compress on the
		// idle machine: the moving rates are fitted to the run of 60 min
		// 31 s (2026-11-30, 6d135c6), the reachable sweep's to the run of
		// 57 min 31 s (fe8cb97, its dense children copied at one byte per
		// slot; docs/solver.md), whose moving units checks the moving
		// rates again.
		{"testdata/solve-record-k9-60m.tsv", 9, []string{"flying", "flying large", "sliding", "sliding large"}, false},
		{"testdata/solve-record-k9-57m.tsv", 9, []string{"flying", "flying large", "sliding", "sliding large", "placement"}, false},
		// The machine before, which did the same work in 0.80 to 0.87
		// of the processor time, with the solvers of the day (af59930,
		// and the whole run of 58 min 54 s, 274339d). Checked for the
		// bulk of a run, the large sliding units; its small units took
		// 0.76 to 0.87 of this machine's time, and its placement units
		// copied no dense layer at one byte per slot.
		{"testdata/solve-record-k9-compress.tsv", 9, []string{"sliding large"}, false},
		{"testdata/solve-record-k9-58m.tsv", 9, []string{"sliding large"}, false},
		// The k=5 game ran its moving units under a heavier load (2 to 4
		// times the campaign's time for the same units); its placement
		// layers are the only ones measured.
		{"testdata/solve-record-k5.tsv", 5, []string{"placement"}, true},
	} {
		v := muehle.Standard.With(tc.stones)
		opts := SolveOptions{Placement: true, PlacementAll: tc.every}
		units := Units(v, opts)
		run := CostOptions{Compress: true, Held: NewHeldLayers(ix, v, opts)}
		measured, model := map[string]float64{}, map[string]float64{}
		for _, r := range readRecord(t, tc.file) {
			u, err := FindUnit(units, string(r.Unit))
			if err != nil || u.Slots(ix) != r.Slots {
				t.Fatalf("%s: unit %s of %d slots is not a unit of the k=%d game (%v)", tc.file, r.Unit, r.Slots, tc.stones, err)
			}
			var seconds, want float64
			if r.CPUKnown {
				seconds, want = r.CPUSeconds, UnitCostWith(ix, u, run).CPUSeconds
			} else {
				// The forward pass is left out on both sides: the
				// records without processor time hold the part that a
				// run resumed.
				c := UnitCost(ix, u)
				want = c.Wall(r.Workers).Seconds() - WallSeconds(c.ReachCPUSeconds, r.Workers)
				seconds = r.Seconds - r.Phase(PhaseReach)
			}
			kind := costKind(u, r.Slots)
			if !slices.Contains(tc.kinds, kind) {
				continue
			}
			// A placement unit's reachable share is the game's in the
			// model, not its layer's: only the sum is checked.
			if ratio := seconds / want; r.Slots >= 1_000_000 && (kind != "placement" || tc.every) && math.Abs(math.Log(ratio)) > math.Log(4) {
				t.Errorf("%s: unit %s: got %.1f s measured, model %.1f s: ratio %.2f, want within 4x", tc.file, r.Unit, seconds, want, ratio)
			}
			measured[kind] += seconds
			model[kind] += want
		}
		for _, kind := range tc.kinds {
			m := measured[kind]
			ratio := m / model[kind]
			t.Logf("%s %-14s measured %8.1f s, model %8.1f s, ratio %.2f", tc.file, kind, m, model[kind], ratio)
			if ratio < 0.8 || ratio > 1.25 {
				t.Errorf("%s: %s units: got %.1f s measured in all, model %.1f s: ratio %.2f, want 0.8 to 1.25", tc.file, kind, m, model[kind], ratio)
			}
		}
	}
}

// costKind names the kind of unit u whose rate the model uses.
func costKind(u Unit, slots uint64) string {
	if u.Placement {
		return "placement"
	}
	flying := u.flies()
	switch {
	case flying && slots > costFlyingLargeSlots:
		return "flying large"
	case flying:
		return "flying"
	case slots > costLargeSlots:
		return "sliding large"
	}
	return "sliding"
}

// TestUnitDisk checks the disk space of a unit: its layer files (a header
// and a byte per slot) kept, its work lists while it runs, and its state
// words too when they exceed the memory budget.
func TestUnitDisk(t *testing.T) {
	ix, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	units := Units(muehle.NineMensMorris, SolveOptions{Placement: true})
	pair, err := FindUnit(units, "m5-6")
	if err != nil {
		t.Fatal(err)
	}
	place, err := FindUnit(units, "p8+1-9+0")
	if err != nil {
		t.Fatal(err)
	}
	every, err := FindUnit(Units(muehle.NineMensMorris, SolveOptions{Placement: true, PlacementAll: true}), "p8+1-9+0")
	if err != nil {
		t.Fatal(err)
	}
	n := pair.Slots(ix)
	for _, tc := range []struct {
		name        string
		u           Unit
		mem         int64
		disk, temp  uint64
		wallOn2Core float64
	}{
		{"pair in memory", pair, 0, n + 2*layers.HeaderSize, costListBytes * n, (costUnitSeconds + float64(n)/costLargeRate) / (2 * CoreUse)},
		{"pair with room", pair, int64(4 * n), n + 2*layers.HeaderSize, costListBytes * n, (costUnitSeconds + float64(n)/costLargeRate) / (2 * CoreUse)},
		{"pair spilled", pair, int64(4*n - 1), n + 2*layers.HeaderSize, (costListBytes + 4) * n, (costUnitSeconds + float64(n)/costLargeRate) / (2 * CoreUse)},
		// Dense: the bits, the directory, a value for 17.91 % of the slots.
		{"placement, reachable sweep", place, 1, layers.HeaderSize + layers.DenseBodySize(place.Slots(ix), uint64(0.1791*float64(place.Slots(ix)))), 0,
			(costUnitSeconds + 0.1791*float64(place.Slots(ix))/costReachableRate) / (2 * CoreUse)},
		{"placement, every class", every, 1, place.Slots(ix) + layers.HeaderSize, 0, (costUnitSeconds + float64(place.Slots(ix))/costPlacementRate) / (2 * CoreUse)},
	} {
		c := UnitCostIn(ix, tc.u, tc.mem)
		if c.DiskBytes != tc.disk || c.TempBytes != tc.temp {
			t.Errorf("%s: got %d bytes kept, %d temporary, want %d, %d", tc.name, c.DiskBytes, c.TempBytes, tc.disk, tc.temp)
		}
		if got := c.Wall(2).Seconds(); math.Abs(got-tc.wallOn2Core) > 1e-6 {
			t.Errorf("%s: wall time on 2 cores: got %.3f s, want %.3f s", tc.name, got, tc.wallOn2Core)
		}
	}
}

// TestGameDisk compares the disk the model expects for every layer of a
// game's reachable sweep with the layer files of the two complete games
// computed here, as their reports measured them (docs/standard-database.md
// and docs/twelve-database.md, "Disk"): the moving layers exactly (a
// header and a byte per slot), the dense placement layers within 2 %
// (the model gives every layer the game's reachable share, and the
// layers' own shares differ).
func TestGameDisk(t *testing.T) {
	ix, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		v                   muehle.Variant
		moving, placement   uint64 // bytes of the layer files, measured
		movingN, placementN int    // layer files
	}{
		{muehle.NineMensMorris, 8_951_164_444, 5_516_753_845, 49, 497},
		{muehle.Twelve.With(12), 16_621_422_612, 31_132_093_500, 100, 1215},
	} {
		var moving, placement uint64
		var movingN, placementN int
		for _, u := range Units(tc.v, SolveOptions{Placement: true}) {
			c := UnitCost(ix, u)
			if u.Placement {
				placement += c.DiskBytes
				placementN += len(u.Keys)
			} else {
				moving += c.DiskBytes
				movingN += len(u.Keys)
			}
		}
		if moving != tc.moving || movingN != tc.movingN || placementN != tc.placementN {
			t.Errorf("%s: model %d moving layers of %d bytes, %d placement layers; measured %d of %d bytes, %d",
				tc.v.Name(), movingN, moving, placementN, tc.movingN, tc.moving, tc.placementN)
		}
		if ratio := float64(placement) / float64(tc.placement); math.Abs(ratio-1) > 0.02 {
			t.Errorf("%s: placement layers: model %d bytes, measured %d: ratio %.3f, want within 2 %%", tc.v.Name(), placement, tc.placement, ratio)
		} else {
			t.Logf("%s: placement layers: model %d bytes, measured %d: ratio %.4f", tc.v.Name(), placement, tc.placement, ratio)
		}
	}
}

// TestReachUnit checks which unit the cost model charges with the forward
// pass: the first placement unit of a reachable sweep, the one the solver
// runs first, and no unit of the full sweep.
func TestReachUnit(t *testing.T) {
	ix, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	for _, every := range []bool{false, true} {
		units := Units(muehle.NineMensMorris, SolveOptions{Placement: true, PlacementAll: every})
		var reach []UnitName
		var first UnitName
		for _, u := range units {
			if u.Placement && first == "" {
				first = u.Name
			}
			if u.Reach {
				reach = append(reach, u.Name)
			}
			if u.Placement && u.Reachable == every {
				t.Errorf("every class %v: unit %s: Reachable is %v", every, u.Name, u.Reachable)
			}
		}
		want := []UnitName{first}
		if every {
			want = nil
		}
		if !slices.Equal(reach, want) {
			t.Errorf("every class %v: got the forward pass in %v, want %v", every, reach, want)
		}
	}
	// The pass costs the reachable classes of the whole game at its rate,
	// and holds the two largest neighbouring plies' bits: for 9 stones
	// plies 16 and 17, 4.83 and 6.70 billion slots (docs/placement.md).
	units := Units(muehle.NineMensMorris, SolveOptions{Placement: true})
	var pass, next Unit
	for i, u := range units {
		if u.Reach {
			pass, next = u, units[i+1]
		}
	}
	p, n := UnitCost(ix, pass), UnitCost(ix, next)
	passSeconds := p.CPUSeconds - costUnitSeconds - 0.1791*float64(pass.Slots(ix))/costReachableRate
	if want := 0.1791 * 17_969_498_875 / costReachPassRate; math.Abs(passSeconds-want) > 1e-6*want {
		t.Errorf("the forward pass: got %.1f CPU seconds, want %.1f", passSeconds, want)
	}
	if bits := p.MemBytes - n.MemBytes - (pass.Slots(ix) - next.Slots(ix)); bits < 1_400_000_000 || bits > 1_450_000_000 {
		t.Errorf("the forward pass: got %d bytes of bits, want about 1.44 GB", bits)
	}
	// A record with the reach phase counts the pass; one without (the
	// pass computed by another solver, or found done) does not; other
	// units keep their cost either way.
	with := layers.Record{Unit: pass.Name, Phases: []layers.PhaseTime{{Phase: PhaseReach}, {Phase: PhaseCount, Seconds: 1}}}
	without := layers.Record{Unit: pass.Name, Phases: []layers.PhaseTime{{Phase: PhaseCount, Seconds: 1}}}
	if got := CostAsRecorded(pass, p, with); got != p {
		t.Errorf("recorded with its reach phase: got %+v, want %+v", got, p)
	}
	got := CostAsRecorded(pass, p, without)
	if want := p.CPUSeconds - passSeconds; math.Abs(got.CPUSeconds-want) > 1e-6*want || got.ReachCPUSeconds != 0 || got.MemBytes != p.MemBytes {
		t.Errorf("recorded without a reach phase: got %+v, want %.1f CPU seconds and no pass", got, want)
	}
	if got := CostAsRecorded(next, n, without); got != n {
		t.Errorf("unit %s recorded without a reach phase: got %+v, want %+v", next.Name, got, n)
	}
}

// TestReadingCompressed checks the cost of reading the finished layers a
// unit needs when they are kept compressed: none while they lie flat;
// with --compress, decoding and the won depths of each layer not computed
// yet at the model's won share, so a unit costs more; a present layer
// with its header's won slots; and the figure for the standard game's 6-6
// (the removals' layer of the pair 6-7 + 7-6, its children 6-6 and 5-6
// in form 2, 5-7 lying flat) against what reading it measured
// (BenchmarkReadCompressed, cost.go: 6.58 s of processor time, 6.49 to
// 6.60 in three runs).
func TestReadingCompressed(t *testing.T) {
	ix, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	v := muehle.NineMensMorris
	u, err := FindUnit(Units(v, SolveOptions{}), "m6-7")
	if err != nil {
		t.Fatal(err)
	}
	flat := UnitCostWith(ix, u, CostOptions{})
	if base := UnitCost(ix, u); flat != base || flat.ReadCPUSeconds != 0 {
		t.Errorf("layers flat: got %+v, want %+v, nothing read compressed", flat, base)
	}
	size := func(w, b int) float64 { return float64(ix.Layer(layers.Moving(w, b)).Size()) }
	// --compress, nothing present: 6-6 and 5-7 are read (decoded, their
	// won depths found at the model's share), and the children they
	// probe: 5-6 for 6-6 (6-6 is decoded already), 7-5 and 6-5 for 5-7.
	comp := UnitCostWith(ix, u, CostOptions{Compress: true})
	bytes := size(6, 6) + size(5, 7) + size(5, 6) + size(7, 5) + size(6, 5)
	won := float64(uint64(WonShare(v)*size(6, 6))) + float64(uint64(WonShare(v)*size(5, 7)))
	if want := (costDecodeNanos*bytes + costFillNanos*won) / 1e9; math.Abs(comp.ReadCPUSeconds-want) > 1e-6 || comp.CPUSeconds <= flat.CPUSeconds ||
		math.Abs(comp.CPUSeconds-flat.CPUSeconds-want) > 1e-6 {
		t.Errorf("with --compress: got %.3f s reading, %.1f s in all (flat %.1f s); want %.3f s more", comp.ReadCPUSeconds, comp.CPUSeconds, flat.CPUSeconds, want)
	}
	// The measured setting: 6-6 in form 2 with its header's 23,250,808
	// won slots, 5-6 in form 2, the rest flat.
	measured := CostOptions{Layer: func(k layers.Key) (int, uint64, bool) {
		switch k {
		case layers.Moving(6, 6):
			return 2, 23_250_808, true
		case layers.Moving(5, 6):
			return 2, 18_321, true
		}
		return 0, 0, true
	}}
	got := UnitCostWith(ix, u, measured).ReadCPUSeconds
	if want := (costDecodeNanos*(size(6, 6)+size(5, 6)) + costFillNanos*23_250_808) / 1e9; math.Abs(got-want) > 1e-6 {
		t.Errorf("6-6 present in form 2: got %.3f s, want %.3f s", got, want)
	}
	const read66 = 6.04 // s of processor time, measured (the median of three, since 3b3ca40: cost.go)
	if r := got / read66; r < 0.9 || r > 1.1 {
		t.Errorf("6-6 read in full: the model's %.2f s against the measured %.2f s, %.2f; want within 10 %%", got, read66, r)
	}
	// A layer of form 1 is decoded, its depths stored.
	form1 := CostOptions{Layer: func(k layers.Key) (int, uint64, bool) {
		if k == layers.Moving(6, 6) {
			return 1, 23_250_808, true
		}
		return 0, 0, true
	}}
	if got, want := UnitCostWith(ix, u, form1).ReadCPUSeconds, costDecodeNanos*size(6, 6)/1e9; math.Abs(got-want) > 1e-6 {
		t.Errorf("6-6 in form 1: got %.3f s, want %.3f s (decoding only)", got, want)
	}
}

// TestReadingFitsLaskerRecord compares the model with the processor time
// of the units of Lasker Morris with 6 stones solved with --compress
// (every finished layer read in compressed form 2; the record of
// 2026-11-29, docs/solver.md): summed, the model with the reading of the
// compressed layers within 0.67 to 1.5 of what the units took, and closer
// than the model without it. The won slots count at the game's WonShare
// here (0.70 of the model; 1.46 without the reading); with the headers'
// won slots, as plan --calibrate counts them in the folder, 0.90. The
// units recorded by the binary before the processor time are left out.
func TestReadingFitsLaskerRecord(t *testing.T) {
	ix, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	units := Units(muehle.Lasker.With(6), SolveOptions{Placement: true})
	var measured, flat, comp float64
	n := 0
	for _, r := range readRecord(t, "testdata/solve-record-lasker-k6-compress.tsv") {
		if !r.CPUKnown || r.Slots == 0 {
			continue
		}
		u, err := FindUnit(units, string(r.Unit))
		if err != nil || u.Slots(ix) != r.Slots {
			t.Fatalf("unit %s of %d slots is not a unit of Lasker Morris with 6 stones (%v)", r.Unit, r.Slots, err)
		}
		measured += r.CPUSeconds
		flat += UnitCost(ix, u).CPUSeconds
		comp += UnitCostWith(ix, u, CostOptions{Compress: true}).CPUSeconds
		n++
	}
	if n < 200 {
		t.Fatalf("%d units with their processor time, want over 200", n)
	}
	t.Logf("%d units: %.0f s of processor time; the model %.0f s with the reading, %.0f s without", n, measured, comp, flat)
	if r := measured / comp; r < 0.67 || r > 1.5 || math.Abs(math.Log(r)) >= math.Abs(math.Log(measured/flat)) {
		t.Errorf("measured/model %.2f with the reading, %.2f without: want within 0.67 to 1.5, and closer than without", r, measured/flat)
	}
}

// TestHeldLayers: in one process the DB holds the layers read decoded, and
// with --compress each unit's own once written, those read last (else the
// oldest) let go first, so a
// unit that reads layers an earlier unit read or wrote pays nothing for
// them; and the layers held for later units count in its memory, those
// it reads once only.
func TestHeldLayers(t *testing.T) {
	h := &HeldLayers{bound: 114, held: map[layers.Key]heldLayer{}} // room 100
	a, b, c, d := layers.Moving(3, 3), layers.Moving(3, 4), layers.Moving(4, 3), layers.Moving(4, 4)
	h.hold(a, 60, true)
	h.hold(b, 30, false)
	h.hold(c, 30, true)
	if held, _ := h.has(a); held || h.Bytes() != 60 {
		t.Errorf("over the room: %v held (want let go, the oldest), %d bytes (want 60)", held, h.Bytes())
	}
	h.hold(b, 30, true) // b again: now the newest, with its depths
	h.hold(d, 50, false)
	if held, _ := h.has(c); held {
		t.Errorf("%v held, want let go (older than %v, held again)", c, b)
	}
	if held, filled := h.has(b); !held || !filled {
		t.Errorf("%v: held %v, filled %v; want both", b, held, filled)
	}
	h.hold(a, 200, true) // larger than the room: held alone
	if held, _ := h.has(a); !held || h.Bytes() != 200 || len(h.keys) != 1 {
		t.Errorf("a layer larger than the room: held %v, %d bytes in %d layers; want it alone", held, h.Bytes(), len(h.keys))
	}
	// With a read plan, the layer read last goes first, not the oldest.
	h = &HeldLayers{bound: 114, held: map[layers.Key]heldLayer{},
		reads: readPlan{a: {1}, b: {5}, c: {3}}}
	for _, k := range []layers.Key{a, b, c} {
		h.hold(k, 40, true)
	}
	if held, _ := h.has(b); held || h.Bytes() != 80 {
		t.Errorf("a read plan: %v (read last) held %v, %d bytes; want it let go, 80 bytes", b, held, h.Bytes())
	}
	var none *HeldLayers
	none.hold(a, 1, true)
	if held, _ := none.has(a); held {
		t.Errorf("a nil HeldLayers holds %v", a)
	}

	ix, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	v := muehle.NineMensMorris
	units := Units(v, SolveOptions{Placement: true})
	unit := func(name string) Unit {
		u, err := FindUnit(units, name)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	// m6-7 reads 6-6 and 5-7 (TestReadingCompressed): after m5-7 and
	// m6-6 in the same process, nothing.
	opts := SolveOptions{Compress: true, MemBytes: 32 << 30}
	run := CostOptions{Compress: true, Held: NewHeldLayers(ix, v, opts)}
	UnitCostWith(ix, unit("m5-7"), run)
	UnitCostWith(ix, unit("m6-6"), run)
	if got := UnitCostWith(ix, unit("m6-7"), run).ReadCPUSeconds; got != 0 {
		t.Errorf("m6-7 after m5-7 and m6-6 in one process: %.3f s reading, want 0", got)
	}
	if alone := UnitCostWith(ix, unit("m6-7"), CostOptions{Compress: true}).ReadCPUSeconds; alone <= 0 {
		t.Errorf("m6-7 alone: %.3f s reading, want more than 0", alone)
	}
	// A placement unit whose children are held (it ran before, as when
	// resumed after its verification): no reading, and its memory the
	// layers held beside its children's copies.
	q := unit("p8+1-9+0")
	run = CostOptions{Compress: true, Held: NewHeldLayers(ix, v, opts)}
	UnitCostWith(ix, q, run)
	before := run.Held.Bytes()
	alone := UnitCostWith(ix, q, CostOptions{Compress: true})
	got := UnitCostWith(ix, q, run)
	var children uint64
	for _, k := range layers.SuccessorsIn(v, q.Keys[0]) {
		children += run.Held.held[k].size
	}
	if got.ReadCPUSeconds != 0 || alone.ReadCPUSeconds <= 0 {
		t.Errorf("%s again: %.1f s reading, alone %.1f s; want 0 and more", q.Name, got.ReadCPUSeconds, alone.ReadCPUSeconds)
	}
	if want := alone.MemBytes + before - children; children == 0 || got.MemBytes != want {
		t.Errorf("%s again: %d bytes of memory, want %d (alone %d, held %d, of them its children %d)", q.Name, got.MemBytes, want, alone.MemBytes, before, children)
	}
}

// TestCostCopiesFit checks the model's side of the copy rule (copiesFit):
// a placement unit whose dense children's copies fit in the budget counts
// them and runs at costReachableRate; a byte short, it counts none and
// reads its children where they lie, at costReachableInPlaceRate.
func TestCostCopiesFit(t *testing.T) {
	ix, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	u, err := FindUnit(Units(muehle.NineMensMorris, SolveOptions{Placement: true}), "p7+2-7+1")
	if err != nil {
		t.Fatal(err)
	}
	var copies uint64
	for _, s := range u.Keys[0].Successors() {
		if s.IsMoving() {
			t.Fatalf("%s leads to the moving layer %s", u.Name, s)
		}
		copies += ix.Layer(s).Size()
	}
	reachable := 0.1791 * float64(u.Slots(ix))
	all := UnitCostIn(ix, u, 0) // no budget: every copy made
	for _, tc := range []struct {
		name string
		mem  int64
		want Cost
	}{
		{"no budget", 0, Cost{MemBytes: all.MemBytes, CPUSeconds: costUnitSeconds + reachable/costReachableRate}},
		{"room for the copies", int64(all.MemBytes), Cost{MemBytes: all.MemBytes, CPUSeconds: costUnitSeconds + reachable/costReachableRate}},
		{"a byte short", int64(all.MemBytes) - 1, Cost{MemBytes: all.MemBytes - copies, CPUSeconds: costUnitSeconds + reachable/costReachableInPlaceRate}},
	} {
		c := UnitCostIn(ix, u, tc.mem)
		if c.MemBytes != tc.want.MemBytes || math.Abs(c.CPUSeconds-tc.want.CPUSeconds) > 1e-9*tc.want.CPUSeconds {
			t.Errorf("%s: got %d bytes, %.3f s, want %d bytes, %.3f s", tc.name, c.MemBytes, c.CPUSeconds, tc.want.MemBytes, tc.want.CPUSeconds)
		}
	}
}
