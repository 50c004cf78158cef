package pack

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// TestDontCareTrial is the "don't care" trial of the package format
// (docs/export.md): how much smaller a moving layer compresses when the
// values that one ply of look-up gives back are left free, as Syzygy's
// tables leave the positions a capture decides, and what giving them
// back would cost.
//
// A slot is "don't care" when a removal reaches its value: the best of
// its children in the removal layer, seen from the slot, equals the
// stored value (or a removal wins at once, the opponent keeping two
// stones). A reader that takes the better of the stored byte and that
// best removal gets the value back from any stored byte that is not
// better than it; the trial stores there the byte before it when that is
// allowed (runs compress), else the value. Slots that hold no position
// (not canonical) are free too, in a second variant. Each body is
// compressed as a package compresses it (blocks of BlockBytes, zstd at
// the default level), and the time of finding the removals' best for
// every slot, which an import would spend to give the values back, is
// the processor time of the first pass.
//
//	MUEHLE_DC_DB=DIR [MUEHLE_DC_LAYERS=6-6,7-7] go test -run DontCareTrial -v ./layers/pack/
func TestDontCareTrial(t *testing.T) {
	db, keys, packed := trialSetup(t, "MUEHLE_DC_DB", "MUEHLE_DC_LAYERS", "5-5,6-6")
	for _, k := range keys {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		body := f.Body()
		var rm *layers.File // nil: a removal wins at once
		var rmIx *layers.LayerIndex
		if rk, ok := k.RemovalLayer(); ok {
			if rm, err = db.Layer(rk); err != nil {
				t.Fatal(err)
			}
			rmIx = db.Indexer().Layer(rk)
		}
		ix := db.Indexer().Layer(k)
		free := make([]uint64, (len(body)+63)/64) // don't care: a removal gives the value back
		cpu0, _ := layers.CPUTime()
		start := time.Now()
		var next atomic.Uint64
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				var buf [muehle.MaxMoves]muehle.Move
				for {
					lo := next.Add(1<<14) - 1<<14
					if lo >= ix.Size() {
						return
					}
					for i := lo; i < min(lo+1<<14, ix.Size()); i++ {
						v := layers.Value(body[i])
						if v == layers.Unused {
							continue
						}
						p, _ := ix.Position(i)
						if rv, ok := bestRemoval(p, buf[:0], rm, rmIx); ok && rv == v {
							atomic.OrUint64(&free[i/64], 1<<(i%64))
						}
					}
				}
			})
		}
		wg.Wait()
		cpu1, _ := layers.CPUTime()
		cpu, wall := cpu1-cpu0, time.Since(start)
		fill := func(unusedFree bool) ([]byte, int) {
			out := make([]byte, len(body))
			prev, n := layers.Unused, 0
			for i, x := range body {
				v := layers.Value(x)
				switch {
				case v == layers.Unused && unusedFree:
					out[i] = byte(prev)
				case free[i/64]>>(i%64)&1 != 0 && prev != layers.Unused && !prev.Better(v):
					out[i], n = byte(prev), n+1
				default:
					out[i] = x
				}
				prev = layers.Value(out[i])
			}
			return out, n
		}
		var stored, dc int
		for i, x := range body {
			if x != byte(layers.Unused) {
				stored++
				dc += int(free[i/64] >> (i % 64) & 1)
			}
		}
		a, na := fill(false)
		bb, _ := fill(true)
		p0, pa, pb := packed(body), packed(a), packed(bb)
		t.Logf("%s: %d slots, %d stored, %.1f %% don't care (%d of them changed); packed %d B, don't care %d B (%.1f %%), and the holes too %d B (%.1f %%); giving the values back: %.0f ns of CPU per slot (%.1f s, %.1f s wall)",
			k, len(body), stored, 100*float64(dc)/float64(stored), na, p0, pa, 100*float64(pa)/float64(p0), pb, 100*float64(pb)/float64(p0),
			cpu.Seconds()*1e9/float64(len(body)), cpu.Seconds(), wall.Seconds())
	}
}

// bestRemoval returns the best value the removals of pos reach, seen from
// pos, their children read from rm (nil: a removal leaves the opponent two
// stones and wins at once), and false when pos has no removal.
func bestRemoval(pos muehle.Position, buf []muehle.Move, rm *layers.File, rmIx *layers.LayerIndex) (layers.Value, bool) {
	best, any := layers.Unused, false
	for _, m := range pos.AppendMoves(buf) {
		if !m.IsRemoval() {
			continue
		}
		if rm == nil {
			return layers.WinIn(1), true
		}
		any = true
		if pv := rm.Value(rmIx.Index(pos.Play(m))).Parent(); pv.Better(best) {
			best = pv
		}
	}
	return best, any
}
