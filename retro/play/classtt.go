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
	gen    uint32 // the table's generation the entry belongs to (clear)
}

// classTable is a transposition table keyed by symmetry class, holding
// proven bounds of exact game values (no search depth: every bound is
// final). It is two-way set associative; a new entry replaces the older
// slot of its set.
type classTable struct {
	e    []classEntry
	mask uint64
	gen  uint32 // entries of other generations are empty
}

// newClassTable returns a table of 2^bits entries.
func newClassTable(bits int) *classTable {
	n := uint64(1) << bits
	return &classTable{e: make([]classEntry, n), mask: n - 2, gen: 1} // all of generation 0: empty
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
		if t.e[i].key == k && t.e[i].gen == t.gen {
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
		if e := &t.e[i]; e.key == k && e.gen == t.gen {
			e.lo, e.hi = max(e.lo, lo), min(e.hi, hi)
			return
		}
	}
	// Keep the newer of the two: move the first to the second slot.
	t.e[s+1] = t.e[s]
	t.e[s] = classEntry{key: k, lo: lo, hi: hi, gen: t.gen}
}

// clear empties the table: a new generation, in constant time, so that
// emptying a large table neither takes a second nor touches its pages
// (a command stops at once on a signal). Only when the generations wrap
// around, after 2^32 clears, are the entries cleared, a piece at a time.
func (t *classTable) clear() {
	t.gen++
	if t.gen != 0 {
		return
	}
	const piece = 1 << 16 // entries: 1 MiB; the scheduler may stop between pieces
	for i := 0; i < len(t.e); i += piece {
		clear(t.e[i:min(i+piece, len(t.e))])
	}
	t.gen = 1
}
