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
