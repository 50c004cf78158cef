package play

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

func TestBookSaveMergesAndReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k5", "placement.book")
	a, err := OpenBook(path, muehle.Standard.With(5))
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenBook(path, muehle.Standard.With(5)) // a second process, opened before a saved
	if err != nil {
		t.Fatal(err)
	}
	ka := makeClassKey(layers.Key{W: 2, B: 3, WH: 3, BH: 2}, 12345)
	kb := makeClassKey(layers.Key{W: 0, B: 0, WH: 5, BH: 5}, 0)
	a.Put(ka, layers.WinIn(23))
	b.Put(kb, layers.Drawn)
	if err := a.Save(); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(); err != nil {
		t.Fatal(err)
	}
	c, err := OpenBook(path, muehle.Standard.With(5))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []struct {
		k classKey
		v layers.Value
	}{{ka, layers.WinIn(23)}, {kb, layers.Drawn}} {
		if v, ok := c.Get(e.k); !ok || v != e.v {
			t.Errorf("reopened book, key %x: got %v %v, want %v", e.k, v, ok, e.v)
		}
	}
	if c.Len() != 2 || c.Unsaved() != 0 {
		t.Errorf("reopened book: got %d entries, %d unsaved; want 2, 0", c.Len(), c.Unsaved())
	}
	if _, err := OpenBook(path, muehle.Standard.With(6)); !errors.Is(err, layers.ErrFormat) {
		t.Errorf("book of k=5 opened for k=6: got %v, want ErrFormat", err)
	}
}

func TestBookDamaged(t *testing.T) {
	good := layers.EncodeBook(muehle.Standard.With(4), map[classKey]layers.Value{1: layers.Drawn, 7: layers.LossIn(4)})
	flip := append([]byte(nil), good...)
	flip[20+3] ^= 1 // in the first entry
	for _, c := range []struct {
		name string
		data []byte
		want error
	}{
		{"truncated", good[:len(good)-1], layers.ErrFormat},
		{"flipped bit", flip, layers.ErrChecksum},
		{"not a book", []byte("hello, this is not a book at all"), layers.ErrFormat},
	} {
		path := filepath.Join(t.TempDir(), "placement.book")
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenBook(path, muehle.Standard.With(4)); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
		// A damaged book is never overwritten by Save.
		b := &Book{path: path, variant: muehle.Standard.With(4), m: map[classKey]layers.Value{3: layers.Drawn}, dirty: 1}
		if err := b.Save(); !errors.Is(err, c.want) {
			t.Errorf("%s: Save got %v, want %v", c.name, err, c.want)
		}
	}
}

func TestBookConcurrentSaves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "placement.book")
	const writers, each = 4, 50
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := OpenBook(path, muehle.NineMensMorris)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range each {
				b.Put(classKey(w*1000+i), layers.Drawn)
				if err := b.Save(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b, err := OpenBook(path, muehle.NineMensMorris)
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != writers*each {
		t.Errorf("after concurrent saves: got %d entries, want %d", b.Len(), writers*each)
	}
}

// TestBookOldFormat: a book of format 1 (layers/testdata/book-v1.book,
// see layers' TestBookOldFormat) opens, and Save writes it again in the
// current format with its entries and the new ones.
func TestBookOldFormat(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("..", "..", "layers", "testdata", "book-v1.book"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "placement.book")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := OpenBook(path, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 31 {
		t.Fatalf("old book: got %d entries, want 31", b.Len())
	}
	b.Put(classKey(1), layers.Drawn)
	if err := b.Save(); err != nil {
		t.Fatal(err)
	}
	again, err := OpenBook(path, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	if again.Len() != 32 {
		t.Fatalf("old book saved again: got %d entries, want 32", again.Len())
	}
	if data, _ := os.ReadFile(path); string(data[:8]) != "MUEHLEPB" {
		t.Errorf("saved book: got magic %q, want the current format's", data[:8])
	}
}
