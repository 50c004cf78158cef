package layers

import (
	"math/rand/v2"
	"slices"
	"testing"

	"muehle/muehle"
)

func TestKeyString(t *testing.T) {
	for _, c := range []struct {
		k Key
		s string
	}{
		{Moving(3, 4), "3-4"},
		{Moving(9, 9), "9-9"},
		{Key{W: 5, B: 4, WH: 2, BH: 2}, "p5+2-4+2"},
		{Key{W: 0, B: 0, WH: 9, BH: 9}, "p0+9-0+9"},
		{Key{W: 12, B: 11, WH: 1, BH: 0}, "p12+1-11+0"},
	} {
		if got := c.k.String(); got != c.s {
			t.Errorf("%+v.String(): got %q, want %q", c.k, got, c.s)
		}
		k, err := ParseKey(c.s)
		if err != nil || k != c.k {
			t.Errorf("ParseKey(%q): got %+v, %v, want %+v", c.s, k, err, c.k)
		}
	}
	// 30-4 and 17-16: more stones than any board has points (muehle.MaxPoints).
	for _, s := range []string{"", "3", "3-", "-3", "3-4x", "p3-4", "p3+0-4+0", "3-4-5", "p1+1-1+1+1", "30-4", "17-16", "a-b", "3--4"} {
		if k, err := ParseKey(s); err == nil {
			t.Errorf("ParseKey(%q): got %+v, want an error", s, k)
		}
	}
}

func TestCatalogueSizes(t *testing.T) {
	for k := 3; k <= 9; k++ {
		if got, want := len(MovingLayers(k)), (k-2)*(k-2); got != want {
			t.Errorf("MovingLayers(%d): got %d layers, want %d", k, got, want)
		}
		pl := PlacementLayers(k)
		for _, key := range pl {
			if !key.Valid(k) || key.IsMoving() {
				t.Errorf("PlacementLayers(%d): invalid layer %v", k, key)
			}
		}
		order := Order(k, true)
		if got, want := len(order), len(pl)+len(MovingLayers(k)); got != want {
			t.Errorf("Order(%d, true): got %d layers, want %d", k, got, want)
		}
	}
	if got := PlacementLayers(9)[len(PlacementLayers(9))-1]; got != (Key{WH: 9, BH: 9}) {
		t.Errorf("last placement layer: got %v, want the empty board", got)
	}
}

// TestOrderDependencies checks that every layer's successors come before it
// in the order of computation, except its partner in a moving pair, which
// is computed together with it (adjacent).
func TestOrderDependencies(t *testing.T) {
	for k := 3; k <= 9; k++ {
		order := Order(k, true)
		pos := make(map[Key]int)
		for i, key := range order {
			if _, dup := pos[key]; dup {
				t.Fatalf("Order(%d): %v twice", k, key)
			}
			pos[key] = i
		}
		for i, key := range order {
			for _, s := range key.Successors() {
				j, ok := pos[s]
				switch {
				case !ok:
					t.Errorf("stones %d: successor %v of %v is not in the order", k, s, key)
				case key.IsMoving() && s == key.Partner():
					if j != i-1 && j != i+1 && j != i {
						t.Errorf("stones %d: partner %v of %v at %d, not adjacent to %d", k, s, key, j, i)
					}
				case j >= i:
					t.Errorf("stones %d: successor %v of %v at %d, not before %d", k, s, key, j, i)
				}
			}
		}
	}
	want := []Key{Moving(3, 3), Moving(3, 4), Moving(4, 3), Moving(3, 5), Moving(5, 3), Moving(4, 4)}
	if got := Order(9, false)[:6]; !slices.Equal(got, want) {
		t.Errorf("Order(9, false)[:6]: got %v, want %v", got, want)
	}
}

// TestSuccessorsInGames plays random games and checks that every position
// is in a catalogued layer and every move leads to a listed successor.
func TestSuccessorsInGames(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for stones := 3; stones <= 9; stones++ {
		layers := make(map[Key]bool)
		for _, k := range Order(stones, true) {
			layers[k] = true
		}
		for range 100 {
			p := muehle.NewPosition(stones)
			for ply := 0; ply < 300 && !p.IsOver(); ply++ {
				k := KeyOf(p)
				if !layers[k] {
					t.Fatalf("stones %d: position %v in layer %v, not catalogued", stones, p, k)
				}
				moves := p.Moves()
				for _, m := range moves {
					c := p.Play(m)
					if c.Total(c.Turn) < 3 {
						continue
					}
					if ck := KeyOf(c); !slices.Contains(k.Successors(), ck) {
						t.Fatalf("stones %d: %v -> %v: layer %v not among the successors %v of %v", stones, p, m, ck, k.Successors(), k)
					}
				}
				p = p.Play(moves[r.IntN(len(moves))])
			}
		}
	}
}

// TestLayersFitTheBoard checks that the stones of every layer of every
// game and stone count fit on the game's board, which PlacementLayers and
// Key.ValidMixed count on without a board.
func TestLayersFitTheBoard(t *testing.T) {
	for _, r := range muehle.Games {
		for k := muehle.MinStones; k <= r.Stones; k++ {
			v := r.Game().With(k)
			for _, key := range OrderIn(v, true) {
				if n := int(key.W) + int(key.B); n > r.Board.NumPoints() {
					t.Errorf("%s: layer %v holds %d stones on a board of %d points", v, key, n, r.Board.NumPoints())
				}
			}
		}
	}
}

func TestKeyOf(t *testing.T) {
	p := muehle.Position{Stones: [2]muehle.Bitboard{0b111, 0b1111 << 8}, Hand: [2]uint8{2, 1}, Turn: muehle.Black}
	if got, want := KeyOf(p), (Key{W: 4, B: 3, WH: 1, BH: 2}); got != want {
		t.Errorf("KeyOf: got %v, want %v", got, want)
	}
}

// FuzzParseKey checks that ParseKey never panics and that a key it accepts
// prints back to the same text.
func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"3-4", "p5+2-4+2", "p0+9-0+9", "9-9", "12-12", "p1+1-1+0x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseKey(s)
		if err != nil {
			return
		}
		if k.String() != s {
			t.Errorf("ParseKey(%q) = %v, which prints as %q", s, k, k.String())
		}
	})
}

func TestRemovalLayer(t *testing.T) {
	for _, c := range []struct {
		k      Key
		want   Key
		wantOK bool
	}{
		{Moving(3, 3), Key{}, false},
		{Moving(9, 3), Key{}, false},
		{Moving(4, 4), Moving(3, 4), true},
		{Moving(3, 9), Moving(8, 3), true},
		{Moving(7, 5), Moving(4, 7), true},
	} {
		got, ok := c.k.RemovalLayer()
		if got != c.want || ok != c.wantOK {
			t.Errorf("%s.RemovalLayer(): got %v, %v; want %v, %v", c.k, got, ok, c.want, c.wantOK)
		}
	}
}
