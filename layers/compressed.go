package layers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/edsrzf/mmap-go"

	"muehle/muehle"
)

// The compressed layer file (doc.go, "Compressed layer files").
const (
	zMagic = "MUEHLEDZ"
	// zVersion is the compressed form written: 2, the won slots stored
	// as "won" (WinIn(1)) without their depth (won.go). Form 1, every
	// value as it is, is read still.
	zVersion  = 2
	zPreamble = 32                     // magic, version, shift, blocks, CRC
	zHead     = zPreamble + HeaderSize // the preamble and the layer's header
	zEntry    = 16                     // an offset table entry: end, CRC-64
)

// zShift is log2 of the blocks of the compressed files written: 16 KiB
// (doc.go says why). Tests set it smaller.
var zShift uint = 14

// zWrite is the compressed form written; tests set 1 to make files of
// the form before.
var zWrite = zVersion

// zTail returns the bytes after the offset table of compressed form ver:
// its CRC-32C, and in form 2 before it the stored body's CRC-64.
func zTail(ver int) int {
	if ver == 1 {
		return 4
	}
	return 12
}

// zFile is an open compressed layer file: its mapping, checked on opening
// but for the frames, which are checked as they are decoded.
type zFile struct {
	path  string
	m     mmap.MMap
	shift uint
	n     int    // blocks
	size  uint64 // bytes of the body, uncompressed
	table []byte // the offset table, in the mapping
	first uint64 // where the first frame starts
	parts []Part // the layer's parts for the context streams; nil: dense
	// won is set in form 2: the blocks hold a won slot as WinIn(1),
	// "won", its depth found from its children (won.go); from is where
	// the body's values start (valuesFrom), the bytes the form changes.
	won  bool
	from uint64
	// blocks holds the blocks the DB's cache keeps decoded (cache.go).
	blocks []atomic.Pointer[cachedBlock]
	ls     lease // the holders of m (lease.go)
}

// isCompressed reports whether b, the first bytes of a file, start a
// compressed layer file.
func isCompressed(b []byte) bool { return len(b) >= 8 && string(b[:8]) == zMagic }

// parseZHead checks the preamble and the header of a compressed layer
// file, b its first zHead bytes, and returns the header, the block shift,
// the number of blocks and the compressed form (1 or 2).
func parseZHead(b []byte, name string) (Header, uint, int, int, error) {
	h, shift, n, err := parseZHeadForm(b, name)
	if err != nil {
		return h, shift, n, 0, err
	}
	return h, shift, n, int(binary.LittleEndian.Uint32(b[8:])), nil
}

// parseZHeadForm is parseZHead without the form.
func parseZHeadForm(b []byte, name string) (Header, uint, int, error) {
	le := binary.LittleEndian
	if len(b) < zHead {
		return Header{}, 0, 0, fmt.Errorf("layers: %s: %w: %d bytes, shorter than a compressed file's header", name, ErrFormat, len(b))
	}
	if got, want := le.Uint32(b[28:]), crc32.Checksum(b[:28], castagnoli); got != want {
		return Header{}, 0, 0, fmt.Errorf("layers: %s: %w: compressed file's preamble checksum %08x, want %08x", name, ErrChecksum, got, want)
	}
	if v := le.Uint32(b[8:]); v != 1 && v != zVersion {
		return Header{}, 0, 0, fmt.Errorf("layers: %s: %w: compressed form %d, want 1 or %d", name, ErrVersion, v, zVersion)
	}
	shift, n := uint(le.Uint32(b[12:])), le.Uint64(b[16:])
	h, err := parseHeader(b[zPreamble:zHead], name)
	if err != nil {
		return h, 0, 0, err
	}
	if h.Version != FileVersion {
		return h, 0, 0, fmt.Errorf("layers: %s: %w: a compressed file of layer format %d", name, ErrFormat, h.Version)
	}
	if shift < 9 || shift > 24 || h.Slots > 1<<40 || n != uint64(blockCount(int(h.BodySize()), shift)) {
		return h, 0, 0, fmt.Errorf("layers: %s: %w: %d blocks of 2^%d bytes for a body of %d", name, ErrFormat, n, shift, h.BodySize())
	}
	return h, shift, int(n), nil
}

