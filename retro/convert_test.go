package retro

import (
	"context"
	"errors"
	"os"
	"testing"

	"muehle/layers"
)

// TestConvertOld writes the k=3 game as the program before left it
// (every layer in the format before, the placement layers of one byte per
// slot with holes, verified, reach files beside them) and converts the
// folder: solving refuses before, and after it every layer reads as
// before, verified and verifying again, the placement layers dense, the
// reach files gone. A folder of the full sweep keeps one byte per slot.
func TestConvertOld(t *testing.T) {
	full, db := solvedPair(t, 3)
	if err := ensureReach(context.Background(), db, 2, nil, passWatch{}); err != nil {
		t.Fatal(err)
	}
	toOld := func(db *layers.DB) map[layers.Key][]byte {
		want := map[layers.Key][]byte{}
		for _, k := range layers.Order(3, true) {
			f, err := db.Layer(k)
			if err != nil {
				t.Fatal(err)
			}
			flat := make([]byte, db.Indexer().Layer(k).Size())
			for i := range flat {
				flat[i] = byte(f.Value(uint64(i)))
			}
			want[k] = flat
			if err := db.WriteOld(k, flat); err != nil {
				t.Fatal(err)
			}
			if err := db.MarkVerifiedOld(k); err != nil {
				t.Fatal(err)
			}
		}
		return want
	}
	want := toOld(db)
	if err := Solve(context.Background(), db, SolveOptions{Placement: true}); !errors.Is(err, layers.ErrOldFormat) {
		t.Fatalf("solving a folder of the format before: %v, want ErrOldFormat", err)
	}
	var seen int
	n, err := ConvertOld(context.Background(), db, func(layers.Key, int, int) { seen++ }, nil)
	if err != nil || n != len(want) || seen != len(want) {
		t.Fatalf("ConvertOld: %d converted (%d announced), %v; want %d", n, seen, err, len(want))
	}
	for k, flat := range want {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		if (f.Dense() != nil) == k.IsMoving() || !db.Verified(k) {
			t.Fatalf("layer %s: dense %v, verified %v", k, f.Dense() != nil, db.Verified(k))
		}
		for i, v := range flat {
			if f.Value(uint64(i)) != layers.Value(v) {
				t.Fatalf("layer %s slot %d: %v, was %v", k, i, f.Value(uint64(i)), layers.Value(v))
			}
		}
		if _, err := os.Stat(db.ReachPath(k)); !k.IsMoving() && !errors.Is(err, os.ErrNotExist) {
			t.Errorf("layer %s: the reach file is still there (%v)", k, err)
		}
		if bad, err := VerifyLayer(context.Background(), db, k, 2, 10, nil); len(bad) > 0 || err != nil {
			t.Errorf("layer %s converted: verify gives %v, %v", k, bad, err)
		}
	}
	toOld(full)
	if n, err := ConvertOld(context.Background(), full, nil, nil); n != len(want) || err != nil {
		t.Fatalf("a folder of the full sweep: %d converted, %v; want %d", n, err, len(want))
	}
	for k := range want {
		if f, err := full.Layer(k); err != nil || f.Dense() != nil {
			t.Errorf("the full sweep's layer %s converted: %v, dense %v; want one byte per slot", k, err, err == nil && f.Dense() != nil)
		}
	}
}
