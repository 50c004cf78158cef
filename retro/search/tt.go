package search

import "muehle/muehle"

// ttBound says how a stored score relates to the true value of a position.
type ttBound uint8

// The bounds of a table entry. ttNone marks an empty slot.
const (
	ttNone  ttBound = iota
	ttExact         // the score is the value
	ttLower         // the value is at least the score (the search failed high)
	ttUpper         // the value is at most the score (the search failed low)
)

// ttEntry is one slot of the transposition table, 16 bytes.
type ttEntry struct {
	key   uint64
	score int16
	depth int8
	bound ttBound
	gen   uint8
	move  [3]int8 // from, to, remove; -1 for none
}

// DefaultTTBits is the size of the transposition table when
// SearchOptions.TTBits is 0: 2^20 entries of 16 bytes, 16 MiB.
const DefaultTTBits = 20

// ttTable is a transposition table: one entry per slot, indexed by the low
// bits of the Zobrist key and checked against the whole key. A slot is
// replaced by a search of at least the same depth, or by any search when
// it was written in an earlier call of Search.
type ttTable struct {
	entries []ttEntry
	mask    uint64
	gen     uint8
}

// newTT returns an empty table of 2^bits entries; bits is clamped to 10..28.
func newTT(bits int) *ttTable {
	bits = max(10, min(bits, 28))
	return &ttTable{entries: make([]ttEntry, 1<<bits), mask: 1<<bits - 1}
}

// newSearch starts a new generation: entries of earlier searches remain
// usable but are replaced first.
func (t *ttTable) newSearch() { t.gen++ }

// clear empties the table.
func (t *ttTable) clear() { clear(t.entries) }

// probe returns the entry for key, if there is one.
func (t *ttTable) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.bound != ttNone && e.key == key
}

// store records a search result for key. score must already be adjusted to
// the node (ttScoreToTable).
func (t *ttTable) store(key uint64, depth int, score int32, bound ttBound, m muehle.Move) {
	e := &t.entries[key&t.mask]
	if e.bound != ttNone && e.key != key && e.gen == t.gen && int(e.depth) > depth {
		return
	}
	if e.key == key && e.gen == t.gen && int(e.depth) > depth && bound != ttExact {
		return
	}
	*e = ttEntry{
		key: key, score: int16(score), depth: int8(min(depth, 127)), bound: bound, gen: t.gen,
		move: [3]int8{int8(m.From), int8(m.To), int8(m.Remove)},
	}
}

// ttMove returns the move stored in e. The table stores muehle.NoMove when a
// search found no best move; it matches no legal move.
func (e *ttEntry) ttMove() muehle.Move {
	return muehle.Move{From: muehle.Point(e.move[0]), To: muehle.Point(e.move[1]), Remove: muehle.Point(e.move[2])}
}

// ttScoreToTable converts a score at ply from the root into one relative to
// the node, so that a win stored at one ply reads correctly at another.
func ttScoreToTable(s int32, ply int) int32 {
	switch {
	case s >= winBound:
		return s + int32(ply)
	case s <= -winBound:
		return s - int32(ply)
	}
	return s
}

// ttScoreFromTable undoes ttScoreToTable at ply.
func ttScoreFromTable(s int32, ply int) int32 {
	switch {
	case s >= winBound:
		return s - int32(ply)
	case s <= -winBound:
		return s + int32(ply)
	}
	return s
}
