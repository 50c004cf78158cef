package pack

import (
	"bytes"
	"context"
	"hash/crc64"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
)

// streamsData returns n bytes like a layer's values: runs of draws, wins
// and losses whose depths drift, some Unused, with a B-class stride.
func streamsData(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		switch {
		case i >= 56 && r.IntN(4) > 0:
			b[i] = b[i-56]
		case i > 0 && r.IntN(3) > 0:
			b[i] = b[i-1]
		case r.IntN(10) == 0:
			b[i] = 0
		case r.IntN(3) == 0:
			b[i] = 1
		default:
			b[i] = byte(2 + r.IntN(60))
		}
	}
	return b
}

func TestStreamsRoundTrip(t *testing.T) {
	parts := []layers.Part{{First: 0, Slots: 56 * 300, Stride: 56}, {First: 56 * 300, Slots: 28 * 1000, Stride: 28}, {First: 56*300 + 28*1000, Slots: 1 << 20, Stride: 70}}
	var sc streamCoder
	for _, tc := range []struct {
		name  string
		n     int
		base  uint64
		parts []layers.Part
	}{
		{"one part", 10000, 0, parts},
		{"across parts", 60000, 10000, parts},
		{"no geometry", 50000, 0, nil},
		{"one byte", 1, 5, parts},
		{"repeated", 4096, 0, nil},
	} {
		raw := streamsData(tc.n, uint64(tc.n))
		if tc.name == "repeated" {
			raw = bytes.Repeat([]byte{7}, tc.n)
		}
		enc := sc.encode(nil, raw, tc.base, tc.parts, nil)
		var dc streamCoder
		got, err := dc.decode(nil, enc, len(raw), tc.base, tc.parts, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !bytes.Equal(got, raw) {
			t.Fatalf("%s: decoded bytes differ", tc.name)
		}
		t.Logf("%s: %d bytes in %d", tc.name, len(raw), len(enc))
		// Decoded with another geometry, the bytes come out different or
		// the streams do not fit: never a panic.
		if tc.parts != nil && tc.n > 1000 {
			if got, err := dc.decode(nil, enc, len(raw), tc.base, nil, nil); err == nil && bytes.Equal(got, raw) {
				t.Errorf("%s: decoded without the geometry, still the same bytes", tc.name)
			}
		}
	}
}

// TestStreamsDamaged: every cut and every flipped byte of a block's
// streams gives an error or other bytes, never a panic.
func TestStreamsDamaged(t *testing.T) {
	testenv.SlowUnderRace(t, "decodes a stream once per byte changed, on one goroutine")
	raw := streamsData(3000, 3)
	var sc streamCoder
	enc := sc.encode(nil, raw, 0, nil, nil)
	for cut := range len(enc) {
		if got, err := sc.decode(nil, enc[:cut], len(raw), 0, nil, nil); err == nil && bytes.Equal(got, raw) {
			t.Fatalf("cut at %d of %d: decoded to the same bytes", cut, len(enc))
		}
	}
	for i := range len(enc) {
		bad := bytes.Clone(enc)
		bad[i] ^= 0x5a
		sc.decode(nil, bad, len(raw), 0, nil, nil)
	}
	if _, err := sc.decode(nil, enc, len(raw)+1, 0, nil, nil); err == nil {
		t.Error("decoded to more bytes than coded")
	}
}

func FuzzStreams(f *testing.F) {
	var sc streamCoder
	f.Add(sc.encode(nil, streamsData(3000, 1), 0, nil, nil), 3000)
	f.Add(sc.encode(nil, []byte{1, 1, 1, 1}, 0, nil, nil), 4)
	f.Fuzz(func(t *testing.T, p []byte, n int) {
		if n < 0 || n > 1<<16 {
			return
		}
		var dc streamCoder
		got, err := dc.decode(nil, p, n, 0, nil, nil)
		if err == nil {
			if len(got) != n {
				t.Fatalf("decoded %d bytes, want %d", len(got), n)
			}
			if again := dc.encode(nil, got, 0, nil, nil); len(again) == 0 {
				t.Fatal("no streams")
			}
		}
	})
}

// partnerDB writes the moving layers 3-4, 4-3 and 4-4 of the 4-stone game
// with values like a solution's: runs along the slots, and each value of
// 4-3 (and of 4-4, where the slot of the colours exchanged comes before)
// mostly that of its partner's slot; verified, with a solve record.
func partnerDB(t *testing.T) (string, []layers.Key) {
	t.Helper()
	dir := t.TempDir()
	db, err := layers.OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := rand.New(rand.NewPCG(5, 5))
	x := db.Indexer()
	keys := []layers.Key{{W: 3, B: 4}, {W: 4, B: 3}, {W: 4, B: 4}}
	bodies := map[layers.Key][]byte{}
	for _, k := range keys {
		li := x.Layer(k)
		pk := layers.Key{W: k.B, B: k.W}
		pb := bodies[pk]
		if k == pk {
			pb = nil
		}
		body := make([]byte, li.Size())
		js := make([]uint64, len(body))
		li.Swapped(0, js, x.Layer(pk))
		for i := range body {
			switch {
			case js[i] == layers.NoSlot:
				body[i] = 0
			case pb != nil && r.IntN(5) > 0:
				body[i] = pb[js[i]]
			case k == pk && js[i] < uint64(i) && r.IntN(5) > 0:
				body[i] = body[js[i]]
			case i > 0 && r.IntN(4) > 0:
				body[i] = max(body[i-1], 1)
			default:
				body[i] = byte(1 + r.IntN(40))
			}
		}
		if err := db.Write(k, body); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkVerified(k); err != nil {
			t.Fatal(err)
		}
		bodies[k] = body
	}
	rec := "2026-11-27T08:00:00Z\tm3-4\t1592772\t0.8\tcount=0.2\t404\t2\t2\ta34a546\n"
	if err := os.WriteFile(db.RecordPath(), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, keys
}

// TestPartnerRoundTrip: the second layer of a pair, and a layer that is
// its own partner, are coded with the partner's values (coder 2), and the
// package imports to the very files; a package of the second layer alone
// has no block of coder 2.
func TestPartnerRoundTrip(t *testing.T) {
	testenv.SlowUnderRace(t, "exports and imports the 4-stone layers; the codec runs on one goroutine, and TestDerivedLayers and TestRoundTrip export concurrently under it")
	smallBlocks(t)
	dir, keys := partnerDB(t)
	db, err := layers.OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := filepath.Join(t.TempDir(), "k4.mpk")
	res, err := Export(context.Background(), db, keys, ExportOptions{Out: out, Exported: Machine{Commit: "test"}, StoreAll: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Coded[coderPartner] == 0 {
		t.Fatalf("blocks by coder %v: none coded with the partner's values", res.Coded)
	}
	into := t.TempDir()
	if _, err := Import(context.Background(), into, out, ImportOptions{ClaimName: testClaim}); err != nil {
		t.Fatal(err)
	}
	sameFolders(t, dir, into)

	alone := filepath.Join(t.TempDir(), "4-3.mpk")
	res, err = Export(context.Background(), db, keys[1:2], ExportOptions{Out: alone, Exported: Machine{Commit: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Coded[coderPartner] != 0 {
		t.Errorf("4-3 alone: %d blocks coded with the partner's values", res.Coded[coderPartner])
	}
	into = t.TempDir()
	if _, err := Import(context.Background(), into, alone, ImportOptions{ClaimName: testClaim}); err != nil {
		t.Fatal(err)
	}
}

// TestDirectoryAcrossBlocks: a dense body whose rank directory begins just
// before a block's end, so that the next block starts within it, comes
// back whole from its blocks of coder 3.
func TestDirectoryAcrossBlocks(t *testing.T) {
	const bs = 1 << 16
	slots := uint64(8191 * 64) // the bits end 8 bytes before the first block's end
	bits := make([]byte, slots/8)
	var values []byte
	for i := range slots {
		if i%5 == 0 || i%11 == 3 {
			bits[i/8] |= 1 << (i % 8)
			values = append(values, byte(1+i%7))
		}
	}
	body := append(append(append([]byte(nil), bits...), layers.DenseDirectory(slots, bits)...), values...)
	l := Layer{Layout: int(layers.LayoutDense), Slots: slots, Stored: uint64(len(values)), version: layers.FileVersion}
	if dir, val := layers.DenseRegions(l.Slots, l.Stored); dir != bs-8 || val <= bs || uint64(len(body)) != val+l.Stored {
		t.Fatalf("regions %d, %d of a body of %d bytes", dir, val, len(body))
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	e := &exporter{enc: enc}
	in := &installer{dec: dec, p: &Package{Manifest: &Manifest{BlockBytes: bs, Layers: []Layer{l}}}}
	dir, _ := layers.DenseRegions(l.Slots, l.Stored)
	in.bits = make([]byte, dir)
	var got []byte
	var sc streamCoder
	for lo := 0; lo < len(body); lo += bs {
		raw := body[lo:min(lo+bs, len(body))]
		j := &blockJob{base: uint64(lo)}
		j.b.h = blockHeader{seq: lo / bs, raw: len(raw), rawCRC: crc64.Checksum(raw, ecma)}
		head, tail, ok := directoryPart(&l, uint64(lo), len(raw))
		if ok {
			j.b.h.coder = coderDirectory
			j.b.frame = e.withoutDirectory(nil, raw, head, tail, &sc)
		} else {
			j.b.frame = enc.EncodeAll(raw, nil)
		}
		in.prepare(j, 0, &sc)
		if j.err != nil {
			t.Fatal(j.err)
		}
		out, err := in.finish(j, 0)
		if err != nil {
			t.Fatalf("block at %d: %v", lo, err)
		}
		got = append(got, out...)
	}
	if !bytes.Equal(got, body) {
		t.Error("the body does not come back")
	}
}