// checkZSize checks the size of a compressed file of form ver against
// its header: at least the header, the offset table and what follows it.
func checkZSize(name string, n, ver int, size int64) error {
	if want := int64(zHead + zEntry*n + zTail(ver)); size < want {
		return fmt.Errorf("layers: %s: %w: %d bytes, shorter than its offset table (%d; truncated?)", name, ErrFormat, size, want)
	}
	return nil
}

// openZ maps the compressed layer file path and checks everything but the
// frames: the preamble, the header (against v, key), the offset table's
// checksum and order, and its block CRCs against the header's body
// checksum.
func openZ(path string, v muehle.Variant, key Key, parts []Part) (*zFile, Header, error) {
	f, err := OpenRegular(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, Header{}, fmt.Errorf("layers: %s: %w", path, ErrMissing)
		}
		return nil, Header{}, fmt.Errorf("layers: %w", err)
	}
	defer f.Close()
	m, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return nil, Header{}, fmt.Errorf("layers: mapping %s: %w", path, err)
	}
	z, h, err := checkZ(m, path, v, key)
	if err != nil {
		m.Unmap()
		return nil, h, err
	}
	if !h.Dense() {
		z.parts = parts
	}
	return z, h, nil
}

// checkZ checks the compressed file m (see openZ).
func checkZ(m []byte, path string, v muehle.Variant, key Key) (*zFile, Header, error) {
	h, shift, n, ver, err := parseZHead(m, path)
	if err == nil {
		err = h.check(path, v, key, int64(HeaderSize+h.BodySize()))
	}
	if err == nil {
		err = checkZSize(path, n, ver, int64(len(m)))
	}
	if err != nil {
		return nil, h, err
	}
	le := binary.LittleEndian
	tail := zHead + zEntry*n + zTail(ver) - 4 // the table's CRC-32C
	table := m[zHead : zHead+zEntry*n]
	if got, want := le.Uint32(m[tail:]), crc32.Checksum(m[zHead:tail], castagnoli); got != want {
		return nil, h, fmt.Errorf("layers: %s: %w: offset table checksum %08x, want %08x", path, ErrChecksum, got, want)
	}
	z := &zFile{path: path, m: mmap.MMap(m), shift: shift, n: n, size: h.BodySize(), table: table, first: uint64(tail + 4), blocks: make([]atomic.Pointer[cachedBlock], n)}
	want := h.Checksum // form 1: the blocks are the body's
	if ver == 2 {      // form 2: the stored body's, its CRC-64 after the table
		z.won, z.from = true, uint64(h.valuesFrom())
		want = le.Uint64(m[zHead+zEntry*n:])
	}
	sums := make([]uint64, n)
	at := z.first
	for b := range n {
		end := le.Uint64(table[zEntry*b:])
		if end <= at || end > uint64(len(m)) {
			return nil, h, fmt.Errorf("layers: %s: %w: block %d's frame ends at %d, after %d, in a file of %d bytes", path, ErrFormat, b, end, at, len(m))
		}
		at = end
		sums[b] = le.Uint64(table[zEntry*b+8:])
	}
	if at != uint64(len(m)) {
		return nil, h, fmt.Errorf("layers: %s: %w: %d bytes after the last frame", path, ErrFormat, uint64(len(m))-at)
	}
	if sum := combineBlocks(sums, shift, int(z.size)); sum != want {
		return nil, h, fmt.Errorf("layers: %s: %w: the offset table's block checksums make %016x, the file says %016x", path, ErrChecksum, sum, want)
	}
	return z, h, nil
}

// frame returns the coded bytes of block b and its CRC-64.
func (z *zFile) frame(b int) ([]byte, uint64) {
	le := binary.LittleEndian
	lo := z.first
	if b > 0 {
		lo = le.Uint64(z.table[zEntry*(b-1):])
	}
	hi := le.Uint64(z.table[zEntry*b:])
	if hi < lo || hi > uint64(len(z.m)) { // checked on opening; read from a retired file given up meanwhile (lease.go)
		return nil, 0
	}
	return z.m[lo:hi], le.Uint64(z.table[zEntry*b+8:])
}

