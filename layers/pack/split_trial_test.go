package pack

import (
	"testing"

	"muehle/layers"
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
	db, keys, packed := trialSetup(t, "MUEHLE_SPLIT_DB", "MUEHLE_SPLIT_LAYERS", "6-6,7-7")
	for _, k := range keys {
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
