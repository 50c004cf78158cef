package pack

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"muehle/layers"
)

// streamsData returns n bytes like a layer's values: runs of draws, wins
// and losses whose depths drift, some Unused, with a B-class stride.
func streamsData(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		switch {
		case i >= 56 && r.IntN(4) > 0:
			b[i] = b[i-56]
		case i > 0 && r.IntN(3) > 0:
			b[i] = b[i-1]
		case r.IntN(10) == 0:
			b[i] = 0
		case r.IntN(3) == 0:
			b[i] = 1
		default:
			b[i] = byte(2 + r.IntN(60))
		}
	}
	return b
}

func TestStreamsRoundTrip(t *testing.T) {
	parts := []layers.Part{{First: 0, Slots: 56 * 300, Stride: 56}, {First: 56 * 300, Slots: 28 * 1000, Stride: 28}, {First: 56*300 + 28*1000, Slots: 1 << 20, Stride: 70}}
	var sc streamCoder
	for _, tc := range []struct {
		name  string
		n     int
		base  uint64
		parts []layers.Part
	}{
		{"one part", 10000, 0, parts},
		{"across parts", 60000, 10000, parts},
		{"no geometry", 50000, 0, nil},
		{"one byte", 1, 5, parts},
		{"repeated", 4096, 0, nil},
	} {
		raw := streamsData(tc.n, uint64(tc.n))
		if tc.name == "repeated" {
			raw = bytes.Repeat([]byte{7}, tc.n)
		}
		enc := sc.encode(nil, raw, tc.base, tc.parts)
		var dc streamCoder
		got, err := dc.decode(nil, enc, len(raw), tc.base, tc.parts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !bytes.Equal(got, raw) {
			t.Fatalf("%s: decoded bytes differ", tc.name)
		}
		t.Logf("%s: %d bytes in %d", tc.name, len(raw), len(enc))
		// Decoded with another geometry, the bytes come out different or
		// the streams do not fit: never a panic.
		if tc.parts != nil && tc.n > 1000 {
			if got, err := dc.decode(nil, enc, len(raw), tc.base, nil); err == nil && bytes.Equal(got, raw) {
				t.Errorf("%s: decoded without the geometry, still the same bytes", tc.name)
			}
		}
	}
}

// TestStreamsDamaged: every cut and every flipped byte of a block's
// streams gives an error or other bytes, never a panic.
func TestStreamsDamaged(t *testing.T) {
	raw := streamsData(3000, 3)
	var sc streamCoder
	enc := sc.encode(nil, raw, 0, nil)
	for cut := range len(enc) {
		if got, err := sc.decode(nil, enc[:cut], len(raw), 0, nil); err == nil && bytes.Equal(got, raw) {
			t.Fatalf("cut at %d of %d: decoded to the same bytes", cut, len(enc))
		}
	}
	for i := range len(enc) {
		bad := bytes.Clone(enc)
		bad[i] ^= 0x5a
		sc.decode(nil, bad, len(raw), 0, nil)
	}
	if _, err := sc.decode(nil, enc, len(raw)+1, 0, nil); err == nil {
		t.Error("decoded to more bytes than coded")
	}
}

func FuzzStreams(f *testing.F) {
	var sc streamCoder
	f.Add(sc.encode(nil, streamsData(3000, 1), 0, nil), 3000)
	f.Add(sc.encode(nil, []byte{1, 1, 1, 1}, 0, nil), 4)
	f.Fuzz(func(t *testing.T, p []byte, n int) {
		if n < 0 || n > 1<<16 {
			return
		}
		var dc streamCoder
		got, err := dc.decode(nil, p, n, 0, nil)
		if err == nil {
			if len(got) != n {
				t.Fatalf("decoded %d bytes, want %d", len(got), n)
			}
			if again := dc.encode(nil, got, 0, nil); len(again) == 0 {
				t.Fatal("no streams")
			}
		}
	})
}
