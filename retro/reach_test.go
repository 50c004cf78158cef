package retro

import (
	"context"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
)

// canonicalClass returns a representative of p's class independently of
// the layers index: White to move, then the smallest image under the 16
// symmetries of the board.
func canonicalClass(p muehle.Position) muehle.Position {
	p = p.Normalize()
	best := p
	b := p.Board()
	for s := range muehle.Symmetry(b.NumSymmetries()) {
		q := p
		q.Stones = [2]muehle.Bitboard{b.Map(s, p.Stones[0]), b.Map(s, p.Stones[1])}
		if q.Stones[0] < best.Stones[0] || q.Stones[0] == best.Stones[0] && q.Stones[1] < best.Stones[1] {
			best = q
		}
	}
	return best
}

// reachByClasses returns the reachable placement classes of variant v by
// a plain depth-first search over canonicalClass, sharing nothing with
// Reach but the move generator.
func reachByClasses(v muehle.Variant) map[muehle.Position]bool {
	seen := map[muehle.Position]bool{}
	var visit func(p muehle.Position)
	visit = func(p muehle.Position) {
		c := canonicalClass(p)
		if seen[c] {
			return
		}
		seen[c] = true
		for _, m := range p.Moves() {
			if q := p.Play(m); q.Hand[q.Turn] > 0 && q.Total(muehle.White) >= 3 && q.Total(muehle.Black) >= 3 {
				visit(q)
			}
		}
	}
	visit(v.NewPosition())
	return seen
}