// blockLen returns the bytes of body block b holds.
func (z *zFile) blockLen(b int) int {
	return int(min(z.size-uint64(b)<<z.shift, 1<<z.shift))
}

// decode decodes block b into dst (of at least its length) and checks it
// against its CRC-64; the error wraps ErrChecksum.
func (z *zFile) decode(dst []byte, b int, c *blockCoder) ([]byte, error) {
	p, sum := z.frame(b)
	n := z.blockLen(b)
	out, err := c.decode(dst[:0], p, n, uint64(b)<<z.shift, z.parts)
	if err == nil && crc64.Checksum(out, crc64Table) != sum {
		err = fmt.Errorf("decodes to bytes whose CRC-64 is not %016x", sum)
	}
	if err != nil {
		return nil, fmt.Errorf("layers: %s: %w: block %d (bytes %d to %d of the body): %v", z.path, ErrChecksum, b, b<<z.shift, b<<z.shift+n-1, err)
	}
	return out, nil
}

// wholeDecodes counts the bodies decodeAll has decoded, for the tests of
// what decodes a layer in full.
var wholeDecodes atomic.Int64

// coders lends blockCoders to the goroutines decoding blocks.
var coders = sync.Pool{New: func() any { return new(blockCoder) }}

// decodeAll decodes the whole body into memory, on all cores, checking
// every block.
func (z *zFile) decodeAll() ([]byte, error) {
	wholeDecodes.Add(1)
	body := make([]byte, z.size)
	registerDecoded(body)
	errs := make([]error, z.n)
	forBlocks(z.n, int(z.size), func(lo, hi int) {
		c := coders.Get().(*blockCoder)
		defer coders.Put(c)
		for b := lo; b < hi; b++ {
			lo := b << z.shift
			blk := body[lo : lo+z.blockLen(b) : lo+z.blockLen(b)]
			out, err := z.decode(blk, b, c)
			if err == nil && &out[0] != &blk[0] {
				copy(blk, out)
			}
			errs[b] = err
		}
	})
	if err := errors.Join(errs...); err != nil {
		for _, e := range errs {
			if e != nil {
				return nil, e
			}
		}
	}
	return body, nil
}

// close unmaps the file.
func (z *zFile) close() error {
	if err := z.m.Unmap(); err != nil {
		return fmt.Errorf("layers: unmapping %s: %w", z.path, err)
	}
	return nil
}

// writeCompressed writes the compressed file of a layer whose header is
// head (its 128 bytes, as the layer file holds them) and whose body is
// body, in blocks of 2^shift bytes, to path (synced; the caller renames
// it), in the form zWrite: in form 2 each won value (from byte from on,
// the values) stored as WinIn(1). parts are the layer's parts (nil for a
// dense body). Each block is coded by blockCoder.encode, the context
// streams tried only in a layer where a sample of its blocks finds that
// they pay (streamsPay).
func writeCompressed(path string, head []byte, body []byte, shift uint, parts []Part, from int) (int64, error) {
	n := blockCount(len(body), shift)
	sums := make([]uint64, n)
	frames := make([][]byte, n)
	errs := make([]error, n)
	ver := zWrite
	// stored returns block b as the file stores it, in buf (room for a
	// block) where that differs from the body's
	stored := func(b int, buf []byte) []byte {
		raw := block(body, b, shift)
		if ver == 2 {
			raw = storedForm(append(buf[:0], raw...), b<<shift, from)
		}
		return raw
	}
	streams, err := streamsPay(n, stored, shift, parts)
	if err != nil {
		return 0, err
	}
	forBlocks(n, len(body), func(lo, hi int) {
		c := coders.Get().(*blockCoder)
		defer coders.Put(c)
		buf := make([]byte, 0, 1<<shift)
		for b := lo; b < hi; b++ {
			raw := stored(b, buf)
			sums[b] = crc64.Checksum(raw, crc64Table)
			frames[b], errs[b] = c.encode(nil, raw, uint64(b)<<shift, parts, streams)
		}
	})
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	le := binary.LittleEndian
	pre := make([]byte, zPreamble)
	copy(pre, zMagic)
	le.PutUint32(pre[8:], uint32(ver))
	le.PutUint32(pre[12:], uint32(shift))
	le.PutUint64(pre[16:], uint64(n))
	le.PutUint32(pre[28:], crc32.Checksum(pre[:28], castagnoli))
	tail := zTail(ver)
	table := make([]byte, zEntry*n+tail)
	at := uint64(zHead + zEntry*n + tail)
	for b, f := range frames {
		at += uint64(len(f))
		le.PutUint64(table[zEntry*b:], at)
		le.PutUint64(table[zEntry*b+8:], sums[b])
	}
	if ver == 2 {
		le.PutUint64(table[zEntry*n:], combineBlocks(sums, shift, len(body)))
	}
	le.PutUint32(table[len(table)-4:], crc32.Checksum(table[:len(table)-4], castagnoli))
	parts2 := append([][]byte{pre, head, table}, frames...)
	return int64(at), writeSynced(path, parts2...)
}

