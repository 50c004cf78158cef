package muehle

import (
	"fmt"
	"math/bits"
	"strings"
)

// Point is one of the points of a board, numbered row by row from the top
// left: on the standard board a7 = 0 to g1 = 23. NoPoint stands for "none".
type Point int8

// NoPoint marks an absent point: the origin of a placement, or no removal.
const NoPoint Point = -1

// NumPoints is the number of points on the standard board (Board.NumPoints
// gives any board's).
const NumPoints = 24

// MaxPoints bounds the points of every board (a Bitboard holds 32): the
// most a Position can hold. Tables indexed by point outside this package
// are sized by it, not by the standard board's NumPoints, so that a
// larger board in Boards cannot overrun them (TestBoardsData checks that
// every board fits).
const MaxPoints = 32

// Bitboard is a set of points: bit i is set when point i is in the set.
// On the standard board only the low 24 bits are used.
type Bitboard uint32

// AllPoints is the set of all 24 points of the standard board.
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

// Board is a board as data: its points with their names, the lines
// between neighbouring points (edges), the mills and the symmetries as
// permutations of the points. The entries are in boards.go. The tables the
// hot loops read (each point's neighbours and mill partners, the symmetry
// maps) are derived from that data once, when the package is initialised.
// A *Board is shared by every position on it and never changes.
type Board struct {
	id, name string
	coords   [][2]int8  // column (0 = a) and row (0 = rank 1) of each point
	edges    [][2]Point // each edge once, as in docs/rules.md
	syms     [][]Point  // syms[s][p] is the image of p under symmetry s; syms[0] is the identity
	rings    bool       // symmetries 8 to 15 exchange the outer and the inner ring
	diagram  string     // the drawing of Position.Diagram, a '*' for each point in order

	n int // number of points
	boardTables
	symByte [][4][256]Bitboard // symByte[s][k][v]: the image of byte k with value v
	compose [][]Symmetry       // compose[a][b]: b applied after a
	inverse []Symmetry
}

// boardTables are the tables of a board that move and un-move generation
// read, in arrays of fixed size: a Board holds them, and every game a copy
// of its board's (engine), which the hot loops reach by the GameID alone.
type boardTables struct {
	all    Bitboard
	nMills int
	// third: some point lies on three or four mills (the board with
	// diagonals, Three Men's Morris). Without, the generators test two
	// mills per point, not four.
	third     bool
	neighbors [MaxPoints]Bitboard
	// partners[p] holds, for each mill through p (at most maxMillsAt),
	// the other points of that mill. A point on fewer mills repeats its
	// first entry; a point on none holds noMill, which no set of stones
	// contains.
	partners [MaxPoints][maxMillsAt]Bitboard
	// mills[:nMills] are the mills; a board has at most 4/3 as many mills
	// as points, since each point lies on at most four and each mill
	// holds three points.
	mills [MaxPoints * maxMillsAt / 3]Bitboard
	// millSpace says that the mills fit a word at three bits each (at
	// most 21 mills): millTargets then gathers a side's stones into that
	// word, mill m's points in bits 3m to 3m+2, by a table per byte of the
	// bitboard (gather), finds there the points whose mill's two others
	// the side holds, and scatters them back by a table per byte of the
	// word (scatter).
	millSpace bool
	gather    [MaxPoints / 8][256]uint64
	scatter   [8][256]Bitboard
}

// MillPoints is the number of points of a mill on every board: three in a
// row (a Board's mills are triples). A side needs that many stones on the
// board to close one.
const MillPoints = 3

// maxMillsAt bounds the mills through one point: four, the centre of
// Three Men's Morris's board (a row, a column and both diagonals).
const maxMillsAt = 4

// noMill is the mill partner entry of a point on no mill: its 32 bits are
// never all stones of one side.
const noMill = ^Bitboard(0)

// boardSpec is the data of a board entry (boards.go).
type boardSpec struct {
	id, name string
	points   string     // the point names in the order of their numbers
	edges    [][2]Point // pairs of point numbers
	mills    [][3]Point // triples of point numbers
	// The symmetries are those of the square around the centre of the
	// grid of size×size coordinates, 8 of them; when swap is not zero,
	// each is also taken followed by the exchange of the points at
	// distance swap[0] and swap[1] from the centre (the outer and the inner
	// ring), 16 in all.
	size    int8
	swap    [2]int8
	diagram string
}

