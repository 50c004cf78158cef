package pack

import (
	"os"
	"strings"
	"testing"

	"muehle/layers"
)

// TestDenseTrial measures what the parts of dense placement layers take in
// a package (docs/export.md): the bits of the stored slots, the rank
// directory, the values; each by zstd, and the values also as context
// streams of the values in a row and as context streams whose neighbours
// are the slots' (left, two left and one B class back, counting a slot
// not stored as Unused).
//
//	MUEHLE_DENSE_DB=DIR MUEHLE_DENSE_LAYERS=p8+1-8+0,... go test -run DenseTrial -v ./layers/pack/
func TestDenseTrial(t *testing.T) {
	db, keys, packed := denseSetup(t)
	var sc streamCoder
	var tot [6]int
	for _, k := range keys {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		h := f.Header()
		if !h.Dense() {
			t.Fatalf("%s is not dense", k)
		}
		body := f.Body()
		slots, stored := h.Slots, h.Stored
		dirAt := 8 * ((slots + 63) / 64)
		valAt := uint64(len(body)) - stored
		bitsZ, dirZ, valZ := packed(body[:dirAt]), packed(body[dirAt:valAt]), packed(body[valAt:])
		vals := body[valAt:]
		row := 0
		for lo := 0; lo < len(vals); lo += BlockBytes {
			row += len(sc.encode(nil, vals[lo:min(lo+BlockBytes, len(vals))], 0, nil, nil))
		}
		// The values in slot space: a slot not stored is Unused.
		full := make([]byte, slots)
		r := 0
		for i := range slots {
			if body[i>>3]>>(i&7)&1 != 0 {
				full[i] = vals[r]
				r++
			}
		}
		parts := db.Indexer().Layer(k).Parts()
		geo := 0
		var ctx []uint16
		var out []byte
		flush := func() {
			geo += len(sc.encodeContexts(nil, out, ctx, numContexts))
			ctx, out = ctx[:0], out[:0]
		}
		for _, p := range parts {
			s := segment{Lo: int(p.First), Hi: int(p.First + p.Slots), Stride: int(p.Stride)}
			for i := s.Lo; i < s.Hi; i++ {
				if full[i] == 0 {
					continue
				}
				ctx = append(ctx, uint16(contextAt(full, i, s)))
				out = append(out, full[i])
				if len(out) == BlockBytes {
					flush()
				}
			}
		}
		flush()
		t.Logf("%s: %d slots, %d stored; zstd: bits %d B, directory %d B, values %d B (%.3f bits per value); values as streams in a row %d B, with the slots' neighbours %d B (%.3f)",
			k, slots, stored, bitsZ, dirZ, valZ, 8*float64(valZ)/float64(stored), row, geo, 8*float64(geo)/float64(stored))
		for j, v := range []int{bitsZ, dirZ, valZ, row, geo, int(stored)} {
			tot[j] += v
		}
	}
	t.Logf("all: bits %d B, directory %d B, values %d B; in a row %d B, with the neighbours %d B; %d values", tot[0], tot[1], tot[2], tot[3], tot[4], tot[5])
}

// TestReachTrial measures the reach files of placement layers (the bits
// of the reachable classes, which a dense layer holds as its first part,
// whence they are read when there is no reach file)
// in a package: by zstd, and coded as one symbol per slot in the context
// of its neighbours' bits (left, two left, one B class back and the slots
// beside that one), each context's stream by FSE.
//
//	MUEHLE_DENSE_DB=DIR MUEHLE_DENSE_LAYERS=p8+1-8+0,... go test -run ReachTrial -v ./layers/pack/
func TestReachTrial(t *testing.T) {
	db, keys, packed := denseSetup(t)
	var sc streamCoder
	var zt, ct, slotsT, setT int
	for _, k := range keys {
		var bits []byte
		if b, err := os.ReadFile(db.ReachPath(k)); err == nil {
			bits = b[reachHead:]
		} else if f, err := db.Layer(k); err == nil && f.Header().Dense() {
			bits = f.Body()[:8*((f.Header().Slots+63)/64)] // the same bits
		} else {
			t.Fatalf("%s: no reach file, no dense layer: %v", k, err)
		}
		li := db.Indexer().Layer(k)
		slots := li.Size()
		bit := func(i int) byte { return bits[i>>3] >> (i & 7) & 1 }
		z := packed(bits)
		var ctx []uint16
		var out []byte
		coded, set := 0, 0
		flush := func() {
			coded += len(sc.encodeContexts(nil, out, ctx, 256))
			ctx, out = ctx[:0], out[:0]
		}
		for _, p := range li.Parts() {
			lo, hi, st := int(p.First), int(p.First+p.Slots), int(p.Stride)
			for i := lo; i < hi; i++ {
				c := 0
				if i > lo {
					c |= int(bit(i - 1))
				}
				if i > lo+1 {
					c |= int(bit(i-2)) << 1
				}
				if i-st >= lo {
					c |= int(bit(i-st)) << 2
					if i-st-1 >= lo {
						c |= int(bit(i-st-1)) << 3
					}
					c |= int(bit(i-st+1)) << 4
				}
				if i-2*st >= lo {
					c |= int(bit(i-2*st)) << 5
				}
				ctx = append(ctx, uint16(c))
				out = append(out, bit(i))
				set += int(bit(i))
				if len(out) == 8*BlockBytes {
					flush()
				}
			}
		}
		flush()
		t.Logf("%s: %d slots, %d reachable (%.1f %%); zstd %d B (%.4f bits per slot); bits in context %d B (%.4f)",
			k, slots, set, 100*float64(set)/float64(slots), z, 8*float64(z)/float64(slots), coded, 8*float64(coded)/float64(slots))
		zt, ct, slotsT, setT = zt+z, ct+coded, slotsT+int(slots), setT+set
	}
	t.Logf("all: %d slots, %d reachable; zstd %d B, in context %d B", slotsT, setT, zt, ct)
}

// denseSetup serves the trials of dense layers: the database folder
// MUEHLE_DENSE_DB names (skipping t when it names none), the placement
// layers MUEHLE_DENSE_LAYERS lists, and trialSetup's compressor.
func denseSetup(t *testing.T) (*layers.DB, []layers.Key, func([]byte) int) {
	t.Helper()
	t.Setenv("MUEHLE_CTX_LAYERS", "3-3") // trialSetup's own list, of moving layers, is not used
	db, _, packed := trialSetup(t, "MUEHLE_DENSE_DB", "MUEHLE_CTX_LAYERS", "3-3")
	var keys []layers.Key
	for name := range strings.SplitSeq(os.Getenv("MUEHLE_DENSE_LAYERS"), ",") {
		k, err := layers.ParseKey(name)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	return db, keys, packed
}
