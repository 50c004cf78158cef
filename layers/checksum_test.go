package layers

import (
	"hash/crc64"
	"math/rand/v2"
	"testing"
)

func TestCRC64Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	table := crc64.MakeTable(crc64.ECMA)
	for _, n := range []int{0, 1, 2, 7, 8, 100, 4096, 5000} {
		for _, cut := range []int{0, min(1, n), n / 3, n / 2, n} {
			a, b := data[:cut], data[cut:n]
			want := crc64.Checksum(data[:n], table)
			if got := crc64Combine(crc64.Checksum(a, table), crc64.Checksum(b, table), len(b)); got != want {
				t.Errorf("%d bytes cut at %d: got %016x, want %016x", n, cut, got, want)
			}
		}
	}
}

func TestChecksumInParts(t *testing.T) {
	defer func(p int, s uint) { checksumPart, blockShift = p, s }(checksumPart, blockShift)
	rng := rand.New(rand.NewPCG(3, 4))
	table := crc64.MakeTable(crc64.ECMA)
	for _, tc := range []struct {
		part  int  // checksumPart
		shift uint // blockShift
	}{
		{1000, 16}, // many goroutines, bodies within two blocks
		{1000, 9},  // many goroutines, many blocks of 512 bytes
		{1 << 30, 9},
		{1 << 30, 16},
	} {
		checksumPart, blockShift = tc.part, tc.shift
		for _, n := range []int{0, 1, 511, 512, 513, 999, 1000, 2000, 2001, 7777, 65535, 65536, 65537, 100_003} {
			body := make([]byte, n)
			for i := range body {
				body[i] = byte(rng.Uint32())
			}
			if got, want := Checksum(body), crc64.Checksum(body, table); got != want {
				t.Errorf("part %d, blocks of %d, %d bytes: got %016x, want crc64.Checksum's %016x", tc.part, 1<<tc.shift, n, got, want)
			}
		}
	}
}

// BenchmarkChecksum compares the checksum of a 256 MB body on one
// goroutine (crc64.Checksum) with Checksum on all cores.
func BenchmarkChecksum(b *testing.B) {
	body := make([]byte, 256<<20)
	for i := range body {
		body[i] = byte(i * 131)
	}
	table := crc64.MakeTable(crc64.ECMA)
	for _, tc := range []struct {
		name string
		sum  func([]byte) uint64
	}{
		{"one goroutine", func(b []byte) uint64 { return crc64.Checksum(b, table) }},
		{"all cores", Checksum},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				tc.sum(body)
			}
			b.ReportMetric(float64(len(body))/1e6/(b.Elapsed().Seconds()/float64(b.N)), "MB/s-wall")
		})
	}
}
