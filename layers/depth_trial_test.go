package layers

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// depthSchemes are the ways TestDepthTrial stores a value v of a moving
// layer (0 unused, 1 drawn, 2+d decided at depth d, won when d is odd),
// each keeping the parity, so that a won slot stays won:
//
//	a  the value as it is (today's store)
//	b  win/draw/loss only: won 3, lost 2
//	c  the depth of a lost slot kept, a won slot 3 ("won"; a perfect
//	   player finds its depth by one ply: 1 + the least depth of its lost
//	   children)
//	d  the reverse: the depth of a won slot kept, a lost slot 2
var depthSchemes = []struct {
	name string
	of   func(v byte) byte
}{
	{"a", func(v byte) byte { return v }},
	{"b", func(v byte) byte {
		if v < 2 {
			return v
		}
		return 2 + (v-2)&1
	}},
	{"c", func(v byte) byte {
		if v >= 2 && (v-2)&1 == 1 {
			return 3
		}
		return v
	}},
	{"d", func(v byte) byte {
		if v >= 2 && (v-2)&1 == 0 {
			return 2
		}
		return v
	}},
}

// TestDepthTrial measures what the moving layers of the standard game
// would take in the compressed store (the store's own block coder: blocks
// of 16 KiB, each the smallest of a zstd frame, context streams and the
// bytes as they are, plus its 16 bytes of offset table) when the depth is
// kept for all, none, the lost only or the won only of the decided slots
// (depthSchemes). It reads flat layer files (the body after the 128-byte
// header, one byte per slot) of MUEHLE_DEPTH_TRIAL_DB, which it never
// writes, one layer at a time; MUEHLE_DEPTH_TRIAL_LAYERS lists them
// (7-8,8-7,6-6,5-7 when unset):
//
//	MUEHLE_DEPTH_TRIAL_DB=/tmp/bench-k9 nice -n 5 go test -run DepthTrial -v ./layers/
func TestDepthTrial(t *testing.T) {
	dir := os.Getenv("MUEHLE_DEPTH_TRIAL_DB")
	if dir == "" {
		t.Skip("MUEHLE_DEPTH_TRIAL_DB names no folder of flat layer files")
	}
	names := "7-8,8-7,6-6,5-7"
	if s := os.Getenv("MUEHLE_DEPTH_TRIAL_LAYERS"); s != "" {
		names = s
	}
	x, err := DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	const bs = 1 << 14
	t.Logf("layer  slots  values  bits per value: a b c d  (%% of flat: a b c d)")
	for name := range strings.SplitSeq(names, ",") {
		k, err := ParseKey(name)
		if err != nil || !k.IsMoving() {
			t.Fatalf("%q: not a moving layer", name)
		}
		data, err := os.ReadFile(filepath.Join(dir, "m"+name+".layer"))
		if err != nil {
			t.Fatal(err)
		}
		body := data[HeaderSize:]
		l := x.Layer(k)
		if uint64(len(body)) != l.Size() {
			t.Fatalf("%s: a body of %d bytes, not one byte for each of %d slots (not flat?)", name, len(body), l.Size())
		}
		parts := l.Parts()
		values := 0
		for _, v := range body {
			if v != 0 {
				values++
			}
		}
		blocks := (len(body) + bs - 1) / bs
		var mu sync.Mutex
		var stored [4]int
		var wg sync.WaitGroup
		const workers = 2
		for w := range workers {
			wg.Go(func() {
				var c blockCoder
				var sum [4]int
				raw := make([]byte, bs)
				var frame []byte
				for b := w; b < blocks; b += workers {
					lo := b * bs
					src := body[lo:min(lo+bs, len(body))]
					for i, s := range depthSchemes {
						r := raw[:len(src)]
						for j, v := range src {
							r[j] = s.of(v)
						}
						var err error
						frame, err = c.encode(frame[:0], r, uint64(lo), parts, true)
						if err != nil {
							t.Error(err)
							return
						}
						if i == 0 { // the store's coder decodes what it codes
							out, err := c.decode(nil, frame, len(r), uint64(lo), parts)
							if err != nil || string(out) != string(r) {
								t.Errorf("%s block %d does not decode: %v", name, b, err)
								return
							}
						}
						sum[i] += len(frame) + 16
					}
				}
				mu.Lock()
				for i := range sum {
					stored[i] += sum[i]
				}
				mu.Unlock()
			})
		}
		wg.Wait()
		var bits, share [4]float64
		for i, s := range stored {
			bits[i] = 8 * float64(s) / float64(values)
			share[i] = 100 * float64(s) / float64(len(body))
		}
		t.Logf("%s  %d  %d  %.3f %.3f %.3f %.3f  (%.1f %.1f %.1f %.1f %%)", name, len(body), values,
			bits[0], bits[1], bits[2], bits[3], share[0], share[1], share[2], share[3])
		data, body = nil, nil
	}
}
