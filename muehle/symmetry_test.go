package muehle

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// perm returns the permutation of points of s.
func perm(s Symmetry) [NumPoints]Point {
	var p [NumPoints]Point
	for i := range Point(NumPoints) {
		p[i] = s.Point(i)
	}
	return p
}

// TestSymmetriesAreAutomorphisms checks that the 16 symmetries are distinct
// permutations of the points that map edges onto edges, mills onto mills,
// and the middle ring onto itself, and that symmetry 0 is the identity.
func TestSymmetriesAreAutomorphisms(t *testing.T) {
	edges := map[[2]Point]bool{}
	for _, e := range Edges() {
		edges[e] = true
		edges[[2]Point{e[1], e[0]}] = true
	}
	mills := map[Bitboard]bool{}
	for _, m := range Mills {
		mills[m] = true
	}
	const middle Bitboard = 1<<3 | 1<<4 | 1<<5 | 1<<10 | 1<<13 | 1<<18 | 1<<19 | 1<<20
	seen := map[[NumPoints]Point]Symmetry{}
	for s := range Symmetry(NumSymmetries) {
		p := perm(s)
		if other, ok := seen[p]; ok {
			t.Errorf("symmetries %d and %d are the same permutation", other, s)
		}
		seen[p] = s
		var image Bitboard
		for _, q := range p {
			if q < 0 || q >= NumPoints {
				t.Fatalf("symmetry %d maps a point to %d", s, q)
			}
			image |= q.Bit()
		}
		if image != AllPoints {
			t.Errorf("symmetry %d is not a permutation: image %024b", s, image)
		}
		for e := range edges {
			if !edges[[2]Point{p[e[0]], p[e[1]]}] {
				t.Errorf("symmetry %d maps edge %s-%s to %s-%s, not an edge", s, e[0], e[1], p[e[0]], p[e[1]])
			}
		}
		for _, m := range Mills {
			if img := s.Bitboard(m); !mills[img] {
				t.Errorf("symmetry %d maps mill %v to %v, not a mill", s, m.Points(), img.Points())
			}
		}
		if got := s.Bitboard(middle); got != middle {
			t.Errorf("symmetry %d maps the middle ring to %v, want itself", s, got.Points())
		}
		if got := s.Bitboard(AllPoints &^ middle); got != AllPoints&^middle {
			t.Errorf("symmetry %d maps the outer and inner rings to %v, want themselves", s, got.Points())
		}
	}
	if p := perm(0); p != [NumPoints]Point{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23} {
		t.Errorf("symmetry 0: got %v, want the identity", p)
	}
	if len(seen) != NumSymmetries {
		t.Errorf("distinct symmetries: got %d, want %d", len(seen), NumSymmetries)
	}
}

// TestSymmetryGroup checks the group laws: Then is composition of the
// permutations and closed, Inverse undoes, 0 is the neutral element.
func TestSymmetryGroup(t *testing.T) {
	for a := range Symmetry(NumSymmetries) {
		if a.Then(a.Inverse()) != 0 || a.Inverse().Then(a) != 0 {
			t.Errorf("%v then its inverse %v: got %v and %v, want identity", a, a.Inverse(), a.Then(a.Inverse()), a.Inverse().Then(a))
		}
		if a.Then(0) != a || Symmetry(0).Then(a) != a {
			t.Errorf("%v with the identity: got %v and %v, want %v", a, a.Then(0), Symmetry(0).Then(a), a)
		}
		for b := range Symmetry(NumSymmetries) {
			c := a.Then(b)
			if c >= NumSymmetries {
				t.Fatalf("%v then %v: got %d, not a symmetry", a, b, c)
			}
			for p := range Point(NumPoints) {
				if got, want := c.Point(p), b.Point(a.Point(p)); got != want {
					t.Fatalf("(%v then %v) of %s: got %s, want %s", a, b, p, got, want)
				}
			}
			for x := range Symmetry(NumSymmetries) { // associativity
				if a.Then(b).Then(x) != a.Then(b.Then(x)) {
					t.Fatalf("(%v then %v) then %v differs from %v then (%v then %v)", a, b, x, a, b, x)
				}
			}
		}
	}
}

