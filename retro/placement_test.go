package retro

import (
	"context"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
)

// placementReference values placement positions by plain minimax with a
// memo over raw positions, ending in the raw moving-phase values of the
// reference solver. It shares nothing with the solver but the move generator.
type placementReference struct {
	moving *rawTable
	memo   map[muehle.Position]layers.Value
}

func (r *placementReference) value(p muehle.Position) layers.Value {
	p = p.Normalize()
	if p.Total(muehle.White) < 3 {
		return layers.LossIn(0)
	}
	if p.Hand[muehle.White] == 0 && p.Hand[muehle.Black] == 0 {
		return r.moving.get(p)
	}
	if v, ok := r.memo[p]; ok {
		return v
	}
	best := layers.Unused
	for _, m := range p.Moves() {
		if v := r.value(p.Play(m)).Parent(); v.Better(best) {
			best = v
		}
	}
	if best == layers.Unused {
		best = layers.NoMoves(&p)
	}
	r.memo[p] = best
	return best
}

// TestPlacementReference solves the whole game of three stones a side and
// compares every reachable placement position with the reference, and
// checks that the others are not stored.
func TestPlacementReference(t *testing.T) {
	testenv.Long(t, "the reference placement solver takes over a minute")
	comparePlacement(t, muehle.Standard.With(3))
}

// TestPlacementReferenceTwelve is TestPlacementReference for Twelve Men's
// Morris with three stones a side.
func TestPlacementReferenceTwelve(t *testing.T) {
	testenv.Long(t, "the reference placement solver takes over a minute")
	comparePlacement(t, muehle.Twelve.With(3))
}

func comparePlacement(t *testing.T, v muehle.Variant) {
	k := v.Stones
	db := openVariant(t, t.TempDir(), v)
	solve(t, db, SolveOptions{Placement: true})
	moving, _ := referenceTable(v)
	ref := &placementReference{moving: moving, memo: map[muehle.Position]layers.Value{}}
	reachable := reachByClasses(v)
	checked := 0
	for _, key := range layers.PlacementLayers(k) {
		ix := db.Indexer().Layer(key)
		for i := range ix.Size() {
			p, ok := ix.Position(i)
			if !ok {
				continue
			}
			p.Game = v.Game
			got, err := db.Probe(p)
			if err != nil {
				t.Fatal(err)
			}
			want := layers.Unused // the sweep stores the reachable classes only
			if reachable[canonicalClass(p)] {
				want = ref.value(p)
				checked++
			}
			if got != want {
				t.Errorf("layer %s slot %d %v: got %v, want %v", key, i, p, got, want)
			}
		}
	}
	start, err := db.Probe(v.NewPosition())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("k=%d: %d placement positions agree; the empty board is %v", k, checked, start)
	if checked == 0 {
		t.Fatal("no placement positions checked")
	}
	if err := context.Background().Err(); err != nil {
		t.Fatal(err)
	}
}
