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
	defer func(p int) { checksumPart = p }(checksumPart)
	checksumPart = 1000 // many parts on small bodies
	rng := rand.New(rand.NewPCG(3, 4))
	table := crc64.MakeTable(crc64.ECMA)
	for _, n := range []int{0, 999, 1000, 2000, 2001, 7777, 100_003} {
		body := make([]byte, n)
		for i := range body {
			body[i] = byte(rng.Uint32())
		}
		if got, want := Checksum(body), crc64.Checksum(body, table); got != want {
			t.Errorf("%d bytes: got %016x, want crc64.Checksum's %016x", n, got, want)
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
