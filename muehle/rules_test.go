package muehle

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// testTakeAny is a game of the tests only: Nine Men's Morris in which a
// mill may take any stone (TakeFromMills), so that the switch is checked
// too (no game of Games has it). init registers it beside the games of
// Games.
const testTakeAny GameID = 255

func init() {
	r := &Rules{ID: "standard-take-any", Name: "Nine Men's Morris, any stone taken", Board: StandardBoard, Stones: 9,
		FlyAt: 3, LoseBelow: 3, DoubleMillRemoves: 1, TakeFromMills: true, game: testTakeAny}
	engines[testTakeAny] = r.engine()
}

// testGames returns the games of Games and the games of the tests only.
func testGames() []*Rules {
	return append(slices.Clone(Games), testTakeAny.Rules())
}

// TestPositionSize checks that naming the game kept a Position at 12 bytes.
func TestPositionSize(t *testing.T) {
	if got := unsafe.Sizeof(Position{}); got != 12 {
		t.Errorf("unsafe.Sizeof(Position{}): got %d, want 12", got)
	}
	if (Position{}).Game != Standard || NewPosition(9) != Standard.Rules().NewPosition(9) {
		t.Error("the zero Game is not the standard game")
	}
}

// TestGames checks the registry: each entry is found by its GameID, the
// IDs and names are distinct and found by GameByName, and the stones fit
// on the board.
func TestGames(t *testing.T) {
	seen := map[string]bool{}
	for i, r := range Games {
		if g := r.Game(); g.Rules() != r || g.String() != r.ID {
			t.Errorf("entry %d: Game() %d, Rules() %v, String %q", i, g, g.Rules(), g)
		}
		for _, name := range []string{r.ID, r.Name, strings.ToUpper(r.ID), " " + r.Name + " "} {
			if got, ok := GameByName(name); !ok || got != r {
				t.Errorf("GameByName(%q): got %v, %v, want %s", name, got, ok, r.ID)
			}
		}
		for _, name := range []string{r.ID, strings.ToLower(r.Name)} {
			if seen[name] {
				t.Errorf("name %q used twice", name)
			}
			seen[name] = true
		}
		if 2*r.Stones > r.Board.NumPoints() {
			t.Errorf("%s: %d stones a side do not fit on %d points", r.ID, r.Stones, r.Board.NumPoints())
		}
		if p := r.NewPosition(r.Stones); p.Game != r.Game() || p.Validate(r.Stones) != nil || p.Rules() != r {
			t.Errorf("%s: NewPosition gives %s", r.ID, p)
		}
	}
	if _, ok := GameByName("morabaraba"); ok {
		t.Error("GameByName(\"morabaraba\"): found a game, want none")
	}
	if got := GameID(200).String(); got != "GameID(200)" {
		t.Errorf("GameID(200).String(): got %q", got)
	}
	if GameID(200).Rules() != nil {
		t.Error("GameID(200).Rules(): got a rule set, want nil")
	}
}

// permanentGames is the number of every game as files and packages know
// it (layers.RulesID is the number plus one): once released, an entry here
// never changes, and a new game takes a new number.
var permanentGames = map[string]GameID{
	"standard": 0, "twelve": 1, "lasker": 2, "six": 3, "three": 4, "three-plain": 5,
	"five": 6, "five-flying": 7, "six-flying": 8, "ten": 9, "eleven": 10,
}

// TestGamesOrder checks that a game's number is its own, not its place in
// Games: every game has its permanent number, and the engines built from
// Games in reverse and shuffled order are the same, so that reordering the
// list changes no position, file or package.
func TestGamesOrder(t *testing.T) {
	if len(permanentGames) != len(Games) {
		t.Errorf("permanentGames lists %d games, Games %d: give a new game a new number here", len(permanentGames), len(Games))
	}
	for _, r := range Games {
		if want, ok := permanentGames[r.ID]; !ok || r.Game() != want {
			t.Errorf("%s: GameID %d, want its permanent number %d (listed: %v)", r.ID, r.Game(), want, ok)
		}
	}
	reversed := slices.Clone(Games)
	slices.Reverse(reversed)
	shuffled := slices.Clone(Games)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	want, err := buildEngines(Games)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][]*Rules{reversed, shuffled} {
		if got, err := buildEngines(order); err != nil || got != want {
			t.Errorf("the engines built from Games in the order %v differ", order)
		}
	}
}

