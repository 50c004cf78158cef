package retro

import (
	"context"
	"errors"
	"os"
	"testing"

	"muehle/layers"
)

// TestConvertDense writes the k=3 game's placement layers as the
// reachable sweep wrote them before the dense files (one byte per slot,
// holes Unused, verified, reach files beside them) and converts the
// folder: every placement layer dense with the same values, still
// verified, the reach files gone. A folder of the full sweep is left as
// it is.
func TestConvertDense(t *testing.T) {
	full, db := solvedPair(t, 3)
	if err := ensureReach(context.Background(), db, 2, nil); err != nil {
		t.Fatal(err)
	}
	want := map[layers.Key][]byte{}
	for _, k := range layers.PlacementLayers(3) {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		flat := make([]byte, db.Indexer().Layer(k).Size())
		for i := range flat {
			flat[i] = byte(f.Value(uint64(i)))
		}
		want[k] = flat
		if err := db.Write(k, flat); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkVerified(k); err != nil {
			t.Fatal(err)
		}
	}
	var seen int
	n, err := ConvertDense(context.Background(), db, func(layers.Key, int, int) { seen++ }, nil)
	if err != nil || n != len(want) || seen != len(want) {
		t.Fatalf("ConvertDense: %d converted (%d announced), %v; want %d", n, seen, err, len(want))
	}
	for k, flat := range want {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		if f.Dense() == nil || !db.Verified(k) {
			t.Fatalf("layer %s: dense %v, verified %v; want both", k, f.Dense() != nil, db.Verified(k))
		}
		for i, v := range flat {
			if f.Value(uint64(i)) != layers.Value(v) {
				t.Fatalf("layer %s slot %d: %v, was %v", k, i, f.Value(uint64(i)), layers.Value(v))
			}
		}
		if _, err := os.Stat(db.ReachPath(k)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("layer %s: the reach file is still there (%v)", k, err)
		}
		if bad, err := VerifyLayer(context.Background(), db, k, 2, 10, nil); len(bad) > 0 || err != nil {
			t.Errorf("layer %s converted: verify gives %v, %v", k, bad, err)
		}
	}
	if n, err := ConvertDense(context.Background(), full, nil, nil); n != 0 || err != nil {
		t.Errorf("a folder of the full sweep: %d converted, %v; want none", n, err)
	}
}
