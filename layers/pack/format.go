package pack

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"

	"muehle/layers"
)

// Version is the newest package format this program writes: 5, which
// carries a layer kept compressed (layers/doc.go, "Compressed layer
// files") as its file, byte for byte, with its block file (copy.go).
// Export writes 5 only when a layer travels so, else 4, which may leave
// out a layer that import computes from the layers before it (derive.go).
// It reads packages of version 4, 3 (every layer stored, each block coded the
// better of two ways: a zstd frame or context streams, streams.go), of
// version 2 (zstd frames only; the manifest says each layer's file format,
// a dense layer's body travelling as its file holds it) and of version 1,
// which hold layer files of format 1 only.
const Version = 5

// flatVersion is the format of a package whose layers all travel as
// their bodies: no layer copied, so that a program of format 4 reads it.
const flatVersion = 4

// The framing of a package (doc.go gives every byte).
const (
	magic        = "MUEHLEPK"
	blockMagic   = "MPKB"
	endMagic     = "MUEHLEPE"
	preambleSize = 24
	blockHead    = 40
	trailerSize  = 32
	maxManifest  = 16 << 20

	kindBody   = 0 // a block of a layer's body
	kindReach  = 1 // a block of a layer's reach file, stored
	kindFile   = 2 // a block of a compressed layer file, copied (format 5)
	kindBlocks = 3 // a block of a copied layer's block file (format 5)
)

// Errors wrapped by the functions of this package; the wrapping error says
// where (layer, block, byte offset) and what.
var (
	// ErrNotPackage: the file does not start as a package does.
	ErrNotPackage = errors.New("not a database package")
	// ErrFormat: the package is damaged or badly formed.
	ErrFormat = errors.New("bad package")
	// ErrVersion: a package or layer format this program does not read.
	ErrVersion = errors.New("unsupported package format")
	// ErrRules: the package is for other rules than the database's.
	ErrRules = errors.New("package for other rules")
	// ErrTruncated: the package ends early.
	ErrTruncated = errors.New("package truncated")
	// ErrChecksum: a block or a layer does not match its checksum.
	ErrChecksum = errors.New("package checksum mismatch")
	// ErrConflict: the database holds a verified layer that differs from the
	// package's, and replacing it was not asked for.
	ErrConflict = errors.New("verified layer differs")
)

var (
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
	ecma       = crc64.MakeTable(crc64.ECMA)
	le         = binary.LittleEndian
)

// marshalPreamble returns the preamble for a manifest of a package of
// format version.
func marshalPreamble(manifest []byte, version int) []byte {
	b := make([]byte, preambleSize)
	copy(b, magic)
	le.PutUint32(b[8:], uint32(version))
	le.PutUint32(b[12:], uint32(len(manifest)))
	le.PutUint32(b[16:], crc32.Checksum(manifest, castagnoli))
	le.PutUint32(b[20:], crc32.Checksum(b[:20], castagnoli))
	return b
}

// parsePreamble checks the preamble and returns the package format
// version and the manifest's length and CRC-32C.
func parsePreamble(b []byte) (version, length int, sum uint32, err error) {
	if len(b) < len(magic) || string(b[:len(magic)]) != magic {
		return 0, 0, 0, fmt.Errorf("%w: it does not start with %q", ErrNotPackage, magic)
	}
	if len(b) < preambleSize {
		return 0, 0, 0, fmt.Errorf("%w: %d bytes, shorter than the preamble", ErrTruncated, len(b))
	}
	if got, want := le.Uint32(b[20:]), crc32.Checksum(b[:20], castagnoli); got != want {
		return 0, 0, 0, fmt.Errorf("%w: the preamble's checksum is %08x, want %08x", ErrChecksum, got, want)
	}
	v := le.Uint32(b[8:])
	if v < 1 || v > Version {
		return 0, 0, 0, fmt.Errorf("%w: package format %d; this program reads formats 1 to %d (a newer program wrote it?)", ErrVersion, v, Version)
	}
	n := le.Uint32(b[12:])
	if n == 0 || n > maxManifest {
		return 0, 0, 0, fmt.Errorf("%w: a manifest of %d bytes", ErrFormat, n)
	}
	return int(v), int(n), le.Uint32(b[16:]), nil
}

// blockHeader is the header of a block.
type blockHeader struct {
	layer  int
	kind   int
	seq    int
	coder  int    // coderZstd or coderStreams
	raw    int    // bytes of the layer's data the block holds
	comp   int    // bytes of the compressed frame
	rawCRC uint64 // CRC-64 (ECMA) of the raw bytes
	cCRC   uint32 // CRC-32C of the frame
}

