package layers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"muehle/muehle"
	"muehle/muehle/testenv"
)

// compressedDB returns a 4-stone database in a temporary directory
// holding the moving layers 3-4 and 4-3 (fingerprint bodies) and the
// placement layer p3+1-3+1 dense (its canonical slots' fingerprints, every
// third left out), with blocks of blocks bytes (2^shift). Its bodies are
// no game's values, so it compresses in form 1, every value as it is
// (form 2 finds a won slot's depth from its children: won_test.go).
func compressedDB(t *testing.T, shift uint) (*DB, []Key) {
	t.Helper()
	s, zs, zw := blockShift, zShift, zWrite
	t.Cleanup(func() { blockShift, zShift, zWrite = s, zs, zw })
	blockShift, zShift, zWrite = shift, shift, 1
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	keys := []Key{Moving(3, 4), Moving(4, 3)}
	for _, k := range keys {
		if err := db.Write(k, fingerprintBody(t, db.Indexer().Layer(k))); err != nil {
			t.Fatal(err)
		}
	}
	pk := Key{W: 3, B: 3, WH: 1, BH: 1}
	if err := db.WriteDense(pk, denseFingerprint(db.Indexer().Layer(pk))); err != nil {
		t.Fatal(err)
	}
	return db, append(keys, pk)
}

// compressedReopened returns compressedDB's database of the smallest
// blocks with every layer compressed, opened again: nothing decoded yet.
func compressedReopened(t *testing.T) (*DB, []Key) {
	t.Helper()
	db, keys := compressedDB(t, minBlockShift)
	for _, k := range keys {
		if _, _, _, err := db.Compress(k); err != nil {
			t.Fatal(err)
		}
	}
	return reopen(t, db), keys
}

// layerValues returns every slot's value of layer k as DB.Layer gives it.
func layerValues(t *testing.T, db *DB, k Key) []Value {
	t.Helper()
	f, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	vs := make([]Value, f.Header().Slots)
	for i := range vs {
		vs[i] = f.Value(uint64(i))
	}
	return vs
}

// TestCompressSameValues compresses the layers of a small database in
// place and compares every slot through Probe (its block cache; every
// 61st under the race detector) and through Layer (decoded in full) with
// the values before, and the header,
// block file and verification record with those before.
func TestCompressSameValues(t *testing.T) {
	for _, shift := range []uint{minBlockShift, 16} {
		db, keys := compressedDB(t, shift)
		want := map[Key][]Value{}
		heads := map[Key]Header{}
		for _, k := range keys {
			want[k] = layerValues(t, db, k)
			heads[k], _ = db.Header(k)
			if err := db.MarkVerified(k); err != nil {
				t.Fatal(err)
			}
		}
		for _, k := range keys {
			before, after, done, err := db.Compress(k)
			if err != nil || !done {
				t.Fatalf("shift %d: compressing %v: done %v, %v", shift, k, done, err)
			}
			t.Logf("shift %d: %v: %d bytes, compressed %d", shift, k, before, after)
			if _, _, done, err := db.Compress(k); err != nil || done {
				t.Errorf("compressing %v again: done %v, %v; want nothing done", k, done, err)
			}
		}
		db = reopen(t, db)
		db.SetCacheBytes(4 << shift) // a few blocks: the cache gives blocks up
		// Every slot through Probe; under the race detector, which makes
		// each probe some hundred times as slow, every 61st, still a few
		// in each block.
		step := uint64(1)
		if testenv.Race {
			step = 61
		}
		for _, k := range keys {
			if h, err := db.Header(k); err != nil || h != heads[k] {
				t.Errorf("%v: header %+v, %v; want %+v", k, h, err, heads[k])
			}
			if !db.Verified(k) {
				t.Errorf("%v: not verified after compressing", k)
			}
			l := db.Indexer().Layer(k)
			for i := uint64(0); i < l.Size(); i += step {
				p, ok := l.Position(i)
				if !ok {
					continue
				}
				got, err := db.Probe(p)
				if err != nil || got != want[k][i] {
					t.Fatalf("shift %d: %v slot %d: Probe %v, %v; want %v", shift, k, i, got, err, want[k][i])
				}
			}
			if n := db.CacheBytes(); n > 4<<shift+1<<shift {
				t.Errorf("block cache holds %d bytes, bound %d", n, 4<<shift)
			}
			f, err := db.Layer(k)
			if err != nil || !f.Compressed() {
				t.Fatalf("%v: Layer %v (compressed %v)", k, err, f != nil && f.Compressed())
			}
			// A reader dropping the pages of what it read (the verifier,
			// the solver's copies) must not lose the decoded body.
			DropPages(f.Body())
			f.DropPages()
			for i, v := range want[k] {
				if got := f.Value(uint64(i)); got != v {
					t.Fatalf("%v slot %d: Layer %v after DropPages, want %v", k, i, got, v)
				}
			}
			if _, err := db.Check(k); err != nil {
				t.Errorf("%v: Check: %v", k, err)
			}
		}
	}
}

