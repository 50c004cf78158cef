package pack

import (
	"math"
	"testing"

	"muehle/muehle"
)

// TestFeatureTrial: how much do features of the position (can the side to
// move close a mill, can the opponent, is the side to move blocked) add to
// the neighbours' classes in predicting a value? Conditional entropies
// over a whole moving layer.
//
//	MUEHLE_CTX_DB=DIR MUEHLE_CTX_LAYERS=5-6 go test -run FeatureTrial -v ./layers/pack/
func TestFeatureTrial(t *testing.T) {
	db, keys, _ := trialSetup(t, "MUEHLE_CTX_DB", "MUEHLE_CTX_LAYERS", "5-6")
	for _, k := range keys {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		b := f.Body()
		li := db.Indexer().Layer(k)
		const nf = 16
		hc := make([]uint64, numContexts*256)
		hf := make([]uint64, numContexts*nf*256)
		hfo := make([]uint64, nf*256)
		hp := make([]uint64, numContexts*24*256)
		pk := k
		pk.W, pk.B = k.B, k.W
		pf, err := db.Layer(pk)
		if err != nil {
			t.Fatal(err)
		}
		pb, pli := pf.Body(), db.Indexer().Layer(pk)
		reach := func(own, empty muehle.Bitboard, flying bool) muehle.Bitboard {
			if flying {
				return empty
			}
			var r muehle.Bitboard
			for f := own; f != 0; f &= f - 1 {
				r |= muehle.Neighbors[f.First()]
			}
			return r & empty
		}
		for _, p := range li.Parts() {
			s := segment{Hi: int(p.Slots), Stride: int(p.Stride)}
			seg := b[p.First : p.First+p.Slots]
			for i := range seg {
				c := contextAt(seg, i, s)
				v := seg[i]
				ft := 0
				pv := byte(0)
				if pos, ok := li.Position(p.First + uint64(i)); ok {
					sw := pos
					sw.Stones[0], sw.Stones[1] = pos.Stones[1], pos.Stones[0]
					pv = pb[pli.Index(sw)]
					m, o := pos.Stones[0], pos.Stones[1]
					empty := muehle.AllPoints &^ (m | o)
					if muehle.MillTargets(m, empty)&reach(m, empty, k.W == 3) != 0 {
						ft |= 1
					}
					if muehle.MillTargets(o, empty)&reach(o, empty, k.B == 3) != 0 {
						ft |= 2
					}
					if reach(m, empty, k.W == 3) == 0 {
						ft |= 4
					}
					if muehle.InMill(m) != 0 {
						ft |= 8
					}
				}
				hc[c<<8|int(v)]++
				hf[(c*nf+ft)<<8|int(v)]++
				hfo[ft<<8|int(v)]++
				hp[(c*24+int(midClass[pv]))<<8|int(v)]++
			}
		}
		ent := func(h []uint64) float64 {
			bits := 0.0
			for c := 0; c < len(h); c += 256 {
				tot := 0.0
				for _, m := range h[c : c+256] {
					tot += float64(m)
				}
				for _, m := range h[c : c+256] {
					if m > 0 {
						bits -= float64(m) * math.Log2(float64(m)/tot)
					}
				}
			}
			return bits / float64(len(b))
		}
		t.Logf("%s: H|features %.3f; H|contexts %.3f; H|contexts,features %.3f; H|contexts,partner %.3f bits per slot", k, ent(hfo), ent(hc), ent(hf), ent(hp))
	}
}
