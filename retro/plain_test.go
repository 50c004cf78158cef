package retro

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"muehle/layers"
	"muehle/muehle/testenv"
)

// plainPair is the retrograde analysis of a moving pair written as plainly
// as possible, as the reference for the solver's tricks: one goroutine,
// every child ranked and deduplicated (no symmetry shortcut), parents
// settled one by one, work lists as slices in memory. It returns the state
// words after the count phase and the final bodies.
func plainPair(t *testing.T, db *layers.DB, keys []layers.Key) (counted [][]uint32, bodies [][]byte) {
	t.Helper()
	ix := db.Indexer()
	idx := make([]*layers.LayerIndex, len(keys))
	for l, k := range keys {
		idx[l] = ix.Layer(k)
	}
	partner := func(l int) int { return len(keys) - 1 - l }
	state := make([][]uint32, len(keys))
	lists := map[int][]entry{}
	for l, k := range keys {
		state[l] = make([]uint32, idx[l].Size())
		var rm *layers.File
		var rmIdx *layers.LayerIndex
		if k.B-1 >= 3 {
			x := layers.Moving(int(k.B)-1, int(k.W))
			f, err := db.Layer(x)
			if err != nil {
				t.Fatal(err)
			}
			rm, rmIdx = f, ix.Layer(x)
		}
		for i := range idx[l].Size() {
			pos, ok := idx[l].Position(i)
			if !ok {
				state[l][i] = uint32(layers.Unused)
				continue
			}
			ms := pos.Moves()
			if len(ms) == 0 {
				state[l][i] = uint32(layers.LossIn(0))
				lists[0] = append(lists[0], makeEntry(l, i, false))
				continue
			}
			seen := map[uint64]bool{}
			r := removals{minLoss: -1, maxWin: -1}
			wonIn1 := false
			for _, m := range ms {
				c := pos.Play(m)
				if !m.IsRemoval() {
					seen[idx[partner(l)].Index(c)] = true
					continue
				}
				if rm == nil {
					wonIn1 = true
					break
				}
				if !r.add(rm.Value(rmIdx.Index(c))) {
					t.Fatalf("layer %s slot %d: a removal reaches an unused slot", k, i)
				}
			}
			if wonIn1 {
				state[l][i] = uint32(layers.WinIn(1))
				lists[1] = append(lists[1], makeEntry(l, i, false))
				continue
			}
			count, seed := r.counter(len(seen))
			state[l][i] = uint32(layers.Drawn) | uint32(count)<<counterShift
			if seed >= 0 {
				lists[seed] = append(lists[seed], makeEntry(l, i, true))
			}
		}
	}
	for l := range state {
		counted = append(counted, slices.Clone(state[l]))
	}
	settle := func(l int, i uint64, d int) {
		s := state[l][i]
		if layers.Value(s&valueMask) != layers.Drawn {
			return
		}
		if d%2 == 0 {
			state[l][i] = uint32(layers.WinIn(d + 1))
		} else if c := s >> counterShift; c > 1 {
			state[l][i] = uint32(layers.Drawn) | (c-1)<<counterShift
			return
		} else {
			state[l][i] = uint32(layers.LossIn(d + 1))
		}
		lists[d+1] = append(lists[d+1], makeEntry(l, i, false))
	}
	for d := 0; d <= layers.MaxDepth; d++ {
		for len(lists[d]) > 0 {
			e := lists[d][0]
			lists[d] = lists[d][1:]
			l, i := e.layer(), e.index()
			if e.seed() {
				settle(l, i, d)
				continue
			}
			pos, _ := idx[l].Position(i)
			p := partner(l)
			done := map[uint64]bool{}
			for _, u := range pos.AppendUnslides(nil) {
				j := idx[p].Index(pos.Unplay(u))
				if !done[j] {
					done[j] = true
					settle(p, j, d)
				}
			}
		}
	}
	for l := range state {
		b := make([]byte, len(state[l]))
		for i, s := range state[l] {
			b[i] = byte(s & valueMask)
		}
		bodies = append(bodies, b)
	}
	return counted, bodies
}

// TestSolverMatchesPlain solves pairs with the solver (two workers, so that
// the parallel paths run) and with plainPair and compares every state
// word after the count phase and every value at the end: the slide pair
// 4-4 and the flying pair 3-5 + 5-3, 4-5 + 5-4 and 3-6 + 6-3. It is long
// (skipped with -short).
func TestSolverMatchesPlain(t *testing.T) {
	testenv.Long(t, "minutes of single-threaded reference solving")
	db := openDB(t, t.TempDir(), 9)
	pairs := [][]layers.Key{{layers.Moving(4, 4)}, {layers.Moving(3, 5), layers.Moving(5, 3)},
		{layers.Moving(4, 5), layers.Moving(5, 4)}, {layers.Moving(3, 6), layers.Moving(6, 3)}}
	solve(t, db, SolveOptions{MaxStones: 9})
	for _, keys := range pairs {
		var counted [][]uint32
		r := &run{db: db, workers: 2, tmp: t.TempDir(), unit: Unit{Keys: keys},
			afterCount: func(state [][]uint32) {
				for _, s := range state {
					counted = append(counted, slices.Clone(s))
				}
			}}
		bodies, release, err := r.compute(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", r.unit, err)
		}
		defer release()
		wantCounted, wantBodies := plainPair(t, db, keys)
		for l, k := range keys {
			for i := range wantCounted[l] {
				if counted[l][i] != wantCounted[l][i] {
					t.Fatalf("layer %s slot %d after counting: got state %#x, want %#x", k, i, counted[l][i], wantCounted[l][i])
				}
			}
			if got := bodies[l].flat; !bytes.Equal(got, wantBodies[l]) {
				for i := range got {
					if got[i] != wantBodies[l][i] {
						p, _ := db.Indexer().Layer(k).Position(uint64(i))
						t.Fatalf("layer %s slot %d (%v): got %v, want %v", k, i, p, layers.Value(got[i]), layers.Value(wantBodies[l][i]))
					}
				}
			}
		}
		t.Logf("%s: %d slots agree state by state", r.unit, len(wantBodies[0])*len(keys))
	}
}
