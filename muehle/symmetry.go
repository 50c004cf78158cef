package muehle

import (
	"slices"
	"strconv"
	"sync/atomic"
)

// Symmetry is one of the automorphisms of a board: the 8 symmetries of the
// square, optionally followed by the exchange of the outer and inner rings
// (on the boards that have rings to exchange). Symmetry 0 is the identity;
// symmetries 8 to 15 swap the rings. Its methods are those of the standard
// board (whose 16 serve Twelve Men's Morris and Lasker Morris too) and take
// values below NumSymmetries only; the Board methods Map, MapPoint,
// MapMove, Inverse and Then serve every board.
type Symmetry uint8

// NumSymmetries is the number of symmetries of the standard board (the
// most of any board; Board.NumSymmetries gives each board's).
const NumSymmetries = 16

// coords gives each point's column (a..g = 0..6) and row (1..7 = 0..6) on
// the standard board.
var coords = [NumPoints][2]int8(StandardBoard.coords)

// The standard board's symmetry tables in fixed-size arrays, for the
// methods of Symmetry (the standard board's, and Twelve Men's Morris's,
// whose diagonals they map onto each other).
var (
	// symPerm[s][p] is the image of point p under symmetry s.
	symPerm = buildSymPerm()
	// symByte[s][k][v] is the image of the points in byte k of a bitboard
	// with value v, so that a bitboard maps with three table look-ups.
	symByte = buildSymByte()
	// symCompose[a][b] is b applied after a; symInverse[s] undoes s.
	symCompose, symInverse = buildSymGroup()
)

// buildSymPerm copies the standard board's permutations.
func buildSymPerm() [NumSymmetries][NumPoints]Point {
	var perm [NumSymmetries][NumPoints]Point
	for s := range NumSymmetries {
		perm[s] = [NumPoints]Point(StandardBoard.syms[s])
	}
	return perm
}

// buildSymByte copies the first three bytes of the standard board's byte
// tables.
func buildSymByte() *[NumSymmetries][3][256]Bitboard {
	t := new([NumSymmetries][3][256]Bitboard)
	for s := range NumSymmetries {
		for k := range 3 {
			t[s][k] = StandardBoard.symByte[s][k]
		}
	}
	return t
}

// buildSymGroup copies the standard board's composition and inverse tables.
func buildSymGroup() (compose [NumSymmetries][NumSymmetries]Symmetry, inverse [NumSymmetries]Symmetry) {
	for a := range NumSymmetries {
		compose[a] = [NumSymmetries]Symmetry(StandardBoard.compose[a])
	}
	return compose, [NumSymmetries]Symmetry(StandardBoard.inverse)
}

// Point returns the image of p under s.
func (s Symmetry) Point(p Point) Point { return symPerm[s][p] }

// Bitboard returns the image of the set b under s.
func (s Symmetry) Bitboard(b Bitboard) Bitboard {
	t := &symByte[s]
	return t[0][b&0xff] | t[1][b>>8&0xff] | t[2][b>>16&0xff]
}

// Inverse returns the symmetry that undoes s.
func (s Symmetry) Inverse() Symmetry { return symInverse[s] }

// Then returns the symmetry that applies s first, then t.
func (s Symmetry) Then(t Symmetry) Symmetry { return symCompose[s][t] }

// Position returns the image of p under s, on p's board. s must be below
// the board's NumSymmetries.
func (s Symmetry) Position(p Position) Position {
	if p.Game == Standard {
		p.Stones[0] = s.Bitboard(p.Stones[0])
		p.Stones[1] = s.Bitboard(p.Stones[1])
		return p
	}
	b := engines[p.Game].rules.Board
	p.Stones[0] = b.Map(s, p.Stones[0])
	p.Stones[1] = b.Map(s, p.Stones[1])
	return p
}

// Move returns the image of m under s.
func (s Symmetry) Move(m Move) Move {
	f := func(p Point) Point {
		if p == NoPoint {
			return p
		}
		return symPerm[s][p]
	}
	return Move{f(m.From), f(m.To), f(m.Remove)}
}

// symmetryNames names the symmetries of the square; rotations are
// anticlockwise, "flip-diag" mirrors across the diagonal a1-g7 and
// "flip-anti" across a7-g1.
var symmetryNames = [8]string{"identity", "rot90", "rot180", "rot270", "flip-h", "flip-v", "flip-diag", "flip-anti"}

// String names the symmetry, e.g. "rot90" or "flip-h+rings"; "rings" alone
// is the exchange of the outer and inner rings. The names hold on every
// board.
func (s Symmetry) String() string {
	switch {
	case s >= NumSymmetries:
		return "Symmetry(" + strconv.Itoa(int(s)) + ")"
	case s == 8:
		return "rings"
	case s > 8:
		return symmetryNames[s&7] + "+rings"
	}
	return symmetryNames[s]
}

