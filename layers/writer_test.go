package layers

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		a, err := OpenDB(t.TempDir(), 4)
		if err != nil {
			t.Fatal(err)
		}
		b, err := OpenDB(t.TempDir(), 4)
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
	db, err := OpenDB(t.TempDir(), 3)
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
