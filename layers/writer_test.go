package layers

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/muehle"
)

// TestLayerWriterSameFiles writes random bodies of layer 3-4 through a
// LayerWriter in pieces of random sizes and checks that the layer file
// and its block file are byte for byte those DB.Write writes, for blocks
// of 512 bytes (many, the last one short) and of 64 KiB (the default);
// that Commit removes the old verification record; and that the DB reads
// the new file.
func TestLayerWriterSameFiles(t *testing.T) {
	for _, shift := range []uint{minBlockShift, 16} {
		old := blockShift
		blockShift = shift
		a, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
		if err != nil {
			t.Fatal(err)
		}
		b, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
		if err != nil {
			t.Fatal(err)
		}
		k := Moving(3, 4)
		rng := rand.New(rand.NewPCG(uint64(shift), 1))
		body := make([]byte, a.Indexer().Layer(k).Size())
		for i := range body {
			body[i] = byte(rng.IntN(40))
		}
		if err := a.Write(k, body); err != nil {
			t.Fatal(err)
		}
		if err := b.Write(k, bytes.Repeat([]byte{1}, len(body))); err != nil {
			t.Fatal(err)
		}
		if err := b.MarkVerified(k); err != nil {
			t.Fatal(err)
		}
		w, err := b.NewWriter(k)
		if err != nil {
			t.Fatal(err)
		}
		for rest := body; len(rest) > 0; {
			n := min(len(rest), 1+rng.IntN(3000))
			if _, err := w.Write(rest[:n]); err != nil {
				t.Fatal(err)
			}
			rest = rest[n:]
		}
		if _, err := w.Write([]byte{1}); err == nil {
			t.Errorf("shift %d: writing past the slots: got no error", shift)
		}
		pending, err := w.Pending()
		if err != nil {
			t.Fatal(err)
		}
		h, err := w.Commit()
		if h != pending {
			t.Errorf("shift %d: Commit wrote %+v, Pending said %+v", shift, h, pending)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"m3-4.layer", "m3-4.blocks"} {
			x, err1 := os.ReadFile(filepath.Join(a.Dir(), "k4", name))
			y, err2 := os.ReadFile(filepath.Join(b.Dir(), "k4", name))
			if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
				t.Errorf("shift %d: %s differs from Write's (%v, %v; %d and %d bytes)", shift, name, err1, err2, len(x), len(y))
			}
		}
		if _, err := os.Stat(filepath.Join(b.Dir(), "k4", "m3-4.verified")); !os.IsNotExist(err) {
			t.Errorf("shift %d: the old verification record is still there (%v)", shift, err)
		}
		if st, err := b.Check(k); st != StatusUnverified || err != nil {
			t.Errorf("shift %d: Check after Commit: got %v, %v; want unverified", shift, st, err)
		}
		if f, err := b.Layer(k); err != nil || f.Header() != h {
			t.Errorf("shift %d: the DB reads %+v (%v), want the header Commit returned %+v", shift, f, err, h)
		}
		a.Close()
		b.Close()
		blockShift = old
	}
}

// TestLayerWriterShort checks that a body shorter than the layer is
// refused by Commit and leaves neither the file nor a temporary one, and
// that Abort removes the temporary file.
func TestLayerWriterShort(t *testing.T) {
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := Moving(3, 3)
	w, err := db.NewWriter(k)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte{1, 2, 3})
	if _, err := w.Commit(); err == nil || !strings.Contains(err.Error(), "3 of the layer's") {
		t.Errorf("Commit of 3 bytes: got %v, want an error saying 3 of the layer's slots", err)
	}
	w, err = db.NewWriter(k)
	if err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if names, _ := filepath.Glob(filepath.Join(db.Dir(), "k3", "*")); len(names) != 0 {
		t.Errorf("after a refused Commit and an Abort: got files %v, want none", names)
	}
	if _, err := db.NewWriter(Moving(4, 4)); err == nil {
		t.Errorf("NewWriter(4-4) in the 3-stone game: got no error")
	}
}

// writeInPieces writes body through w in pieces of random sizes and
// returns the first error.
func writeInPieces(w *LayerWriter, rng *rand.Rand, body []byte) error {
	for rest := body; len(rest) > 0; {
		n := min(len(rest), 1+rng.IntN(3000))
		if _, err := w.Write(rest[:n]); err != nil {
			return err
		}
		rest = rest[n:]
	}
	return nil
}

// TestLayerWriterDense writes dense bodies through a LayerWriter in pieces
// of random sizes and checks that the layer file and its block file are
// byte for byte those DB.WriteDense (WriteDenseLayer) writes: for a layer
// of 796,386 slots (13 superblocks, the last one short, a last word of 34
// slots), of 10 slots and of 1, stored at several shares, for blocks of
// 512 bytes and of 64 KiB; that the header says the dense layout and the
// stored count; and that the DB reads the new file as dense.
func TestLayerWriterDense(t *testing.T) {
	for _, shift := range []uint{minBlockShift, 16} {
		old := blockShift
		blockShift = shift
		a, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
		if err != nil {
			t.Fatal(err)
		}
		b, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(shift), 2))
		for _, k := range []Key{Key{W: 3, WH: 1, B: 4, BH: 0}, Key{W: 1, WH: 3, B: 0, BH: 3}, Key{W: 0, WH: 3, B: 0, BH: 3}} {
			for _, share := range []float64{0.3, 0, 1} {
				what := fmt.Sprintf("shift %d layer %v share %v", shift, k, share)
				d := randomDense(t, rng, a.Indexer().Layer(k).Size(), share)
				if err := a.WriteDense(k, d); err != nil {
					t.Fatal(err)
				}
				w, err := b.NewDenseWriter(k, d.Stored())
				if err != nil {
					t.Fatal(err)
				}
				body := d.encode()
				if err := writeInPieces(w, rng, body); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if _, err := w.Write([]byte{1}); err == nil {
					t.Errorf("%s: writing past the body: got no error", what)
				}
				pending, err := w.Pending()
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				h, err := w.Commit()
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if h != pending || h.Version != FileVersion || h.Layout != LayoutDense || h.Stored != d.Stored() || h.Slots != d.Slots() {
					t.Errorf("%s: Commit wrote %+v, Pending said %+v; want a dense file of format 2, %d slots storing %d", what, h, pending, d.Slots(), d.Stored())
				}
				name := a.Path(k)[len(a.Dir())+1:]
				for _, p := range []string{name, strings.TrimSuffix(name, ".layer") + ".blocks"} {
					x, err1 := os.ReadFile(filepath.Join(a.Dir(), p))
					y, err2 := os.ReadFile(filepath.Join(b.Dir(), p))
					if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
						t.Errorf("%s: %s differs from WriteDense's (%v, %v; %d and %d bytes)", what, p, err1, err2, len(x), len(y))
					}
				}
				if f, err := b.Layer(k); err != nil || f.Header() != h || f.Dense() == nil {
					t.Errorf("%s: the DB reads %+v (%v), want the dense header Commit returned %+v", what, f, err, h)
				}
			}
		}
		a.Close()
		b.Close()
		blockShift = old
	}
}

