package layers

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"io"
	"os"
	"path/filepath"

	"github.com/edsrzf/mmap-go"

	"muehle/muehle"
)

// The layer file format (see doc.go for the byte-by-byte description).
const (
	fileMagic = "MUEHLEDB"
	// FileVersion is the format version this package writes and reads.
	FileVersion = 1
	// RulesID names the rules of docs/rules.md (standard rules, no removal limit).
	RulesID = 1
	// HeaderSize is the size of the header in front of the body.
	HeaderSize = 128
)

var crc64Table = crc64.MakeTable(crc64.ECMA)

// Header describes a layer file.
type Header struct {
	Version     int    // format version
	Rules       int    // rules id
	Stones      int    // stones per side of the game
	Key         Key    // the layer
	Slots       uint64 // body size: one byte per slot
	Won         uint64 // canonical slots won for the side to move
	Lost        uint64 // canonical slots lost
	Drawn       uint64 // canonical slots drawn
	DeepestWin  int    // largest depth of a win, -1 when there is none
	DeepestLoss int    // largest depth of a loss, -1 when there is none
	Checksum    uint64 // CRC-64 (ECMA) of the body
}

// headerOf computes the header of a layer body: counts, depths, checksum;
// and the CRC-64 of each block of 1<<blockShift bytes, which combine to
// the checksum.
func headerOf(stones int, key Key, body []byte) (Header, []uint64) {
	sums := make([]uint64, blockCount(len(body), blockShift))
	count := countValues(body, blockShift, sums)
	return headerOfCounts(stones, key, uint64(len(body)), count, sums), sums
}

// headerOfCounts computes the header of a layer body of slots bytes from
// the number of slots holding each value and the CRC-64s of its blocks.
func headerOfCounts(stones int, key Key, slots uint64, count *[256]uint64, sums []uint64) Header {
	h := Header{Version: FileVersion, Rules: RulesID, Stones: stones, Key: key, Slots: slots}
	h.setFigures(count)
	h.Checksum = combineBlocks(sums, blockShift, int(slots))
	return h
}

// setFigures sets h's won, lost and drawn counts and deepest win and loss
// from the number of slots holding each value.
func (h *Header) setFigures(count *[256]uint64) {
	h.Won, h.Lost, h.Drawn, h.DeepestWin, h.DeepestLoss = 0, 0, count[Drawn], -1, -1
	for v := 2; v < 256; v++ {
		if count[v] == 0 {
			continue
		}
		d := Value(v).Depth()
		if d%2 == 1 {
			h.Won += count[v]
			h.DeepestWin = max(h.DeepestWin, d)
		} else {
			h.Lost += count[v]
			h.DeepestLoss = max(h.DeepestLoss, d)
		}
	}
}

// checkFigures compares the figures of the header (won, lost, drawn,
// deepest win and loss) with those of count, the number of slots of the
// body holding each value (countValues): a header whose checksum was made
// to fit false figures gives an error wrapping ErrChecksum.
func (h Header) checkFigures(path string, count *[256]uint64) error {
	got := h
	got.setFigures(count)
	if got != h {
		return fmt.Errorf("layers: %s: %w: the header's figures (won %d, lost %d, drawn %d, deepest win %d, loss %d) are not the body's (won %d, lost %d, drawn %d, deepest win %d, loss %d)",
			path, ErrChecksum, h.Won, h.Lost, h.Drawn, h.DeepestWin, h.DeepestLoss, got.Won, got.Lost, got.Drawn, got.DeepestWin, got.DeepestLoss)
	}
	return nil
}

// marshal returns the header's 128 bytes, header checksum included.
func (h *Header) marshal() []byte {
	b := make([]byte, HeaderSize)
	le := binary.LittleEndian
	copy(b, fileMagic)
	le.PutUint32(b[8:], uint32(h.Version))
	le.PutUint32(b[12:], uint32(h.Rules))
	b[16] = uint8(h.Stones)
	b[17], b[18], b[19], b[20] = h.Key.W, h.Key.B, h.Key.WH, h.Key.BH
	le.PutUint64(b[24:], h.Slots)
	le.PutUint64(b[32:], h.Won)
	le.PutUint64(b[40:], h.Lost)
	le.PutUint64(b[48:], h.Drawn)
	le.PutUint16(b[56:], uint16(int16(h.DeepestWin)))
	le.PutUint16(b[58:], uint16(int16(h.DeepestLoss)))
	le.PutUint64(b[64:], h.Checksum)
	le.PutUint32(b[72:], headerCRC(b))
	return b
}

// headerCRC is the CRC-32C of the header without its own field (72-75).
func headerCRC(b []byte) uint32 {
	c := crc32.Update(0, castagnoli, b[:72])
	return crc32.Update(c, castagnoli, b[76:HeaderSize])
}