// TestCompressedDamage flips a bit in a frame, the offset table, the
// header and the preamble of a compressed layer: the frame's damage is
// found by the probe that decodes it, the others on opening; the layer is
// damaged (ErrChecksum, ErrMissing) for Probe and Layer alike.
func TestCompressedDamage(t *testing.T) {
	db, keys := compressedDB(t, minBlockShift)
	k := keys[0]
	if _, _, _, err := db.Compress(k); err != nil {
		t.Fatal(err)
	}
	path := db.Path(k)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, _, n, _, err := parseZHead(good, path)
	if err != nil {
		t.Fatal(err)
	}
	first := zHead + zEntry*n + 4
	for _, tc := range []struct {
		name string
		at   int
	}{
		{"preamble", 13},
		{"header", zPreamble + 40},
		{"table", zHead + 3},
		{"frame", first + (len(good)-first)/2},
		{"last byte", len(good) - 1},
	} {
		bad := bytes.Clone(good)
		bad[tc.at] ^= 0x10
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		db = reopen(t, db)
		l := db.Indexer().Layer(k)
		var perr error
		for i := range l.Size() {
			if p, ok := l.Position(i); ok {
				if _, perr = db.Probe(p); perr != nil {
					break
				}
			}
		}
		if !errors.Is(perr, ErrChecksum) && !errors.Is(perr, ErrFormat) || !errors.Is(perr, ErrMissing) {
			t.Errorf("%s: probing every slot: %v; want a damaged layer", tc.name, perr)
		}
		if _, err := db.Layer(k); !isDamaged(err) {
			t.Errorf("%s: Layer: %v; want a damaged layer", tc.name, err)
		}
	}
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db)
	if _, err := db.Check(k); err != nil {
		t.Errorf("restored: %v", err)
	}
}

// FuzzCompressedFile opens arbitrary bytes as a compressed layer file and
// decodes every block: errors, never a panic.
func FuzzCompressedFile(f *testing.F) {
	x, err := DefaultIndexer()
	if err != nil {
		f.Fatal(err)
	}
	k := Moving(3, 3)
	v := muehle.Standard.With(3)
	l := x.Layer(k)
	body := make([]byte, l.Size())
	for i := range body {
		body[i] = byte(i/7) % 5
	}
	dir := f.TempDir()
	if err := WriteLayer(dir+"/a.layer", v, k, body); err != nil {
		f.Fatal(err)
	}
	head, err := os.ReadFile(dir + "/a.layer")
	if err != nil {
		f.Fatal(err)
	}
	if _, err := writeCompressed(dir+"/z", head[:HeaderSize], body, zShift, l.Parts(), 0); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(dir + "/z")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Fuzz(func(t *testing.T, b []byte) {
		z, _, err := checkZ(b, "fuzz", v, k)
		if err != nil {
			return
		}
		z.parts = l.Parts()
		var c blockCoder
		for i := range z.n {
			z.decode(make([]byte, z.blockLen(i)), i, &c)
		}
	})
}

