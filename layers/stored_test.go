package layers

import (
	"slices"
	"testing"

	"muehle/muehle"
)

// TestStoredIn checks File.Stored and File.StoredIn against Value and the
// dense bits, for a dense file and a file of a byte per slot holding the
// same values, over ranges that start and end inside and across words.
func TestStoredIn(t *testing.T) {
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dk, fk := Key{W: 2, B: 2, WH: 2, BH: 2}, Key{W: 2, B: 2, WH: 2, BH: 1}
	l := db.Indexer().Layer(dk)
	d := denseFingerprint(l)
	flat := make([]byte, db.Indexer().Layer(fk).Size())
	for i := range flat {
		if i < int(d.Slots()) {
			flat[i] = byte(d.Value(uint64(i)))
		}
	}
	if err := db.WriteDense(dk, d); err != nil {
		t.Fatal(err)
	}
	if err := db.Write(fk, flat); err != nil {
		t.Fatal(err)
	}
	for _, k := range []Key{dk, fk} {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		if f.MarksStored() != (k == dk) {
			t.Fatalf("%s: MarksStored %v", k, f.MarksStored())
		}
		size := db.Indexer().Layer(k).Size()
		var want []uint64
		for i := range size {
			v, ok := f.Stored(i)
			if ok != (k == dk && d.Has(i) || k == fk && f.Value(i) != Unused) || v != f.Value(i) {
				t.Fatalf("%s: Stored(%d) = %v, %v; Value %v", k, i, v, ok, f.Value(i))
			}
			if ok {
				want = append(want, i)
			}
		}
		if k == dk && uint64(len(want)) != d.Stored() {
			t.Fatalf("%s: %d stored, want %d", k, len(want), d.Stored())
		}
		for _, r := range [][2]uint64{{0, size}, {0, 0}, {1, 63}, {63, 129}, {64, 128}, {size / 3, size/2 + 5}, {size - 7, size}, {size / 2, size + 100}} {
			var got []uint64
			for i, v := range f.StoredIn(r[0], r[1]) {
				if w := f.Value(i); v != w {
					t.Fatalf("%s: StoredIn yields %d with %v, Value %v", k, i, v, w)
				}
				got = append(got, i)
			}
			lo, _ := slices.BinarySearch(want, r[0])
			hi, _ := slices.BinarySearch(want, r[1])
			if !slices.Equal(got, want[lo:hi]) {
				t.Fatalf("%s: StoredIn(%d, %d): %d slots, want %d", k, r[0], r[1], len(got), hi-lo)
			}
		}
	}
}

// BenchmarkDenseStoredIn walks the stored slots of a dense body of 2^24
// slots, a third of them stored, in ranges of 2^14 slots as the verifier
// does: by StoredIn (one rank per range), and as the verifier did before
// it, the set bits with Dense.Value (a rank per slot).
func BenchmarkDenseStoredIn(b *testing.B) {
	const slots, chunk = 1 << 24, 1 << 14
	stored := make([]uint64, denseWords(slots))
	var values []byte
	x := uint64(1)
	for i := range uint64(slots) {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if x%3 == 0 {
			stored[i/64] |= 1 << (i % 64)
			values = append(values, byte(x>>8))
		}
	}
	d, err := NewDense(slots, stored, values)
	if err != nil {
		b.Fatal(err)
	}
	f := &File{dense: d}
	var sum uint64
	b.Run("StoredIn", func(b *testing.B) {
		for b.Loop() {
			for lo := uint64(0); lo < slots; lo += chunk {
				for i, v := range f.StoredIn(lo, lo+chunk) {
					sum += i ^ uint64(v)
				}
			}
		}
		b.ReportMetric(float64(b.N)*float64(d.Stored())/b.Elapsed().Seconds(), "slots/s")
	})
	b.Run("SetBitsValue", func(b *testing.B) {
		for b.Loop() {
			for lo := uint64(0); lo < slots; lo += chunk {
				for i := range SetBits(d.bits, lo, lo+chunk) {
					sum += i ^ uint64(d.Value(i))
				}
			}
		}
		b.ReportMetric(float64(b.N)*float64(d.Stored())/b.Elapsed().Seconds(), "slots/s")
	})
	if sum == 1 {
		b.Log(sum)
	}
}
