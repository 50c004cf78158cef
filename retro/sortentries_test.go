package retro

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortEntries checks propagation's radix sort of work-list entries:
// the same entries, seeds included, ordered by layer and then slot, for
// slot widths below, at and above a multiple of the sort's 11-bit digit.
func TestSortEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 2))
	for _, indexBits := range []int{1, 10, 11, 12, 22, 33} {
		es := make([]entry, 5000)
		for i := range es {
			es[i] = makeEntry(r.IntN(2), r.Uint64N(1<<indexBits), r.IntN(3) == 0)
		}
		want := slices.Clone(es)
		got := sortEntries(slices.Clone(es), make([]entry, len(es)), indexBits)
		for i := 1; i < len(got); i++ {
			a, b := got[i-1], got[i]
			if a.layer() > b.layer() || a.layer() == b.layer() && a.index() > b.index() {
				t.Fatalf("%d bits: entries %d and %d out of order: %x before %x", indexBits, i-1, i, a, b)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%d bits: the sorted entries are not the entries given", indexBits)
		}
	}
}
