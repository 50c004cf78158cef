package layers

import (
	"math/rand/v2"
	"testing"

	"muehle/muehle"
	"muehle/muehle/testenv"
)

// testIndexer returns the process-wide indexer or stops the test.
func testIndexer(t testing.TB) *Indexer {
	t.Helper()
	x, err := DefaultIndexer()
	if err != nil {
		t.Fatalf("DefaultIndexer: %v", err)
	}
	return x
}

// burnside returns the number of colourings of the board with w stones of
// one colour and b of the other, up to the 16 symmetries, by Burnside's
// lemma: the average over the symmetries of the colourings each one fixes.
// It uses only muehle's permutations, nothing of the index.
func burnside(w, b int) uint64 {
	var sum uint64
	for s := range muehle.Symmetry(muehle.NumSymmetries) {
		// A fixed colouring is constant on each cycle of s.
		var seen [muehle.NumPoints]bool
		var ways [muehle.NumPoints + 1][muehle.NumPoints + 1]uint64
		ways[0][0] = 1
		for p := range muehle.Point(muehle.NumPoints) {
			if seen[p] {
				continue
			}
			n := 0
			for q := p; !seen[q]; q = s.Point(q) {
				seen[q] = true
				n++
			}
			var next [muehle.NumPoints + 1][muehle.NumPoints + 1]uint64
			for i := range ways {
				for j := range ways[i] {
					if ways[i][j] == 0 {
						continue
					}
					next[i][j] += ways[i][j]
					if i+n <= muehle.NumPoints {
						next[i+n][j] += ways[i][j]
					}
					if j+n <= muehle.NumPoints {
						next[i][j+n] += ways[i][j]
					}
				}
			}
			ways = next
		}
		sum += ways[w][b]
	}
	return sum / muehle.NumSymmetries
}

func TestClassesBurnside(t *testing.T) {
	x := testIndexer(t)
	var total uint64
	for w := 0; w <= 9; w++ {
		for b := 0; b <= 9; b++ {
			got, want := x.Layer(Key{W: uint8(w), B: uint8(b)}).Classes(), burnside(w, b)
			if got != want {
				t.Errorf("layer %d-%d: got %d classes, want %d (Burnside)", w, b, got, want)
			}
			if w >= 3 && b >= 3 {
				total += got
			}
		}
	}
	for _, c := range []struct {
		k    Key
		want uint64
	}{{Moving(3, 3), 169_626}, {Moving(8, 8), 591_726_690}} {
		if got := x.Layer(c.k).Classes(); got != c.want {
			t.Errorf("layer %v: got %d classes, want %d", c.k, got, c.want)
		}
	}
	if want := uint64(8_904_593_601); total != want {
		t.Errorf("49 moving layers: got %d classes, want %d", total, want)
	}
}

// TestIndexAllSlots walks every slot of small layers: each canonical slot
// unranks to a valid position of the layer whose 16 images all rank back to
// the slot, and the canonical slots number as many as Burnside's classes.
// Together this makes Index a bijection from the classes of the layer onto
// its canonical slots.
func TestIndexAllSlots(t *testing.T) {
	testenv.SlowUnderRace(t, "ranks every slot of six layers, on one goroutine")
	x := testIndexer(t)
	keys := []Key{Moving(3, 3), Moving(3, 4), Moving(4, 3), {W: 0, B: 0}, {W: 1, B: 2}, {W: 2, B: 5, WH: 6, BH: 5}}
	// Layer 4-4 (3.3 million slots, about 40 s) and 5-4 and 5-5 (31
	// million) are long (skipped with -short).
	if testenv.Full() {
		keys = append(keys, Moving(4, 4), Moving(5, 4), Moving(4, 5), Moving(5, 5))
	}
	for _, k := range keys {
		l := x.Layer(k)
		var canonical uint64
		for i := range l.Size() {
			p, ok := l.Position(i)
			if ok != l.Canonical(i) {
				t.Fatalf("layer %v slot %d: Position says canonical %v, Canonical %v", k, i, ok, !ok)
			}
			if !ok {
				continue
			}
			canonical++
			if KeyOf(p) != k || p.Turn != muehle.White || p.Stones[0]&p.Stones[1] != 0 || (p.Stones[0]|p.Stones[1])&^muehle.AllPoints != 0 {
				t.Fatalf("layer %v slot %d: bad position %+v", k, i, p)
			}
			if k.Valid(muehle.StonesPerSide) {
				q := p // the mover is White in the layer; Black when its hand says so
				if !muehle.HandsFit(q.Hand, muehle.White) {
					q = q.SwapColors()
				}
				if err := q.Validate(muehle.StonesPerSide); err != nil {
					t.Fatalf("layer %v slot %d: %v", k, i, err)
				}
			}
			for s := range muehle.Symmetry(muehle.NumSymmetries) {
				if got := l.Index(s.Position(p)); got != i {
					t.Fatalf("layer %v slot %d: symmetry %d: got index %d, want %d", k, i, s, got, i)
				}
			}
			// The colours swapped with the side to move are the same position.
			if got := l.Index(p.SwapColors()); got != i {
				t.Fatalf("layer %v slot %d: colours swapped: got index %d, want %d", k, i, got, i)
			}
		}
		if want := burnside(int(k.W), int(k.B)); canonical != want || canonical != l.Classes() {
			t.Errorf("layer %v: got %d canonical slots, Classes %d, want %d (Burnside)", k, canonical, l.Classes(), want)
		}
	}
}

