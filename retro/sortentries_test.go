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

// TestChunkWorks checks that the works a chunk is divided into, sorted
// each by its worker, hold the chunk's entries in the order of
// sortEntries, seeds and all, whether the chunk is sorted at once or split
// among the workers first.
func TestChunkWorks(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 3))
	for _, c := range []struct{ n, indexBits, workers int }{
		{1000, 20, 2}, {splitMin, 8, 2}, {splitMin, 20, 1}, {splitMin, 20, 2},
		{3*splitMin + 17, 12, 2}, {3*splitMin + 17, 27, 3}, {5 * splitMin, 33, 2},
	} {
		es := make([]entry, c.n)
		for i := range es {
			es[i] = makeEntry(r.IntN(2), r.Uint64N(1<<c.indexBits), r.IntN(3) == 0)
		}
		want := sortEntries(slices.Clone(es), make([]entry, c.n), c.indexBits)
		var got []entry
		for _, w := range chunkWorks(slices.Clone(es), make([]entry, c.n), c.indexBits, c.workers) {
			got = append(got, w.sorted(c.indexBits)...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%+v: the works' entries are not those of sortEntries in its order", c)
		}
	}
}

// TestDealTwo holds dealTwo, which deals parents out to two workers
// without a branch, to the general loop of settleParents: the same slots
// for each worker in the same order after what each held, whether the
// slots go to one worker or both, with destinations only as long as the
// slots to deal need.
func TestDealTwo(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 4))
	for _, n := range []int{0, 1, 2, 7, 1000} {
		for _, skew := range []int{0, 1, 2} { // both owners, all to 0, all to 1
			var js []uint64
			for len(js) < n {
				j := r.Uint64N(1 << 30)
				if skew == 0 || slotOwner(j, 2) == skew-1 {
					js = append(js, j)
				}
			}
			held := [2]int{r.IntN(5), r.IntN(5)}
			var want [2][]uint64
			d := [2][]uint64{make([]uint64, held[0]+n), make([]uint64, held[1]+n)}
			for w := range 2 {
				for k := range held[w] {
					d[w][k] = uint64(1<<40 + k)
				}
				want[w] = slices.Clone(d[w][:held[w]])
			}
			for _, j := range js {
				o := slotOwner(j, 2)
				want[o] = append(want[o], j)
			}
			e0, e1 := dealTwo(js, d[0], d[1], held[0], held[1])
			if !slices.Equal(d[0][:e0], want[0]) || !slices.Equal(d[1][:e1], want[1]) {
				t.Errorf("%d slots, skew %d: dealt %v and %v, want %v and %v", n, skew, d[0][:e0], d[1][:e1], want[0], want[1])
			}
		}
	}
}