// isCompressedFile reports whether the file at path starts as a compressed
// layer file does.
func isCompressedFile(path string) bool {
	f, err := OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len(zMagic))
	_, err = io.ReadFull(f, b)
	return err == nil && isCompressed(b)
}

// openCompressed is openFile for a compressed file whose header, read
// already, is h.
func openCompressed(path string, v muehle.Variant, key Key, lazy bool, h Header, parts []Part) (*File, *blockChecks, error) {
	if parts == nil && !h.Dense() {
		x, err := IndexerFor(v.Rules().Board)
		if err != nil {
			return nil, nil, err
		}
		parts = x.Layer(key).Parts()
	}
	z, h2, err := openZ(path, v, key, parts)
	if err == nil && h2 != h {
		z.close()
		err = fmt.Errorf("layers: %s: %w: changed while opening", path, ErrFormat)
	}
	if err != nil {
		return nil, nil, err
	}
	f := &File{path: path, h: h, z: z, open: z.won}
	if lazy {
		return f, nil, nil
	}
	if err := f.decodeAll(); err != nil {
		z.close()
		return nil, nil, err
	}
	DropPages(z.m) // read once to decode; the body is in memory now
	return f, nil, nil
}

// decodeAll decodes the body of a compressed file into memory and checks
// it as openFile checks a mapped body: the figures of its header, and a
// dense body's rank directory.
func (f *File) decodeAll() error {
	body, err := f.z.decodeAll()
	if err != nil {
		return err
	}
	f.body = body
	if f.h.Dense() {
		if f.dense, err = denseView(body, f.h.Slots, f.h.Stored); err != nil {
			return fmt.Errorf("layers: %s: %w: %v", f.path, ErrFormat, err)
		}
	}
	count := countValues(body, f.h.valuesFrom(), blockShift, nil)
	if f.z.won {
		err = f.h.checkStoredFigures(f.path, count)
		if err == nil && f.dense != nil {
			if err = f.dense.check(); err != nil {
				err = fmt.Errorf("layers: %s: %w: %v", f.path, ErrChecksum, err)
			}
		}
	} else {
		err = f.checkContents(count)
	}
	if err != nil {
		f.body, f.dense = nil, nil
		return err
	}
	return nil
}

// DropPages lets the pages of the file's mapped body go from this
// process's resident memory (DropPages); a body decoded in memory is left
// as it is.
func (f *File) DropPages() { DropPages(f.body) }

// dropMapped lets every mapped page of the file go from this process's
// resident memory: the mapped file, flat or compressed (a body decoded in
// memory stays).
func (f *File) dropMapped() {
	if f.z != nil {
		DropPages(f.z.m)
		return
	}
	DropPages(f.m)
}

// Compressed reports whether the file is compressed. A compressed File
// handed out by DB.Layer or OpenFile holds its body decoded in memory.
func (f *File) Compressed() bool { return f.z != nil }

