package muehle

import "math/bits"

// Point is one of the 24 points of the board, numbered row by row from the
// top left (a7 = 0) to the bottom right (g1 = 23). NoPoint stands for "none".
type Point int8

// NoPoint marks an absent point: the origin of a placement, or no removal.
const NoPoint Point = -1

// NumPoints is the number of points on the board.
const NumPoints = 24

// Bitboard is a set of points: bit i is set when point i is in the set.
// Only the low 24 bits are used.
type Bitboard uint32

// AllPoints is the set of all 24 points.
const AllPoints Bitboard = 1<<NumPoints - 1

// Bit returns the set holding only p.
func (p Point) Bit() Bitboard { return 1 << uint(p) }

// Has reports whether p is in the set.
func (b Bitboard) Has(p Point) bool { return b&(1<<uint(p)) != 0 }

// Count returns the number of points in the set.
func (b Bitboard) Count() int { return bits.OnesCount32(uint32(b)) }

// First returns the lowest point in a non-empty set.
func (b Bitboard) First() Point { return Point(bits.TrailingZeros32(uint32(b))) }

// Points returns the points of the set in increasing order.
func (b Bitboard) Points() []Point {
	ps := make([]Point, 0, b.Count())
	for ; b != 0; b &= b - 1 {
		ps = append(ps, b.First())
	}
	return ps
}

// edgeList is the list of the 32 edges of the board (docs/rules.md).
var edgeList = [32][2]Point{
	{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {7, 8}, {9, 10}, {10, 11},
	{12, 13}, {13, 14}, {15, 16}, {16, 17}, {18, 19}, {19, 20}, {21, 22}, {22, 23},
	{0, 9}, {9, 21}, {3, 10}, {10, 18}, {6, 11}, {11, 15}, {1, 4}, {4, 7},
	{16, 19}, {19, 22}, {8, 12}, {12, 17}, {5, 13}, {13, 20}, {2, 14}, {14, 23},
}

// Mills lists the 16 mills: eight rows, then eight columns (docs/rules.md).
var Mills = [16]Bitboard{
	1<<0 | 1<<1 | 1<<2, 1<<3 | 1<<4 | 1<<5, 1<<6 | 1<<7 | 1<<8, 1<<9 | 1<<10 | 1<<11,
	1<<12 | 1<<13 | 1<<14, 1<<15 | 1<<16 | 1<<17, 1<<18 | 1<<19 | 1<<20, 1<<21 | 1<<22 | 1<<23,
	1<<0 | 1<<9 | 1<<21, 1<<3 | 1<<10 | 1<<18, 1<<6 | 1<<11 | 1<<15, 1<<1 | 1<<4 | 1<<7,
	1<<16 | 1<<19 | 1<<22, 1<<8 | 1<<12 | 1<<17, 1<<5 | 1<<13 | 1<<20, 1<<2 | 1<<14 | 1<<23,
}

// The tables below are built by functions called from their declarations,
// not in init, so that package-level variables of this package (and of its
// tests) that use them are initialised after them.

// Neighbors[p] is the set of points joined to p by an edge.
var Neighbors = buildNeighbors()

// millPartners[p] holds, for each of the two mills through p, the other two
// points of that mill.
var millPartners = buildMillPartners()

// buildNeighbors derives the neighbour sets from edgeList.
func buildNeighbors() [NumPoints]Bitboard {
	var nb [NumPoints]Bitboard
	for _, e := range edgeList {
		nb[e[0]] |= e[1].Bit()
		nb[e[1]] |= e[0].Bit()
	}
	return nb
}

// buildMillPartners derives millPartners from Mills.
func buildMillPartners() [NumPoints][2]Bitboard {
	var mp [NumPoints][2]Bitboard
	var n [NumPoints]int
	for _, m := range Mills {
		for b := m; b != 0; b &= b - 1 {
			p := b.First()
			mp[p][n[p]] = m &^ p.Bit()
			n[p]++
		}
	}
	return mp
}

// Edges returns the 32 edges of the board as pairs of points.
func Edges() [32][2]Point { return edgeList }

// ClosesMill reports whether a stone on p, together with the stones in own,
// completes a mill. own need not contain p.
func ClosesMill(own Bitboard, p Point) bool {
	mp := &millPartners[p]
	return own&mp[0] == mp[0] || own&mp[1] == mp[1]
}

// MillTargets returns the points of free where a stone, together with the
// stones of own, would complete a mill: the third points of the mills in
// which own holds two.
func MillTargets(own, free Bitboard) Bitboard {
	var t Bitboard
	for _, m := range Mills {
		if r := m &^ own; r&(r-1) == 0 { // at most one point of the mill missing
			t |= r
		}
	}
	return t & free
}

// InMill returns the stones of own that are part of a complete mill of own.
func InMill(own Bitboard) Bitboard {
	var in Bitboard
	for _, m := range Mills {
		if own&m == m {
			in |= m
		}
	}
	return in
}

// Removable returns the stones of opp that may be removed after a mill:
// those not in a mill, or all of them when every one is in a mill.
func Removable(opp Bitboard) Bitboard {
	if free := opp &^ InMill(opp); free != 0 {
		return free
	}
	return opp
}
