package layers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/muehle"
)

// randomDense returns a dense body of slots slots, each stored with
// probability share, its value a function of the slot.
func randomDense(t *testing.T, r *rand.Rand, slots uint64, share float64) *Dense {
	t.Helper()
	stored := make([]uint64, denseWords(slots))
	var values []byte
	for i := range slots {
		if r.Float64() < share {
			stored[i/64] |= 1 << (i % 64)
			values = append(values, byte(1+i%200))
		}
	}
	d, err := NewDense(slots, stored, values)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDenseRank compares Rank, Has and Value with a count from the start,
// on sizes around the word, block and superblock boundaries, and the
// values of the copy at one byte per slot (flatCopy) with Value.
func TestDenseRank(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, slots := range []uint64{0, 1, 63, 64, 65, 511, 512, 513, 1 << 16, 1<<16 + 1, 3<<16 + 777} {
		for _, share := range []float64{0, 0.02, 0.5, 1} {
			checkDenseRank(t, randomDense(t, r, slots, share), slots, share)
		}
	}
}

// checkDenseRank is TestDenseRank on one layer of slots slots, share of
// them stored.
func checkDenseRank(t *testing.T, d *Dense, slots uint64, share float64) {
	t.Helper()
	c, err := d.flatCopy()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if uint64(len(c.flat)) != slots {
		t.Fatalf("slots %d share %v: a flat copy of %d bytes", slots, share, len(c.flat))
	}
	var n uint64
	for i := range slots {
		has := d.bits[i/64]&(1<<(i%64)) != 0
		if d.Has(i) != has {
			t.Fatalf("slots %d share %v: Has(%d) = %v, want %v", slots, share, i, d.Has(i), has)
		}
		rk, ok := d.Rank(i)
		want := Unused
		if has {
			want = Value(1 + i%200)
		}
		if ok != has || (has && rk != n) || d.Value(i) != want {
			t.Fatalf("slots %d share %v: slot %d: Rank %d, %v, Value %v; want %d, %v, %v", slots, share, i, rk, ok, d.Value(i), n, has, want)
		}
		if c.Value(i) != want {
			t.Fatalf("slots %d share %v: slot %d: the flat copy holds %v, want %v", slots, share, i, c.Value(i), want)
		}
		if has {
			n++
		}
	}
	if d.Stored() != n || d.count() != n {
		t.Errorf("slots %d share %v: Stored %d, count %d, want %d", slots, share, d.Stored(), d.count(), n)
	}
	if d.Has(slots) || d.Value(slots) != Unused {
		t.Errorf("slots %d: slot %d out of range reads as stored", slots, slots)
	}
}

// TestDenseEncoding reads an encoded body back in place and decoded (the
// body one byte off its alignment), and checks that check finds a
// directory entry, a bit or a value count that does not fit.
func TestDenseEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const slots = 5<<16 + 1001
	d := randomDense(t, r, slots, 0.3)
	body := d.encode()
	if uint64(len(body)) != DenseBodySize(slots, d.Stored()) {
		t.Fatalf("encoded %d bytes, DenseBodySize says %d", len(body), DenseBodySize(slots, d.Stored()))
	}
	shifted := make([]byte, len(body)+1)[1:] // not aligned to 8 bytes: decoded
	copy(shifted, body)
	for name, b := range map[string][]byte{"in place": body, "decoded": shifted} {
		v, err := denseView(b, slots, d.Stored())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := v.check(); err != nil {
			t.Fatalf("%s: check: %v", name, err)
		}
		for i := uint64(0); i < slots; i += 37 {
			if v.Value(i) != d.Value(i) {
				t.Fatalf("%s: slot %d: %v, want %v", name, i, v.Value(i), d.Value(i))
			}
		}
	}
	if _, err := denseView(body[:len(body)-1], slots, d.Stored()); err == nil {
		t.Error("denseView of a short body: no error")
	}
	super, sub, _, _ := denseLayout(slots, d.Stored())
	for name, off := range map[string]uint64{"superblock entry": super + 8, "block entry": sub + 2*130, "bit": 8 * 700} {
		bad := append([]byte(nil), body...)
		bad[off] ^= 4
		v, _ := denseView(bad, slots, d.Stored())
		if err := v.check(); err == nil {
			t.Errorf("a changed %s: check passed", name)
		}
	}
}

// TestNewDenseRefuses checks NewDense's checks of its arguments.
func TestNewDenseRefuses(t *testing.T) {
	if _, err := NewDense(100, make([]uint64, 1), nil); err == nil {
		t.Error("too few words: no error")
	}
	if _, err := NewDense(60, []uint64{1 << 61}, []byte{1}); err == nil {
		t.Error("a bit beyond the slots: no error")
	}
	if _, err := NewDense(64, []uint64{3}, []byte{1}); err == nil {
		t.Error("two bits, one value: no error")
	}
}