// TestBoardsData checks each board's data and derived tables: every edge
// joins two points and appears once, the neighbour sets are the edges,
// the mill partners are the mills, and each point lies on one to three
// mills.
func TestBoardsData(t *testing.T) {
	for _, b := range Boards {
		if b.NumPoints() > MaxPoints {
			t.Errorf("%s: %d points, more than MaxPoints %d", b, b.NumPoints(), MaxPoints)
		}
		edges := map[[2]Point]bool{}
		var nb [MaxPoints]Bitboard
		for _, e := range b.Edges() {
			if edges[e] || edges[[2]Point{e[1], e[0]}] {
				t.Errorf("%s: edge %s-%s twice", b, b.PointName(e[0]), b.PointName(e[1]))
			}
			edges[e] = true
			nb[e[0]] |= e[1].Bit()
			nb[e[1]] |= e[0].Bit()
		}
		for p := range Point(b.NumPoints()) {
			if b.Neighbors(p) != nb[p] {
				t.Errorf("%s: neighbours of %s: got %v, want %v", b, b.PointName(p), b.Neighbors(p).Points(), nb[p].Points())
			}
			var through []Bitboard
			for _, m := range b.Mills() {
				if m.Has(p) {
					through = append(through, m&^p.Bit())
				}
			}
			if len(through) < 1 || len(through) > maxMillsAt {
				t.Errorf("%s: %s lies on %d mills", b, b.PointName(p), len(through))
			}
			for _, mp := range b.partners[p] {
				if !slices.Contains(through, mp) {
					t.Errorf("%s: mill partners of %s hold %v, not a mill through it", b, b.PointName(p), mp.Points())
				}
			}
			for _, m := range through {
				if !slices.Contains(b.partners[p][:], m) {
					t.Errorf("%s: mill partners of %s lack %v", b, b.PointName(p), m.Points())
				}
			}
		}
		for _, m := range b.Mills() {
			if m.Count() != 3 || m&^b.All() != 0 {
				t.Errorf("%s: mill %v", b, m.Points())
			}
		}
		if b.All() != Bitboard(1<<b.NumPoints()-1) {
			t.Errorf("%s: All() = %v", b, b.All().Points())
		}
	}
	if len(StandardBoard.Edges()) != 32 || len(StandardBoard.Mills()) != 16 ||
		len(DiagonalBoard.Edges()) != 40 || len(DiagonalBoard.Mills()) != 20 ||
		SixBoard.NumPoints() != 16 || len(SixBoard.Edges()) != 20 || len(SixBoard.Mills()) != 8 ||
		ThreeBoard.NumPoints() != 9 || len(ThreeBoard.Edges()) != 16 || len(ThreeBoard.Mills()) != 8 ||
		ThreePlainBoard.NumPoints() != 9 || len(ThreePlainBoard.Edges()) != 12 || len(ThreePlainBoard.Mills()) != 6 {
		t.Error("a board has the wrong number of edges or mills")
	}
}