// TestIndexRaw33 ranks every one of the raw positions of layer 3-3.
func TestIndexRaw33(t *testing.T) {
	x := testIndexer(t)
	l := x.Layer(Moving(3, 3))
	seen := make([]bool, l.Size())
	var raw, distinct uint64
	forEachSet(muehle.AllPoints, 3, func(w muehle.Bitboard) {
		forEachSet(muehle.AllPoints&^w, 3, func(b muehle.Bitboard) {
			raw++
			i := l.Index(muehle.Position{Stones: [2]muehle.Bitboard{w, b}})
			if i >= l.Size() || !l.Canonical(i) {
				t.Fatalf("position %v/%v: index %d is not a canonical slot", w, b, i)
			}
			if !seen[i] {
				seen[i] = true
				distinct++
			}
		})
	})
	if raw != 2_691_920 {
		t.Errorf("got %d raw positions, want 2691920", raw)
	}
	if distinct != 169_626 {
		t.Errorf("got %d distinct indices, want 169626", distinct)
	}
}

// forEachSet calls f with every subset of from with n points.
func forEachSet(from muehle.Bitboard, n int, f func(muehle.Bitboard)) {
	var rec func(rest, acc muehle.Bitboard, n int)
	rec = func(rest, acc muehle.Bitboard, n int) {
		if n == 0 {
			f(acc)
			return
		}
		for r := rest; r.Count() >= n; {
			p := r.First()
			r &^= p.Bit()
			rec(r, acc|p.Bit(), n-1)
		}
	}
	rec(from, 0, n)
}

// randomPosition returns a random board with w and b stones, side to move
// chosen at random (w stones belong to the side to move).
func randomPosition(r *rand.Rand, w, b int) muehle.Position {
	var p muehle.Position
	perm := r.Perm(muehle.NumPoints)
	for i, q := range perm[:w+b] {
		c := muehle.White
		if i >= w {
			c = muehle.Black
		}
		p.Stones[c] |= muehle.Point(q).Bit()
	}
	if r.IntN(2) == 1 {
		p = p.SwapColors()
	}
	return p
}