// Compress rewrites the file of layer k compressed, in place, in the
// form written today (2: the won slots without their depth): the body
// checked in full (a layer of form 1 decoded in full), coded block by
// block, written to a temporary file (name.z.tmp, synced), decoded again,
// its won depths found by one ply over the layers beside it, and compared
// byte for byte with the body, then renamed over the layer file. The
// header stays the same, and with it the layer's verification record and
// block file. A layer compressed already in today's form, or lying flat
// and not smaller compressed (a layer of a few hundred bytes), is left as
// it is (done false); one of form 1 is always rewritten, so that a folder
// converted holds form 2 alone. before and after are the file's sizes.
func (d *DB) Compress(k Key) (before, after int64, done bool, err error) {
	return d.compress(k, false)
}

// CompressDerived is Compress for a solver that has just verified layer
// k, every value derived again from its children as they lie in d (the
// verifier's pass, which for a won slot is 1 + the least depth of its
// lost children): Compress's check that the won depths found by one ply
// are the body's would repeat that pass for every won slot, so it is left
// out; the decoded file is still compared with the body's stored form,
// and a reader that fills the won depths still checks the body's CRC-64.
// The compressed file is then recorded as checked in full (Check answers
// from the verification record without reading it again), and its body,
// the verified one, is held decoded when it fits the memory bound
// (SetCacheBytes), so that Layer, which the partner layer's verification
// and the next unit call, returns it without finding the depths again.
// On the first Lasker units it took a fifth of a unit's processor time
// (doc.go, "What finding the won depths costs").
func (d *DB) CompressDerived(k Key) (before, after int64, done bool, err error) {
	return d.compress(k, true)
}