// denseStored picks about half of the positions, by a hash of the
// stones, as the slots a dense test layer stores.
func denseStored(p muehle.Position) bool {
	return (uint64(p.Stones[0])*0x9e3779b97f4a7c15^uint64(p.Stones[1])*0xc2b2ae3d27d4eb4f)>>63 == 1
}

// denseFingerprint returns a dense body for layer l that stores the
// canonical slots denseStored picks, with the fingerprint as value.
func denseFingerprint(l *LayerIndex) *Dense {
	stored := make([]uint64, denseWords(l.Size()))
	var values []byte
	for i := range l.Size() {
		if p, ok := l.Position(i); ok && denseStored(p) {
			stored[i/64] |= 1 << (i % 64)
			values = append(values, byte(fingerprint(p)))
		}
	}
	d, err := NewDense(l.Size(), stored, values)
	if err != nil {
		panic(err)
	}
	return d
}

// TestDenseLayerFile writes a dense placement layer through the DB and
// reads it back every way: header, File.Value after a full check, Probe
// with the blocks checked lazily.
func TestDenseLayerFile(t *testing.T) {
	smallBlocks(t)
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := Key{W: 2, B: 2, WH: 2, BH: 2}
	l := db.Indexer().Layer(k)
	d := denseFingerprint(l)
	if err := db.WriteDense(k, d); err != nil {
		t.Fatal(err)
	}
	h, err := db.Header(k)
	if err != nil {
		t.Fatal(err)
	}
	var won, lost, drawn uint64
	for _, v := range d.Values() {
		switch Value(v).Outcome() {
		case Win:
			won++
		case Loss:
			lost++
		case Draw:
			drawn++
		}
	}
	if !h.Dense() || h.Slots != l.Size() || h.Stored != d.Stored() || h.Won != won || h.Lost != lost || h.Drawn != drawn {
		t.Fatalf("header %+v: want dense, %d slots, %d stored, won %d lost %d drawn %d", h, l.Size(), d.Stored(), won, lost, drawn)
	}
	db = reopen(t, db)
	// The block file vouches for the dense body: the first probe checks
	// the blocks it reads, not the whole body.
	last := l.Size() - 1
	for !d.Has(last) {
		last--
	}
	p, _ := l.Position(last)
	if got, err := db.Probe(p); err != nil || got != d.Value(last) {
		t.Fatalf("first Probe: %v, %v, want %v", got, err, d.Value(last))
	}
	if n, blocks := checkedBlocks(db, k), blockCount(int(h.BodySize()), blockShift); n < 1 || n > 4 || blocks < 5 {
		t.Errorf("after one probe of a body of %d blocks: %d blocks checked (-1: in full), want 1 to 4", blocks, n)
	}
	for i := range l.Size() {
		p, ok := l.Position(i)
		if !ok {
			continue
		}
		want := Unused
		if denseStored(p) {
			want = fingerprint(p)
		}
		if got, err := db.Probe(p); err != nil || got != want {
			t.Fatalf("Probe slot %d: %v, %v, want %v", i, got, err, want)
		}
	}
	f, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	if f.Dense() == nil || f.Dense().Stored() != d.Stored() {
		t.Fatal("Layer: not read as dense")
	}
	for i := range l.Size() {
		if f.Value(i) != d.Value(i) {
			t.Fatalf("File.Value(%d) = %v, want %v", i, f.Value(i), d.Value(i))
		}
	}
}

// TestDenseDamage flips a byte in each part of a dense layer file (bits,
// directory, values) and expects a probe that reads it, and a full check,
// to find the damage.
func TestDenseDamage(t *testing.T) {
	k := Key{W: 2, B: 2, WH: 2, BH: 2}
	for _, part := range []string{"bits", "superblock entry", "block entry", "value"} {
		t.Run(part, func(t *testing.T) {
			smallBlocks(t)
			db, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			l := db.Indexer().Layer(k)
			d := denseFingerprint(l)
			if err := db.WriteDense(k, d); err != nil {
				t.Fatal(err)
			}
			// The last stored slot: its bit, its directory entries and
			// its value are each in a block of their own.
			var last uint64
			for i := range l.Size() {
				if d.Has(i) {
					last = i
				}
			}
			word, super, sub := d.directoryOffsets(last)
			value, _ := d.valueOffset(last)
			off := map[string]uint64{"bits": word, "superblock entry": super, "block entry": sub, "value": value}[part]
			flipByte(t, db.Path(k), HeaderSize+int64(off))
			p, _ := l.Position(last)
			db = reopen(t, db)
			if _, err := db.Probe(p); !errors.Is(err, ErrChecksum) {
				t.Errorf("Probe: got %v, want ErrChecksum", err)
			}
			db = reopen(t, db)
			if _, err := db.Layer(k); !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), db.Path(k)) {
				t.Errorf("Layer: got %v, want ErrChecksum naming the file", err)
			}
		})
	}
}