// parseHeader checks and decodes a header; name is the file for messages.
func parseHeader(b []byte, name string) (Header, error) {
	var h Header
	if len(b) < HeaderSize {
		return h, fmt.Errorf("layers: %s: %w: %d bytes, shorter than the header", name, ErrFormat, len(b))
	}
	le := binary.LittleEndian
	if string(b[:8]) != fileMagic {
		return h, fmt.Errorf("layers: %s: %w: not a layer file (bad magic %q)", name, ErrFormat, b[:8])
	}
	if v := le.Uint32(b[8:]); v != FileVersion {
		return h, fmt.Errorf("layers: %s: %w: version %d, want %d", name, ErrVersion, v, FileVersion)
	}
	if got, want := le.Uint32(b[72:]), headerCRC(b); got != want {
		return h, fmt.Errorf("layers: %s: %w: header checksum %08x, want %08x", name, ErrChecksum, got, want)
	}
	h = Header{
		Version:     int(le.Uint32(b[8:])),
		Rules:       int(le.Uint32(b[12:])),
		Stones:      int(b[16]),
		Key:         Key{b[17], b[18], b[19], b[20]},
		Slots:       le.Uint64(b[24:]),
		Won:         le.Uint64(b[32:]),
		Lost:        le.Uint64(b[40:]),
		Drawn:       le.Uint64(b[48:]),
		DeepestWin:  int(int16(le.Uint16(b[56:]))),
		DeepestLoss: int(int16(le.Uint16(b[58:]))),
		Checksum:    le.Uint64(b[64:]),
	}
	if h.Rules != RulesID {
		return h, fmt.Errorf("layers: %s: %w: rules %d, want %d", name, ErrFormat, h.Rules, RulesID)
	}
	return h, nil
}

// check compares a parsed header with what the caller expects and the file
// size.
func (h *Header) check(name string, stones int, key Key, size int64) error {
	if h.Stones != stones {
		return fmt.Errorf("layers: %s: %w: a file of the %d-stone game, want %d", name, ErrFormat, h.Stones, stones)
	}
	if h.Key != key {
		return fmt.Errorf("layers: %s: %w: layer %v, want %v", name, ErrFormat, h.Key, key)
	}
	if h.Slots > 1<<40 || size != HeaderSize+int64(h.Slots) {
		return fmt.Errorf("layers: %s: %w: %d bytes, want %d for %d slots (truncated?)", name, ErrFormat, size, HeaderSize+h.Slots, h.Slots)
	}
	if h.Won+h.Lost+h.Drawn > h.Slots {
		return fmt.Errorf("layers: %s: %w: counts exceed the slots", name, ErrFormat)
	}
	return nil
}

// WriteLayer writes a layer file: the header with the counts, deepest win
// and loss and checksum computed from body, then body; and its block file
// (blocks.go). It writes path+".tmp" and the block file's .tmp, syncs them
// and renames them, the block file first, so that path is either absent,
// the old file or the complete new one; on an error it is unchanged. (A
// block file that does not belong to the layer file beside it is ignored.)
func WriteLayer(path string, stones int, key Key, body []byte) error {
	if stones < 3 || stones > muehle.StonesPerSide {
		return fmt.Errorf("layers: writing %s: %d stones per side (want 3 to 9)", path, stones)
	}
	h, sums := headerOf(stones, key, body)
	head := h.marshal()
	err := writeSynced(path+".tmp", head, body)
	if err == nil {
		err = installLayer(path, h, binary.LittleEndian.Uint32(head[72:]), sums)
	}
	if err != nil {
		os.Remove(path + ".tmp")
		return fmt.Errorf("layers: writing %s: %w", path, err)
	}
	return nil
}

// installLayer puts in place a layer file written in full and synced as
// path+".tmp", with header h (hcrc its header checksum) and the CRC-64s
// of its blocks: it writes the block file as its .tmp, synced, renames
// the block file and then the layer file, so that path is either the old
// file or the complete new one, and syncs the folder. On an error it
// removes the block file's .tmp; the caller removes the layer's.
func installLayer(path string, h Header, hcrc uint32, sums []uint64) error {
	bpath := blocksPath(path)
	err := writeSynced(bpath+".tmp", marshalBlocks(h, hcrc, blockShift, sums))
	if err == nil {
		err = ReplaceFile(bpath+".tmp", bpath)
	}
	if err == nil {
		err = ReplaceFile(path+".tmp", path)
	}
	if err != nil {
		os.Remove(bpath + ".tmp")
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // make the renames durable; not all systems allow it
		d.Close()
	}
	return nil
}

