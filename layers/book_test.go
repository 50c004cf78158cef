package layers

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"muehle/muehle"
)

// TestBookOldFormat reads testdata/book-v1.book, a book of format 1 (magic
// "MUEHLEBK", no game) that the old code wrote: retro/play's Book, filled
// by its PlacementSearch over the solved game of 3 stones (the empty
// board's children and three of each one's children), at commit 8d85774.
// It reads for the 3-stone game of any rules (the folder names the game),
// not for another stone count, and encodes again in the current format
// with the same entries.
func TestBookOldFormat(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "book-v1.book"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := DecodeBook[uint64](old, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 31 {
		t.Errorf("old book: got %d entries, want 31", len(m))
	}
	for k, v := range m {
		if v == Unused || v.Outcome() != Win && v.Outcome() != Loss && v.Outcome() != Draw {
			t.Errorf("old book, key %x: got value %v, want a decided one", k, v)
		}
	}
	if _, err := DecodeBook[uint64](old, muehle.Twelve.With(3)); err != nil {
		t.Errorf("old book for Twelve Men's Morris with 3 stones: got %v, want it read", err)
	}
	if _, err := DecodeBook[uint64](old, muehle.Standard.With(4)); !errors.Is(err, ErrFormat) {
		t.Errorf("old book of k=3 read for k=4: got %v, want ErrFormat", err)
	}
	v := muehle.Standard.With(3)
	now := EncodeBook(v, m)
	if string(now[:8]) != "MUEHLEPB" || now[10] != 3 || uint32(now[11]) != RulesID(muehle.Standard) {
		t.Errorf("re-encoded: got header % x, want magic MUEHLEPB, 3 stones, rules id %d", now[:12], RulesID(muehle.Standard))
	}
	again, err := DecodeBook[uint64](now, v)
	if err != nil || len(again) != len(m) {
		t.Fatalf("re-encoded old book: got %d entries, %v; want %d", len(again), err, len(m))
	}
	for k, val := range m {
		if again[k] != val {
			t.Errorf("re-encoded, key %x: got %v, want %v", k, again[k], val)
		}
	}
}

// TestBookGame: a book names its game and stones, and is read only for
// those.
func TestBookGame(t *testing.T) {
	m := map[uint64]Value{5: Drawn, 9: WinIn(3)}
	twelve := EncodeBook(muehle.Twelve.With(5), m)
	if _, err := DecodeBook[uint64](twelve, muehle.Twelve.With(5)); err != nil {
		t.Errorf("book of twelve k5: got %v, want it read", err)
	}
	for _, v := range []muehle.Variant{muehle.Standard.With(5), muehle.Twelve.With(6)} {
		if _, err := DecodeBook[uint64](twelve, v); !errors.Is(err, ErrFormat) {
			t.Errorf("book of twelve k5 read as %s: got %v, want ErrFormat", v, err)
		}
	}
	good := EncodeBook(muehle.Standard.With(4), m)
	flip := append([]byte(nil), good...)
	flip[bookHeader+3] ^= 1
	for _, c := range []struct {
		name string
		data []byte
		want error
	}{
		{"truncated", good[:len(good)-1], ErrFormat},
		{"flipped bit", flip, ErrChecksum},
		{"not a book", []byte("hello, this is not a book at all"), ErrFormat},
	} {
		if _, err := DecodeBook[uint64](c.data, muehle.Standard.With(4)); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

func FuzzDecodeBook(f *testing.F) {
	v := muehle.NineMensMorris
	f.Add(EncodeBook(v, map[uint64]Value{5: Drawn, 9: WinIn(3)}))
	f.Add([]byte(bookMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeBook[uint64](data, v)
		if err != nil {
			return
		}
		if again, err := DecodeBook[uint64](EncodeBook(v, m), v); err != nil || len(again) != len(m) {
			t.Errorf("re-encoded book: got %d entries, %v; want %d", len(again), err, len(m))
		}
	})
}