// TestDenseHeaderChecks checks the header rules of a dense file: the
// stored count within the slots and equal to the values' outcomes.
func TestDenseHeaderChecks(t *testing.T) {
	k := Key{W: 2, B: 2, WH: 2, BH: 2}
	h := Header{Version: FileVersion, Stones: 4, Key: k, Slots: 1000, Layout: LayoutDense, Stored: 10, Won: 4, Lost: 3, Drawn: 3}
	size := int64(HeaderSize + h.BodySize())
	if err := h.check("f", muehle.Standard.With(4), k, size); err != nil {
		t.Fatalf("a sound header: %v", err)
	}
	for name, change := range map[string]func(*Header){
		"stored above slots":  func(h *Header) { h.Stored = 1001 },
		"outcomes not stored": func(h *Header) { h.Drawn = 2 },
	} {
		bad := h
		change(&bad)
		if err := bad.check("f", muehle.Standard.With(4), k, int64(HeaderSize+bad.BodySize())); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: got %v, want ErrFormat", name, err)
		}
	}
	if err := h.check("f", muehle.Standard.With(4), k, size-1); !errors.Is(err, ErrFormat) {
		t.Errorf("a short file: got %v, want ErrFormat", err)
	}
	b := h.marshal()
	got, err := parseHeader(b, "f")
	if err != nil || got != h {
		t.Errorf("header round trip: got %+v, %v, want %+v", got, err, h)
	}
}

// BenchmarkDenseValue measures the look-up of a dense layer in memory at
// random slots, with 18 % of them stored, as in the 9-stone game's
// placement layers: read in place with the file's rank directory, and
// copied at one byte per slot (the copies the solver and the verifier
// look up).
func BenchmarkDenseValue(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	const slots = 1 << 26
	stored := make([]uint64, denseWords(slots))
	for i := range stored {
		stored[i] = r.Uint64() & r.Uint64() & (r.Uint64() | r.Uint64()) // about 19 %
	}
	n := 0
	for _, w := range stored {
		n += bits.OnesCount64(w)
	}
	d, err := NewDense(slots, stored, make([]byte, n))
	if err != nil {
		b.Fatal(err)
	}
	idx := make([]uint64, 1<<16)
	for i := range idx {
		idx[i] = r.Uint64N(slots)
	}
	flat, err := d.flatCopy()
	if err != nil {
		b.Fatal(err)
	}
	defer flat.Release()
	for _, c := range []struct {
		name  string
		value func(uint64) Value
	}{{"directory", d.Value}, {"flat", flat.Value}} {
		b.Run(c.name, func(b *testing.B) {
			var sink Value
			i := 0
			for b.Loop() {
				sink += c.value(idx[i&(len(idx)-1)])
				i++
			}
			_ = sink
		})
	}
}