// TestCompressedExample reads the checked-in compressed layer 3-3 of the
// 5-stone game (testdata/compressed-k5-m3-3.layer, 51,036 bytes for
// 183,512 slots, made by `muehlectl compress`) byte by byte as doc.go
// describes it, then through OpenFile: its figures are those `muehlectl
// report` gives for the layer.
func TestCompressedExample(t *testing.T) {
	path := "testdata/compressed-k5-m3-3.layer"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	if string(b[:8]) != "MUEHLEDZ" || le.Uint32(b[8:]) != 1 || le.Uint32(b[12:]) != 14 || le.Uint64(b[16:]) != 12 {
		t.Fatalf("preamble % x: want MUEHLEDZ, version 1, blocks of 2^14 bytes, 12 blocks", b[:24])
	}
	if got, want := le.Uint32(b[28:]), crc32.Checksum(b[:28], crc32.MakeTable(crc32.Castagnoli)); got != want {
		t.Errorf("preamble CRC %08x, want %08x", got, want)
	}
	if string(b[32:40]) != "MUEHLEDB" || b[48] != 5 || b[49] != 3 || b[50] != 3 || le.Uint64(b[56:]) != 183512 {
		t.Errorf("header % x: want the layer 3-3 of 5 stones, 183,512 slots", b[32:64])
	}
	var sums []uint64
	at := uint64(zHead + 12*zEntry + 4)
	for i := range 12 {
		end, sum := le.Uint64(b[zHead+16*i:]), le.Uint64(b[zHead+16*i+8:])
		if end <= at || end > uint64(len(b)) {
			t.Fatalf("block %d ends at %d, after %d", i, end, at)
		}
		if c := b[at]; c > blockRaw {
			t.Errorf("block %d: coder %d", i, c)
		}
		at = end
		sums = append(sums, sum)
	}
	if at != uint64(len(b)) {
		t.Errorf("the frames end at %d, the file at %d", at, len(b))
	}
	if got, want := combineBlocks(sums, 14, 183512), le.Uint64(b[32+64:]); got != want {
		t.Errorf("the block CRCs combine to %016x, the header's body checksum is %016x", got, want)
	}
	f, err := OpenFile(path, muehle.Standard.With(5), Moving(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := f.Header()
	if !f.Compressed() || h.Won != 140621 || h.Lost != 28736 || h.Drawn != 269 || h.DeepestWin != 25 || h.DeepestLoss != 26 || h.Checksum != 0x290dc27b54f3cc16 {
		t.Errorf("header %+v (compressed %v); want 140,621 won, 28,736 lost, 269 drawn, deepest 25 and 26, checksum 290dc27b54f3cc16", h, f.Compressed())
	}
}

// TestCompressedConcurrentProbes probes a compressed layer from several
// goroutines with a block cache of two blocks, so that blocks are decoded,
// shared and given up all the time (run it with -race).
func TestCompressedConcurrentProbes(t *testing.T) {
	db, keys := compressedDB(t, minBlockShift)
	want := map[Key][]Value{}
	for _, k := range keys {
		want[k] = layerValues(t, db, k)
		if _, _, _, err := db.Compress(k); err != nil {
			t.Fatal(err)
		}
	}
	db = reopen(t, db)
	db.SetCacheBytes(2 << minBlockShift)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for j, k := range keys {
				l := db.Indexer().Layer(k)
				for i := uint64(g + j); i < l.Size(); i += 7 {
					p, ok := l.Position(i)
					if !ok {
						continue
					}
					if got, err := db.Probe(p); err != nil || got != want[k][i] {
						t.Errorf("%v slot %d: %v, %v; want %v", k, i, got, err, want[k][i])
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if n := db.CacheBytes(); n > 3<<minBlockShift {
		t.Errorf("the cache holds %d bytes, bound %d", n, 2<<minBlockShift)
	}
}

// TestCacheBoundTogether bounds a DB's memory for compressed layers and
// checks that a layer decoded in full (DB.Layer) and the blocks of probes
// share the bound: the blocks shrink to what the layer leaves, and a
// bound smaller than the layer leaves them an eighth of it.
func TestCacheBoundTogether(t *testing.T) {
	db, keys := compressedReopened(t)
	whole, probed := keys[0], keys[1]
	f, err := db.Layer(whole)
	if err != nil {
		t.Fatal(err)
	}
	size := int64(len(f.Body()))
	probeAll := func() {
		l := db.Indexer().Layer(probed)
		for i := range l.Size() {
			if p, ok := l.Position(i); ok {
				if _, err := db.Probe(p); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	const blk = 1 << minBlockShift
	bound := size + 8*blk
	db.SetCacheBytes(bound)
	probeAll()
	if n, most := db.CacheBytes(), max(bound-size, bound/8); n > most || n < 4*blk {
		t.Errorf("bound %d, a layer of %d decoded in full: the blocks hold %d bytes, want %d to %d", bound, size, n, 4*blk, most)
	}
	// A bound below the layer held: the blocks keep their floor, an eighth
	// of the bound, and no more; a cache of one block would decode a block
	// for nearly every probe.
	bound = size / 2
	db.SetCacheBytes(bound)
	if n := db.CacheBytes(); n > bound/8 {
		t.Errorf("bound %d below the layer decoded in full (%d): the blocks hold %d bytes, want at most an eighth of the bound (%d)", bound, size, n, bound/8)
	}
	probeAll()
	if n := db.CacheBytes(); n > bound/8 || n < bound/8-blk {
		t.Errorf("after probes: the blocks hold %d bytes, want an eighth of the bound (%d) within a block", n, bound/8)
	}
}

// TestSetNextUse: with a bound that holds two of three layers decoded, the
// DB lets go of the oldest, or with SetNextUse of the one needed last, so
// that the layer needed next is still held and not decoded again.
func TestSetNextUse(t *testing.T) {
	for _, planned := range []bool{false, true} {
		db, keys := compressedReopened(t)
		var total int64
		for _, k := range keys {
			f, err := db.Layer(k)
			if err != nil {
				t.Fatal(err)
			}
			total += int64(len(f.Body()))
		}
		db = reopen(t, db)
		// The room for layers held is the bound less an eighth.
		db.SetCacheBytes((total - 1) * 8 / 7)
		a, b, c := keys[0], keys[1], keys[2]
		if planned {
			next := map[Key]int{a: 1, b: 9, c: 5}
			db.SetNextUse(func(k Key) int { return next[k] })
		}
		for _, k := range []Key{a, b, c} {
			if _, err := db.Layer(k); err != nil {
				t.Fatal(err)
			}
		}
		before := wholeDecodes.Load()
		if _, err := db.Layer(a); err != nil {
			t.Fatal(err)
		}
		if again := wholeDecodes.Load() - before; again != 0 == planned {
			t.Errorf("SetNextUse %v: %v read again after %v and %v decoded %d times; want %d", planned, a, b, c, again, map[bool]int{false: 1, true: 0}[planned])
		}
	}
}

// TestLowerBoundLetsGo holds three compressed layers decoded in full,
// then lowers the DB's bound to a room for one: the two others are let go
// at once (the bytes held fit the room; the newest stays), and reading
// one of them decodes it again.
func TestLowerBoundLetsGo(t *testing.T) {
	db, keys := compressedReopened(t)
	db.SetCacheBytes(1 << 30)
	var largest int64
	for _, k := range keys[:3] {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		largest = max(largest, int64(len(f.Body())))
	}
	bound := largest * 8 / 7
	db.SetCacheBytes(bound)
	if held, room := db.cache.held.Load(), bound-bound/8; held > room {
		t.Errorf("bound lowered to %d: %d bytes of layers still held, want at most the room %d", bound, held, room)
	}
	before := wholeDecodes.Load()
	if _, err := db.Layer(keys[2]); err != nil { // the newest: held
		t.Fatal(err)
	}
	if _, err := db.Layer(keys[0]); err != nil {
		t.Fatal(err)
	}
	if n := wholeDecodes.Load() - before; n != 1 {
		t.Errorf("after the bound was lowered: %d layers decoded again, want 1 (%v let go, %v the newest kept)", n, keys[0], keys[2])
	}
}

// TestCheckDecodesOnce checks two compressed layers with a memory bound
// that holds one of them decoded: checking the first again, after the
// second pushed it out, does not decode it again (a solver checks every
// layer before each unit), while a file rewritten since is checked again.
func TestCheckDecodesOnce(t *testing.T) {
	db, keys := compressedReopened(t)
	db.SetCacheBytes(1)
	a, b := keys[0], keys[1]
	check := func(k Key, want Status) {
		t.Helper()
		if st, err := db.Check(k); st != want {
			t.Fatalf("Check(%v) = %v, %v; want %v", k, st, err, want)
		}
	}
	want, _ := db.Check(a)
	if want < StatusUnverified {
		t.Fatalf("layer %v: %v", a, want)
	}
	before := wholeDecodes.Load()
	check(b, want)
	check(a, want)
	check(b, want)
	if n := wholeDecodes.Load() - before; n != 1 {
		t.Errorf("checking %v, %v again and %v again decoded %d layers in full, want 1 (%v)", b, a, b, n, b)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(db.Path(a), later, later); err != nil {
		t.Fatal(err)
	}
	before = wholeDecodes.Load()
	check(a, want)
	if n := wholeDecodes.Load() - before; n != 1 {
		t.Errorf("checking %v after its file changed decoded %d layers in full, want 1", a, n)
	}
}

// TestCheckTrustsNote compresses verified layers: each record then notes
// its file as checked in full, and another DB (another process: a solver
// restarted) trusts the note while the file keeps its size and time,
// decoding nothing. A bit flipped behind the note's back is found when the
// layer is read; a file whose time changed is decoded again by Check.
func TestCheckTrustsNote(t *testing.T) {
	db, keys := compressedDB(t, minBlockShift)
	for _, k := range keys {
		if err := db.MarkVerified(k); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := db.Compress(k); err != nil {
			t.Fatal(err)
		}
	}
	a := keys[0]
	if b, _ := os.ReadFile(db.VerifiedPath(a)); !strings.Contains(string(b), " "+soundField+" ") {
		t.Fatalf("record after Compress: %q; want it to note the file checked", b)
	}
	db = reopen(t, db)
	before := wholeDecodes.Load()
	for _, k := range keys {
		if st, err := db.Check(k); st != StatusVerified {
			t.Fatalf("Check(%v) = %v, %v; want verified", k, st, err)
		}
	}
	if n := wholeDecodes.Load() - before; n != 0 {
		t.Errorf("a new DB checking %d noted layers decoded %d in full, want none", len(keys), n)
	}

	path := db.Path(a)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db)
	if st, err := db.Check(a); st != StatusVerified {
		t.Fatalf("Check(%v) of the flipped file, size and time as noted = %v, %v; want verified, as noted", a, st, err)
	}
	if _, err := db.Layer(a); !isDamaged(err) {
		t.Errorf("Layer(%v) of the flipped file: %v; want it damaged", a, err)
	}

	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db)
	if st, err := db.Check(a); st != StatusDamaged {
		t.Errorf("Check(%v) of the flipped file with a new time = %v, %v; want damaged", a, st, err)
	}
}