// TestSymmetryBitboardPositionMove checks that Bitboard, Position and Move
// agree with Point, and that a symmetry maps the moves of a position onto
// the moves of its image and commutes with Play and with un-moves.
func TestSymmetryBitboardPositionMove(t *testing.T) {
	var buf, ibuf [MaxUnmoves]Move
	for i, p := range testPositions(t, 1000) {
		s := Symmetry(i % NumSymmetries)
		for c := White; c <= Black; c++ {
			var want Bitboard
			for _, q := range p.Stones[c].Points() {
				want |= s.Point(q).Bit()
			}
			if got := s.Bitboard(p.Stones[c]); got != want {
				t.Fatalf("%v of %v: got %v, want %v", s, p.Stones[c].Points(), got.Points(), want.Points())
			}
		}
		sp := s.Position(p)
		if sp.Hand != p.Hand || sp.Turn != p.Turn {
			t.Fatalf("%v of %s changed hands or turn: %s", s, p, sp)
		}
		if back := s.Inverse().Position(sp); back != p {
			t.Fatalf("inverse of %v undoes %s: got %s", s, p, back)
		}
		var want []Move
		for _, m := range p.AppendMoves(buf[:0]) {
			want = append(want, s.Move(m))
			if got, want := sp.Play(s.Move(m)), s.Position(p.Play(m)); got != want {
				t.Fatalf("%v: playing %s in %s: image of the child %s, child of the image %s", s, m, p, want, got)
			}
		}
		got := sortMoves(slices.Clone(sp.AppendMoves(ibuf[:0])))
		if sortMoves(want); !slices.Equal(got, want) {
			t.Fatalf("%v: moves of %s mapped: %v, moves of the image %s: %v", s, p, want, sp, got)
		}
		want = want[:0]
		for _, u := range p.AppendUnmoves(buf[:0]) {
			want = append(want, s.Move(u))
		}
		got = sortMoves(slices.Clone(sp.AppendUnmoves(ibuf[:0])))
		if sortMoves(want); !slices.Equal(got, want) {
			t.Fatalf("%v: un-moves of %s mapped differ from the un-moves of the image %s", s, p, sp)
		}
	}
}

// TestSymmetryNames checks that the 16 names are distinct.
func TestSymmetryNames(t *testing.T) {
	seen := map[string]bool{}
	for s := range Symmetry(NumSymmetries) {
		if seen[s.String()] {
			t.Errorf("name %q used twice", s)
		}
		seen[s.String()] = true
	}
	if got := Symmetry(0).String(); got != "identity" {
		t.Errorf("Symmetry(0).String(): got %q, want \"identity\"", got)
	}
}

// TestSwapColors checks that swapping colours twice is the identity, that
// Normalize gives White to move, and that swapping maps moves to moves.
func TestSwapColors(t *testing.T) {
	var buf [MaxMoves]Move
	for _, p := range testPositions(t, 1000) {
		q := p.SwapColors()
		if q.SwapColors() != p {
			t.Fatalf("swapping %s twice: got %s", p, q.SwapColors())
		}
		if q.Stones[0] != p.Stones[1] || q.Hand[0] != p.Hand[1] || q.Turn == p.Turn {
			t.Fatalf("swapping %s: got %s", p, q)
		}
		if n := p.Normalize(); n.Turn != White || (n != p && n != q) {
			t.Fatalf("Normalize(%s): got %s", p, n)
		}
		got := sortMoves(slices.Clone(q.AppendMoves(buf[:0])))
		if want := sortMoves(slices.Clone(p.AppendMoves(buf[:0]))); !slices.Equal(got, want) {
			t.Fatalf("moves of %s and of its colour swap %s differ", p, q)
		}
	}
}

// TestSymmetric compares Bitboard.Symmetric, which tries only the
// symmetries that fix the middle ring's points, with trying all 15, on
// every set of up to three points and on random sets.
func TestSymmetric(t *testing.T) {
	naive := func(b Bitboard) bool {
		for s := Symmetry(1); s < NumSymmetries; s++ {
			if s.Bitboard(b) == b {
				return true
			}
		}
		return false
	}
	check := func(b Bitboard) {
		if got, want := b.Symmetric(), naive(b); got != want {
			t.Fatalf("%v.Symmetric() = %v, want %v", b, got, want)
		}
	}
	for p := range Point(NumPoints) {
		for q := p; q < NumPoints; q++ {
			for r := q; r < NumPoints; r++ {
				check(p.Bit() | q.Bit() | r.Bit())
			}
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		check(Bitboard(rng.Uint32()&(1<<NumPoints-1)) & Bitboard(rng.Uint32()))
	}
}
