package layers

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"muehle/muehle"
	"muehle/muehle/testenv"
)

// The checked-in example of compressed form 2: layer 3-3 of the 5-stone
// game (`muehlectl solve --stones 5 --max-stones 6 --compress`), whose
// children lie in itself or, after a capture, are lost in 0 without a
// file: a folder holding it alone answers every probe.
const example2 = "testdata/compressed2-k5-m3-3.layer"

// example2DB returns a database of the 5-stone game holding path as its
// layer 3-3.
func example2DB(t *testing.T, path string) *DB {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v := muehle.Standard.With(5)
	dir := t.TempDir()
	if err := os.MkdirAll(GameDir(dir, v), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(GameDir(dir, v), "m3-3.layer"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := OpenDB(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// example1Values returns the values of layer 3-3 of the 5-stone game from
// the checked-in example of form 1, which stores them as they are.
func example1Values(t *testing.T) []byte {
	t.Helper()
	f, err := OpenFile("testdata/compressed-k5-m3-3.layer", muehle.Standard.With(5), Moving(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return append([]byte(nil), f.Body()...)
}

// TestCompressed2Example reads the checked-in layer of compressed form 2
// byte by byte as doc.go describes it: the preamble of form 2, the offset
// table whose block CRCs (of the stored blocks) combine to the stored
// body's CRC-64 after it, the table's CRC-32C; no stored byte is a won
// value other than "won". Through a DB, Layer and Probe give every slot
// the value of the example of form 1 (the same layer, every depth
// stored), and the header's body checksum is that of the values with
// their won depths found.
func TestCompressed2Example(t *testing.T) {
	b, err := os.ReadFile(example2)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	const n = 12
	if string(b[:8]) != "MUEHLEDZ" || le.Uint32(b[8:]) != 2 || le.Uint32(b[12:]) != 14 || le.Uint64(b[16:]) != n {
		t.Fatalf("preamble % x: want MUEHLEDZ, form 2, blocks of 2^14 bytes, 12 blocks", b[:24])
	}
	if got, want := le.Uint32(b[28:]), crc32.Checksum(b[:28], castagnoli); got != want {
		t.Errorf("preamble CRC %08x, want %08x", got, want)
	}
	tail := zHead + zEntry*n
	if got, want := le.Uint32(b[tail+8:]), crc32.Checksum(b[zHead:tail+8], castagnoli); got != want {
		t.Errorf("table CRC %08x, want %08x", got, want)
	}
	var sums []uint64
	for i := range n {
		sums = append(sums, le.Uint64(b[zHead+16*i+8:]))
	}
	if got, want := combineBlocks(sums, 14, 183512), le.Uint64(b[tail:]); got != want {
		t.Errorf("the block CRCs combine to %016x, the stored body's CRC-64 is %016x", got, want)
	}
	if first := le.Uint64(b[zHead:]); b[tail+12] > blockRaw || first <= uint64(tail+12) {
		t.Errorf("first frame: coder %d, ending at %d", b[tail+12], first)
	}
	want := example1Values(t)
	v, k := muehle.Standard.With(5), Moving(3, 3)
	f, err := OpenFile(example2, v, k)
	if err != nil {
		t.Fatal(err)
	}
	if h := f.Header(); h.Checksum != 0x290dc27b54f3cc16 || h.DeepestWin != 25 || f.Value(0) != Unused || f.Body() != nil {
		t.Errorf("OpenFile: header %+v, a value, body %d bytes; want the header of form 1's example and no values", h, len(f.Body()))
	}
	f.Close()
	raw, err := os.ReadFile(example2)
	if err != nil {
		t.Fatal(err)
	}
	z, _, err := checkZ(raw, example2, v, k)
	if err != nil {
		t.Fatal(err)
	}
	z.parts = indexerOrFatal(t).Layer(k).Parts()
	stored, err := z.decodeAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range stored {
		if s != storedForm([]byte{want[i]}, 0, 0)[0] {
			t.Fatalf("slot %d stored %d, the value is %v", i, s, Value(want[i]))
		}
	}

	db := example2DB(t, example2)
	l := db.Indexer().Layer(k)
	won := 0
	for i := range l.Size() {
		p, ok := l.Position(i)
		if !ok {
			continue
		}
		p.Game = v.Game
		got, err := db.Probe(p)
		if err != nil || got != Value(want[i]) {
			t.Fatalf("slot %d: Probe %v, %v; want %v", i, got, err, Value(want[i]))
		}
		if got.Outcome() == Win {
			won++
		}
		if o, err := db.ProbeOutcome(p); err != nil || o != got.Outcome() {
			t.Fatalf("slot %d: ProbeOutcome %v, %v; want %v", i, o, err, got.Outcome())
		}
		// ProbeKept leaves out the depth of a won slot, and of it alone.
		if kv, kept, err := db.ProbeKept(p); err != nil || kept == (got.Outcome() == Win) || kv.Outcome() != got.Outcome() || (kept && kv != got) {
			t.Fatalf("slot %d: ProbeKept %v, kept %v, %v; want %v", i, kv, kept, err, got)
		}
	}
	lf, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	if string(lf.Body()) != string(want) || !lf.Compressed() {
		t.Errorf("Layer: a body of %d bytes unlike form 1's (compressed %v)", len(lf.Body()), lf.Compressed())
	}
	if won != 140621 {
		t.Errorf("%d won slots, want 140,621", won)
	}
}

// indexerOrFatal returns the standard board's indexer.
func indexerOrFatal(t *testing.T) *Indexer {
	t.Helper()
	x, err := DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestCompressed2Damage: a flipped bit in a frame of form 2 is found by
// the block check, by Probe and by Layer; a slot stored won none of whose
// children is lost (the body's other checks passing: a layer written so)
// makes the layer damaged for Probe of that position and for Layer.
func TestCompressed2Damage(t *testing.T) {
	v, k := muehle.Standard.With(5), Moving(3, 3)
	b, err := os.ReadFile(example2)
	if err != nil {
		t.Fatal(err)
	}
	first := zHead + zEntry*12 + 12
	b[first+100] ^= 0x10 // in block 0's frame
	flipped := filepath.Join(t.TempDir(), "flipped.layer")
	if err := os.WriteFile(flipped, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db := example2DB(t, flipped)
	l := db.Indexer().Layer(k)
	var p0 muehle.Position
	for i := range l.Size() {
		if p, ok := l.Position(i); ok {
			p0 = p
			break
		}
	}
	p0.Game = v.Game
	var de *DamagedError
	if _, err := db.Probe(p0); !errors.As(err, &de) || !errors.Is(err, ErrChecksum) {
		t.Errorf("Probe of block 0 of a flipped frame: %v; want a *DamagedError wrapping ErrChecksum", err)
	}
	if _, err := example2DB(t, flipped).Layer(k); !errors.As(err, &de) || !errors.Is(err, ErrChecksum) {
		t.Errorf("Layer of a flipped frame: %v; want a *DamagedError wrapping ErrChecksum", err)
	}

	// A won slot without captures: its lost children, all in 3-3, made
	// drawn, the header written for that body.
	body := example1Values(t)
	var won muehle.Position
	for i := range l.Size() {
		if Value(body[i]).Outcome() != Win || Value(body[i]).Depth() < 3 {
			continue
		}
		p, _ := l.Position(i)
		p.Game = v.Game
		var buf [muehle.MaxMoves]muehle.Move
		ms := p.AppendMoves(buf[:0])
		capture := false
		for _, m := range ms {
			capture = capture || m.IsRemoval()
		}
		if capture {
			continue
		}
		for _, m := range ms {
			if j := l.Index(p.Play(m)); Value(body[j]).Outcome() == Loss {
				body[j] = byte(Drawn)
			}
		}
		won = p
		break
	}
	if won.Game != v.Game {
		t.Fatal("no won slot without captures")
	}
	dir := t.TempDir()
	if err := WriteLayer(filepath.Join(dir, "flat.layer"), v, k, body); err != nil {
		t.Fatal(err)
	}
	head, err := os.ReadFile(filepath.Join(dir, "flat.layer"))
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "nolost.layer")
	if _, err := writeCompressed(bad, head[:HeaderSize], body, zShift, l.Parts(), 0); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenFile(bad, v, k); err != nil { // the stored body checks
		t.Fatalf("OpenFile: %v; want the stored body to check", err)
	} else {
		f.Close()
	}
	db = example2DB(t, bad)
	if _, err := db.Probe(won); !errors.As(err, &de) || !errors.Is(err, ErrChecksum) {
		t.Errorf("Probe of a won slot without a lost child: %v; want a *DamagedError wrapping ErrChecksum", err)
	}
	if _, err := db.Layer(k); !errors.As(err, &de) || !errors.Is(err, ErrChecksum) {
		t.Errorf("Layer after it: %v; want the layer damaged", err)
	}
	if _, err := example2DB(t, bad).Layer(k); !errors.As(err, &de) || !errors.Is(err, ErrChecksum) {
		t.Errorf("Layer of a won slot without a lost child: %v; want a *DamagedError wrapping ErrChecksum", err)
	}
}

// TestCompressed2Concurrent probes the layer of form 2 from several
// goroutines with a block cache of two blocks while another reads it in
// full (DB.Layer finding every won depth), so that won slots are answered
// by a ply of probes, from the stored body and from the completed one
// (run it with -race).
func TestCompressed2Concurrent(t *testing.T) {
	want := example1Values(t)
	db := example2DB(t, example2)
	db.SetCacheBytes(2 << zShift)
	v, k := muehle.Standard.With(5), Moving(3, 3)
	l := db.Indexer().Layer(k)
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Go(func() {
			for i := uint64(g); i < l.Size(); i += 5 {
				p, ok := l.Position(i)
				if !ok {
					continue
				}
				p.Game = v.Game
				if got, err := db.Probe(p); err != nil || got != Value(want[i]) {
					t.Errorf("slot %d: Probe %v, %v; want %v", i, got, err, Value(want[i]))
					return
				}
			}
		})
	}
	wg.Go(func() {
		if f, err := db.Layer(k); err != nil || string(f.Body()) != string(want) {
			t.Errorf("Layer: %v, or another body", err)
		}
	})
	wg.Wait()
}

// TestSlideDepthAsProbes compares the depth plyReader.flatDepth finds
// for positions of a moving layer whose slides' layers lie flat (4-4 of
// the 4-stone game: its slides into itself, its removals into 3-4, both
// of fingerprint values) with DB.wonDepth's, one probe per child, on every
// third position: the same depth, or errNoLostChild for both.
func TestSlideDepthAsProbes(t *testing.T) {
	testenv.SlowUnderRace(t, "probes the children of every third position of 4-4 one at a time, on one goroutine")
	k := Moving(4, 4)
	_, n, none, kinds := depthsAsProbes(t, muehle.Standard.With(4), k, []Key{k, Moving(3, 4)},
		func(r *plyReader, i int, p muehle.Position, ms []muehle.Move) (int, error) {
			d, ok := r.flatDepth(p, ms)
			if !ok {
				t.Fatalf("slot %d: flatDepth not ok with 4-4 and 3-4 flat", i)
			}
			if d < 0 {
				return 0, errNoLostChild
			}
			return d, nil
		})
	removals := kinds[1] + kinds[3]
	if n < 1000 || none == 0 || none == n || removals == 0 {
		t.Errorf("%d positions, %d without a lost child, %d removal moves: want many, some of each", n, none, removals)
	}
	t.Logf("%d positions, %d without a lost child, %d removal moves", n, none, removals)
}

// depthsAsProbes writes the layers children of variant v with fingerprint
// values, then holds depth (the fill's reading of a won position of layer k,
// its moves ms) to DB.wonDepth, one probe per child, on every third
// position of k: the same depth, or errNoLostChild for both. It returns the
// reader, the positions compared, those without a lost child and the moves
// of each kind (2×place + remove).
func depthsAsProbes(t *testing.T, v muehle.Variant, k Key, children []Key,
	depth func(r *plyReader, i int, p muehle.Position, ms []muehle.Move) (int, error)) (r *plyReader, n, none int, kinds [4]int) {
	t.Helper()
	db, err := OpenDB(t.TempDir(), v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, c := range children {
		if err := db.Write(c, fingerprintBody(t, db.Indexer().Layer(c))); err != nil {
			t.Fatal(err)
		}
	}
	r = &plyReader{d: db, k: k}
	t.Cleanup(r.release)
	l := db.Indexer().Layer(k)
	for i, p := range l.Positions(0, l.Size()) {
		if i%3 != 0 {
			continue
		}
		p.Game = v.Game
		want, werr := db.wonDepth(p)
		ms := p.AppendMoves(nil)
		got, gerr := depth(r, int(i), p, ms)
		if got != want || (werr == nil) != (gerr == nil) || werr != nil && !(errors.Is(werr, errNoLostChild) && errors.Is(gerr, errNoLostChild)) {
			t.Fatalf("slot %d: the fill's %d, %v; DB.wonDepth %d, %v", i, got, gerr, want, werr)
		}
		n++
		if werr != nil {
			none++
		}
		for _, m := range ms {
			j := 0
			if m.From == muehle.NoPoint {
				j = 2
			}
			if m.IsRemoval() {
				j++
			}
			kinds[j]++
		}
	}
	return r, n, none, kinds
}

// TestFlatDepthAsProbes holds the fill's reading of a Lasker Morris layer
// whose positions place and slide (flatDepth: its four kinds of children
// ranked kind by kind, their bytes read directly) to DB.wonDepth, which
// probes each child, on every third position of p3+1-3+1 of the 4-stone
// game, its children's layers written with arbitrary values.
func TestFlatDepthAsProbes(t *testing.T) {
	testenv.SlowUnderRace(t, "probes the children of every third position of p3+1-3+1 one at a time, on one goroutine")
	v := muehle.Lasker.With(4)
	k := Key{W: 3, WH: 1, B: 3, BH: 1}
	r, n, none, kinds := depthsAsProbes(t, v, k, SuccessorsIn(v, k),
		func(r *plyReader, _ int, p muehle.Position, _ []muehle.Move) (int, error) { return r.wonDepth(p) })
	fast := 0
	for _, g := range r.groups {
		if g.state == 2 { // both kinds of the group read flat
			fast += 2
		}
	}
	if n < 1000 || none == 0 || none == n || fast != 4 || kinds[0] == 0 || kinds[1] == 0 || kinds[2] == 0 || kinds[3] == 0 {
		t.Errorf("%d positions, %d without a lost child, moves of each kind %v, %d kinds read flat: want many, some of each, all four", n, none, kinds, fast)
	}
	t.Logf("%d positions, %d without a lost child, moves of each kind %v", n, none, kinds)
}

// TestCompressDerived compresses the flat layer 3-3 of the 5-stone game
// (its children in itself) with CompressDerived, as the solver does once
// it has verified a layer: the file is Compress's byte for byte; the DB
// records it checked in full and holds the verified body decoded, so that
// Layer returns it without finding the won depths again (the entry stays
// the one CompressDerived made); with a memory bound below the layer's
// size it holds nothing, and Layer finds the depths as usual.
func TestCompressDerived(t *testing.T) {
	want := example1Values(t)
	k := Moving(3, 3)
	flatDB := func(bound int64) *DB {
		db, err := OpenDB(t.TempDir(), muehle.Standard.With(5))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		db.SetCacheBytes(bound)
		if err := db.Write(k, want); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkVerified(k); err != nil {
			t.Fatal(err)
		}
		return db
	}
	checked := flatDB(0)
	if _, _, done, err := checked.Compress(k); err != nil || !done {
		t.Fatalf("Compress: done %v, %v", done, err)
	}
	wantFile, err := os.ReadFile(checked.Path(k))
	if err != nil {
		t.Fatal(err)
	}
	for _, bound := range []int64{0, 1 << 14} {
		db := flatDB(bound)
		if _, _, done, err := db.CompressDerived(k); err != nil || !done {
			t.Fatalf("bound %d: CompressDerived: done %v, %v", bound, done, err)
		}
		if got, err := os.ReadFile(db.Path(k)); err != nil || string(got) != string(wantFile) {
			t.Errorf("bound %d: the file (%d bytes, %v) is not Compress's (%d bytes)", bound, len(got), err, len(wantFile))
		}
		if _, ok := db.soundBefore(k); !ok {
			t.Errorf("bound %d: the compressed file is not recorded as checked in full", bound)
		}
		e := db.cached(k)
		held := e != nil && e.f != nil && e.f.body != nil && !e.f.open
		if held != (bound == 0) {
			t.Errorf("bound %d: body held decoded %v, want %v", bound, held, bound == 0)
		}
		if st, err := db.Check(k); st != StatusVerified {
			t.Errorf("bound %d: Check %v, %v; want verified", bound, st, err)
		}
		f, err := db.Layer(k)
		if err != nil || !f.Compressed() || string(f.Body()) != string(want) {
			t.Fatalf("bound %d: Layer %v, compressed %v, not the flat body", bound, err, f != nil && f.Compressed())
		}
		if held && db.cached(k) != e {
			t.Errorf("bound %d: Layer opened the layer again", bound)
		}
	}
}

// TestPlyReaderDecodesChildren finds the won depths of a placement layer
// (p2+2-2+2 of the 4-stone game) whose children, placements with a
// removal and without, are compressed dense layers (fingerprint values,
// form 1), with a memory bound of one block: plyReader decodes each child
// once in full (a cache that small would decode a block for nearly every
// probe) and finds on every third position the depth DB.wonDepth finds
// through the block cache.
func TestPlyReaderDecodesChildren(t *testing.T) {
	smallBlocks(t)
	form := SetCompressForm(1)
	t.Cleanup(func() { SetCompressForm(form) })
	v := muehle.Standard.With(4)
	db, err := OpenDB(t.TempDir(), v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	k := Key{W: 2, B: 2, WH: 2, BH: 2}
	for _, remove := range []bool{false, true} {
		c, ok := k.Child(true, remove)
		if !ok {
			t.Fatalf("%v has no child placing with removal %v", k, remove)
		}
		if err := db.WriteDense(c, denseFingerprint(db.Indexer().Layer(c))); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkVerified(c); err != nil {
			t.Fatal(err)
		}
		if _, _, done, err := db.Compress(c); err != nil || !done {
			t.Fatalf("compressing %v: done %v, %v", c, done, err)
		}
	}
	db = reopen(t, db)
	db.SetCacheBytes(1 << minBlockShift)
	l := db.Indexer().Layer(k)
	type depth struct {
		d    int
		none bool
	}
	var want []depth
	for i, p := range l.Positions(0, l.Size()) {
		if i%3 != 0 {
			continue
		}
		p.Game = v.Game
		d, err := db.wonDepth(p)
		if err != nil && !errors.Is(err, errNoLostChild) {
			t.Fatalf("DB.wonDepth of slot %d: %v", i, err)
		}
		want = append(want, depth{d, err != nil})
	}
	before := wholeDecodes.Load()
	r := &plyReader{d: db, k: k}
	defer r.release()
	depths := map[int]int{}
	for i, p := range l.Positions(0, l.Size()) {
		if i%3 != 0 {
			continue
		}
		p.Game = v.Game
		d, err := r.wonDepth(p)
		w := want[0]
		want = want[1:]
		if err != nil && !errors.Is(err, errNoLostChild) || d != w.d || (err != nil) != w.none {
			t.Fatalf("slot %d: plyReader %d, %v; DB.wonDepth %d, no lost child %v", i, d, err, w.d, w.none)
		}
		depths[d]++
	}
	if n := wholeDecodes.Load() - before; n != 2 {
		t.Errorf("plyReader decoded %d layers in full, want the 2 children once each", n)
	}
	if len(depths) < 3 || len(want) != 0 {
		t.Errorf("depths found %v, %d positions left: want several depths, none left", depths, len(want))
	}
	t.Logf("depths found (depth: positions): %v", depths)
}

// TestStoredForm holds storedForm and sameStored, which work eight bytes
// at a time, to form 2's rule for one byte (a won value, 2 + d with d odd,
// becomes wonCode; nothing before byte from changes): every byte value at
// every place in a word among random neighbours, bodies of every length
// up to 40 with every from, and a body that differs in one byte.
func TestStoredForm(t *testing.T) {
	rule := func(v byte) byte {
		if v >= 2 && (v-2)&1 == 1 {
			return wonCode
		}
		return v
	}
	r := rand.New(rand.NewPCG(51, 2))
	for v := range 256 {
		for at := range 8 {
			raw := make([]byte, 8)
			for j := range raw {
				raw[j] = byte(r.Uint32())
			}
			raw[at] = byte(v)
			want := make([]byte, 8)
			for j, b := range raw {
				want[j] = rule(b)
			}
			body := slices.Clone(raw)
			if got := storedForm(raw, 0, 0); !slices.Equal(got, want) {
				t.Fatalf("storedForm(%x) = %x, want %x", body, got, want)
			}
			if !sameStored(want, body, 0) {
				t.Fatalf("sameStored(%x, %x) is false", want, body)
			}
		}
	}
	// A body of several pages, its values from the second on.
	long := make([]byte, 10000)
	for j := range long {
		long[j] = byte(r.IntN(12))
	}
	want := slices.Clone(long)
	for j := 5000; j < len(want); j++ {
		want[j] = rule(want[j])
	}
	if !sameStored(want, long, 5000) || sameStored(storedForm(slices.Clone(long), 0, 0), long, 5000) {
		t.Fatalf("sameStored of a body of %d bytes from byte 5000: wrong", len(long))
	}
	for n := range 41 {
		for from := range n + 2 {
			body := make([]byte, n)
			for j := range body {
				body[j] = byte(r.IntN(12))
			}
			want := slices.Clone(body)
			for j := from; j < n; j++ {
				want[j] = rule(want[j])
			}
			if got := storedForm(slices.Clone(body), 0, from); !slices.Equal(got, want) {
				t.Fatalf("storedForm of %x from %d = %x, want %x", body, from, got, want)
			}
			if got := storedForm(slices.Clone(body[from/2:]), from/2, from); !slices.Equal(got, want[from/2:]) {
				t.Fatalf("storedForm of %x at %d from %d = %x, want %x", body[from/2:], from/2, from, got, want[from/2:])
			}
			if !sameStored(want, body, from) {
				t.Fatalf("sameStored(%x, %x, %d) is false", want, body, from)
			}
			if n > 0 {
				j := r.IntN(n)
				want[j] ^= 0x10
				if sameStored(want, body, from) {
					t.Fatalf("sameStored(%x, %x, %d) is true, byte %d changed", want, body, from, j)
				}
			}
		}
	}
}