// writeSynced creates the file at path with the parts one after another
// and syncs it.
func writeSynced(path string, parts ...[]byte) error {
	f, err := CreateRegular(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for _, p := range parts {
		w.Write(p)
	}
	err = w.Flush()
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadHeader reads and checks the header of the layer file at path against
// the stone count, the key and the file size, without reading the body.
func ReadHeader(path string, stones int, key Key) (Header, error) {
	f, err := OpenRegular(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Header{}, fmt.Errorf("layers: %s: %w", path, ErrMissing)
		}
		return Header{}, fmt.Errorf("layers: %w", err)
	}
	defer f.Close()
	b := make([]byte, HeaderSize)
	n, err := io.ReadFull(f, b)
	if err != nil && n < HeaderSize {
		return Header{}, fmt.Errorf("layers: %s: %w: %d bytes, shorter than the header", path, ErrFormat, n)
	}
	h, err := parseHeader(b, path)
	if err != nil {
		return h, err
	}
	fi, err := f.Stat()
	if err != nil {
		return h, fmt.Errorf("layers: %w", err)
	}
	return h, h.check(path, stones, key, fi.Size())
}

// File is an open layer file: header checked, body verified, mapped. (A DB
// keeps the Files it opens for Probe unverified, checking their bodies
// block by block; it hands out only verified ones.)
type File struct {
	path   string
	h      Header
	m      mmap.MMap
	body   []byte
	closed bool
}

// OpenFile opens the layer file at path for the given game and layer. It
// checks the magic, version, rules, header checksum, stone count, key and
// size, maps the file and verifies the body checksum. It writes the
// layer's block file when it is missing or wrong, if the folder allows. A
// missing file gives an error wrapping ErrMissing.
func OpenFile(path string, stones int, key Key) (*File, error) {
	f, _, err := openFile(path, stones, key, false)
	return f, err
}

// openFile is OpenFile, and with lazy set, when the layer's block file is
// valid, it does not read the body but returns the block file's CRCs, for
// the caller to check each block before it reads from it. It returns no
// blockChecks when it checked the whole body.
func openFile(path string, stones int, key Key, lazy bool) (*File, *blockChecks, error) {
	h, err := ReadHeader(path, stones, key)
	if err != nil {
		return nil, nil, err
	}
	f, err := OpenRegular(path)
	if err != nil {
		return nil, nil, fmt.Errorf("layers: %w", err)
	}
	defer f.Close()
	m, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("layers: mapping %s: %w", path, err)
	}
	// Check again on the mapped bytes: the file may have been replaced.
	h2, err := parseHeader(m, path)
	if err == nil {
		err = h2.check(path, stones, key, int64(len(m)))
	}
	if err == nil && h2 != h {
		err = fmt.Errorf("layers: %s: %w: changed while opening", path, ErrFormat)
	}
	if err != nil {
		m.Unmap()
		return nil, nil, err
	}
	file := &File{path: path, h: h, m: m, body: m[HeaderSize:]}
	hcrc := binary.LittleEndian.Uint32(m[72:])
	if lazy {
		if shift, sums, err := readBlocks(path, h, hcrc); err == nil {
			return file, newBlockChecks(shift, sums), nil
		}
	}
	sums := make([]uint64, blockCount(len(file.body), blockShift))
	count := countValues(file.body, blockShift, sums)
	if sum := combineBlocks(sums, blockShift, len(file.body)); sum != h.Checksum {
		m.Unmap()
		return nil, nil, fmt.Errorf("layers: %s: %w: body checksum %016x, header says %016x", path, ErrChecksum, sum, h.Checksum)
	}
	if err := h.checkFigures(path, count); err != nil {
		m.Unmap()
		return nil, nil, err
	}
	// The checksum touched every page; a layer is read at random and in
	// parts, so its pages leave the process's resident memory until used.
	DropPages(m)
	refreshBlocks(path, h, hcrc, blockShift, sums)
	return file, nil, nil
}

// Path returns the file's path.
func (f *File) Path() string { return f.path }

// Header returns the file's header.
func (f *File) Header() Header { return f.h }

// Value returns the value stored in slot i; Unused when i is out of range.
func (f *File) Value(i uint64) Value {
	if i >= uint64(len(f.body)) {
		return Unused
	}
	return Value(f.body[i])
}

// Body returns the mapped slots, read-only: writing to them crashes the
// program. It is valid until Close.
func (f *File) Body() []byte { return f.body }

// Close unmaps the file. The File must not be used afterwards.
func (f *File) Close() error {
	if f.closed {
		return nil
	}
	f.closed = true
	f.body = nil
	if err := f.m.Unmap(); err != nil {
		return fmt.Errorf("layers: unmapping %s: %w", f.path, err)
	}
	return nil
}