// TestBoardPointNames checks that every point of every board has a name of
// its own that parses back, and that names off the board do not parse.
func TestBoardPointNames(t *testing.T) {
	for _, b := range Boards {
		seen := map[string]bool{}
		for p := range Point(b.NumPoints()) {
			name := b.PointName(p)
			if seen[name] {
				t.Errorf("%s: name %s twice", b, name)
			}
			seen[name] = true
			for _, s := range []string{name, strings.ToUpper(name), " " + name + " "} {
				if got, err := b.ParsePoint(s); err != nil || got != p {
					t.Errorf("%s: ParsePoint(%q): got %d, %v, want %d", b, s, got, err, p)
				}
			}
			col, row := b.Coord(p)
			if name != string([]byte{'a' + byte(col), '1' + byte(row)}) {
				t.Errorf("%s: Coord(%s) = %d, %d", b, name, col, row)
			}
		}
		for _, s := range []string{"", "d4", "h1", "a8", "a0", "zz"} {
			if b == SixBoard && s == "d4" {
				continue // d4 is a point of the small board
			}
			if _, err := b.ParsePoint(s); !errors.Is(err, ErrSyntax) {
				t.Errorf("%s: ParsePoint(%q): got %v, want ErrSyntax", b, s, err)
			}
		}
	}
	if _, err := SixBoard.ParsePoint("d4"); err != nil {
		t.Errorf("six: ParsePoint(d4): %v", err)
	}
	if _, err := SixBoard.ParsePoint("a4"); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "a1 to e5") {
		t.Errorf("six: ParsePoint(a4): got %v, want ErrSyntax naming a1 to e5", err)
	}
}

// TestBoardSymmetries checks the symmetries of every board: distinct
// permutations of the points, the identity first, mapping edges onto edges
// and mills onto mills, a group whose Then and Inverse are the composition
// and inverse of the permutations, with the names of Symmetry; and that
// they are all the automorphisms of the board: a search over every
// permutation that keeps edges and mills finds exactly as many.
func TestBoardSymmetries(t *testing.T) {
	for _, b := range Boards {
		n := b.NumPoints()
		edges := map[[2]Point]bool{}
		for _, e := range b.Edges() {
			edges[e], edges[[2]Point{e[1], e[0]}] = true, true
		}
		mills := map[Bitboard]bool{}
		for _, m := range b.Mills() {
			mills[m] = true
		}
		seen := map[string]Symmetry{}
		for s := range Symmetry(b.NumSymmetries()) {
			perm := make([]Point, n)
			var image Bitboard
			for p := range Point(n) {
				perm[p] = b.MapPoint(s, p)
				if perm[p] < 0 || int(perm[p]) >= n {
					t.Fatalf("%s: symmetry %v maps %s off the board", b, s, b.PointName(p))
				}
				image |= perm[p].Bit()
			}
			if image != b.All() {
				t.Errorf("%s: symmetry %v is not a permutation", b, s)
			}
			key := fmt.Sprint(perm)
			if other, ok := seen[key]; ok {
				t.Errorf("%s: symmetries %v and %v are the same permutation", b, other, s)
			}
			seen[key] = s
			for e := range edges {
				if !edges[[2]Point{perm[e[0]], perm[e[1]]}] {
					t.Errorf("%s: %v maps edge %s-%s to %s-%s, not an edge", b, s, b.PointName(e[0]), b.PointName(e[1]), b.PointName(perm[e[0]]), b.PointName(perm[e[1]]))
				}
			}
			for m := range mills {
				if !mills[b.Map(s, m)] {
					t.Errorf("%s: %v maps mill %v to %v, not a mill", b, s, m.Points(), b.Map(s, m).Points())
				}
			}
			for x := range Symmetry(b.NumSymmetries()) {
				c := b.Then(s, x)
				for p := range Point(n) {
					if got, want := b.MapPoint(c, p), b.MapPoint(x, b.MapPoint(s, p)); got != want {
						t.Fatalf("%s: (%v then %v) of %s: got %s, want %s", b, s, x, b.PointName(p), b.PointName(got), b.PointName(want))
					}
				}
			}
			if b.Then(s, b.Inverse(s)) != 0 || b.Then(b.Inverse(s), s) != 0 {
				t.Errorf("%s: %v and its inverse %v do not compose to the identity", b, s, b.Inverse(s))
			}
		}
		if !slices.Equal(b.syms[0], identity(n)) {
			t.Errorf("%s: symmetry 0 is not the identity", b)
		}
		got := countAutomorphisms(b)
		t.Logf("%s: %d automorphisms, %d symmetries", b, got, b.NumSymmetries())
		if got != b.NumSymmetries() {
			t.Errorf("%s: %d automorphisms keep edges and mills, but the board lists %d symmetries", b, got, b.NumSymmetries())
		}
	}
	if StandardBoard.NumSymmetries() != NumSymmetries || SixBoard.NumSymmetries() != 16 || DiagonalBoard.NumSymmetries() != 16 {
		t.Error("a board has the wrong number of symmetries")
	}
}

