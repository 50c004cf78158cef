package layers

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/crc64"
	"maps"
	"slices"

	"muehle/muehle"
)

// The book of a game is the perfect player's persistent cache of
// placement positions it has searched (retro/play's Book), by symmetry
// class: placement.book in the game's folder (BookPath). This file alone
// knows its format. Little-endian:
//
//	0   8 bytes  magic "MUEHLEPB"
//	8   2        format version (2)
//	10  1        stones per side of the game
//	11  1        rules id of the game (RulesID: 1 = Nine Men's Morris)
//	12  8        number of entries n
//	20  9·n      entries by increasing class key: key (8 bytes: the
//	             layer's four counts, 4 bits each, then the layer's index
//	             in 48 bits), value (1 byte, a Value)
//	20+9n 8      CRC-64 (ECMA) of all bytes before it
//
// Format 1, written before, is read still: the block files' magic
// "MUEHLEBK", version 1, and byte 11 reserved (0); it names no game, so
// the folder it lies in is taken for its game.
const (
	bookMagic     = "MUEHLEPB"
	bookVersion   = 2
	bookMagicV1   = blocksMagic
	bookVersionV1 = 1
	bookHeader    = 20
	bookEntry     = 9
)

var bookCRC = crc64.MakeTable(crc64.ECMA)

// EncodeBook returns the bytes of the book of variant v holding the
// entries m (class key → Value), in the current format.
func EncodeBook[K ~uint64](v muehle.Variant, m map[K]Value) []byte {
	keys := slices.SortedFunc(maps.Keys(m), cmp.Compare[K])
	var buf bytes.Buffer
	buf.Grow(bookHeader + bookEntry*len(keys) + 8)
	le := binary.LittleEndian
	buf.WriteString(bookMagic)
	buf.Write(le.AppendUint16(nil, bookVersion))
	buf.Write([]byte{byte(v.Stones), byte(RulesID(v.Game))})
	buf.Write(le.AppendUint64(nil, uint64(len(keys))))
	var e [bookEntry]byte
	for _, k := range keys {
		le.PutUint64(e[:], uint64(k))
		e[8] = byte(m[k])
		buf.Write(e[:])
	}
	buf.Write(le.AppendUint64(nil, crc64.Checksum(buf.Bytes(), bookCRC)))
	return buf.Bytes()
}

// DecodeBook checks the bytes of a book file, of either format, against
// variant v and returns its entries. A book of another game or stone
// count, or a damaged one, gives an error wrapping ErrFormat or
// ErrChecksum.
func DecodeBook[K ~uint64](data []byte, v muehle.Variant) (map[K]Value, error) {
	le := binary.LittleEndian
	if len(data) < bookHeader+8 {
		return nil, fmt.Errorf("%w: no book header", ErrFormat)
	}
	switch magic, version := string(data[:8]), le.Uint16(data[8:]); {
	case magic == bookMagic && version == bookVersion:
		if g, ok := gameOfRulesID(uint32(data[11])); !ok || g != v.Game {
			return nil, fmt.Errorf("%w: a book of rules id %d, want %d (%s)", ErrFormat, data[11], RulesID(v.Game), v.Rules().Name)
		}
	case magic == bookMagicV1 && version == bookVersionV1:
	case magic == bookMagic || magic == bookMagicV1:
		return nil, fmt.Errorf("%w: version %d, want %d", ErrFormat, version, bookVersion)
	default:
		return nil, fmt.Errorf("%w: no book header", ErrFormat)
	}
	if s := int(data[10]); s != v.Stones {
		return nil, fmt.Errorf("%w: a book of the %d-stone game, want %d", ErrFormat, s, v.Stones)
	}
	n := le.Uint64(data[12:])
	if n > uint64(len(data)) || uint64(len(data)) != bookHeader+bookEntry*n+8 {
		return nil, fmt.Errorf("%w: %d bytes for %d entries", ErrFormat, len(data), n)
	}
	body := data[:len(data)-8]
	if sum := crc64.Checksum(body, bookCRC); sum != le.Uint64(data[len(body):]) {
		return nil, ErrChecksum
	}
	m := make(map[K]Value, n)
	prev := K(0)
	for i := range n {
		e := body[bookHeader+bookEntry*i:]
		k, val := K(le.Uint64(e)), Value(e[8])
		if i > 0 && k <= prev || val == Unused {
			return nil, fmt.Errorf("%w: entry %d out of order or unused", ErrFormat, i)
		}
		m[k], prev = val, k
	}
	return m, nil
}