// newBoard builds a board from its data and derives its tables. Bad data
// is a programming error of this package and panics at initialisation
// (TestBoardsData names the fault).
func newBoard(spec boardSpec) *Board {
	b := &Board{id: spec.id, name: spec.name, diagram: spec.diagram, rings: spec.swap != [2]int8{}}
	for _, name := range strings.Fields(spec.points) {
		if len(name) != 2 || name[0] < 'a' || name[0] > 'z' || name[1] < '1' || name[1] > '9' {
			panic(fmt.Sprintf("muehle: board %s: bad point name %q", spec.id, name))
		}
		b.coords = append(b.coords, [2]int8{int8(name[0] - 'a'), int8(name[1] - '1')})
	}
	b.n = len(b.coords)
	if b.n < 3 || b.n > MaxPoints || strings.Count(spec.diagram, "*") != b.n {
		panic(fmt.Sprintf("muehle: board %s: %d points, %d in the diagram", spec.id, b.n, strings.Count(spec.diagram, "*")))
	}
	b.all = Bitboard(1<<uint(b.n) - 1)
	onBoard := func(p Point) bool { return p >= 0 && int(p) < b.n }
	for _, e := range spec.edges {
		if !onBoard(e[0]) || !onBoard(e[1]) || e[0] == e[1] {
			panic(fmt.Sprintf("muehle: board %s: bad edge %v", spec.id, e))
		}
		b.edges = append(b.edges, e)
		b.neighbors[e[0]] |= e[1].Bit()
		b.neighbors[e[1]] |= e[0].Bit()
	}
	var nMills [MaxPoints]int
	if len(spec.mills) > len(b.mills) {
		panic(fmt.Sprintf("muehle: board %s: too many mills", spec.id))
	}
	for _, m := range spec.mills {
		var set Bitboard
		for _, p := range m {
			if !onBoard(p) {
				panic(fmt.Sprintf("muehle: board %s: bad mill %v", spec.id, m))
			}
			set |= p.Bit()
		}
		if set.Count() != 3 {
			panic(fmt.Sprintf("muehle: board %s: bad mill %v", spec.id, m))
		}
		b.mills[b.nMills] = set
		b.nMills++
		for _, p := range m {
			if nMills[p] == maxMillsAt {
				panic(fmt.Sprintf("muehle: board %s: point %d on more than %d mills", spec.id, p, maxMillsAt))
			}
			b.partners[p][nMills[p]] = set &^ p.Bit()
			nMills[p]++
		}
	}
	b.buildMillSpace(spec.mills)
	for p := range b.partners {
		b.third = b.third || nMills[p] >= 3
		if nMills[p] == 0 {
			b.partners[p][0] = noMill
		}
		for i := max(1, nMills[p]); i < maxMillsAt; i++ {
			b.partners[p][i] = b.partners[p][0]
		}
	}
	b.syms = squareSymmetries(b.coords, spec.size, spec.swap)
	b.buildSymTables()
	return b
}

// squareSymmetries returns the permutations of the points given by their
// coordinates under the 8 symmetries of the square around the centre of a
// grid of size×size, and, when swap is not zero, the same followed by the
// exchange of the distances swap[0] and swap[1] from the centre in each
// coordinate. The order is the one of Symmetry: identity, rot90, rot180,
// rot270, flip-h, flip-v, flip-diag, flip-anti, then the same with the
// exchange. A transformation that takes a point off the board gives
// NoPoint, which TestBoardsData reports.
func squareSymmetries(coords [][2]int8, size int8, swap [2]int8) [][]Point {
	at := map[[2]int8]Point{}
	for p, c := range coords {
		at[c] = Point(p)
	}
	exchange := func(t int8) int8 {
		switch t {
		case swap[0], -swap[0]:
			return t / swap[0] * swap[1]
		case swap[1], -swap[1]:
			return t / swap[1] * swap[0]
		}
		return t
	}
	n := 8
	if swap != [2]int8{} {
		n = 16
	}
	half := (size - 1) / 2
	perms := make([][]Point, n)
	for s := range n {
		perms[s] = make([]Point, len(coords))
		for p, c := range coords {
			u, v := c[0]-half, c[1]-half
			switch s & 7 {
			case 1:
				u, v = -v, u
			case 2:
				u, v = -u, -v
			case 3:
				u, v = v, -u
			case 4:
				u = -u
			case 5:
				v = -v
			case 6:
				u, v = v, u
			case 7:
				u, v = -v, -u
			}
			if s >= 8 {
				u, v = exchange(u), exchange(v)
			}
			q, ok := at[[2]int8{u + half, v + half}]
			if !ok {
				q = NoPoint
			}
			perms[s][p] = q
		}
	}
	return perms
}

