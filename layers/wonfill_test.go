package layers

import (
	"testing"

	"muehle/muehle"
)

// TestFillWonMarked reads the checked-in layer of form 2 as stored
// (BorrowStored: every won slot "won"), finds the depths of every third
// won slot (FillWon) and of every seventh one at a time (WonReader), and
// holds them to the example of form 1, which stores every depth: the
// marked won slots get their depths, the others stay "won", no other slot
// changes. Once the layer is read in full (Layer), BorrowStored gives it
// complete and FillWon refuses it.
func TestFillWonMarked(t *testing.T) {
	want := example1Values(t)
	v, k := muehle.Standard.With(5), Moving(3, 3)
	db := example2DB(t, example2)
	f, stored, release, err := db.BorrowStored(k)
	if err != nil || !stored {
		t.Fatalf("BorrowStored: stored %v, %v; want the stored body", stored, err)
	}
	body := append([]byte(nil), f.Body()...)
	release()
	if len(body) != len(want) {
		t.Fatalf("BorrowStored: %d slots, want %d", len(body), len(want))
	}
	marks := make([]uint64, (len(body)+63)/64)
	won := 0
	for i, w := range want {
		if Value(w).Outcome() == Win {
			if won%3 == 0 {
				marks[i/64] |= 1 << (i % 64)
			}
			won++
		}
		if body[i] != storedForm([]byte{w}, 0, 0)[0] {
			t.Fatalf("slot %d: BorrowStored gives %v, the value is %v", i, Value(body[i]), Value(w))
		}
	}
	if err := db.FillWon(k, body, marks); err != nil {
		t.Fatal(err)
	}
	l := db.Indexer().Layer(k)
	r := db.WonReader(k)
	defer r.Release()
	filled, left := 0, 0
	for i, w := range want {
		marked := marks[i/64]&(1<<(i%64)) != 0
		switch {
		case Value(w).Outcome() != Win || marked:
			if body[i] != w {
				t.Fatalf("slot %d (marked %v): FillWon left %v, the value is %v", i, marked, Value(body[i]), Value(w))
			}
			if marked {
				filled++
			}
		case body[i] != wonCode:
			t.Fatalf("slot %d, won, not marked: FillWon made it %v", i, Value(body[i]))
		default:
			left++
		}
		if Value(w).Outcome() == Win && i%7 == 0 {
			p, _ := l.Position(uint64(i))
			p.Game = v.Game
			if d, err := r.Depth(p); err != nil || d != Value(w).Depth() {
				t.Fatalf("slot %d: WonReader %d, %v; want %d", i, d, err, Value(w).Depth())
			}
		}
	}
	if filled == 0 || left == 0 {
		t.Errorf("%d marked won slots filled, %d left: want some of each", filled, left)
	}
	if _, err := db.Layer(k); err != nil {
		t.Fatal(err)
	}
	f, stored, release, err = db.BorrowStored(k)
	if err != nil || stored || string(f.Body()) != string(want) {
		t.Errorf("BorrowStored after Layer: stored %v, %v; want the body complete", stored, err)
	}
	release()
	if err := db.FillWon(k, make([]byte, len(want)), marks); err == nil {
		t.Error("FillWon of a layer held complete: no error")
	}
}

// TestStoredCopy reads a copy of a layer as stored through StoredCopy
// with some of its won depths found (FillWon), and refuses copies that
// differ from the file anywhere else: a lost value's depth changed, a
// drawn slot made won, a won slot made drawn. A won slot's depth it takes
// as it is.
func TestStoredCopy(t *testing.T) {
	want := example1Values(t)
	k := Moving(3, 3)
	db := example2DB(t, example2)
	f, stored, release, err := db.BorrowStored(k)
	if err != nil || !stored {
		t.Fatalf("BorrowStored: stored %v, %v; want the stored body", stored, err)
	}
	defer release()
	c, err := f.CopyStored()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	body := c.Flat()
	marks := make([]uint64, (len(body)+63)/64)
	for i := range marks {
		marks[i] = 0x5555555555555555 // every other slot
	}
	if err := db.FillWon(k, body, marks); err != nil {
		t.Fatal(err)
	}
	got, ok := f.StoredCopy(body)
	if !ok {
		t.Fatal("StoredCopy refuses the stored copy with some won depths found")
	}
	if &got.Flat()[0] != &body[0] {
		t.Error("StoredCopy copied the body; want it read where it lies")
	}
	got.Release() // does nothing: body is still c's
	find := func(o Outcome, pred func(Value) bool) int {
		for i, w := range want {
			if Value(w).Outcome() == o && pred(Value(w)) {
				return i
			}
		}
		t.Fatalf("no slot of outcome %v to change", o)
		return 0
	}
	every := func(Value) bool { return true }
	lost := find(Loss, func(v Value) bool { return v.Depth() > 0 })
	drawn, won := find(Draw, every), find(Win, func(v Value) bool { return v.Depth() > 1 })
	for _, tc := range []struct {
		name string
		i    int
		to   Value
		ok   bool
	}{
		{"a won depth changed", won, WinIn(Value(want[won]).Depth() + 2), true},
		{"a lost depth changed", lost, LossIn(Value(want[lost]).Depth() + 2), false},
		{"a drawn slot made won", drawn, WinIn(3), false},
		{"a won slot made drawn", won, Drawn, false},
	} {
		was := body[tc.i]
		body[tc.i] = byte(tc.to)
		if _, ok := f.StoredCopy(body); ok != tc.ok {
			t.Errorf("%s (slot %d, %v to %v): StoredCopy ok %v, want %v", tc.name, tc.i, Value(was), tc.to, ok, tc.ok)
		}
		body[tc.i] = was
	}
	if _, ok := f.StoredCopy(body[1:]); ok {
		t.Error("StoredCopy takes a copy a slot short")
	}
}