// identity returns the points 0 to n-1 in order.
func identity(n int) []Point {
	ps := make([]Point, n)
	for i := range ps {
		ps[i] = Point(i)
	}
	return ps
}

// countAutomorphisms counts the permutations of b's points that map edges
// onto edges and mills onto mills, by a search that assigns the points in
// order and prunes as soon as an edge or a mill between assigned points is
// not kept.
func countAutomorphisms(b *Board) int {
	n := b.NumPoints()
	var adj [MaxPoints][MaxPoints]bool
	for _, e := range b.Edges() {
		adj[e[0]][e[1]], adj[e[1]][e[0]] = true, true
	}
	mills := map[Bitboard]bool{}
	for _, m := range b.Mills() {
		mills[m] = true
	}
	img := make([]Point, n)
	var used Bitboard
	var search func(p int) int
	search = func(p int) int {
		if p == n {
			return 1
		}
		count := 0
		for q := range Point(n) {
			if used.Has(q) {
				continue
			}
			ok := true
			for a := range p { // edges and non-edges to the points assigned so far
				if adj[p][a] != adj[q][img[a]] {
					ok = false
					break
				}
			}
			img[p] = q
			for _, m := range b.Mills() { // mills whose points are all assigned now
				if ok && m.Has(Point(p)) && m&^Bitboard(1<<(p+1)-1) == 0 {
					var im Bitboard
					for x := m; x != 0; x &= x - 1 {
						im |= img[x.First()].Bit()
					}
					ok = mills[im]
				}
			}
			if ok {
				used |= q.Bit()
				count += search(p + 1)
				used &^= q.Bit()
			}
		}
		return count
	}
	return search(0)
}

// TestSymmetriesOfGames checks on random positions of every game that a
// symmetry maps the moves of a position onto the moves of its image, and
// its un-moves onto the image's un-moves; and that Symmetry.Position uses
// the position's board.
func TestSymmetriesOfGames(t *testing.T) {
	var buf, ibuf [MaxUnmoves]Move
	for _, r := range testGames() {
		b := r.Board
		for i, p := range gameTestPositions(t, r, 600) {
			s := Symmetry(i % b.NumSymmetries())
			sp := s.Position(p)
			if sp.Stones[0] != b.Map(s, p.Stones[0]) || sp.Stones[1] != b.Map(s, p.Stones[1]) || sp.Hand != p.Hand || sp.Turn != p.Turn || sp.Game != p.Game {
				t.Fatalf("%v of %s: got %s", s, p, sp)
			}
			if back := b.Inverse(s).Position(sp); back != p {
				t.Fatalf("inverse of %v undoes %s: got %s", s, p, back)
			}
			var want []Move
			for _, m := range p.AppendMoves(buf[:0]) {
				want = append(want, b.MapMove(s, m))
			}
			got := sortMoves(slices.Clone(sp.AppendMoves(ibuf[:0])))
			if sortMoves(want); !slices.Equal(got, want) {
				t.Fatalf("%s: %v: moves of %s mapped: %v, moves of the image %s: %v", r.ID, s, p, want, sp, got)
			}
			want = want[:0]
			for _, u := range p.AppendUnmoves(buf[:0]) {
				want = append(want, b.MapMove(s, u))
			}
			got = sortMoves(slices.Clone(sp.AppendUnmoves(ibuf[:0])))
			if sortMoves(want); !slices.Equal(got, want) {
				t.Fatalf("%s: %v: un-moves of %s mapped differ from the un-moves of the image %s", r.ID, s, p, sp)
			}
			if b.NumPoints() == NumPoints && (s.Bitboard(p.Stones[0]) != sp.Stones[0] || s.Move(NoMove) != NoMove) {
				t.Fatalf("%s: Symmetry.Bitboard and Board.Map differ on %s", r.ID, p)
			}
		}
	}
}

