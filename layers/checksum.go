package layers

import (
	"hash/crc64"
	"runtime"
	"sync"
)

// The checksum of a layer body is its CRC-64 (ECMA), the same as
// crc64.Checksum, computed on all cores: the body is cut into parts, each
// part's CRC computed by its own goroutine, and the parts' CRCs combined.
// Opening a layer checks its whole body, so this is most of the cost of
// a layer's first probe (0.3 s on one core for the 594 MB of 8-8).

// checksumPart is the smallest part worth a goroutine of its own.
var checksumPart = 32 << 20

// Checksum returns the CRC-64 (ECMA) of body, as crc64.Checksum(body,
// crc64.MakeTable(crc64.ECMA)) does, using up to GOMAXPROCS goroutines
// for a large body.
func Checksum(body []byte) uint64 {
	parts := min(runtime.GOMAXPROCS(0), len(body)/checksumPart)
	if parts < 2 {
		return crc64.Checksum(body, crc64Table)
	}
	sums := make([]uint64, parts)
	size := len(body) / parts
	var wg sync.WaitGroup
	for i := range parts {
		lo, hi := i*size, (i+1)*size
		if i == parts-1 {
			hi = len(body)
		}
		wg.Go(func() { sums[i] = crc64.Checksum(body[lo:hi], crc64Table) })
	}
	wg.Wait()
	sum := sums[0]
	for i := 1; i < parts; i++ {
		n := size
		if i == parts-1 {
			n = len(body) - i*size
		}
		sum = crc64Combine(sum, sums[i], n)
	}
	return sum
}

// crc64Combine returns the CRC-64 (ECMA) of a‖b from crc1 of a, crc2 of
// b and the length of b: crc1 advanced over len2 zero bytes, then crc2
// added (the CRCs' pre- and post-inversion cancel in this sum). Advancing
// is a linear map over GF(2), applied as powers of the one-zero-bit
// operator squared up to one byte and on, one square per bit of len2
// (the method of zlib's crc32_combine).
func crc64Combine(crc1, crc2 uint64, len2 int) uint64 {
	if len2 <= 0 {
		return crc1 ^ crc2
	}
	var even, odd gf2Matrix
	odd[0] = crc64.ECMA // one zero bit: the reflected polynomial
	for n, row := 1, uint64(1); n < 64; n, row = n+1, row<<1 {
		odd[n] = row
	}
	even.square(&odd) // two zero bits
	odd.square(&even) // four zero bits
	for {
		even.square(&odd) // 8, 32, 128, … zero bits
		if len2&1 != 0 {
			crc1 = even.times(crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
		odd.square(&even) // 16, 64, … zero bits
		if len2&1 != 0 {
			crc1 = odd.times(crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
	}
	return crc1 ^ crc2
}

// gf2Matrix is a 64×64 matrix over GF(2), column n in element n.
type gf2Matrix [64]uint64

// times returns m·v.
func (m *gf2Matrix) times(v uint64) uint64 {
	var sum uint64
	for i := 0; v != 0; i, v = i+1, v>>1 {
		if v&1 != 0 {
			sum ^= m[i]
		}
	}
	return sum
}

// square sets m to a·a.
func (m *gf2Matrix) square(a *gf2Matrix) {
	for n := range m {
		m[n] = a.times(a[n])
	}
}