// buildSymTables derives the byte tables and the group tables of the
// symmetries from the permutations.
func (b *Board) buildSymTables() {
	ns := len(b.syms)
	b.symByte = make([][4][256]Bitboard, ns)
	for s, perm := range b.syms {
		for k := range 4 {
			for v := range 256 {
				var img Bitboard
				for i := range 8 {
					if p := 8*k + i; v&(1<<i) != 0 && p < b.n && perm[p] != NoPoint {
						img |= perm[p].Bit()
					}
				}
				b.symByte[s][k][v] = img
			}
		}
	}
	b.compose = make([][]Symmetry, ns)
	b.inverse = make([]Symmetry, ns)
	for x := range ns {
		b.compose[x] = make([]Symmetry, ns)
		for y := range ns {
			for z := range ns {
				same := true
				for p := range b.n {
					if q := b.syms[x][p]; q == NoPoint || b.syms[y][q] != b.syms[z][p] {
						same = false
						break
					}
				}
				if same {
					b.compose[x][y] = Symmetry(z)
					if z == 0 {
						b.inverse[x] = Symmetry(y)
					}
				}
			}
		}
	}
}

// ID returns the board's short name, e.g. "standard" or "six".
func (b *Board) ID() string { return b.id }

// Name returns the board's name for a person.
func (b *Board) Name() string { return b.name }

// String returns the board's ID.
func (b *Board) String() string { return b.id }

// NumPoints returns the number of points.
func (b *Board) NumPoints() int { return b.n }

// All returns the set of all points.
func (b *Board) All() Bitboard { return b.all }

// Edges returns the lines between neighbouring points, each once, as pairs
// of points.
func (b *Board) Edges() [][2]Point { return append([][2]Point(nil), b.edges...) }

// Mills returns the mills, each as the set of its three points.
func (b *Board) Mills() []Bitboard { return append([]Bitboard(nil), b.mills[:b.nMills]...) }

// Neighbors returns the set of points joined to p by an edge.
func (b *Board) Neighbors(p Point) Bitboard { return b.neighbors[p] }

// Coord returns the column (0 for file a) and the row (0 for rank 1) of p.
func (b *Board) Coord(p Point) (col, row int) { return int(b.coords[p][0]), int(b.coords[p][1]) }

// ClosesMill reports whether a stone on p, together with the stones in own,
// completes a mill. own need not contain p.
func (b *Board) ClosesMill(own Bitboard, p Point) bool { return b.closesMill(own, p) }

// MillTargets returns the points of free where a stone, together with the
// stones of own, would complete a mill: the third points of the mills in
// which own holds two.
func (b *Board) MillTargets(own, free Bitboard) Bitboard { return b.millTargets(own, free) }

// InMill returns the stones of own that are part of a complete mill of own.
func (b *Board) InMill(own Bitboard) Bitboard { return b.inMill(own) }

// Removable returns the stones of opp that may be removed after a mill:
// those not in a mill, or all of them when every one is in a mill.
func (b *Board) Removable(opp Bitboard) Bitboard { return b.removable(opp) }

func (t *boardTables) closesMill(own Bitboard, p Point) bool {
	return closes(&t.partners[p], own, t.third)
}

