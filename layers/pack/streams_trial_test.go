package pack

import (
	"bytes"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// TestStreamsTrial codes moving layers of a database both ways, as export
// does, and says what the context streams save against zstd and how fast
// they code (docs/export.md).
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
		parts := db.Indexer().Layer(k).Parts()
		var z, s, best int
		var tz, ts, td time.Duration
		var buf, out []byte
		for lo := 0; lo < len(b); lo += bs {
			raw := b[lo:min(lo+bs, len(b))]
			t0 := time.Now()
			buf = zenc.EncodeAll(raw, buf[:0])
			t1 := time.Now()
			zn := len(buf)
			buf = sc.encode(buf[:0], raw, uint64(lo), parts)
			t2 := time.Now()
			out, err = sc.decode(out, buf, len(raw), uint64(lo), parts)
			td += time.Since(t2)
			if err != nil || !bytes.Equal(out, raw) {
				t.Fatalf("%s: block at %d does not decode: %v", k, lo, err)
			}
			tz, ts = tz+t1.Sub(t0), ts+t2.Sub(t1)
			z, s, best = z+zn, s+len(buf), best+min(zn, len(buf))
		}
		n := float64(len(b))
		t.Logf("%s (blocks of %d B): zstd %d B; streams %d B (%+.1f %%); the better per block %d B (%+.1f %%); ns per byte: zstd %.1f, streams %.1f, decode %.1f",
			k, bs, z, s, 100*(float64(s)/float64(z)-1), best, 100*(float64(best)/float64(z)-1),
			float64(tz.Nanoseconds())/n, float64(ts.Nanoseconds())/n, float64(td.Nanoseconds())/n)
	}
}
