package pack

import (
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"muehle/layers"
	"muehle/muehle"
)

// TestSplitTrial is the split-streams trial of the package format
// (docs/export.md): a moving layer's values written as two streams, the
// outcome of every slot in two bits (unused, drawn, won, lost) and the
// depth of every won or lost slot in a byte (depth/2: a win's depth is
// odd, a loss's even), each compressed as a package compresses a body
// (blocks of BlockBytes, zstd at the default level), against the body
// compressed as it is.
//
//	MUEHLE_SPLIT_DB=DIR MUEHLE_SPLIT_LAYERS=6-6,7-7 go test -run SplitTrial -v ./layers/pack/
func TestSplitTrial(t *testing.T) {
	dir := os.Getenv("MUEHLE_SPLIT_DB")
	if dir == "" {
		t.Skip("MUEHLE_SPLIT_DB names no database folder")
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(9))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	packed := func(b []byte) int {
		n := 0
		for lo := 0; lo < len(b); lo += BlockBytes {
			n += len(enc.EncodeAll(b[lo:min(lo+BlockBytes, len(b))], nil))
		}
		return n
	}
	for name := range strings.SplitSeq(os.Getenv("MUEHLE_SPLIT_LAYERS"), ",") {
		k, err := layers.ParseKey(name)
		if err != nil || !k.IsMoving() {
			t.Fatalf("layer %q: want a moving layer (%v)", name, err)
		}
		f, err := db.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		b := f.Body()
		out := make([]byte, (len(b)+3)/4)
		var depth []byte
		stored := 0
		for i, v := range b {
			var c byte
			switch layers.Value(v).Outcome() {
			case layers.Draw:
				c = 1
			case layers.Win:
				c = 2
				depth = append(depth, byte(layers.Value(v).Depth()/2))
			case layers.Loss:
				c = 3
				depth = append(depth, byte(layers.Value(v).Depth()/2))
			}
			if c != 0 {
				stored++
			}
			out[i/4] |= c << (2 * (i % 4))
		}
		plain := packed(b)
		a, d := packed(out), packed(depth)
		t.Logf("%s: %d stored; plain %d B (%.3f bits/value); split %d + %d = %d B (%.3f bits/value, %+.1f %%)", k, stored, plain,
			8*float64(plain)/float64(stored), a, d, a+d, 8*float64(a+d)/float64(stored), 100*(float64(a+d)/float64(plain)-1))
	}
}
