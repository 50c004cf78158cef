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
	// FileVersion is the format this package writes and reads: the
	// slots in the order of index.go (the B class major), the body of
	// one byte per slot or dense (the header's layout byte).
	FileVersion = 2
	// OldVersion is the format before, with the A rank major and one byte
	// per slot. Only ConvertOld reads it, to rewrite the file in this
	// format; to everything else such a file is damaged (ErrOldFormat).
	OldVersion = 1
	// HeaderSize is the size of the header in front of the body.
	HeaderSize = 128
)

var crc64Table = crc64.MakeTable(crc64.ECMA)

// Header describes a layer file.
type Header struct {
	Version     int           // format version
	Game        muehle.GameID // the rule set (bytes 12-15: RulesID)
	Stones      int           // stones per side of the game
	Key         Key           // the layer
	Slots       uint64        // slots of the layer's index
	Layout      Layout        // one byte per slot, or dense
	Stored      uint64        // a dense file: the slots holding a value
	Won         uint64        // canonical slots won for the side to move
	Lost        uint64        // canonical slots lost
	Drawn       uint64        // canonical slots drawn
	DeepestWin  int           // largest depth of a win, -1 when there is none
	DeepestLoss int           // largest depth of a loss, -1 when there is none
	Checksum    uint64        // CRC-64 (ECMA) of the body
}

// headerOf computes the header of a layer body: counts, depths, checksum;
// and the CRC-64 of each block of 1<<blockShift bytes, which combine to
// the checksum. With d nil the body has one byte per slot; otherwise it
// is d's encoding, and the counts are d's values'.
func headerOf(v muehle.Variant, key Key, body []byte, d *Dense) (Header, []uint64) {
	h := Header{Version: FileVersion, Game: v.Game, Stones: v.Stones, Key: key, Slots: uint64(len(body))}
	if d != nil {
		h.Layout, h.Slots, h.Stored = LayoutDense, d.slots, d.Stored()
	}
	sums := make([]uint64, blockCount(len(body), blockShift))
	count := countValues(body, h.valuesFrom(), blockShift, sums)
	h.setFigures(count)
	h.Checksum = combineBlocks(sums, blockShift, len(body))
	return h, sums
}

// headerOfCounts computes the header of a layer body of one byte per
// slot from the number of slots holding each value and the CRC-64s of its
// blocks.
func headerOfCounts(v muehle.Variant, key Key, slots uint64, count *[256]uint64, sums []uint64) Header {
	h := Header{Version: FileVersion, Game: v.Game, Stones: v.Stones, Key: key, Slots: slots}
	h.setFigures(count)
	h.Checksum = combineBlocks(sums, blockShift, int(slots))
	return h
}

// Layout is how a layer file's body holds the values (header byte 21).
type Layout uint8

// The layouts.
const (
	LayoutFlat  Layout = 0 // one byte per slot
	LayoutDense Layout = 1 // the stored slots' bits and values (dense.go)
)

// Dense reports whether the header is of a dense layer file.
func (h Header) Dense() bool { return h.Layout == LayoutDense }

// BodySize returns the size of the body the header describes: one byte
// per slot, or a dense body (DenseBodySize).
func (h Header) BodySize() uint64 {
	if h.Dense() {
		return DenseBodySize(h.Slots, h.Stored)
	}
	return h.Slots
}