// Symmetric reports whether a symmetry other than the identity maps the
// set b onto itself: one that maps its points on the middle ring and its
// points on the other two onto themselves (symFixMid, symFixOuter), every
// symmetry mapping the middle ring onto itself.
func (b Bitboard) Symmetric() bool {
	return symFixMid[midRing(b)]&outerFix()[outerRings(b)]&^1 != 0
}

// midRing returns b's points on the middle ring (midPoints) as an 8-bit
// mask.
func midRing(b Bitboard) uint8 {
	return uint8(b>>3&7 | b>>10&1<<3 | b>>13&1<<4 | b>>18&7<<5)
}

// outerRings returns b's points on the outer and inner rings
// (outerPoints) as a 16-bit mask.
func outerRings(b Bitboard) uint16 {
	return uint16(b&7 | b>>6&15<<3 | b>>11&3<<7 | b>>14&15<<9 | b>>21&7<<13)
}

// midPoints and outerPoints list the points of midRing's and
// outerRings's bits.
var (
	midPoints   = [8]Point{3, 4, 5, 10, 13, 18, 19, 20}
	outerPoints = [16]Point{0, 1, 2, 6, 7, 8, 9, 11, 12, 14, 15, 16, 17, 21, 22, 23}
)

// symFixMid[m] has bit s set for each symmetry s that maps the points of
// the middle ring's mask m onto themselves; outerFix()[m] likewise for a
// mask of the outer and inner rings, built on first use (128 KiB).
var (
	symFixMid   = symFix(midPoints[:])
	symFixOuter atomic.Pointer[[1 << 16]uint16]
)

// outerFix returns the table symFixOuter holds, built on its first call.
// The test of the built table is inlined where Symmetric is called: the
// solver calls it for each position it counts and each parent it finds (a
// sync.OnceValue there took 1.4 % of the solve of Twelve Men's Morris's
// pair 4-6 + 6-4).
func outerFix() *[1 << 16]uint16 {
	if t := symFixOuter.Load(); t != nil {
		return t
	}
	return buildOuterFix()
}

// buildOuterFix builds symFixOuter's table; goroutines that build it at
// once build equal tables, and one of them is kept.
func buildOuterFix() *[1 << 16]uint16 {
	t := (*[1 << 16]uint16)(symFix(outerPoints[:]))
	symFixOuter.CompareAndSwap(nil, t)
	return symFixOuter.Load()
}

// symFix returns, for each mask of the points ps, the symmetries that map
// its points onto themselves.
func symFix(ps []Point) []uint16 {
	t := make([]uint16, 1<<len(ps))
	for m := range t {
		var b Bitboard
		for j, p := range ps {
			if m&(1<<j) != 0 {
				b |= p.Bit()
			}
		}
		for s := range Symmetry(NumSymmetries) {
			if s.Bitboard(b) == b {
				t[m] |= 1 << s
			}
		}
	}
	return t
}

// NumSymmetries returns the number of symmetries of b: 16 for boards with
// two rings to exchange, 8 otherwise.
func (b *Board) NumSymmetries() int { return len(b.syms) }

// MapPoint returns the image of p under s on b.
func (b *Board) MapPoint(s Symmetry, p Point) Point { return b.syms[s][p] }

// Map returns the image of the set x under s on b.
func (b *Board) Map(s Symmetry, x Bitboard) Bitboard {
	t := &b.symByte[s]
	return t[0][x&0xff] | t[1][x>>8&0xff] | t[2][x>>16&0xff] | t[3][x>>24]
}

// MapMove returns the image of m under s on b.
func (b *Board) MapMove(s Symmetry, m Move) Move {
	f := func(p Point) Point {
		if p == NoPoint {
			return p
		}
		return b.syms[s][p]
	}
	return Move{f(m.From), f(m.To), f(m.Remove)}
}

// Inverse returns the symmetry of b that undoes s.
func (b *Board) Inverse(s Symmetry) Symmetry { return b.inverse[s] }

// Then returns the symmetry of b that applies s first, then t.
func (b *Board) Then(s, t Symmetry) Symmetry { return b.compose[s][t] }

// Symmetric reports whether a symmetry of b other than the identity maps
// the set x onto itself.
func (b *Board) Symmetric(x Bitboard) bool {
	for s := Symmetry(1); int(s) < len(b.syms); s++ {
		if b.Map(s, x) == x {
			return true
		}
	}
	return false
}

// SameSymmetries reports whether b and o have the same points and the same
// symmetries in the same order: a numbering of positions by their
// symmetry classes on one serves the other (the standard board and the
// board with diagonals).
func (b *Board) SameSymmetries(o *Board) bool {
	if b.n != o.n || len(b.syms) != len(o.syms) {
		return false
	}
	for s := range b.syms {
		if !slices.Equal(b.syms[s], o.syms[s]) {
			return false
		}
	}
	return true
}