// TestIndexRandomLarge samples the properties of the exhaustive tests on
// the largest layers.
func TestIndexRandomLarge(t *testing.T) {
	x := testIndexer(t)
	r := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testenv.Race {
		n = 2000
	}
	for _, k := range []Key{Moving(9, 9), Moving(9, 8), Moving(8, 9), Moving(8, 8), Moving(9, 3), Moving(7, 9)} {
		l := x.Layer(k)
		for range n {
			p := randomPosition(r, int(k.W), int(k.B))
			i := l.Index(p)
			for s := range muehle.Symmetry(muehle.NumSymmetries) {
				if got := l.Index(s.Position(p)); got != i {
					t.Fatalf("layer %v position %+v symmetry %d: got index %d, want %d", k, p, s, got, i)
				}
			}
			q, ok := l.Position(i)
			if !ok {
				t.Fatalf("layer %v position %+v: index %d is not canonical", k, p, i)
			}
			np := p.Normalize()
			found := false
			for s := range muehle.Symmetry(muehle.NumSymmetries) {
				if s.Position(q) == np {
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("layer %v: position %+v ranks to %d, which unranks to %+v, not symmetric to it", k, p, i, q)
			}
			// A random slot: canonical ones round-trip.
			j := r.Uint64N(l.Size())
			if q, ok := l.Position(j); ok {
				if got := l.Index(q); got != j {
					t.Fatalf("layer %v slot %d: unranks to %+v which ranks to %d", k, j, q, got)
				}
			}
		}
	}
}

func TestIndexChecked(t *testing.T) {
	l := testIndexer(t).Layer(Moving(3, 4))
	p := muehle.Position{Stones: [2]muehle.Bitboard{0b111, 0b1111 << 8}}
	if _, ok := l.IndexChecked(p); !ok {
		t.Errorf("IndexChecked(%+v): got not ok, want ok", p)
	}
	for _, q := range []muehle.Position{
		{Stones: [2]muehle.Bitboard{0b111, 0b111 << 8}},
		{Stones: [2]muehle.Bitboard{0b111, 0b1111 << 8}, Turn: muehle.Black},
		{Stones: [2]muehle.Bitboard{0b111, 0b1111 << 1}},
	} {
		if _, ok := l.IndexChecked(q); ok {
			t.Errorf("IndexChecked(%+v): got ok, want not ok", q)
		}
		l.Index(q) // must not panic
	}
	if _, ok := l.Position(l.Size()); ok {
		t.Errorf("Position(Size()): got ok, want out of range")
	}
	if n := testing.AllocsPerRun(100, func() { l.Index(p) }); n != 0 {
		t.Errorf("Index allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { l.Position(12345) }); n != 0 {
		t.Errorf("Position allocates %v times, want 0", n)
	}
}

// FuzzIndex ranks arbitrary bit patterns in arbitrary layers: Index must not
// panic, and for a position of the layer the slot must be canonical and
// unrank to a position that ranks to the same slot.
func FuzzIndex(f *testing.F) {
	f.Add(uint32(0b111), uint32(0b111<<9), uint8(3), uint8(3), false)
	f.Add(uint32(0xffffff), uint32(0xffffff), uint8(9), uint8(9), true)
	f.Add(uint32(1<<3|1<<4|1<<5|1<<10), uint32(1<<13|1<<18|1<<19|1<<20), uint8(4), uint8(4), false)
	x := testIndexer(f)
	f.Fuzz(func(t *testing.T, m, o uint32, w, b uint8, black bool) {
		k := Key{W: w % 10, B: b % 10}
		l := x.Layer(k)
		p := muehle.Position{Stones: [2]muehle.Bitboard{muehle.Bitboard(m), muehle.Bitboard(o)}}
		if black {
			p.Turn = muehle.Black
		}
		i := l.Index(p)
		l.Canonical(i)
		l.Position(i)
		j, ok := l.IndexChecked(p)
		if !ok {
			return
		}
		if j != i {
			t.Fatalf("IndexChecked: got %d, Index %d", j, i)
		}
		q, ok := l.Position(i)
		if !ok {
			t.Fatalf("layer %v: %+v ranks to %d, which is not canonical", k, p, i)
		}
		if got := l.Index(q); got != i {
			t.Fatalf("layer %v: %+v ranks to %d, unranks to %+v, which ranks to %d", k, p, i, q, got)
		}
	})
}

// TestIndexAll compares IndexAll with Index on random positions of several
// layers, and on bit patterns of no layer.
func TestIndexAll(t *testing.T) {
	x := testIndexer(t)
	r := rand.New(rand.NewPCG(11, 12))
	for _, k := range []Key{Moving(3, 3), Moving(8, 8), Moving(9, 4), {W: 2, B: 1, WH: 7, BH: 7}} {
		l := x.Layer(k)
		ps := benchPositions(k, 1000)
		for i := range 100 {
			ps[i] = muehle.Position{Stones: [2]muehle.Bitboard{muehle.Bitboard(r.Uint32()), muehle.Bitboard(r.Uint32())}}
		}
		out := make([]uint64, len(ps)+5)
		for i := range out {
			out[i] = 77
		}
		l.IndexAll(ps, out)
		for i, p := range ps {
			if want := l.Index(p); out[i] != want {
				t.Fatalf("layer %v position %+v: IndexAll gave %d, Index %d", k, p, out[i], want)
			}
		}
		if out[len(ps)] != 77 {
			t.Errorf("IndexAll wrote past the positions")
		}
		l.IndexAll(ps, out[:10]) // a short out must not panic
	}
}

// TestSwapped: Swapped gives what Position, the colours exchanged and
// Index give; the colours exchanged twice give every canonical slot back.
func TestSwapped(t *testing.T) {
	x := testIndexer(t)
	for _, k := range []Key{{W: 3, B: 4}, {W: 4, B: 4}, {W: 5, B: 3}, {W: 8, B: 7}} {
		l := x.Layer(k)
		p := x.Layer(Key{W: k.B, B: k.W})
		n := min(l.Size(), 200_000)
		first := l.Size() - n
		js := make([]uint64, n)
		l.Swapped(first, js, p)
		back := make([]uint64, 1)
		checked := 0
		for i, j := range js {
			if !l.Canonical(first + uint64(i)) {
				if j != NoSlot {
					t.Fatalf("%s: slot %d is not canonical, got %d", k, first+uint64(i), j)
				}
				continue
			}
			pos, _ := l.Position(first + uint64(i))
			pos.Stones[muehle.White], pos.Stones[muehle.Black] = pos.Stones[muehle.Black], pos.Stones[muehle.White]
			if want := p.Index(pos); j != want || !p.Canonical(j) {
				t.Fatalf("%s: slot %d: partner slot %d, want %d", k, first+uint64(i), j, want)
			}
			p.Swapped(j, back, l)
			if back[0] != first+uint64(i) {
				t.Fatalf("%s: slot %d swapped twice gives %d", k, first+uint64(i), back[0])
			}
			checked++
		}
		if checked < int(n)/2 {
			t.Errorf("%s: only %d of %d slots canonical", k, checked, n)
		}
	}
}

func BenchmarkSwapped(b *testing.B) {
	x, err := DefaultIndexer()
	if err != nil {
		b.Fatal(err)
	}
	l, p := x.Layer(Key{W: 8, B: 7}), x.Layer(Key{W: 7, B: 8})
	out := make([]uint64, 1<<16)
	first := l.Size() / 3
	for b.Loop() {
		l.Swapped(first, out, p)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(out)), "ns/slot")
}