// allReach returns the bits of every ply of Reach.
func allReach(t *testing.T, x *layers.Indexer, k, workers int) map[layers.Key]ReachBits {
	t.Helper()
	all := map[layers.Key]ReachBits{}
	err := Reach(context.Background(), x, muehle.Standard.With(k), workers, func(_ int, r ReachPly) error {
		maps.Copy(all, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestReachMatchesClassSearch compares Reach with an independent search
// over symmetry classes, class by class, and with the counts of
// docs/placement.md.
func TestReachMatchesClassSearch(t *testing.T) {
	x, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ k, want int }{{3, 31_534}, {4, 934_636}}
	if testenv.Race {
		tests = tests[:1]
	}
	for _, tt := range tests {
		bits := allReach(t, x, tt.k, 3)
		var got uint64
		for _, b := range bits {
			got += b.Count()
		}
		classes := reachByClasses(muehle.Standard.With(tt.k))
		if got != uint64(len(classes)) || got != uint64(tt.want) {
			t.Errorf("k=%d: got %d reachable classes, the class search finds %d, want %d", tt.k, got, len(classes), tt.want)
		}
		for p := range classes {
			k := layers.KeyOf(p)
			if i := x.Layer(k).Index(p); !bits[k].Has(i) {
				t.Fatalf("k=%d: %v (layer %s slot %d) is reachable, Reach does not mark it", tt.k, p, k, i)
			}
		}
	}
}

// solvedPair returns two databases of the game with k stones: one solved
// with the full placement sweep, one with the reachable one (its moving
// layers copied from the first).
func solvedPair(t *testing.T, k int) (full, reach *layers.DB) {
	t.Helper()
	full = openDB(t, t.TempDir(), k)
	solve(t, full, SolveOptions{Placement: true, PlacementAll: true})
	reach = openDB(t, t.TempDir(), k)
	copyDB(t, full, reach.Dir())
	for _, key := range layers.PlacementLayers(k) {
		if err := reach.Remove(key); err != nil {
			t.Fatal(err)
		}
	}
	solve(t, reach, SolveOptions{Placement: true})
	return full, reach
}

// TestReachableSweep checks that the reachable sweep stores exactly the
// reachable classes, each with the full sweep's value, and that both
// verify: for k=3, and for k=4 too without -short (long, about 30 s).
func TestReachableSweep(t *testing.T) {
	ks := []int{3, 4}
	if !testenv.Full() {
		ks = ks[:1]
	}
	for _, k := range ks {
		full, reach := solvedPair(t, k)
		bits := allReach(t, full.Indexer(), k, 2)
		var stored, total uint64
		for _, key := range layers.PlacementLayers(k) {
			ff, err := full.Layer(key)
			if err != nil {
				t.Fatal(err)
			}
			rf, err := reach.Layer(key)
			if err != nil {
				t.Fatal(err)
			}
			if !reach.Verified(key) {
				t.Errorf("k=%d layer %s: not recorded as verified", k, key)
			}
			ix := full.Indexer().Layer(key)
			for i := range ix.Size() {
				want := ff.Value(i)
				if !bits[key].Has(i) {
					want = layers.Unused
				}
				if got := rf.Value(i); got != want {
					t.Fatalf("k=%d layer %s slot %d: got %v, want %v (full sweep %v)", k, key, i, got, want, ff.Value(i))
				}
			}
			stored += rf.Header().Won + rf.Header().Lost + rf.Header().Drawn
			total += ix.Classes()
		}
		t.Logf("k=%d: %d of %d placement classes stored", k, stored, total)
		if n := uint64(len(reachByClasses(muehle.Standard.With(k)))); stored != n {
			t.Errorf("k=%d: got %d classes stored, want the %d reachable ones", k, stored, n)
		}
		start, err := reach.Probe(muehle.NewPosition(k))
		if want, _ := full.Probe(muehle.NewPosition(k)); err != nil || start != want {
			t.Errorf("k=%d: the empty board: got %v (%v), want %v", k, start, err, want)
		}
	}
}

// TestVerifyReachable checks that the verifier of a dense placement
// layer rejects an unreachable class stored, a wrong value, a slot that
// is not canonical stored, and (in the layer above) a reachable class
// left out.
func TestVerifyReachable(t *testing.T) {
	_, db := solvedPair(t, 3)
	key, in, out := reachableAndNot(t, db)
	f, err := db.Layer(key)
	if err != nil {
		t.Fatal(err)
	}
	good := f.Dense()
	if good == nil {
		t.Fatalf("layer %s: not dense", key)
	}
	ix := db.Indexer().Layer(key)
	var notCanonical uint64
	for notCanonical = 0; notCanonical < ix.Size() && ix.Canonical(notCanonical); notCanonical++ {
	}
	if notCanonical == ix.Size() {
		t.Fatalf("layer %s: want a slot that is not canonical", key)
	}
	// with returns good with slot i's value set to v (Unused: not stored).
	with := func(i uint64, v layers.Value) *layers.Dense {
		values := map[uint64]byte{}
		for j := range ix.Size() {
			if x := good.Value(j); x != layers.Unused {
				values[j] = byte(x)
			}
		}
		if v == layers.Unused {
			delete(values, i)
		} else {
			values[i] = byte(v)
		}
		set := make([]uint64, (ix.Size()+63)/64)
		var vs []byte
		for j := range ix.Size() {
			if x, ok := values[j]; ok {
				set[j/64] |= 1 << (j % 64)
				vs = append(vs, x)
			}
		}
		d, err := layers.NewDense(ix.Size(), set, vs)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	wrong := layers.Drawn
	if good.Value(in) == layers.Drawn {
		wrong = layers.WinIn(1)
	}
	tests := []struct {
		name   string
		slot   uint64
		v      layers.Value
		reason string
	}{
		{"an unreachable class stored", out, layers.Drawn, reasonNoParent},
		{"a wrong value", in, wrong, ""},
		{"a slot that is not canonical stored", notCanonical, layers.Drawn, reasonNotCanonical},
	}
	for _, tt := range tests {
		if err := db.WriteDense(key, with(tt.slot, tt.v)); err != nil {
			t.Fatal(err)
		}
		bad, err := VerifyLayer(context.Background(), db, key, 2, 10, nil)
		if len(bad) != 1 || bad[0].Index != tt.slot || bad[0].Reason != tt.reason {
			t.Errorf("%s: got mismatches %v (%v), want one at slot %d: %q", tt.name, bad, err, tt.slot, tt.reason)
		}
	}
	// A reachable class left out: the layers above, where its parents
	// are, find a child missing.
	if err := db.WriteDense(key, with(in, layers.Unused)); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, pk := range PlyLayers(3, PlyOf(3, key)-1) {
		bad, _ := VerifyLayer(context.Background(), db, pk, 2, 10, nil)
		for _, m := range bad {
			found = found || m.Reason == reasonChildMissing
		}
	}
	if !found {
		t.Errorf("a reachable class of %s left out: the layers above found no child missing", key)
	}
	if err := db.WriteDense(key, good); err != nil {
		t.Fatal(err)
	}
	if bad, err := VerifyLayer(context.Background(), db, key, 2, 10, nil); len(bad) != 0 || err != nil {
		t.Errorf("the solved layer: got mismatches %v (%v), want none", bad, err)
	}
	// The parents' layers known to reach none of their classes: the
	// reachable class's parents are there, but none is stored.
	var parents []layers.Key
	for _, pk := range PlyLayers(3, PlyOf(3, key)-1) {
		if err := writeReach(db, pk, newReachBits(db.Indexer().Layer(pk).Size())); err != nil {
			t.Fatal(err)
		}
		parents = append(parents, pk)
	}
	bad, _ := VerifyLayer(context.Background(), db, key, 2, int(ix.Size()), nil)
	if !slices.ContainsFunc(bad, func(m Mismatch) bool { return m.Index == in && m.Reason == reasonNoParent }) {
		t.Errorf("the parents' layers %v reaching nothing: got %d mismatches, want one at slot %d: %q", parents, len(bad), in, reasonNoParent)
	}
	for _, pk := range parents {
		if err := os.Remove(reachPath(db, pk)); err != nil {
			t.Fatal(err)
		}
	}
}

// reachableAndNot returns a placement layer of db (k=3) after the first
// placement that has unreachable classes, a reachable class of it and an
// unreachable one.
func reachableAndNot(t *testing.T, db *layers.DB) (key layers.Key, in, out uint64) {
	t.Helper()
	for _, k := range layers.PlacementLayers(3) {
		b, err := knownReach(db, k)
		if err != nil {
			t.Fatal(err)
		}
		ix := db.Indexer().Layer(k)
		if PlyOf(3, k) == 0 || b.Count() == ix.Classes() {
			continue
		}
		in, out = ix.Size(), ix.Size()
		for i := range ix.Size() {
			if !ix.Canonical(i) {
				continue
			}
			if b.Has(i) && in == ix.Size() {
				in = i
			}
			if !b.Has(i) && out == ix.Size() {
				out = i
			}
		}
		if in < ix.Size() && out < ix.Size() {
			return k, in, out
		}
	}
	t.Fatal("k=3: want a placement layer with reachable and unreachable classes")
	return
}

// TestVerifyReachableOneBytePerSlot checks the verifier of a placement
// layer of one byte per slot with holes, as the reachable sweep wrote
// them before the dense files: a value in an unreachable slot and a hole
// in a reachable one are both reported.
func TestVerifyReachableOneBytePerSlot(t *testing.T) {
	_, db := solvedPair(t, 3)
	key, in, out := reachableAndNot(t, db)
	if err := ensureReach(context.Background(), db, 2, nil, passWatch{}); err != nil {
		t.Fatal(err)
	}
	f, err := db.Layer(key)
	if err != nil {
		t.Fatal(err)
	}
	ix := db.Indexer().Layer(key)
	good := make([]byte, ix.Size())
	for i := range good {
		good[i] = byte(f.Value(uint64(i)))
	}
	tests := []struct {
		name string
		slot uint64
		v    layers.Value
	}{
		{"an unreachable class stored", out, layers.Drawn},
		{"a reachable class not stored", in, layers.Unused},
	}
	for _, tt := range tests {
		body := append([]byte(nil), good...)
		body[tt.slot] = byte(tt.v)
		if err := db.Write(key, body); err != nil {
			t.Fatal(err)
		}
		bad, err := VerifyLayer(context.Background(), db, key, 2, 10, nil)
		if len(bad) != 1 || bad[0].Index != tt.slot {
			t.Errorf("%s: got mismatches %v (%v), want one at slot %d", tt.name, bad, err, tt.slot)
		}
	}
	if err := db.Write(key, good); err != nil {
		t.Fatal(err)
	}
	if bad, err := VerifyLayer(context.Background(), db, key, 2, 10, nil); len(bad) != 0 || err != nil {
		t.Errorf("the solved layer: got mismatches %v (%v), want none", bad, err)
	}
}

// TestReachResumes checks that the forward pass resumes at the first ply
// without files, from the files of the ply before, and recomputes a
// damaged file.
func TestReachResumes(t *testing.T) {
	const k = 3
	db := openDB(t, t.TempDir(), k)
	if err := os.MkdirAll(filepath.Dir(db.Path(layers.Moving(3, 3))), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ensureReach(context.Background(), db, 2, nil, passWatch{}); err != nil {
		t.Fatal(err)
	}
	want := allReach(t, db.Indexer(), k, 1)
	read := func(key layers.Key) ReachBits {
		t.Helper()
		b, err := reachFor(context.Background(), db, key, 2, nil, passWatch{})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for key, b := range want {
		if got := read(key); !slices.Equal(got, b) {
			t.Fatalf("layer %s: the stored bits differ from Reach's", key)
		}
	}
	// Clear ply 2 and remove the plies after it: resuming must read ply 2
	// from its files and find nothing reachable after it.
	for _, key := range PlyLayers(k, 2) {
		if err := writeReach(db, key, newReachBits(db.Indexer().Layer(key).Size())); err != nil {
			t.Fatal(err)
		}
	}
	for ply := 3; ply < 2*k; ply++ {
		for _, key := range PlyLayers(k, ply) {
			if err := os.Remove(reachPath(db, key)); err != nil {
				t.Fatal(err)
			}
		}
	}
	last := PlyLayers(k, 2*k-1)[0]
	if got := read(last).Count(); got != 0 {
		t.Errorf("layer %s after resuming from an empty ply 2: got %d reachable, want 0", last, got)
	}
	if got := read(PlyLayers(k, 1)[0]); !slices.Equal(got, want[PlyLayers(k, 1)[0]]) {
		t.Errorf("ply 1 changed by resuming at ply 3")
	}
	// A damaged file is computed again (from the ply before, still sound).
	key := PlyLayers(k, 1)[0]
	flip(t, reachPath(db, key), layers.ReachHeaderSize)
	if got := read(key); !slices.Equal(got, want[key]) {
		t.Errorf("layer %s: got other bits after a damaged file, want Reach's", key)
	}
}

// TestFullSweepNeedsFullLayers checks that the full sweep refuses to build
// on placement layers that hold only the reachable classes.
func TestFullSweepNeedsFullLayers(t *testing.T) {
	_, db := solvedPair(t, 3)
	last := PlyLayers(3, 4)
	for _, key := range last {
		if err := db.Remove(key); err != nil {
			t.Fatal(err)
		}
	}
	err := Solve(context.Background(), db, SolveOptions{Placement: true, PlacementAll: true})
	if err == nil {
		t.Fatal("the full sweep over reachable-only layers: got no error, want one")
	}
	t.Log(err)
}

// TestReachableSweepAgainstFullDB solves the placement layers of a game
// whose full sweep is stored in $MUEHLE_FULL_DB (a database folder with
// every layer of the game with $MUEHLE_TEST_K stones, e.g. /work/dbs with
// k=5) with the reachable sweep, over copies of its moving layers, and
// compares every slot: the reachable ones hold the full sweep's value, the
// others nothing. Skipped when the variables are not set.
func TestReachableSweepAgainstFullDB(t *testing.T) {
	dir, ks := os.Getenv("MUEHLE_FULL_DB"), os.Getenv("MUEHLE_TEST_K")
	if dir == "" || ks == "" {
		t.Skip("set MUEHLE_FULL_DB and MUEHLE_TEST_K to compare with a stored full sweep")
	}
	k, err := strconv.Atoi(ks)
	if err != nil {
		t.Fatalf("MUEHLE_TEST_K: %v", err)
	}
	full := openDB(t, dir, k)
	db := openDB(t, t.TempDir(), k)
	src, dst := filepath.Dir(full.Path(layers.Moving(3, 3))), filepath.Dir(db.Path(layers.Moving(3, 3)))
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, key := range layers.MovingLayers(k) {
		for _, ext := range []string{".layer", ".verified"} {
			name := "m" + key.String() + ext
			b, err := os.ReadFile(filepath.Join(src, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	solve(t, db, SolveOptions{Placement: true})
	var nStored, reached, total uint64
	err = Reach(context.Background(), db.Indexer(), muehle.Standard.With(k), 0, func(_ int, r ReachPly) error {
		for key, bits := range r {
			ff, err := full.Layer(key)
			if err != nil {
				return err
			}
			rf, err := db.Layer(key)
			if err != nil {
				return err
			}
			for i := range uint64(len(rf.Body())) {
				want := ff.Value(i)
				if !bits.Has(i) {
					want = layers.Unused
				}
				if got := rf.Value(i); got != want {
					t.Fatalf("k=%d layer %s slot %d: got %v, want %v (full sweep %v)", k, key, i, got, want, ff.Value(i))
				}
			}
			nStored += stored(rf.Header())
			reached += bits.Count()
			total += db.Indexer().Layer(key).Classes()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("k=%d: %d of %d placement classes stored, %d reachable, every one as the full sweep has it", k, nStored, total, reached)
	if nStored != reached {
		t.Errorf("k=%d: got %d classes stored, want the %d reachable", k, nStored, reached)
	}
}

// TestReachBitsIn compares In with a plain scan of the bits, on ranges
// within and across words, and stops early when asked.
func TestReachBitsIn(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b := newReachBits(1000)
	for range 300 {
		b.set(r.Uint64N(1000))
	}
	for _, rg := range [][2]uint64{{0, 1000}, {64, 640}, {128, 130}, {960, 1000}, {0, 0}, {5, 6}, {3, 200}, {70, 127}, {63, 65}} {
		var got, want []uint64
		for i := range b.In(rg[0], rg[1]) {
			got = append(got, i)
		}
		for i := rg[0]; i < rg[1]; i++ {
			if b.Has(i) {
				want = append(want, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("In(%d, %d): got %v, want %v", rg[0], rg[1], got, want)
		}
	}
	n := 0
	for range b.In(0, 1000) {
		if n++; n == 5 {
			break
		}
	}
	if n != 5 {
		t.Errorf("break after 5: %d slots seen", n)
	}
}

// TestReachWaitsForAnotherSolver holds the forward pass's claim, as
// another solver computing it would, while Solve comes to the first
// placement unit: Solve says that it waits, waits until the claim is
// released, and then computes the pass itself, the unit's reach phase.
func TestReachWaitsForAnotherSolver(t *testing.T) {
	testenv.SlowUnderRace(t, "solves the placement phase")
	db := openDB(t, t.TempDir(), 3)
	claim, err := db.Claim(context.Background(), reachClaim, false)
	if err != nil {
		t.Fatal(err)
	}
	noted := make(chan string, 1)
	var mu sync.Mutex // Progress comes from the unit's reporting goroutines
	var phases []Phase
	opts := SolveOptions{Placement: true, Workers: 2,
		Note: func(s string) {
			if strings.Contains(s, "waiting for the forward pass") {
				select {
				case noted <- s:
				default:
				}
			}
		},
		Progress: func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			if p.Unit == "p2+1-3+0" && (len(phases) == 0 || phases[len(phases)-1] != p.Phase) {
				phases = append(phases, p.Phase)
			}
		},
	}
	solved := make(chan error, 1)
	go func() { solved <- Solve(context.Background(), db, opts) }()
	select {
	case s := <-noted:
		if !strings.Contains(s, "p2+1-3+0") || !strings.Contains(s, "pid") {
			t.Errorf("the note: got %q, want the unit and the holder named", s)
		}
	case err := <-solved:
		t.Fatalf("Solve returned while another solver held the pass's claim: %v", err)
	case <-time.After(time.Minute):
		claim.Release()
		<-solved
		t.Fatal("Solve said nothing of waiting for the pass within a minute")
	}
	select {
	case err := <-solved:
		t.Fatalf("Solve returned while another solver held the pass's claim: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	claim.Release()
	if err := <-solved; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(phases, PhaseReach) {
		t.Errorf("unit p2+1-3+0 reported the phases %v, want the reach phase: it computed the pass", phases)
	}
}
