package pack

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"muehle/layers"
	"muehle/muehle"
)

// TestStoreTrial measures, for the compressed store (layers/doc.go), what
// every layer of a folder takes when its body is cut into independent
// blocks of MUEHLE_STORE_BLOCKS bytes (a comma list; 65536 when unset),
// each coded by the smaller of a zstd frame and context streams, and how
// long a block takes to decode; and what win/draw/loss and the depth take
// when stored apart, each as context streams.
//
//	MUEHLE_STORE_DB=DIR MUEHLE_STORE_STONES=5 go test -run StoreTrial -v ./layers/pack/
func TestStoreTrial(t *testing.T) {
	dir := os.Getenv("MUEHLE_STORE_DB")
	if dir == "" {
		t.Skip("MUEHLE_STORE_DB names no database folder")
	}
	stones, _ := strconv.Atoi(os.Getenv("MUEHLE_STORE_STONES"))
	db, err := layers.OpenDB(dir, muehle.Standard.With(stones))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sizes := []int{65536}
	if s := os.Getenv("MUEHLE_STORE_BLOCKS"); s != "" {
		sizes = nil
		for f := range strings.SplitSeq(s, ",") {
			n, _ := strconv.Atoi(f)
			sizes = append(sizes, n)
		}
	}
	zenc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
	zdec, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	defer zenc.Close()
	defer zdec.Close()
	var sc streamCoder
	type sum struct {
		values, raw, packed, wdl, depth, joint int
		dec                                    time.Duration
		blocks                                 int
	}
	for _, bs := range sizes {
		tot := map[string]*sum{"moving": {}, "placement": {}}
		for _, k := range layers.Order(stones, true) {
			f, err := db.Layer(k)
			if err != nil {
				continue
			}
			h := f.Header()
			kind := "moving"
			if !k.IsMoving() {
				kind = "placement"
			}
			s := tot[kind]
			body := f.Body()
			var parts []layers.Part
			if !h.Dense() {
				parts = db.Indexer().Layer(k).Parts()
			}
			s.values += int(h.Won + h.Lost + h.Drawn)
			s.raw += len(body)
			var out []byte
			for lo := 0; lo < len(body); lo += bs {
				raw := body[lo:min(lo+bs, len(body))]
				z := zenc.EncodeAll(raw, nil)
				c := sc.encode(nil, raw, uint64(lo), parts, nil)
				t0 := time.Now()
				if len(z) <= len(c) {
					out, _ = zdec.DecodeAll(z, out[:0])
					s.packed += len(z) + 16
				} else {
					out, _ = sc.decode(out, c, len(raw), uint64(lo), parts, nil)
					s.packed += len(c) + 16
				}
				s.dec += time.Since(t0)
				s.blocks++
			}
			// Apart: the values alone (the slots', or a dense body's
			// stored values), win/draw/loss as 0..3 and the depths of
			// the decided ones.
			vals := body
			vparts := parts
			if h.Dense() {
				vals = body[uint64(len(body))-h.Stored:]
				vparts = nil
			}
			for lo := 0; lo < len(vals); lo += bs {
				raw := vals[lo:min(lo+bs, len(vals))]
				w := make([]byte, len(raw))
				var d []byte
				for i, v := range raw {
					switch {
					case v < 2:
						w[i] = v
					default:
						w[i] = 2 + (v-2)&1
						d = append(d, (v-2)>>1)
					}
				}
				s.joint += len(sc.encode(nil, raw, uint64(lo), vparts, nil))
				s.wdl += len(sc.encode(nil, w, uint64(lo), vparts, nil))
				if len(d) > 0 {
					s.depth += min(len(zenc.EncodeAll(d, nil)), len(sc.encode(nil, d, 0, nil, nil)))
				}
			}
		}
		for _, kind := range []string{"moving", "placement"} {
			s := tot[kind]
			if s.values == 0 {
				continue
			}
			v := float64(s.values)
			t.Logf("blocks of %d B, %s layers: %d values, body %d B (%.2f bits per value), stored %d B (%.3f bits per value, %.1f %% of the body); values alone as streams %.3f bits, win/draw/loss %.3f + depth %.3f = %.3f bits; decode %.1f µs per block",
				bs, kind, s.values, s.raw, 8*float64(s.raw)/v, s.packed, 8*float64(s.packed)/v, 100*float64(s.packed)/float64(s.raw),
				8*float64(s.joint)/v, 8*float64(s.wdl)/v, 8*float64(s.depth)/v, 8*float64(s.wdl+s.depth)/v, float64(s.dec.Microseconds())/float64(s.blocks))
		}
	}
}