// lastPlacement returns a position of Twelve Men's Morris with Black to
// place its twelfth stone on the last empty point, found from a random full
// board: one where that placement closes a mill when mill is true, one
// where it does not otherwise.
func lastPlacement(t *testing.T, mill bool) (Position, Point) {
	t.Helper()
	r := Twelve.Rules()
	rng := rand.New(rand.NewPCG(12, 12))
	for range 1000 {
		full := fullBoard(r, rng)
		for x := full.Stones[Black]; x != 0; x &= x - 1 {
			q := x.First()
			rest := full.Stones[Black] &^ q.Bit()
			if r.Board.ClosesMill(rest, q) == mill {
				p := full
				p.Stones[Black] = rest
				p.Hand[Black] = 1
				p.Turn = Black
				return p, q
			}
		}
	}
	t.Fatal("no such board found")
	return Position{}, NoPoint
}

// TestFullBoardDraw checks the full board of Twelve Men's Morris: the last
// placement that fills the board draws the game, a last placement that
// closes a mill does not, and the full board is no draw under the rules
// of a game without FullBoardDraw.
func TestFullBoardDraw(t *testing.T) {
	before, last := lastPlacement(t, false)
	g, err := NewGameFrom(before, 12)
	if err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	if p.IsDrawn() || p.IsOver() {
		t.Fatalf("%s before the last placement: IsDrawn %v, IsOver %v", p, p.IsDrawn(), p.IsOver())
	}
	if err := g.Play(Place(last)); err != nil {
		t.Fatal(err)
	}
	p = g.Position()
	if !p.IsDrawn() || p.IsOver() || len(p.Moves()) != 0 || !p.Blocked() {
		t.Fatalf("full board %s: IsDrawn %v, IsOver %v, %d moves", p, p.IsDrawn(), p.IsOver(), len(p.Moves()))
	}
	var ubuf [MaxUnmoves]Move
	if us := p.AppendUnmoves(ubuf[:0]); count(us, Place(last)) != 1 || p.Unplay(Place(last)) != before {
		t.Errorf("un-moves of the full board %s: %v, want the last placement %s among them", p, us, Place(last))
	}
	if r, why := g.Result(); r != Draw || why != "the board is full" {
		t.Errorf("Result of the full board: got %v (%q), want Draw", r, why)
	}
	if err := p.CheckMove(Slide(0, 1)); !errors.Is(err, ErrIllegalMove) || !strings.Contains(err.Error(), "drawn") {
		t.Errorf("CheckMove on the full board: got %v, want an error saying it is drawn", err)
	}
	if text := g.Record(); !strings.HasSuffix(text, "1/2-1/2\n") || !strings.HasPrefix(text, "[Variant \"twelve\"]\n") {
		t.Errorf("Record: got %q", text)
	} else if back, err := ParseRecord(text); err != nil || back.Position() != p {
		t.Errorf("ParseRecord(%q): %v", text, err)
	}
	if err := p.CheckReachable(12); err != nil {
		t.Errorf("CheckReachable(12) of the full board: %v", err)
	}
	// The same stones under the rules of a game without FullBoardDraw:
	// White to move is blocked and has lost.
	q := p
	q.Game = Standard
	if q.IsDrawn() || !q.IsOver() {
		t.Errorf("the full board under the standard rules: IsDrawn %v, IsOver %v, want false, true", q.IsDrawn(), q.IsOver())
	}
	// A last placement that closes a mill removes a stone: no full board.
	before, last = lastPlacement(t, true)
	var closing []Move
	for _, m := range before.Moves() {
		if m.To == last {
			closing = append(closing, m)
		}
	}
	if len(closing) == 0 || !closing[0].IsRemoval() {
		t.Fatalf("%s: placing on %s closes no mill: %v", before, last, closing)
	}
	if c := before.Play(closing[0]); c.IsDrawn() || c.Empty().Count() != 1 {
		t.Errorf("%s after %s: IsDrawn %v, %d empty points; want false, 1", c, closing[0], c.IsDrawn(), c.Empty().Count())
	}
}

