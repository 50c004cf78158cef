package play

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
)

// classDB is a fake database consistent with the symmetries: a moving
// position's value is a fixed function of its symmetry class (so every
// symmetric image reads the same, as in a real database); placement layers
// are missing, except those in stored, whose values come from the slow
// reference below (so they are right).
type classDB struct {
	ci     *classIndexer
	stored map[layers.Key]bool
	gone   map[layers.Key]bool // moving layers reported missing
	// holes, when set, selects the classes of stored placement layers
	// that read as Unused (not stored, as unreachable classes are).
	holes  func(key uint64) bool
	probes int
}

func newClassDB(t testing.TB) *classDB {
	x, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	return &classDB{ci: &classIndexer{x: x}, stored: map[layers.Key]bool{}}
}

func (d *classDB) Probe(p muehle.Position) (layers.Value, error) {
	d.probes++
	if p.Total(p.Turn) < 3 {
		return layers.LossIn(0), nil
	}
	k := layers.KeyOf(p)
	if d.gone[k] {
		return layers.Unused, fmt.Errorf("fake moving layer %v: %w", k, layers.ErrMissing)
	}
	if !k.IsMoving() {
		if d.stored[k] && d.holes != nil && d.holes(uint64(d.ci.key(&p))) {
			return layers.Unused, nil
		}
		if d.stored[k] {
			return refValue(d, p), nil
		}
		return layers.Unused, fmt.Errorf("fake placement layer %v: %w", k, layers.ErrMissing)
	}
	x := uint64(d.ci.key(&p)) * 0x9e3779b97f4a7c15
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 29
	d6 := int(x>>8) % 20
	switch x % 5 {
	case 0, 1:
		return layers.Drawn, nil
	case 2, 3:
		return layers.WinIn(2*d6 + 1), nil
	}
	return layers.LossIn(2*d6 + 2), nil
}

// refValue is the obviously correct reference: the best child value by
// plain minimax over every move, no pruning, no table (the definition of
// BestChild in the solver).
func refValue(db layers.Prober, p muehle.Position) layers.Value {
	if p.IsOver() {
		return layers.LossIn(0)
	}
	if p.Hand[p.Turn] == 0 {
		v, err := db.Probe(p)
		if err != nil {
			panic(err)
		}
		return v
	}
	best := layers.Unused
	for _, m := range p.Moves() {
		if v := refValue(db, p.Play(m)).Parent(); v.Better(best) {
			best = v
		}
	}
	return best
}

// latePlacements returns n positions of the game with k stones reached by
// random placements, with left placements still to make.
func latePlacements(seed uint64, n, k, left int) []muehle.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []muehle.Position
	for len(out) < n {
		p := muehle.NewPosition(k)
		for int(p.Hand[0]+p.Hand[1]) > left && !p.IsOver() {
			ms := p.Moves()
			p = p.Play(ms[rng.IntN(len(ms))])
		}
		if !p.IsOver() && p.Hand[p.Turn] > 0 {
			out = append(out, p)
		}
	}
	return out
}

