package layers

import (
	"hash/crc64"
	"sync"
)

// The checksum of a layer body is its CRC-64 (ECMA), the same as
// crc64.Checksum. It is computed block by block (blocks of 1<<blockShift
// bytes, the last one shorter), the blocks shared out on all cores, and
// the blocks' CRCs combined into the body's. The block CRCs are what the
// sidecar file keeps (blocks.go), so that a reader can check a block on
// its own; computing the body's CRC from them means one piece of code
// produces both. A full check reads the whole body (0.3 s on one core for
// the 594 MB of 8-8, from the page cache).

// blockShift is log2 of the block size of new sidecar files: 64 KiB.
// Tests lower it to have many blocks in small bodies.
var blockShift uint = 16

// checksumPart is the smallest part worth a goroutine of its own.
var checksumPart = 32 << 20

// Checksum returns the CRC-64 (ECMA) of body, as crc64.Checksum(body,
// crc64.MakeTable(crc64.ECMA)) does, using up to GOMAXPROCS goroutines
// for a large body.
func Checksum(body []byte) uint64 {
	return combineBlocks(blockSums(body, blockShift), blockShift, len(body))
}

// blockSums returns the CRC-64 of each block of 1<<shift bytes of body,
// the last one shorter when the size is not a multiple, on up to
// GOMAXPROCS goroutines with at least checksumPart bytes each (forBlocks).
func blockSums(body []byte, shift uint) []uint64 {
	sums := make([]uint64, blockCount(len(body), shift))
	forBlocks(len(sums), len(body), func(lo, hi int) {
		for b := lo; b < hi; b++ {
			sums[b] = crc64.Checksum(block(body, b, shift), crc64Table)
		}
	})
	return sums
}

// blockCount is the number of blocks of 1<<shift bytes in size bytes, the
// last one shorter when the size is not a multiple.
func blockCount(size int, shift uint) int { return (size + 1<<shift - 1) >> shift }

// block returns block b of 1<<shift bytes of body.
func block(body []byte, b int, shift uint) []byte {
	return body[b<<shift : min((b+1)<<shift, len(body))]
}

// countValues returns the number of bytes of body from offset from on
// holding each value (the values of a dense body follow its bits) and,
// when sums is not nil, sets sums[b] to the CRC-64 of block b of 1<<shift
// bytes, as blockSums does: one pass over the body on up to GOMAXPROCS
// goroutines (forBlocks), each block counted while its checksum has left
// it in the cache.
func countValues(body []byte, from int, shift uint, sums []uint64) *[256]uint64 {
	var total [256]uint64
	var mu sync.Mutex
	forBlocks(blockCount(len(body), shift), len(body), func(lo, hi int) {
		var count [256]uint64
		for b := lo; b < hi; b++ {
			blk := block(body, b, shift)
			if sums != nil {
				sums[b] = crc64.Checksum(blk, crc64Table)
			}
			if skip := from - b<<shift; skip > 0 {
				blk = blk[min(skip, len(blk)):]
			}
			for _, v := range blk {
				count[v]++
			}
		}
		mu.Lock()
		defer mu.Unlock()
		for v, n := range count {
			total[v] += n
		}
	})
	return &total
}

// combineBlocks returns the CRC-64 (ECMA) of a body of size bytes from
// the CRCs of its blocks of 1<<shift bytes (the last one shorter when size
// is not a multiple). Each full block costs one product with the matrix
// that advances a CRC over a block of zeros.
func combineBlocks(sums []uint64, shift uint, size int) uint64 {
	var block gf2Matrix
	block.zeroBytes(shift)
	var sum uint64 // the CRC of nothing
	for b, s := range sums {
		if n := size - b<<shift; n < 1<<shift {
			return crc64Combine(sum, s, n)
		}
		sum = block.times(sum) ^ s
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
	odd.zeroBit()
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

// zeroBit sets m to the operator that advances a CRC over one zero bit.
func (m *gf2Matrix) zeroBit() {
	m[0] = crc64.ECMA // the reflected polynomial
	for n, row := 1, uint64(1); n < 64; n, row = n+1, row<<1 {
		m[n] = row
	}
}

// zeroBytes sets m to the operator that advances a CRC over 1<<shift zero
// bytes: the one-bit operator squared 3+shift times.
func (m *gf2Matrix) zeroBytes(shift uint) {
	var t gf2Matrix
	m.zeroBit()
	for range 3 + shift {
		t.square(m)
		*m = t
	}
}

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
