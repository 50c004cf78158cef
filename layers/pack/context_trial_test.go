package pack

import (
	"math"
	"testing"

	"muehle/layers"
)

// TestContextTrial measures how well a moving layer's values are predicted
// by their neighbours in slot order (docs/export.md): the entropy of a
// value alone, knowing the slot before (left), and knowing also the slot
// of the same A rank one B class back (up).
//
//	MUEHLE_CTX_DB=DIR MUEHLE_CTX_LAYERS=6-6,7-7 go test -run ContextTrial -v ./layers/pack/
func TestContextTrial(t *testing.T) {
	db, keys, packed := trialSetup(t, "MUEHLE_CTX_DB", "MUEHLE_CTX_LAYERS", "6-6,7-7")
	x, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		b := f.Body()
		h0 := make([]uint64, 256)
		h1 := make([]uint64, 256*256)
		h2 := make([]uint32, 256*256*256)
		q := func(v byte) int { // a value's class: unused, drawn, won or lost by depth bucket
			switch {
			case v < 2:
				return int(v)
			case v < 2+16:
				return int(v)
			default:
				return 18 + int(min((v-18)/8, 13))
			}
		}
		hq := make([]uint64, 32*32*256)
		for _, p := range x.Layer(k).Parts() {
			for i := p.First; i < p.First+p.Slots; i++ {
				v := b[i]
				var l, u byte
				if i > p.First {
					l = b[i-1]
				}
				if i >= p.First+p.Stride {
					u = b[i-p.Stride]
				}
				h0[v]++
				h1[int(l)<<8|int(v)]++
				h2[int(u)<<16|int(l)<<8|int(v)]++
				hq[(q(u)*32+q(l))<<8|int(v)]++
			}
		}
		n := float64(len(b))
		ent := func(h func(int) float64, ctxs, syms int) (bits float64, used int) {
			for c := range ctxs {
				tot := 0.0
				for s := range syms {
					tot += h(c*syms + s)
				}
				if tot == 0 {
					continue
				}
				used++
				for s := range syms {
					if m := h(c*syms + s); m > 0 {
						bits -= m * math.Log2(m/tot)
					}
				}
			}
			return bits, used
		}
		e0, _ := ent(func(i int) float64 { return float64(h0[i]) }, 1, 256)
		e1, u1 := ent(func(i int) float64 { return float64(h1[i]) }, 256, 256)
		e2, u2 := ent(func(i int) float64 { return float64(h2[i]) }, 256*256, 256)
		eq, uq := ent(func(i int) float64 { return float64(hq[i]) }, 32*32, 256)
		z := packed(b)
		t.Logf("%s: %d slots; zstd %d B (%.3f bits/slot); H0 %.3f; H|left %.3f (%d ctx); H|left,up %.3f (%d ctx); H|q(left),q(up) %.3f (%d ctx)",
			k, len(b), z, 8*float64(z)/n, e0/n, e1/n, u1, e2/n, u2, eq/n, uq)
	}
}