// writeOld writes layer k of db as a file of the format before, holding
// flat (a body in this order); with verified set, with its verification
// record.
func writeOld(t *testing.T, db *DB, k Key, flat []byte, verified bool) {
	t.Helper()
	if err := db.WriteOld(k, flat); err != nil {
		t.Fatal(err)
	}
	if verified {
		if err := db.MarkVerifiedOld(k); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConvertOld rewrites layers of the format before in this one: a
// moving layer and a placement layer with holes (dense), verified or not.
// Every position keeps its value, a verified layer stays verified, and
// until converted the file reads as damaged by the old format.
func TestConvertOld(t *testing.T) {
	smallBlocks(t)
	for _, tc := range []struct {
		name     string
		k        Key
		dense    bool
		verified bool
	}{
		{"moving", Moving(3, 4), false, true},
		{"placement, dense", Key{W: 2, B: 2, WH: 2, BH: 2}, true, true},
		{"placement, unverified", Key{W: 2, B: 2, WH: 2, BH: 2}, true, false},
		{"placement, one byte per slot", Key{W: 2, B: 3, WH: 2, BH: 1}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			l := db.Indexer().Layer(tc.k)
			flat := fingerprintBody(t, l)
			if tc.dense {
				d := denseFingerprint(l)
				for i := range flat {
					flat[i] = byte(d.Value(uint64(i)))
				}
			}
			writeOld(t, db, tc.k, flat, tc.verified)
			if _, err := db.Layer(tc.k); !errors.Is(err, ErrOldFormat) || !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "muehlectl convert") {
				t.Fatalf("an old file: Layer gives %v, want ErrOldFormat naming muehlectl convert", err)
			}
			if got := db.OldLayers(); len(got) != 1 || got[0] != tc.k {
				t.Errorf("OldLayers: %v, want [%s]", got, tc.k)
			}
			ok, err := db.ConvertOld(tc.k, tc.dense)
			if err != nil || !ok {
				t.Fatalf("ConvertOld: %v, %v", ok, err)
			}
			db = reopen(t, db)
			h, err := db.Header(tc.k)
			if err != nil || h.Version != FileVersion || h.Dense() != tc.dense {
				t.Fatalf("after converting: header %+v, %v", h, err)
			}
			if db.Verified(tc.k) != tc.verified {
				t.Errorf("after converting: verified %v, want %v", db.Verified(tc.k), tc.verified)
			}
			for i := range l.Size() {
				p, ok := l.Position(i)
				if !ok {
					continue
				}
				if got, err := db.Probe(p); err != nil || got != Value(flat[i]) {
					t.Fatalf("slot %d: Probe %v, %v, want %v", i, got, err, Value(flat[i]))
				}
			}
			if ok, err := db.ConvertOld(tc.k, tc.dense); ok || err != nil || len(db.OldLayers()) != 0 {
				t.Errorf("converting again: %v, %v; want nothing done", ok, err)
			}
		})
	}
}

// TestDenseExample reads testdata/dense.layer, a dense file of the
// 4-stone layer p2+2-2+2 (WriteDenseLayer of denseFingerprint; go test
// -update writes it again), twice: by a decoder written here from the
// description in doc.go, byte by byte, and by OpenFile; both must give
// every slot that denseStored picks the fingerprint of its position, and
// Unused otherwise.
func TestDenseExample(t *testing.T) {
	k := Key{W: 2, B: 2, WH: 2, BH: 2}
	x, err := DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	l := x.Layer(k)
	path := filepath.Join("testdata", "dense.layer")
	if *update {
		if err := WriteDenseLayer(path, muehle.Standard.With(4), k, denseFingerprint(l)); err != nil {
			t.Fatal(err)
		}
		os.Remove(blocksPath(path))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	// The header: version 2, layout 1 (dense), slots, stored.
	n, stored := le.Uint64(b[24:]), le.Uint64(b[76:])
	if string(b[:8]) != "MUEHLEDB" || le.Uint32(b[8:]) != 2 || b[21] != 1 || n != l.Size() {
		t.Fatalf("header: magic %q, version %d, layout %d, %d slots; want MUEHLEDB, 2, 1, %d", b[:8], le.Uint32(b[8:]), b[21], n, l.Size())
	}
	body := b[HeaderSize:]
	words := (n + 63) / 64
	values := body[8*words+8*((n+65535)/65536)+2*((n+511)/512):]
	if uint64(len(values)) != stored || stored < n/4 {
		t.Fatalf("%d bytes of values, the header says %d stored of %d slots; want the same, at least a quarter", len(values), stored, n)
	}
	f, err := OpenFile(path, muehle.Standard.With(4), k)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r uint64 // stored slots so far
	for i := range n {
		want := Unused
		if p, ok := l.Position(i); ok && denseStored(p) {
			want = fingerprint(p)
		}
		got := Unused
		if le.Uint64(body[8*(i/64):])>>(i%64)&1 != 0 {
			got = Value(values[r])
			r++
		}
		if got != want || f.Value(i) != want {
			t.Fatalf("slot %d: decoded %v, OpenFile %v, want %v", i, got, f.Value(i), want)
		}
	}
}

// TestDenseDirectory: the directory DenseDirectory derives from the bits
// is the one the dense body holds.
func TestDenseDirectory(t *testing.T) {
	for _, slots := range []uint64{1, 64, 513, 70_000, 200_001} {
		words := make([]uint64, denseWords(slots))
		var values []byte
		for i := range slots {
			if i%3 == 0 || i%7 == 1 {
				words[i/64] |= 1 << (i % 64)
				values = append(values, 1)
			}
		}
		d, err := NewDense(slots, words, values)
		if err != nil {
			t.Fatal(err)
		}
		b := d.encode()
		dir, val := DenseRegions(slots, uint64(len(values)))
		if got := DenseDirectory(slots, b[:dir]); !bytes.Equal(got, b[dir:val]) {
			t.Errorf("%d slots: the directory derived differs from the body's", slots)
		}
	}
}