// TestLaskerRules checks Lasker Morris by examples: place or move from the
// second move on, flying with three stones on the board and in hand
// together, a side with stones in hand never blocked out of the game, the
// hands that fit a side to move, and what reachability may count.
func TestLaskerRules(t *testing.T) {
	g := Lasker.Rules().NewGame(10)
	playAll(t, g, "d6", "d2")
	p := g.Position()
	if !p.IsLegal(Slide(4, 7)) || !p.IsLegal(Place(7)) || p.IsLegal(Slide(4, 0)) {
		t.Errorf("%s: want d6-d5 and d5 legal, d6-a7 not", p)
	}
	playAll(t, g, "d6-d5", "d2-d3", "a7")
	if got := g.Position().String(); got != "W......W........B....... b 8 9 lasker" {
		t.Errorf("after 1. d6 d2 2. d6-d5 d2-d3 3. a7: got %s", got)
	}
	// Two stones on the board and one in hand: the stones jump.
	p = mustPosition(t, "W.......BBB.........W... w 1 3 lasker")
	if !p.IsLegal(Slide(0, 23)) || !p.IsLegal(Place(23)) || p.Phase() != Placing {
		t.Errorf("%s: a7-g1 or g1 illegal or phase %v; want a jump, a placement and Placing", p, p.Phase())
	}
	if err := p.Validate(10); err != nil {
		t.Errorf("Validate(10) of %s: %v", p, err)
	}
	// A side whose stones on the board cannot move but which has stones in
	// hand is not out of the game: it places.
	p = mustPosition(t, "WB.......B.............. w 3 4 lasker")
	if !p.Blocked() || p.IsOver() || p.CountMoves() == 0 {
		t.Errorf("%s: Blocked %v, IsOver %v, %d moves; want true, false, some", p, p.Blocked(), p.IsOver(), p.CountMoves())
	}
	for _, tc := range []struct {
		text string
		ok   bool
	}{
		{"........................ w 10 10 lasker", true},
		{"W....................... b 9 10 lasker", true},
		{"........................ b 10 10 lasker", false}, // White has moved
		{"W....................... w 9 10 lasker", false},  // Black has not moved, so White has not either
		{"WW...................... b 8 10 lasker", false},  // Black has not moved: White has moved once
		{"W.......B............... w 9 9 lasker", true},
		{"W...........B........... b 9 9 lasker", true}, // White has moved twice, once a slide
	} {
		p := mustPosition(t, tc.text)
		if err := p.Validate(10); (err == nil) != tc.ok {
			t.Errorf("Validate(10) of %s: got %v, want ok %v", p, err, tc.ok)
		}
	}
	// Reachability: slides close mills too, so Black, with three stones
	// placed, may have removed two white stones while White still holds
	// five; but a side that has lost a stone faces one that placed three.
	for _, tc := range []struct {
		text string
		ok   bool
	}{
		{"W..BBB...............W.W w 5 7 lasker", true},
		{".........B.............. w 9 9 lasker", false},
	} {
		p := mustPosition(t, tc.text)
		if err := p.CheckReachable(10); (err == nil) != tc.ok {
			t.Errorf("CheckReachable(10) of %s: got %v, want ok %v", p, err, tc.ok)
		}
	}
}

