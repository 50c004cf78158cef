package pack

import (
	"bytes"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"muehle/layers"
)

// TestStreamsTrial codes moving layers of a database as export does and
// says what the context streams save against zstd, with and without the
// partner layer's values (coders 1 and 2), and how fast they code
// (docs/export.md). Each layer is coded by coder 2 knowing its partner
// (itself, for a layer like 8-8) as if the partner came first.
//
//	MUEHLE_CTX_DB=DIR MUEHLE_CTX_LAYERS=6-6,7-7 [MUEHLE_CTX_BLOCK=4194304] go test -run StreamsTrial -v ./layers/pack/
func TestStreamsTrial(t *testing.T) {
	db, keys, _ := trialSetup(t, "MUEHLE_CTX_DB", "MUEHLE_CTX_LAYERS", "6-6,7-7")
	bs := BlockBytes
	if s := os.Getenv("MUEHLE_CTX_BLOCK"); s != "" {
		bs, _ = strconv.Atoi(s)
	}
	zenc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
	if err != nil {
		t.Fatal(err)
	}
	defer zenc.Close()
	var sc streamCoder
	for _, k := range keys {
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		b := f.Body()
		x := db.Indexer()
		li := x.Layer(k)
		parts := li.Parts()
		pk := layers.Key{W: k.B, B: k.W}
		pf, err := db.Layer(pk)
		if err != nil {
			t.Fatal(err)
		}
		from := pf.Body()
		var z, s, s2, best int
		var tz, ts, td, tp time.Duration
		var buf, out []byte
		js := make([]uint64, bs)
		for lo := 0; lo < len(b); lo += bs {
			raw := b[lo:min(lo+bs, len(b))]
			t0 := time.Now()
			buf = zenc.EncodeAll(raw, buf[:0])
			t1 := time.Now()
			zn := len(buf)
			buf = sc.encode(buf[:0], raw, uint64(lo), parts, nil)
			t2 := time.Now()
			out, err = sc.decode(out, buf, len(raw), uint64(lo), parts, nil)
			td += time.Since(t2)
			if err != nil || !bytes.Equal(out, raw) {
				t.Fatalf("%s: block at %d does not decode: %v", k, lo, err)
			}
			tz, ts = tz+t1.Sub(t0), ts+t2.Sub(t1)
			sn := len(buf)
			t3 := time.Now()
			li.Swapped(uint64(lo), js[:len(raw)], x.Layer(pk))
			buf = sc.encode(buf[:0], raw, uint64(lo), parts, &partnerView{js: js[:len(raw)], from: from, self: pk == k, base: uint64(lo)})
			tp += time.Since(t3)
			z, s, s2, best = z+zn, s+sn, s2+len(buf), best+min(zn, sn, len(buf))
		}
		n := float64(len(b))
		t.Logf("%s (blocks of %d B): zstd %d B (%.3f bits per slot); streams %d B (%+.1f %%); knowing %s %d B (%+.1f %%); the best per block %d B (%+.1f %%); ns per byte: zstd %.1f, streams %.1f, decode %.1f, with the partner %.1f",
			k, bs, z, 8*float64(z)/n, s, 100*(float64(s)/float64(z)-1), pk, s2, 100*(float64(s2)/float64(z)-1), best, 100*(float64(best)/float64(z)-1),
			float64(tz.Nanoseconds())/n, float64(ts.Nanoseconds())/n, float64(td.Nanoseconds())/n, float64(tp.Nanoseconds())/n)
	}
}