// closes reports whether own holds both other points of one of the mills
// whose partners are mp (an entry of boardTables.partners); third says
// whether the board has points on three or four mills (boardTables.third).
func closes(mp *[maxMillsAt]Bitboard, own Bitboard, third bool) bool {
	return own&mp[0] == mp[0] || own&mp[1] == mp[1] || third && (own&mp[2] == mp[2] || own&mp[3] == mp[3])
}

// buildMillSpace fills the tables of millSpace for the board's mills.
func (t *boardTables) buildMillSpace(mills [][3]Point) {
	if len(mills) > 64/MillPoints {
		return
	}
	t.millSpace = true
	for m, ps := range mills {
		for k, p := range ps {
			bit := MillPoints*m + k
			for v := range 256 {
				if v>>(p%8)&1 != 0 {
					t.gather[p/8][v] |= 1 << bit
				}
				if v>>(bit%8)&1 != 0 {
					t.scatter[bit/8][v] |= p.Bit()
				}
			}
		}
	}
}

// Bits 0, 1 and 2 of each mill's three in the word of millSpace.
const (
	millFirst  = 0x1249249249249249 // 0b001001…: bit 3m of each m < 21
	millSecond = millFirst << 1
	millThird  = millFirst << 2
)

//go:noinline
func (t *boardTables) millTargets(own, free Bitboard) Bitboard {
	if t.millSpace {
		g := &t.gather
		a := g[0][own&0xff] | g[1][own>>8&0xff] | g[2][own>>16&0xff] | g[3][own>>24]
		// A mill's point is a target where the mill's other two are own.
		x := a>>1&(a>>2)&millFirst | a<<1&(a>>1)&millSecond | a<<2&(a<<1)&millThird
		sc := &t.scatter
		return (sc[0][x&0xff] | sc[1][x>>8&0xff] | sc[2][x>>16&0xff] | sc[3][x>>24&0xff] |
			sc[4][x>>32&0xff] | sc[5][x>>40&0xff] | sc[6][x>>48&0xff] | sc[7][x>>56]) & free
	}
	var x Bitboard
	for _, m := range t.mills[:t.nMills] {
		// r, the points of the mill own lacks, counts when it is at most
		// one: q is then 0, and many is all ones only for q ≠ 0 (without
		// a branch, which the processor mispredicts here).
		r := m &^ own
		q := r & (r - 1)
		many := Bitboard(int32(q|-q) >> 31)
		x |= r &^ many
	}
	return x & free
}

func (t *boardTables) inMill(own Bitboard) Bitboard {
	var in Bitboard
	for _, m := range t.mills[:t.nMills] {
		if own&m == m {
			in |= m
		}
	}
	return in
}

func (t *boardTables) removable(opp Bitboard) Bitboard {
	if free := opp &^ t.inMill(opp); free != 0 {
		return free
	}
	return opp
}

// The standard board's tables, for the callers that know only the
// standard game (and the fast paths of this package).

// Mills lists the 16 mills of the standard board: eight rows, then eight
// columns (docs/rules.md).
var Mills = [16]Bitboard(StandardBoard.mills[:16])

// Neighbors[p] is the set of points joined to p by an edge on the standard
// board.
var Neighbors = [NumPoints]Bitboard(StandardBoard.neighbors[:NumPoints])

// Edges returns the 32 edges of the standard board as pairs of points.
func Edges() [32][2]Point { return [32][2]Point(StandardBoard.edges) }

// ClosesMill reports whether a stone on p, together with the stones in own,
// completes a mill of the standard board. own need not contain p.
func ClosesMill(own Bitboard, p Point) bool { return StandardBoard.ClosesMill(own, p) }

// MillTargets returns the points of free where a stone, together with the
// stones of own, would complete a mill of the standard board.
func MillTargets(own, free Bitboard) Bitboard { return StandardBoard.MillTargets(own, free) }

// InMill returns the stones of own that are part of a complete mill of own
// on the standard board.
func InMill(own Bitboard) Bitboard { return StandardBoard.InMill(own) }

// Removable returns the stones of opp that may be removed after a mill on
// the standard board: those not in a mill, or all of them when every one
// is in a mill.
func Removable(opp Bitboard) Bitboard { return StandardBoard.Removable(opp) }