// TestSixMensMorris checks the small board by examples: a mill on a side
// of a square, no flying, and its point names in moves and records.
func TestSixMensMorris(t *testing.T) {
	r := Six.Rules()
	g := r.NewGame(6)
	for _, s := range []string{"a5", "e1", "c5", "d2"} {
		m, err := r.Board.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("playing %s: %v", s, err)
		}
	}
	p := g.Position()
	var closing []string
	for _, m := range p.Moves() {
		if m.IsRemoval() {
			closing = append(closing, r.Board.MoveString(m))
		}
	}
	if want := []string{"e5xd2", "e5xe1"}; !slices.Equal(closing, want) {
		t.Errorf("%s: moves that close a mill: got %v, want %v", p, closing, want)
	}
	if text := g.Record(); text != "[Variant \"six\"]\n1. a5 e1\n2. c5 d2\n*\n" {
		t.Errorf("Record: got %q", text)
	}
	if back, err := ParseRecord(g.Record()); err != nil || back.Position() != p {
		t.Errorf("ParseRecord of the record: %v, %v", back, err)
	}
	// Three stones jump with flying; without (Six Men's Morris) they do not.
	q := mustPosition(t, "W.WBBB.B.....W.. w 0 0 six-flying")
	if err := q.Validate(6); err != nil {
		t.Fatal(err)
	}
	if !q.IsLegal(Slide(0, 6)) || !q.IsLegal(Slide(0, 14)) || q.Phase() != Flying {
		t.Errorf("%s: a5-a3 %v, a5-c1 %v, phase %v; want true, true, flying", q, q.IsLegal(Slide(0, 6)), q.IsLegal(Slide(0, 14)), q.Phase())
	}
	q.Game = Six
	if !q.IsLegal(Slide(0, 6)) || q.IsLegal(Slide(0, 14)) || q.Phase() != Moving {
		t.Errorf("%s: a5-a3 %v, a5-c1 %v, phase %v; want true, false, moving", q, q.IsLegal(Slide(0, 6)), q.IsLegal(Slide(0, 14)), q.Phase())
	}
	if err := q.CheckMove(Slide(0, 14)); err == nil || !strings.Contains(err.Error(), "no side may jump") || !strings.Contains(err.Error(), "a5-c1") {
		t.Errorf("CheckMove(a5-c1) in %s: got %v", q, err)
	}
}

// TestRulesCheck checks the rules check: every entry of Games passes it,
// and an entry it refuses (a double mill removing two stones, as in
// Sanmill's Morabaraba; too many stones for the board; a game number
// given twice) gets a sentence saying why and names no game, without a
// panic.
func TestRulesCheck(t *testing.T) {
	if err := CheckGames(); err != nil {
		t.Errorf("CheckGames(): %v", err)
	}
	for _, r := range Games {
		if err := r.Check(); err != nil {
			t.Errorf("%s: Check(): %v", r.ID, err)
		}
	}
	removesTwo := &Rules{ID: "removes-two", Name: "Morabaraba, two stones for a double mill", Board: DiagonalBoard,
		Stones: 12, FlyAt: 3, LoseBelow: 3, DoubleMillRemoves: 2, game: 200}
	crowded := &Rules{ID: "crowded", Name: "Nine Men's Morris on the 3×3 board", Board: ThreeBoard,
		Stones: 9, LoseBelow: 3, DoubleMillRemoves: 1, game: 201}
	twice := &Rules{ID: "twice", Name: "Nine Men's Morris again", Board: StandardBoard,
		Stones: 9, FlyAt: 3, LoseBelow: 3, DoubleMillRemoves: 1, game: Standard}
	for _, tc := range []struct {
		r    *Rules
		want string // in the error of Check or, for twice, of buildEngines
	}{
		{removesTwo, "Morabaraba, two stones for a double mill: a move closing two mills removes 2 stones, and the move generators remove one stone per move (DoubleMillRemoves must be 1)"},
		{crowded, "Nine Men's Morris on the 3×3 board: 9 stones a side do not fit on the 9 points of its board"},
		{twice, "Nine Men's Morris again: game number 0 is Nine Men's Morris's already"},
	} {
		if err := tc.r.Check(); (err != nil) != (tc.r != twice) || err != nil && (!errors.Is(err, ErrRules) || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: Check(): got %v, want an error containing %q (nil for a game number given twice)", tc.r.ID, err, tc.want)
		}
		games := append(slices.Clone(Games), tc.r)
		e, err := buildEngines(games)
		if err == nil || !errors.Is(err, ErrRules) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: buildEngines: got error %v, want one containing %q", tc.r.ID, err, tc.want)
		}
		if e[tc.r.game].rules == tc.r {
			t.Errorf("%s: buildEngines gave the refused entry game number %d", tc.r.ID, tc.r.game)
		}
		if want, _ := buildEngines(Games); e != want {
			t.Errorf("%s: the engines of the other games changed", tc.r.ID)
		}
	}
}