func (h *blockHeader) marshal() []byte {
	b := make([]byte, blockHead)
	copy(b, blockMagic)
	le.PutUint32(b[4:], uint32(h.layer))
	b[8] = byte(h.kind)
	b[9] = byte(h.coder)
	le.PutUint32(b[12:], uint32(h.seq))
	le.PutUint32(b[16:], uint32(h.raw))
	le.PutUint32(b[20:], uint32(h.comp))
	le.PutUint64(b[24:], h.rawCRC)
	le.PutUint32(b[32:], h.cCRC)
	le.PutUint32(b[36:], crc32.Checksum(b[:36], castagnoli))
	return b
}

// parseBlockHeader checks a block's header (not its frame) against the
// block expected next, whose coder may be any up to want.coder; at is its
// offset in the package, for messages.
func parseBlockHeader(b []byte, want blockHeader, blockBytes int, at int64, name string) (blockHeader, error) {
	var h blockHeader
	if string(b[:4]) != blockMagic {
		return h, fmt.Errorf("%w: at byte %d, where block %d of %s of layer %s should begin, there is no block", ErrFormat, at, want.seq, kindName(want.kind), name)
	}
	if got, w := le.Uint32(b[36:]), crc32.Checksum(b[:36], castagnoli); got != w {
		return h, fmt.Errorf("%w: the header of block %d of %s of layer %s (byte %d) has checksum %08x, want %08x", ErrChecksum, want.seq, kindName(want.kind), name, at, got, w)
	}
	h = blockHeader{layer: int(le.Uint32(b[4:])), kind: int(b[8]), coder: int(b[9]), seq: int(le.Uint32(b[12:])),
		raw: int(le.Uint32(b[16:])), comp: int(le.Uint32(b[20:])), rawCRC: le.Uint64(b[24:]), cCRC: le.Uint32(b[32:])}
	if h.layer != want.layer || h.kind != want.kind || h.seq != want.seq || b[10] != 0 || b[11] != 0 {
		return h, fmt.Errorf("%w: at byte %d the package holds block %d of kind %d of layer number %d, want block %d of %s of layer %s (number %d): blocks out of order", ErrFormat, at, h.seq, h.kind, h.layer+1, want.seq, kindName(want.kind), name, want.layer+1)
	}
	if h.coder > want.coder || (want.coder == coderStored) != (h.coder == coderStored) {
		return h, fmt.Errorf("%w: block %d of %s of layer %s is coded by coder %d, which this package's format does not have", ErrFormat, h.seq, kindName(h.kind), name, h.coder)
	}
	if h.raw != want.raw {
		return h, fmt.Errorf("%w: block %d of %s of layer %s holds %d bytes, want %d", ErrFormat, h.seq, kindName(h.kind), name, h.raw, want.raw)
	}
	if h.comp <= 0 || h.comp > maxFrame(blockBytes) {
		return h, fmt.Errorf("%w: block %d of %s of layer %s: a frame of %d bytes", ErrFormat, h.seq, kindName(h.kind), name, h.comp)
	}
	return h, nil
}

// maxFrame is the largest compressed frame of a block: zstd's bound for
// incompressible data is well below it.
func maxFrame(blockBytes int) int { return blockBytes + blockBytes/8 + 1024 }

func kindName(kind int) string {
	switch kind {
	case kindReach:
		return "the reach file"
	case kindFile:
		return "the compressed file"
	case kindBlocks:
		return "the block file"
	}
	return "the body"
}

// marshalTrailer returns the trailer of a package of blocks blocks and
// size bytes, the trailer included.
func marshalTrailer(blocks, size uint64) []byte {
	b := make([]byte, trailerSize)
	copy(b, endMagic)
	le.PutUint64(b[8:], blocks)
	le.PutUint64(b[16:], size)
	le.PutUint32(b[28:], crc32.Checksum(b[:28], castagnoli))
	return b
}

// deriveReach returns the reach file (layers/reach.go) of placement layer
// k of the game of stones per side whose body has the slots not Unused
// set in bits (one bit per slot, bytes little-endian: bit i of byte i/8).
func deriveReach(stones int, k layers.Key, slots uint64, bits []byte) []byte {
	b := make([]byte, layers.ReachFileBytes(slots))
	copy(b[layers.ReachHeaderSize:], bits)
	layers.PutReachHeader(b, stones, k, slots)
	return b
}

// setBits sets bit off+i of bits for every byte i of p that is not 0
// (Unused).
func setBits(bits []byte, off uint64, p []byte) {
	for i, v := range p {
		if v != 0 {
			j := off + uint64(i)
			bits[j>>3] |= 1 << (j & 7)
		}
	}
}

// reachBits gathers the bits a reach file derived from a layer's body
// holds, from the bytes p at offset off of the body: for a body of one
// byte per slot the slots not Unused (setBits); for a dense body its own
// bits, which are its first bytes, word for word the reach file's.
func reachBits(bits []byte, off uint64, p []byte, dense bool) {
	if !dense {
		setBits(bits, off, p)
	} else if off < uint64(len(bits)) {
		copy(bits[off:], p)
	}
}