func TestPlacementSearchMatchesReference(t *testing.T) {
	db := newClassDB(t)
	x, _ := layers.DefaultIndexer()
	for _, c := range []struct {
		k, left, n int
	}{
		{3, 1, 30}, {3, 2, 30}, {4, 3, 20}, {5, 3, 20},
	} {
		s := NewPlacementSearch(db, x, nil, 12)
		for _, p := range latePlacements(uint64(c.k*10+c.left), c.n, c.k, c.left) {
			want := refValue(db, p)
			got, err := s.Value(context.Background(), p)
			if err != nil || got != want {
				t.Errorf("k=%d %v: got %v, %v; want %v", c.k, p, got, err, want)
			}
			// Every move: its exact value, and the best moves are exactly
			// those of the best value.
			mvs, err := s.MoveValues(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			var wantBest []muehle.Move
			for _, mv := range mvs {
				if w := refValue(db, p.Play(mv.Move)).Parent(); mv.Value != w {
					t.Errorf("k=%d %v move %v: got %v, want %v", c.k, p, mv.Move, mv.Value, w)
				}
				if mv.Value == want {
					wantBest = append(wantBest, mv.Move)
				}
			}
			v, best, err := s.BestMoves(context.Background(), p)
			if err != nil || v != want || !slices.Equal(best, wantBest) {
				t.Errorf("k=%d %v: BestMoves got %v %v %v; want %v %v", c.k, p, v, best, err, want, wantBest)
			}
		}
	}
}

func TestPlacementSearchStoredLayersAndBook(t *testing.T) {
	db := newClassDB(t)
	x, _ := layers.DefaultIndexer()
	ps := latePlacements(9, 10, 4, 4)
	var want []layers.Value
	for _, p := range ps {
		want = append(want, refValue(db, p))
	}
	// With the layers after the next placement stored, the search reads
	// them: the same values, far fewer nodes.
	plain := NewPlacementSearch(db, x, nil, 12)
	var plainNodes uint64
	for i, p := range ps {
		if v, err := plain.Value(context.Background(), p); err != nil || v != want[i] {
			t.Fatalf("%v: got %v, %v; want %v", p, v, err, want[i])
		}
		plainNodes += plain.Nodes()
	}
	stored := newClassDB(t)
	for _, k := range layers.PlacementLayers(4) {
		if k.WH+k.BH <= 3 {
			stored.stored[k] = true
		}
	}
	withStored := NewPlacementSearch(stored, x, nil, 12)
	var storedNodes uint64
	for i, p := range ps {
		if v, err := withStored.Value(context.Background(), p); err != nil || v != want[i] {
			t.Fatalf("stored layers, %v: got %v, %v; want %v", p, v, err, want[i])
		}
		storedNodes += withStored.Nodes()
	}
	if storedNodes >= plainNodes {
		t.Errorf("with stored layers: got %d nodes, want fewer than %d", storedNodes, plainNodes)
	}

	// A book saved by one search answers a new one at once.
	path := t.TempDir() + "/k4/placement.book"
	book, err := OpenBook(path, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	s := NewPlacementSearch(db, x, book, 12)
	for _, p := range ps {
		if _, err := s.Value(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := book.Save(); err != nil {
		t.Fatal(err)
	}
	again, err := OpenBook(path, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	if again.Len() != book.Len() || again.Len() < len(ps)/2 {
		t.Errorf("reopened book: got %d entries, want %d (≥ %d)", again.Len(), book.Len(), len(ps)/2)
	}
	fresh := NewPlacementSearch(db, x, again, 12)
	for i, p := range ps {
		v, err := fresh.Value(context.Background(), p)
		if err != nil || v != want[i] || fresh.Nodes() != 0 {
			t.Errorf("from the book, %v: got %v, %v in %d nodes; want %v in 0 nodes", p, v, err, fresh.Nodes(), want[i])
		}
	}
}

func TestPlacementSearchBudget(t *testing.T) {
	db := newClassDB(t)
	x, _ := layers.DefaultIndexer()
	p := latePlacements(3, 1, 5, 8)[0]
	s := NewPlacementSearch(db, x, nil, 12)
	s.MaxNodes = 2000
	if _, err := s.Value(context.Background(), p); !errors.Is(err, ErrBudget) {
		t.Errorf("2000 nodes: got %v, want ErrBudget", err)
	}
	s.MaxNodes = 0
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Value(ctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v, want context.Canceled", err)
	}
	// A moving layer missing below: ErrMissing.
	gone := newClassDB(t)
	gone.gone = map[layers.Key]bool{layers.Moving(4, 4): true}
	missing := NewPlacementSearch(gone, x, nil, 12)
	q := muehle.NewPosition(4) // every line of play reaches 4-4 or a removal before it
	if _, err := missing.Value(context.Background(), q); !errors.Is(err, layers.ErrMissing) {
		t.Errorf("missing moving layer: got %v, want ErrMissing", err)
	}
}

func TestPerfectUsesPlacementSearch(t *testing.T) {
	db := newClassDB(t)
	x, _ := layers.DefaultIndexer()
	ctx := context.Background()
	for i, p := range latePlacements(11, 10, 4, 3) {
		g, err := muehle.NewGameFrom(p, 4)
		if err != nil {
			t.Fatal(err)
		}
		fb := muehle.NewSeededRandom(1)
		pl := NewPerfect(db, rand.NewPCG(uint64(i), 2), fb)
		pl.Placement = NewPlacementSearch(db, x, nil, 12)
		m, err := pl.Move(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if pl.LastFellBack() || !pl.LastSearched() {
			t.Errorf("%v: got fell back %v, searched %v; want a searched move", p, pl.LastFellBack(), pl.LastSearched())
		}
		if got, want := refValue(db, p.Play(m)).Parent(), refValue(db, p); got != want {
			t.Errorf("%v: move %v has value %v, want the position's %v", p, m, got, want)
		}
		// Over budget it falls back and says why.
		pl.Placement = NewPlacementSearch(db, x, nil, 12)
		pl.Placement.MaxNodes = 1
		if _, err := pl.Move(ctx, g); err != nil {
			t.Fatal(err)
		}
		if p.Hand[0]+p.Hand[1] > 1 && (!pl.LastFellBack() || pl.FallbackReason() == "") {
			t.Errorf("%v over budget: got fell back %v (%q); want a fallback with a reason", p, pl.LastFellBack(), pl.FallbackReason())
		}
	}
}

// TestPlacementHoles: placement layers that leave classes Unused (the
// solver stores only the reachable ones) are read where they hold a value
// and searched where not, by the search and by the perfect player.
func TestPlacementHoles(t *testing.T) {
	testenv.Long(t, "about 110 s, minutes under the race detector")
	db := newClassDB(t)
	for _, k := range layers.PlacementLayers(4) {
		db.stored[k] = true
	}
	db.holes = func(key uint64) bool { return (key*0x9e3779b97f4a7c15)>>63 == 1 }
	x, _ := layers.DefaultIndexer()
	ctx := context.Background()
	holes, stored := 0, 0
	for i, p := range latePlacements(21, 40, 4, 5) {
		if v, _ := db.Probe(p); v == layers.Unused {
			holes++
		} else {
			stored++
		}
		want := refValue(db, p)
		s := NewPlacementSearch(db, x, nil, 12)
		if got, err := s.Value(ctx, p); err != nil || got != want {
			t.Errorf("%v: got %v, %v; want %v", p, got, err, want)
		}
		g, err := muehle.NewGameFrom(p, 4)
		if err != nil {
			t.Fatal(err)
		}
		pl := NewPerfect(db, rand.NewPCG(uint64(i), 2), nil)
		pl.Placement = NewPlacementSearch(db, x, nil, 12)
		m, err := pl.Move(ctx, g)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		if got := refValue(db, p.Play(m)).Parent(); got != want {
			t.Errorf("%v: move %v has value %v, want the position's %v", p, m, got, want)
		}
	}
	if holes == 0 || stored == 0 {
		t.Errorf("got %d positions in holes and %d stored, want some of each", holes, stored)
	}
}

// TestPerfectPlacementSearchCancels: a long placement search (the 9-stone
// empty board over a fake complete database) ends soon after its context
// is cancelled, as the window's thinking must.
func TestPerfectPlacementSearchCancels(t *testing.T) {
	db := newClassDB(t)
	x, _ := layers.DefaultIndexer()
	pl := NewPerfect(db, nil, nil)
	pl.Placement = NewPlacementSearch(db, x, nil, 16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := pl.Move(ctx, muehle.NewGame(9))
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled search: got %v, want context.Canceled", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the search did not stop within 2 s of the cancellation")
	}
}

// TestPlacementSearchMixedPhases: in Lasker Morris the search does not run
// (slides with stones in hand have no end in plies); it says so with an
// error wrapping layers.ErrMissing, so that a player falls back.
func TestPlacementSearchMixedPhases(t *testing.T) {
	x, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	s := NewPlacementSearch(nil, x, nil, 10)
	pos := muehle.Lasker.With(4).NewPosition()
	if _, err := s.Value(context.Background(), pos); !errors.Is(err, layers.ErrMissing) || !strings.Contains(err.Error(), "Lasker Morris mixes placing and moving") {
		t.Errorf("Value of Lasker's empty board: got %v, want ErrMissing saying the phases mix", err)
	}
	if _, err := s.MoveValues(context.Background(), pos); !errors.Is(err, layers.ErrMissing) {
		t.Errorf("MoveValues of Lasker's empty board: got %v, want ErrMissing", err)
	}
}