// compress is Compress; derived is CompressDerived's promise.
func (d *DB) compress(k Key, derived bool) (before, after int64, done bool, err error) {
	if d.Form(k) == zWrite { // cheap: the file's first bytes
		fi, err := os.Stat(d.Path(k))
		if err != nil {
			return 0, 0, false, fmt.Errorf("layers: %w", err)
		}
		return fi.Size(), fi.Size(), false, nil
	}
	f, release, err := d.Borrow(k)
	if err != nil {
		return 0, 0, false, err
	}
	defer release() // after d.mu's unlock below: the replaced file given up now
	path := d.Path(k)
	fi, err := os.Stat(path)
	if err != nil {
		return 0, 0, false, fmt.Errorf("layers: %w", err)
	}
	head := f.m
	if f.z != nil {
		if f.z.won == (zWrite == 2) {
			return fi.Size(), fi.Size(), false, nil
		}
		head = f.z.m[zPreamble:]
	}
	var parts []Part
	if !f.h.Dense() {
		parts = d.x.Layer(k).Parts()
	}
	tmp := path + ".z.tmp"
	defer os.Remove(tmp)
	after, err = writeCompressed(tmp, head[:HeaderSize], f.body, zShift, parts, f.h.valuesFrom())
	if err == nil {
		err = d.checkCompressed(tmp, k, parts, f.body, derived)
	}
	if err != nil {
		return 0, 0, false, fmt.Errorf("layers: compressing %s: %w", path, err)
	}
	if f.z == nil && after >= fi.Size() { // a tiny layer: the file stays flat (one of form 1 is rewritten, 8 bytes larger at worst)
		return fi.Size(), fi.Size(), false, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := ReplaceFile(tmp, path); err != nil {
		return 0, 0, false, fmt.Errorf("layers: compressing %s: %w", path, err)
	}
	syncDir(path)
	d.forgetLocked(k)
	if seen, err := os.Stat(path); err == nil {
		d.noteSoundLocked(k, seen, f.h) // checkCompressed read it in full (derived: but for the won depths)
		if derived {
			d.holdCompressed(k, parts, f)
		}
	}
	return fi.Size(), after, true, nil
}

// holdCompressed holds a copy of f's body, the verified body of layer k,
// as the decoded body of its compressed file, just written and checked by
// CompressDerived, when it fits the memory bound. Nothing is held when
// the file cannot be opened: the next reader opens it as usual. d.mu is
// held.
func (d *DB) holdCompressed(k Key, parts []Part, f *File) {
	path := d.Path(k)
	if int64(len(f.body)) > d.cacheLimit() {
		return
	}
	z, h, err := openZ(path, d.v, k, parts)
	if err != nil {
		return
	}
	if h != f.h {
		z.close()
		return
	}
	body := make([]byte, len(f.body))
	copy(body, f.body)
	registerDecoded(body)
	held := &File{path: path, h: h, z: z, body: body}
	if h.Dense() {
		if held.dense, err = denseView(body, h.Slots, h.Stored); err != nil {
			z.close()
			return
		}
	}
	s, _ := keySlot(k)
	d.slots[s].Store(&dbLayer{f: held, l: d.x.Layer(k), at: time.Now()})
	d.holdDecoded(k)
}

// Compressed reports whether the file of layer k is compressed, in either
// form, by its first bytes (it checks nothing else).
func (d *DB) Compressed(k Key) bool { return isCompressedFile(d.Path(k)) }

// CompressForm is the compressed form Compress writes (doc.go): 2, the
// won slots without their depth.
const CompressForm = zVersion

// Form returns the compressed form of layer k's file by its first bytes:
// 0 when it is not compressed (or missing), else 1 or 2 (CompressForm).
func (d *DB) Form(k Key) int {
	f, err := OpenRegular(d.Path(k))
	if err != nil {
		return 0
	}
	defer f.Close()
	b := make([]byte, 12)
	if _, err := io.ReadFull(f, b); err != nil || !isCompressed(b) {
		return 0
	}
	return int(binary.LittleEndian.Uint32(b[8:]))
}

// checkCompressed opens the compressed file of layer k at path, decodes
// it and compares its body with body: in form 2 its stored body with
// body's stored form, then, its won depths found by one ply over the
// layers of d (fillWon), with body itself.
func (d *DB) checkCompressed(path string, k Key, parts []Part, body []byte, derived bool) error {
	z, h, err := openZ(path, d.v, k, parts)
	if err != nil {
		return err
	}
	defer z.close()
	got, err := z.decodeAll()
	if err != nil {
		return err
	}
	if !z.won {
		if !bytes.Equal(got, body) {
			return fmt.Errorf("%w: decodes to another body", ErrChecksum)
		}
		return nil
	}
	if !sameStored(got, body, h.valuesFrom()) {
		return fmt.Errorf("%w: decodes to another stored body", ErrChecksum)
	}
	if derived {
		return nil
	}
	if err := d.fillWon(k, h, got, nil); err != nil {
		return err
	}
	if !bytes.Equal(got, body) {
		return fmt.Errorf("%w: the won depths found by one ply are not the body's", ErrChecksum)
	}
	return nil
}

// decodedBodies records where the bodies decoded in memory lie, so that
// DropPages leaves them alone: on Linux it would zero their pages, which
// are no file's (a reader that drops the pages of a body it has read, as
// the verifier and the solver's copies do, would lose the values of the
// DB's decoded layer). A span is forgotten when its body is freed.
var decodedBodies struct {
	sync.Mutex
	spans map[uintptr]decodedSpan // by start
	next  uint64
}

// decodedSpan is a decoded body: where it ends, and the number of its
// registration. A body's cleanup runs after the garbage collector has
// freed it, and its memory may hold a new body registered at the same
// start by then: the cleanup forgets the span only if it is still its
// own registration.
type decodedSpan struct {
	end uintptr
	gen uint64
}

// registerDecoded records the decoded body b.
func registerDecoded(b []byte) {
	if len(b) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(&b[0]))
	decodedBodies.Lock()
	if decodedBodies.spans == nil {
		decodedBodies.spans = make(map[uintptr]decodedSpan)
	}
	decodedBodies.next++
	gen := decodedBodies.next
	decodedBodies.spans[start] = decodedSpan{start + uintptr(len(b)), gen}
	decodedBodies.Unlock()
	runtime.AddCleanup(&b[0], func(gen uint64) {
		decodedBodies.Lock()
		if s, ok := decodedBodies.spans[start]; ok && s.gen == gen {
			delete(decodedBodies.spans, start)
		}
		decodedBodies.Unlock()
	}, gen)
}

// isDecoded reports whether b lies in a decoded body.
func isDecoded(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(&b[0]))
	decodedBodies.Lock()
	defer decodedBodies.Unlock()
	for start, s := range decodedBodies.spans {
		if start <= p && p < s.end {
			return true
		}
	}
	return false
}