// valuesFrom returns the offset in the body of its values: 0 for a body of
// one byte per slot, after the bits and the directory for a dense one.
func (h Header) valuesFrom() int {
	if !h.Dense() {
		return 0
	}
	_, _, values, _ := denseLayout(h.Slots, h.Stored)
	return int(values)
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
	le.PutUint32(b[12:], RulesID(h.Game))
	b[16] = uint8(h.Stones)
	b[17], b[18], b[19], b[20] = h.Key.W, h.Key.B, h.Key.WH, h.Key.BH
	b[21] = byte(h.Layout)
	le.PutUint64(b[24:], h.Slots)
	le.PutUint64(b[32:], h.Won)
	le.PutUint64(b[40:], h.Lost)
	le.PutUint64(b[48:], h.Drawn)
	le.PutUint16(b[56:], uint16(int16(h.DeepestWin)))
	le.PutUint16(b[58:], uint16(int16(h.DeepestLoss)))
	le.PutUint64(b[64:], h.Checksum)
	if h.Dense() {
		le.PutUint64(b[76:], h.Stored)
	}
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
	if v := le.Uint32(b[8:]); v != FileVersion && v != OldVersion {
		return h, fmt.Errorf("layers: %s: %w: version %d, want %d", name, ErrVersion, v, FileVersion)
	}
	if got, want := le.Uint32(b[72:]), headerCRC(b); got != want {
		return h, fmt.Errorf("layers: %s: %w: header checksum %08x, want %08x", name, ErrChecksum, got, want)
	}
	h = Header{
		Version:     int(le.Uint32(b[8:])),
		Stones:      int(b[16]),
		Key:         Key{b[17], b[18], b[19], b[20]},
		Slots:       le.Uint64(b[24:]),
		Layout:      Layout(b[21]),
		Won:         le.Uint64(b[32:]),
		Lost:        le.Uint64(b[40:]),
		Drawn:       le.Uint64(b[48:]),
		DeepestWin:  int(int16(le.Uint16(b[56:]))),
		DeepestLoss: int(int16(le.Uint16(b[58:]))),
		Checksum:    le.Uint64(b[64:]),
	}
	if h.Dense() {
		h.Stored = le.Uint64(b[76:])
	}
	g, ok := gameOfRulesID(le.Uint32(b[12:]))
	if !ok {
		return h, fmt.Errorf("layers: %s: %w: rules id %d names no game this program knows", name, ErrFormat, le.Uint32(b[12:]))
	}
	h.Game = g
	if h.Layout > LayoutDense || h.Version == OldVersion && h.Layout != LayoutFlat {
		return h, fmt.Errorf("layers: %s: %w: layout %d in a file of version %d", name, ErrFormat, h.Layout, h.Version)
	}
	return h, nil
}

// check compares a parsed header with what the caller expects and the file
// size.
func (h *Header) check(name string, v muehle.Variant, key Key, size int64) error {
	if got := h.Game.With(h.Stones); got != v {
		return fmt.Errorf("layers: %s: %w: a file of %s, want %s", name, ErrFormat, got.Name(), v.Name())
	}
	if h.Key != key {
		return fmt.Errorf("layers: %s: %w: layer %v, want %v", name, ErrFormat, h.Key, key)
	}
	if h.Stored > h.Slots {
		return fmt.Errorf("layers: %s: %w: %d slots, %d stored", name, ErrFormat, h.Slots, h.Stored)
	}
	if want := HeaderSize + h.BodySize(); h.Slots > 1<<40 || uint64(size) != want {
		if h.Dense() {
			return fmt.Errorf("layers: %s: %w: %d bytes, want %d for %d slots storing %d values (truncated?)", name, ErrFormat, size, want, h.Slots, h.Stored)
		}
		return fmt.Errorf("layers: %s: %w: %d bytes, want %d for %d slots (truncated?)", name, ErrFormat, size, want, h.Slots)
	}
	if h.Won+h.Lost+h.Drawn > h.Slots {
		return fmt.Errorf("layers: %s: %w: counts exceed the slots", name, ErrFormat)
	}
	if h.Dense() && h.Won+h.Lost+h.Drawn != h.Stored {
		return fmt.Errorf("layers: %s: %w: %d values won, lost or drawn, %d stored", name, ErrFormat, h.Won+h.Lost+h.Drawn, h.Stored)
	}
	return nil
}

// WriteLayer writes a layer file: the header with the counts, deepest win
// and loss and checksum computed from body, then body; and its block file
// (blocks.go). It writes path+".tmp" and the block file's .tmp, syncs them
// and renames them, the block file first, so that path is either absent,
// the old file or the complete new one; on an error it is unchanged. (A
// block file that does not belong to the layer file beside it is ignored.)
func WriteLayer(path string, v muehle.Variant, key Key, body []byte) error {
	return writeLayer(path, v, key, body, nil)
}

// WriteDenseLayer writes a dense layer file (version 2) holding d, and its
// block file, as WriteLayer writes a layer file.
func WriteDenseLayer(path string, v muehle.Variant, key Key, d *Dense) error {
	return writeLayer(path, v, key, d.encode(), d)
}

