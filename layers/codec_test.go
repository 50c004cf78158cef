package layers

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"muehle/muehle/testenv"
)

// layerLike returns n bytes that look like a layer's body: runs of one
// value, drawn, won and lost at small depths, now and then a value from
// one stride back.
func layerLike(r *rand.Rand, n, stride int) []byte {
	b := make([]byte, n)
	v := byte(1)
	for i := range b {
		switch x := r.IntN(100); {
		case x < 60: // the run goes on
		case x < 75 && stride > 0 && i >= stride:
			v = b[i-stride]
		case x < 85:
			v = byte(r.IntN(4))
		default:
			v = byte(2 + r.IntN(80))
		}
		b[i] = v
	}
	return b
}

// TestStreamCoderRoundTrip codes blocks of many shapes as context streams
// and decodes them: the bytes come back, whatever the parts of the layer
// (strides of 0, as a dense body, 1, 2, 3 and longer than the block),
// the block's place in them and its size, down to a byte. Decode reads
// the first bytes of a segment, which lack neighbours, apart from the
// rest (decodeRun): both ways are here, and a part boundary in the
// middle of a block.
func TestStreamCoderRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	var enc, dec StreamCoder
	for _, stride := range []int{0, 1, 2, 3, 7, 24, 300, 1 << 20} {
		for _, n := range []int{1, 2, 3, 4, 5, 9, 100, 4096, 16384} {
			for _, base := range []uint64{0, 5, 1000} {
				raw := layerLike(r, n, stride)
				var parts []Part
				if stride > 0 {
					// Two parts, the second beginning inside the block.
					cut := base + uint64(n/3)
					parts = []Part{{First: 0, Slots: cut, Stride: uint64(stride)},
						{First: cut, Slots: 1 << 40, Stride: uint64(stride + 1)}}
				}
				p := enc.Encode(nil, raw, base, parts, nil)
				got, err := dec.Decode(nil, p, n, base, parts, nil)
				if err != nil {
					t.Fatalf("stride %d, %d bytes from %d: %v", stride, n, base, err)
				}
				if !bytes.Equal(got, raw) {
					i := 0
					for got[i] == raw[i] {
						i++
					}
					t.Fatalf("stride %d, %d bytes from %d: byte %d decoded %d, coded %d", stride, n, base, i, got[i], raw[i])
				}
			}
		}
	}
}

// TestStreamCoderDamage decodes streams with a byte changed: an error or
// some bytes, never a panic (a damaged block is found by its CRC).
func TestStreamCoderDamage(t *testing.T) {
	testenv.SlowUnderRace(t, "decodes streams once per byte changed, on one goroutine")
	r := rand.New(rand.NewPCG(1, 2))
	var enc, dec StreamCoder
	raw := layerLike(r, 16384, 24)
	parts := []Part{{First: 0, Slots: 1 << 20, Stride: 24}}
	p := enc.Encode(nil, raw, 0, parts, nil)
	for range 2000 {
		q := bytes.Clone(p)
		q[r.IntN(len(q))] ^= byte(1 + r.IntN(255))
		dec.Decode(nil, q, len(raw), 0, parts, nil) // must not panic
	}
}

// TestBlockCoderChoice holds blockCoder.encode to its rule: the bytes as
// they are where nothing codes them smaller (random bytes), the context
// streams where they save more than a streamsGain-th of the block over
// zstd, zstd where they save less (values that follow their neighbours
// three times in four, and three times in ten); every frame decodes to
// the block.
func TestBlockCoderChoice(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 53))
	const n, stride = 1 << 14, 24
	random := make([]byte, n)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	parts := []Part{{First: 0, Slots: 1 << 40, Stride: stride}}
	for _, tc := range []struct {
		name string
		raw  []byte
		want byte
	}{
		{"random", random, blockRaw},
		{"75 %", ruledBlock(r, n, stride, 75), blockStreams},
		{"30 %", ruledBlock(r, n, stride, 30), blockZstd},
	} {
		var c blockCoder
		f, err := c.encode(nil, tc.raw, 0, parts, true)
		if err != nil {
			t.Fatal(err)
		}
		z := c.enc.EncodeAll(tc.raw, nil)
		st := c.sc.Encode(nil, tc.raw, 0, parts, nil)
		t.Logf("%s: zstd %d bytes, streams %d: coder %d", tc.name, len(z), len(st), f[0])
		if f[0] != tc.want {
			t.Errorf("%s: coder %d, want %d (zstd %d bytes, streams %d, raw %d)", tc.name, f[0], tc.want, len(z), len(st), n)
		}
		got, err := c.decode(nil, f, n, 0, parts)
		if err != nil || !bytes.Equal(got, tc.raw) {
			t.Errorf("%s: decoded %d bytes (%v), not the block", tc.name, len(got), err)
		}
	}
}

// TestStreamsPay checks the sample by which a layer is coded without the
// context streams: a layer of blocks where zstd wins is, one where the
// streams win a streamsShare-th of the sampled blocks is not, nor is a
// layer too small for a sample; blocks the sample passes over do not
// count (the rule's price: their streams are not tried).
func TestStreamsPay(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 54))
	const stride = 24
	parts := []Part{{First: 0, Slots: 1 << 40, Stride: stride}}
	zstdWins := ruledBlock(r, 1<<zShift, stride, 30)
	streamsWin := ruledBlock(r, 1<<zShift, stride, 75)
	sampled := func(i int) int { return streamsSample/2 + i*streamsSample } // the i-th block sampled
	many := streamsShare * streamsSample                                    // blocks, streamsShare of them sampled
	for _, tc := range []struct {
		name string
		n    int   // blocks
		with []int // the blocks where the streams win
		want bool
	}{
		{"zstd everywhere", many, nil, false},
		{"streams in a share of the sample", many, []int{sampled(3)}, true},
		{"streams in less than a share", 2 * many, []int{sampled(3)}, false},
		{"streams in a share, twice as many blocks", 2 * many, []int{sampled(3), sampled(40)}, true},
		{"streams in blocks passed over", many, []int{sampled(3) + 1, sampled(4) - 1}, false},
		{"too few blocks for a sample", 2*streamsSample - 1, nil, true},
	} {
		block := func(b int, buf []byte) []byte {
			if slices.Contains(tc.with, b) {
				return streamsWin
			}
			return zstdWins
		}
		got, err := streamsPay(tc.n, block, zShift, parts)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: streamsPay %v, want %v", tc.name, got, tc.want)
		}
	}
}

// ruledBlock returns n bytes of four values (unused, drawn, lost in 0,
// won in 1), each, keep times in a hundred, a fixed function of the byte
// before it and the byte a stride back, else random: the context streams'
// contexts predict such a byte, zstd's literals see four values about
// equally often and its matches find short runs.
func ruledBlock(r *rand.Rand, n, stride, keep int) []byte {
	var rule [4][4]byte
	for a := range rule {
		for b := range rule[a] {
			rule[a][b] = byte(r.IntN(4))
		}
	}
	b := make([]byte, n)
	for i := range b {
		if i < stride || r.IntN(100) >= keep {
			b[i] = byte(r.IntN(4))
		} else {
			b[i] = rule[b[i-1]][b[i-stride]]
		}
	}
	return b
}
