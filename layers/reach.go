package layers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc64"
)

// The reach file of a placement layer holds its reachable slots, one bit
// each: p5+2-4+2.reach beside p5+2-4+2.layer (DB.ReachPath). The solver
// writes it while it sweeps the placement plies forward (retro), a
// package writes it back on import (layers/pack); this file alone knows
// its format. Little-endian:
//
//	0   8  magic "MUEHLERB"
//	8   1  version (1)
//	9   1  stones per side
//	10  4  the layer: W, B, WH, BH
//	14  2  reserved (0)
//	16  8  slots of the layer
//	24  8  CRC-64 (ECMA) of the bits
//	32  …  the bits, (slots+63)/64 words of 8 bytes: bit i of the file's
//	       bits (bit i%8 of byte i/8) is slot i
const (
	reachMagic   = "MUEHLERB"
	reachVersion = 1
	// ReachHeaderSize is the size of a reach file's header, before the bits.
	ReachHeaderSize = 32
)

// ErrReachFile is wrapped by the errors of a reach file that is damaged or
// not of its layer.
var ErrReachFile = errors.New("bad reach file")

var reachCRC = crc64.MakeTable(crc64.ECMA)

// ReachFileBytes returns the size of the reach file of a layer of slots.
func ReachFileBytes(slots uint64) uint64 { return ReachHeaderSize + 8*((slots+63)/64) }

// PutReachHeader fills the header of the reach file b, whose bits stand
// after the header already (b is ReachFileBytes(slots) long), for layer k
// of slots slots in the game of stones per side, with the bits' checksum.
func PutReachHeader(b []byte, stones int, k Key, slots uint64) {
	copy(b, reachMagic)
	b[8], b[9] = reachVersion, byte(stones)
	b[10], b[11], b[12], b[13] = k.W, k.B, k.WH, k.BH
	b[14], b[15] = 0, 0
	le := binary.LittleEndian
	le.PutUint64(b[16:], slots)
	le.PutUint64(b[24:], crc64.Checksum(b[ReachHeaderSize:], reachCRC))
}

// CheckReachHeader checks the header h of a reach file of size bytes
// against the game of stones per side, the layer k and its slots. The
// error wraps ErrReachFile.
func CheckReachHeader(h []byte, size int64, stones int, k Key, slots uint64) error {
	le := binary.LittleEndian
	switch {
	case len(h) < ReachHeaderSize || string(h[:8]) != reachMagic:
		return fmt.Errorf("%w: no reach header", ErrReachFile)
	case h[8] != reachVersion || int(h[9]) != stones || (Key{W: h[10], B: h[11], WH: h[12], BH: h[13]}) != k:
		return fmt.Errorf("%w: version %d, %d stones, layer %d-%d+%d+%d; want version %d, %d stones, layer %s",
			ErrReachFile, h[8], h[9], h[10], h[11], h[12], h[13], reachVersion, stones, k)
	case le.Uint64(h[16:]) != slots || size != int64(ReachFileBytes(slots)):
		return fmt.Errorf("%w: %d bytes for %d slots, want %d slots (truncated?)", ErrReachFile, size, le.Uint64(h[16:]), slots)
	}
	return nil
}

// CheckReach checks the whole reach file b: its header (CheckReachHeader)
// and the checksum of its bits, b[ReachHeaderSize:]. The error wraps
// ErrReachFile.
func CheckReach(b []byte, stones int, k Key, slots uint64) error {
	if err := CheckReachHeader(b, int64(len(b)), stones, k, slots); err != nil {
		return err
	}
	if got, want := crc64.Checksum(b[ReachHeaderSize:], reachCRC), binary.LittleEndian.Uint64(b[24:]); got != want {
		return fmt.Errorf("%w: checksum %016x, header says %016x", ErrReachFile, got, want)
	}
	return nil
}