// writeLayer is WriteLayer for the body, the encoding of d when d is not nil.
func writeLayer(path string, v muehle.Variant, key Key, body []byte, d *Dense) error {
	if err := CheckVariant(v); err != nil {
		return fmt.Errorf("layers: writing %s: %w", path, err)
	}
	h, sums := headerOf(v, key, body, d)
	head := h.marshal()
	err := writeSynced(path+".tmp", head, body)
	if err == nil {
		err = installLayer(path, h, binary.LittleEndian.Uint32(head[72:]), blockShift, sums)
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
// file or the complete new one, and syncs the folder. The blocks are of
// 2^shift bytes (blockShift, but for a layer adopted with the block sums
// of its source). On an error it removes the block file's .tmp; the
// caller removes the layer's.
func installLayer(path string, h Header, hcrc uint32, shift uint, sums []uint64) error {
	bpath := blocksPath(path)
	err := writeSynced(bpath+".tmp", marshalBlocks(h, hcrc, shift, sums))
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
	syncDir(path)
	return nil
}

// syncDir syncs the folder of path, so that renames into it are durable;
// not all systems allow it, and a failure is no error.
func syncDir(path string) {
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
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
func ReadHeader(path string, v muehle.Variant, key Key) (Header, error) {
	return readHeader(path, v, key, false)
}

// readHeader is ReadHeader; with old set it reads a file of OldVersion
// (for ConvertOld) and refuses the others, else the reverse.
func readHeader(path string, v muehle.Variant, key Key, old bool) (Header, error) {
	f, err := OpenRegular(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Header{}, fmt.Errorf("layers: %s: %w", path, ErrMissing)
		}
		return Header{}, fmt.Errorf("layers: %w", err)
	}
	defer f.Close()
	b := make([]byte, zHead)
	n, _ := io.ReadFull(f, b)
	if n < HeaderSize {
		return Header{}, fmt.Errorf("layers: %s: %w: %d bytes, shorter than the header", path, ErrFormat, n)
	}
	fi, err := f.Stat()
	if err != nil {
		return Header{}, fmt.Errorf("layers: %w", err)
	}
	if isCompressed(b) {
		if old {
			return Header{}, fmt.Errorf("layers: %s: %w: compressed, not the old format %d", path, ErrVersion, OldVersion)
		}
		h, _, blocks, ver, err := parseZHead(b[:n], path)
		if err == nil {
			err = h.check(path, v, key, int64(HeaderSize+h.BodySize()))
		}
		if err == nil {
			err = checkZSize(path, blocks, ver, fi.Size())
		}
		return h, err
	}
	h, err := parseHeader(b[:n], path)
	if err != nil {
		return h, err
	}
	if err := h.checkVersion(path, old); err != nil {
		return h, err
	}
	return h, h.check(path, v, key, fi.Size())
}

// checkVersion refuses a file of OldVersion unless old is set, and with
// old set any other.
func (h Header) checkVersion(path string, old bool) error {
	switch {
	case h.Version == OldVersion && !old:
		return fmt.Errorf("layers: %s: %w: format %d, written before the layers' order changed; `muehlectl convert` rewrites the folder's layers in format %d, keeping their values", path, ErrOldFormat, OldVersion, FileVersion)
	case h.Version != OldVersion && old:
		return fmt.Errorf("layers: %s: %w: format %d, not the old format %d", path, ErrVersion, h.Version, OldVersion)
	}
	return nil
}

// File is an open layer file: header checked, body verified, mapped. (A DB
// keeps the Files it opens for Probe unverified, checking their bodies
// block by block; it hands out only verified ones.)
type File struct {
	path  string
	h     Header
	m     mmap.MMap
	body  []byte
	dense *Dense // a dense file: its body read in place; nil otherwise
	z     *zFile // a compressed file; body is then nil until decoded in full
	// open is set for a file of compressed form 2 whose won slots hold
	// "won" (wonCode) without their depth: opened for probes, or its
	// body decoded as stored (DB.Layer then finds the depths: DB.fill).
	open   bool
	closed bool
	ls     lease // the holders of m (a compressed file's are z's): lease.go
}

// OpenFile opens the layer file at path for the given game and layer. It
// checks the magic, version, rules, header checksum, stone count, key and
// size, maps the file and verifies the body checksum. It writes the
// layer's block file when it is missing or wrong, if the folder allows. A
// missing file gives an error wrapping ErrMissing.
//
// A file of compressed form 2 (doc.go) is decoded and checked as stored
// (every frame, the stored body's checksum and its figures), but holds
// no values: its won slots' depths are found from the layers beside it,
// which only DB.Layer and DB.Probe read. Its Value is Unused and its Body
// nil.
func OpenFile(path string, v muehle.Variant, key Key) (*File, error) {
	f, _, err := openFile(path, v, key, false, false)
	if err == nil && f.open {
		f.body, f.dense = nil, nil
	}
	return f, err
}

// openFile is OpenFile, and with lazy set, when the layer's block file is
// valid, it does not read the body but returns the block file's CRCs, for
// the caller to check each block before it reads from it. It returns no
// blockChecks when it checked the whole body.
//
// With old set it opens a file of OldVersion (for ConvertOld) in full.
func openFile(path string, v muehle.Variant, key Key, lazy, old bool) (*File, *blockChecks, error) {
	return openFileParts(path, v, key, lazy, old, nil)
}

// openFileParts is openFile given the layer's parts, which a compressed
// file of one byte per slot needs to decode its blocks (the DB knows
// them; without, OpenFile asks the indexer of the game's board). A compressed file
// opened lazily is checked but for its frames, each checked as it is
// decoded; opened in full, it is decoded into memory and checked as a
// mapped body is.
func openFileParts(path string, v muehle.Variant, key Key, lazy, old bool, parts []Part) (*File, *blockChecks, error) {
	h, err := readHeader(path, v, key, old)
	if err != nil {
		return nil, nil, err
	}
	if !old && isCompressedFile(path) {
		return openCompressed(path, v, key, lazy, h, parts)
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
		err = h2.check(path, v, key, int64(len(m)))
	}
	if err == nil && h2 != h {
		err = fmt.Errorf("layers: %s: %w: changed while opening", path, ErrFormat)
	}
	if err != nil {
		m.Unmap()
		return nil, nil, err
	}
	file := &File{path: path, h: h, m: m, body: m[HeaderSize:]}
	if h.Dense() {
		if file.dense, err = denseView(file.body, h.Slots, h.Stored); err != nil {
			m.Unmap()
			return nil, nil, fmt.Errorf("layers: %s: %w: %v", path, ErrFormat, err)
		}
	}
	hcrc := binary.LittleEndian.Uint32(m[72:])
	if lazy {
		if shift, sums, err := readBlocks(path, h, hcrc); err == nil {
			return file, newBlockChecks(shift, sums), nil
		}
	}
	sums := make([]uint64, blockCount(len(file.body), blockShift))
	count := countValues(file.body, h.valuesFrom(), blockShift, sums)
	if sum := combineBlocks(sums, blockShift, len(file.body)); sum != h.Checksum {
		m.Unmap()
		return nil, nil, fmt.Errorf("layers: %s: %w: body checksum %016x, header says %016x", path, ErrChecksum, sum, h.Checksum)
	}
	if err := file.checkContents(count); err != nil {
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

// checkContents compares what a body holds, its values counted (count),
// with its header's figures and, for a dense body, its rank directory with
// its bits; the error wraps ErrChecksum.
func (f *File) checkContents(count *[256]uint64) error {
	if err := f.h.checkFigures(f.path, count); err != nil {
		return err
	}
	if f.dense != nil {
		if err := f.dense.check(); err != nil {
			return fmt.Errorf("layers: %s: %w: %v", f.path, ErrChecksum, err)
		}
	}
	return nil
}

// Value returns the value stored in slot i; Unused when i is out of range
// or, in a dense file, not stored.
func (f *File) Value(i uint64) Value {
	if f.dense != nil {
		return f.dense.Value(i)
	}
	if i >= uint64(len(f.body)) {
		return Unused
	}
	return Value(f.body[i])
}

// Body returns the mapped body, read-only: writing to it crashes the
// program. It is valid until Close. In a file of one byte per slot it is
// the slots' values; in a dense file the encoding of Dense.
func (f *File) Body() []byte { return f.body }

// Dense returns the body of a dense file, read in place (valid until
// Close), and nil for a file of one byte per slot.
func (f *File) Dense() *Dense { return f.dense }

// Close unmaps the file. The File must not be used afterwards.
func (f *File) Close() error {
	if f.closed {
		return nil
	}
	f.closed = true
	f.body = nil
	f.lease().vacated = true // gone: never to be vacated (a DB closes its Files holding d.mu)
	if f.z != nil {
		return f.z.close()
	}
	if err := f.m.Unmap(); err != nil {
		return fmt.Errorf("layers: unmapping %s: %w", f.path, err)
	}
	return nil
}