// TestLayerWriterDenseRefuses writes dense bodies whose parts disagree: a
// superblock or block rank that does not match the bits (refused when it
// is written), a bit set in the last block (no rank counts it: refused
// by Pending and Commit for a count of set bits other than the values),
// a bit beyond the layer's slots, a stored value Unused. Each leaves
// neither the layer file nor a temporary one.
func TestLayerWriterDenseRefuses(t *testing.T) {
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := Key{W: 3, WH: 1, B: 4, BH: 0}
	slots := db.Indexer().Layer(k).Size()
	d := randomDense(t, rand.New(rand.NewPCG(5, 6)), slots, 0.3)
	good := d.encode()
	super, sub, values, _ := denseLayout(slots, d.Stored())
	lastWord := 8 * (denseWords(slots) - 1)
	for _, tc := range []struct {
		name string
		edit func(b []byte)
		want string
	}{
		{"a superblock rank", func(b []byte) { b[super+8*3] ^= 1 }, "rank directory does not match the bits (superblock 3)"},
		{"a block rank", func(b []byte) { b[sub+2*700] ^= 4 }, "rank directory does not match the bits (block 700)"},
		{"a bit in the first block", func(b []byte) { b[0] ^= 1 }, "rank directory does not match the bits (superblock 1)"},
		{"a bit in the last block", func(b []byte) { b[lastWord] ^= 1 }, "slots marked stored"},
		{"a bit beyond the slots", func(b []byte) { b[lastWord+7] |= 0x80 }, "beyond the layer's 796386 slots"},
		{"a value Unused", func(b []byte) { b[values+5] = 0 }, "are Unused"},
	} {
		b := bytes.Clone(good)
		tc.edit(b)
		w, err := db.NewDenseWriter(k, d.Stored())
		if err != nil {
			t.Fatal(err)
		}
		err = writeInPieces(w, rand.New(rand.NewPCG(7, 8)), b)
		if err == nil {
			_, err = w.Pending()
		}
		if _, cerr := w.Commit(); cerr == nil {
			t.Errorf("%s: Commit succeeded", tc.name)
		}
		if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want ErrChecksum saying %q", tc.name, err, tc.want)
		}
		if names, _ := filepath.Glob(filepath.Join(db.Dir(), "k4", "*")); len(names) != 0 {
			t.Errorf("%s: the refused body left %v", tc.name, names)
		}
	}
	if _, err := db.NewDenseWriter(k, slots+1); err == nil {
		t.Errorf("NewDenseWriter storing more values than slots: got no error")
	}
}

// TestLayerWriterOld writes the body of a file of the format before (as
// WriteOld writes it, the slots in the order before) through a LayerWriter
// made by NewOldWriter and checks that the layer file and its block file
// are byte for byte WriteOld's, that OldHeader reads it, and that
// ConvertOld rewrites it with the same values as the body it was made
// from.
func TestLayerWriterOld(t *testing.T) {
	a, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	k := Moving(3, 4)
	rng := rand.New(rand.NewPCG(9, 10))
	flat := make([]byte, a.Indexer().Layer(k).Size())
	for i := range flat {
		flat[i] = byte(rng.IntN(40))
	}
	if err := a.WriteOld(k, flat); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(a.Path(k))
	if err != nil {
		t.Fatal(err)
	}
	w, err := b.NewOldWriter(k)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeInPieces(w, rng, file[HeaderSize:]); err != nil {
		t.Fatal(err)
	}
	h, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if h.Version != OldVersion {
		t.Errorf("Commit wrote %+v, want a header of version %d", h, OldVersion)
	}
	for _, name := range []string{"m3-4.layer", "m3-4.blocks"} {
		x, err1 := os.ReadFile(filepath.Join(a.Dir(), "k4", name))
		y, err2 := os.ReadFile(filepath.Join(b.Dir(), "k4", name))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs from WriteOld's (%v, %v; %d and %d bytes)", name, err1, err2, len(x), len(y))
		}
	}
	if oh, err := b.OldHeader(k); err != nil || oh != h {
		t.Errorf("OldHeader: %+v, %v; want %+v", oh, err, h)
	}
	if ok, err := b.ConvertOld(k, false); !ok || err != nil {
		t.Fatalf("ConvertOld: %v, %v", ok, err)
	}
	f, err := b.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f.Body(), flat) {
		t.Errorf("converted: the body differs from the one WriteOld was given")
	}
}
