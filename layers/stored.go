package layers

import (
	"iter"
	"math/bits"
)

// The stored slots of a layer file, whatever its layout: the readers
// outside this package walk them here instead of asking for the layout.

// MarksStored reports whether the file says itself which of its slots it
// stores (a dense file's bits, walked by StoredIn). A file of a value per
// slot leaves that to the index (its canonical slots) or to a reach file.
func (f *File) MarksStored() bool { return f.dense != nil }

// Stored returns the value of slot i and whether the file stores it: a
// slot of a file that marks its stored slots (MarksStored) is stored when
// marked, another when its value is not Unused.
func (f *File) Stored(i uint64) (Value, bool) {
	if d := f.dense; d != nil {
		if !d.Has(i) {
			return Unused, false
		}
		return Value(d.values[d.rank(i)]), true
	}
	v := f.Value(i)
	return v, v != Unused
}

// StoredIn yields the slots i with lo <= i < hi that the file stores (as
// Stored decides), with their values, in slot order. In a dense file it
// ranks slot lo once and walks the bits and values from there.
func (f *File) StoredIn(lo, hi uint64) iter.Seq2[uint64, Value] {
	return func(yield func(uint64, Value) bool) {
		d := f.dense
		if d == nil {
			for i := lo; i < hi; i++ {
				if v := f.Value(i); v != Unused && !yield(i, v) {
					return
				}
			}
			return
		}
		hi = min(hi, d.slots)
		if lo >= hi {
			return
		}
		r := d.rank(lo)
		for i := range SetBits(d.bits, lo, hi) {
			if !yield(i, Value(d.values[r])) {
				return
			}
			r++
		}
	}
}

// SetBits yields the indices i with lo <= i < hi of the bits set in
// words (bit i%64 of word i/64), in order; hi must be at most
// 64×len(words).
func SetBits(words []uint64, lo, hi uint64) iter.Seq[uint64] {
	return func(yield func(uint64) bool) {
		for word := lo / 64; word*64 < hi; word++ {
			set := words[word]
			if word == lo/64 {
				set &^= 1<<(lo%64) - 1
			}
			if end := word*64 + 64; end > hi {
				set &= 1<<(64-(end-hi)) - 1
			}
			for ; set != 0; set &= set - 1 {
				if !yield(word*64 + uint64(bits.TrailingZeros64(set))) {
					return
				}
			}
		}
	}
}