// TestSharesMovingLayer checks the pairs of games that share their
// moving layers, and, by the move generator itself, that they do: in
// random positions of each layer both games share (both hands empty,
// either side to move) the moves, and whether the game is over or drawn,
// are the same, while for each pair that does not share, some position
// of a layer of both tells them apart.
func TestSharesMovingLayer(t *testing.T) {
	shares := map[[2]GameID]bool{
		{Standard, Lasker}: true, {Standard, Ten}: true, {Lasker, Ten}: true,
		{Eleven, Twelve}: true, {Five, Six}: true, {FiveFlying, SixFlying}: true,
	}
	rng := rand.New(rand.NewPCG(5, 3))
	for _, r := range Games {
		for _, o := range Games {
			if r == o || r.Board.NumPoints() != o.Board.NumPoints() {
				continue
			}
			want := shares[[2]GameID{r.game, o.game}] || shares[[2]GameID{o.game, r.game}]
			k := min(r.Stones, o.Stones)
			differ := false
			for w := 3; w <= k; w++ {
				for b := 3; b <= k; b++ {
					got := r.SharesMovingLayer(o, w, b)
					if got != o.SharesMovingLayer(r, w, b) {
						t.Fatalf("%s and %s, layer %d-%d: not symmetric", r, o, w, b)
					}
					if got != want && !(r.FullBoardDraw != o.FullBoardDraw && w+b == r.Board.NumPoints()) {
						t.Errorf("%s and %s, layer %d-%d: shared %v, want %v", r, o, w, b, got, want)
					}
					for range 200 {
						p := randomMoving(rng, r.Board, w, b)
						if same := sameMovingPosition(r, o, p); !same {
							differ = true
							if got {
								t.Fatalf("%s and %s share layer %d-%d, yet %v tells them apart", r, o, w, b, p)
							}
						}
					}
				}
			}
			if !want && !differ {
				t.Errorf("%s and %s: no position told apart, though they share no layer", r, o)
			}
		}
	}
	if Twelve.Rules().SharesMovingLayer(Eleven.Rules(), 12, 12) {
		t.Errorf("Twelve and Eleven share 12-12, which Eleven lacks")
	}
}

// randomMoving returns a position of w and b stones on board bd, both
// hands empty, the side to move chosen at random.
func randomMoving(rng *rand.Rand, bd *Board, w, b int) Position {
	pts := rng.Perm(bd.NumPoints())
	var p Position
	for i, q := range pts[:w+b] {
		p.Stones[min(i/w, 1)] |= Point(q).Bit()
	}
	p.Turn = Color(rng.IntN(2))
	if p.Turn == Black {
		p.Stones[White], p.Stones[Black] = p.Stones[Black], p.Stones[White]
	}
	return p
}

// sameMovingPosition reports whether p is the same position under r and
// o: the same moves, in the same order, and the same ends.
func sameMovingPosition(r, o *Rules, p Position) bool {
	p.Game = r.game
	q := p
	q.Game = o.game
	return slices.Equal(p.AppendMoves(nil), q.AppendMoves(nil)) && p.IsOver() == q.IsOver() && p.IsDrawn() == q.IsDrawn()
}
