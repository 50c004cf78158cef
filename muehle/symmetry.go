package muehle

import "strconv"

// Symmetry is one of the 16 automorphisms of the board: the 8 symmetries of
// the square, optionally followed by the exchange of the outer and inner
// rings. Symmetry 0 is the identity; symmetries 8 to 15 swap the rings.
// Its methods take values below NumSymmetries only.
type Symmetry uint8

// NumSymmetries is the number of board symmetries.
const NumSymmetries = 16

// coords gives each point's column (a..g = 0..6) and row (1..7 = 0..6).
var coords = [NumPoints][2]int8{
	{0, 6}, {3, 6}, {6, 6}, {1, 5}, {3, 5}, {5, 5}, {2, 4}, {3, 4}, {4, 4},
	{0, 3}, {1, 3}, {2, 3}, {4, 3}, {5, 3}, {6, 3},
	{2, 2}, {3, 2}, {4, 2}, {1, 1}, {3, 1}, {5, 1}, {0, 0}, {3, 0}, {6, 0},
}

var (
	// symPerm[s][p] is the image of point p under symmetry s.
	symPerm = buildSymPerm()
	// symByte[s][k][v] is the image of the points in byte k of a bitboard
	// with value v, so that a bitboard maps with three table look-ups.
	symByte = buildSymByte()
	// symCompose[a][b] is b applied after a; symInverse[s] undoes s.
	symCompose, symInverse = buildSymGroup()
)

// buildSymPerm computes the permutations from the coordinates: a
// symmetry of the square on the coordinates centred on d4, then for 8 to
// 15 the exchange of distance 3 and 1 from the centre (outer and inner
// ring); distance 2 (the middle ring) stays.
func buildSymPerm() [NumSymmetries][NumPoints]Point {
	var at [7][7]Point
	for i := range at {
		for j := range at[i] {
			at[i][j] = NoPoint
		}
	}
	for p, c := range coords {
		at[c[0]][c[1]] = Point(p)
	}
	swapRing := func(t int8) int8 { // 3 <-> 1 from the centre, 2 and 0 stay
		switch t {
		case 3, -3:
			return t / 3
		case 1, -1:
			return 3 * t
		}
		return t
	}
	var perm [NumSymmetries][NumPoints]Point
	for s := range NumSymmetries {
		for p, c := range coords {
			u, v := c[0]-3, c[1]-3
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
				u, v = swapRing(u), swapRing(v)
			}
			perm[s][p] = at[u+3][v+3]
		}
	}
	return perm
}

// buildSymByte computes the byte tables of Symmetry.Bitboard from symPerm.
func buildSymByte() *[NumSymmetries][3][256]Bitboard {
	t := new([NumSymmetries][3][256]Bitboard)
	for s := range NumSymmetries {
		for k := range 3 {
			for v := range 256 {
				var b Bitboard
				for i := range 8 {
					if v&(1<<i) != 0 {
						b |= symPerm[s][8*k+i].Bit()
					}
				}
				t[s][k][v] = b
			}
		}
	}
	return t
}

// buildSymGroup computes the composition and inverse tables from symPerm.
func buildSymGroup() (compose [NumSymmetries][NumSymmetries]Symmetry, inverse [NumSymmetries]Symmetry) {
	for a := range NumSymmetries {
		for b := range NumSymmetries {
			for c := range NumSymmetries {
				same := true
				for p := range NumPoints {
					if symPerm[b][symPerm[a][p]] != symPerm[c][p] {
						same = false
						break
					}
				}
				if same {
					compose[a][b] = Symmetry(c)
					if c == 0 {
						inverse[a] = Symmetry(b)
					}
				}
			}
		}
	}
	return compose, inverse
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

// Position returns the image of p under s.
func (s Symmetry) Position(p Position) Position {
	p.Stones[0] = s.Bitboard(p.Stones[0])
	p.Stones[1] = s.Bitboard(p.Stones[1])
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
// is the exchange of the outer and inner rings.
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
// set b onto itself.
func (b Bitboard) Symmetric() bool {
	for s := Symmetry(1); s < NumSymmetries; s++ {
		if s.Bitboard(b) == b {
			return true
		}
	}
	return false
}
