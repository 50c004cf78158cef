package play

import (
	"muehle/layers"
	"muehle/muehle"
)

// classKey names a position up to the 16 symmetries and the exchange of
// colours: its layer from the view of the side to move (four counts, 4 bits
// each) in the top 16 bits, its canonical index in that layer (the layers
// index, below 2^48) in the rest. Two positions with the same classKey have
// the same value.
type classKey uint64

// noClass is the key of no position, the key of an empty slot: no layer
// is empty (a side with fewer than 3 stones on the board and in hand has
// lost). Being 0, a new table is empty as allocated: its pages are not
// touched until used, so a large table costs no time to make and a
// command stops at once while it is made (issue 48).
const noClass classKey = 0

// makeClassKey packs layer k and index i.
func makeClassKey(k layers.Key, i uint64) classKey {
	return classKey(uint64(k.W)<<60 | uint64(k.B)<<56 | uint64(k.WH)<<52 | uint64(k.BH)<<48 | i&(1<<48-1))
}

// classIndexer computes class keys, caching the layer indexes by the
// board counts (the only counts the numbering depends on).
type classIndexer struct {
	x   *layers.Indexer
	idx [muehle.MaxStones + 1][muehle.MaxStones + 1]*layers.LayerIndex
}

// key returns the class key of p, whose counts must be those of a layer.
func (c *classIndexer) key(p *muehle.Position) classKey {
	k := layers.KeyOf(*p)
	l := c.idx[k.W][k.B]
	if l == nil {
		l = c.x.Layer(layers.Moving(int(k.W), int(k.B)))
		c.idx[k.W][k.B] = l
	}
	return makeClassKey(k, l.Index(*p))
}

// classEntry is one slot of a classTable: the key and the bounds of the
// position's score relative to the position itself (a win in d scores
// winScore-d, a loss in d -winScore+d, a draw 0; see nodeScore).
type classEntry struct {
	key    classKey
	lo, hi int16
}

// classTable is a transposition table keyed by symmetry class, holding
// proven bounds of exact game values (no search depth: every bound is
// final). It is two-way set associative; a new entry replaces the older
// slot of its set.
type classTable struct {
	e    []classEntry
	mask uint64
}

// newClassTable returns a table of 2^bits entries.
func newClassTable(bits int) *classTable {
	n := uint64(1) << bits
	return &classTable{e: make([]classEntry, n), mask: n - 2} // all noClass
}

// slot returns the first slot of k's set.
func (t *classTable) slot(k classKey) uint64 {
	h := uint64(k) * 0x9e3779b97f4a7c15
	return (h >> 20) & t.mask
}

// get returns the bounds stored for k.
func (t *classTable) get(k classKey) (lo, hi int16, ok bool) {
	s := t.slot(k)
	for i := s; i < s+2; i++ {
		if t.e[i].key == k {
			return t.e[i].lo, t.e[i].hi, true
		}
	}
	return 0, 0, false
}

// put stores the bounds lo ≤ score ≤ hi for k, intersected with the bounds
// already stored for k.
func (t *classTable) put(k classKey, lo, hi int16) {
	s := t.slot(k)
	for i := s; i < s+2; i++ {
		if e := &t.e[i]; e.key == k {
			e.lo, e.hi = max(e.lo, lo), min(e.hi, hi)
			return
		}
	}
	// Keep the newer of the two: move the first to the second slot.
	t.e[s+1] = t.e[s]
	t.e[s] = classEntry{key: k, lo: lo, hi: hi}
}

// clear empties the table.
func (t *classTable) clear() {
	for i := range t.e {
		t.e[i] = classEntry{key: noClass}
	}
}
