package play

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc64"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"muehle/layers"
	"muehle/muehle"
)

// A Book is the persistent cache of a PlacementSearch: the exact values of
// placement positions already decided, by symmetry class, so that asking
// again costs a look-up (an opening book in Baier's sense, filled by the
// search itself). It lives in one file per game, by default
// <db>/k<stones>/placement.book beside the layers (BookPath).
//
// The file is written whole to a temporary name and renamed into place,
// so a reader never sees half a book, and Save merges with what other
// processes saved since (under an advisory lock where the system has one),
// so the desktop program and muehlectl may share it. Every entry is an
// exact value: merging two books can only add entries.
//
// File format, little-endian:
//
//	0   8 bytes  magic "MUEHLEBK"
//	8   2        format version (1)
//	10  1        stones per side of the game
//	11  1        reserved (0)
//	12  8        number of entries n
//	20  9·n      entries by increasing class key: key (8 bytes: the
//	             layer's four counts, 4 bits each, then the layers index
//	             in 48 bits), value (1 byte, a layers.Value)
//	20+9n 8      CRC-64 (ECMA) of all bytes before it
//
// A Book is safe for concurrent use.
type Book struct {
	path   string
	stones int

	mu    sync.RWMutex
	m     map[classKey]layers.Value
	dirty int // entries added since the last load or save
}

const (
	bookMagic   = "MUEHLEBK"
	bookVersion = 1
	bookHeader  = 20
	bookEntry   = 9
)

var bookCRC = crc64.MakeTable(crc64.ECMA)

// BookPath returns the default book file of variant v in the database
// directory dir: placement.book in the variant's folder.
func BookPath(dir string, v muehle.Variant) string {
	return layers.BookPath(dir, v)
}

// OpenBook returns the book of the game with stones per side stored at
// path; a missing file gives an empty book (created by the first Save). A
// file of another game or a damaged one is an error wrapping
// layers.ErrFormat or layers.ErrChecksum.
func OpenBook(path string, stones int) (*Book, error) {
	b := &Book{path: path, stones: stones, m: make(map[classKey]layers.Value)}
	m, err := readBook(path, stones)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if m != nil {
		b.m = m
	}
	return b, nil
}

// Path returns the book's file.
func (b *Book) Path() string { return b.path }

// Len returns the number of entries.
func (b *Book) Len() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.m)
}

// Unsaved returns the number of entries added since the last Save.
func (b *Book) Unsaved() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.dirty
}

// Get returns the value stored for the class k.
func (b *Book) Get(k classKey) (layers.Value, bool) {
	b.mu.RLock()
	v, ok := b.m[k]
	b.mu.RUnlock()
	return v, ok
}

// Put stores the exact value v of the class k.
func (b *Book) Put(k classKey, v layers.Value) {
	b.mu.Lock()
	if _, ok := b.m[k]; !ok {
		b.dirty++
	}
	b.m[k] = v
	b.mu.Unlock()
}

// Save writes the book to its file, merged with the entries other
// processes saved there since it was read. It does nothing when no entry
// was added. The one folder it creates is the game's folder of a database
// whose book it is (BookPath: DIR/k<stones>, when DIR exists); any other
// book's folder must exist, so that a book named on the command line
// never makes folders appear elsewhere.
func (b *Book) Save() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dirty == 0 {
		return nil
	}
	// A default book is X/k<stones>/placement.book in every game's folder.
	if dir := filepath.Dir(b.path); filepath.Clean(b.path) == BookPath(filepath.Dir(dir), muehle.Standard.With(b.stones)) {
		if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("play: saving book: %w", err)
		}
	}
	unlock, err := lockFile(b.path + ".lock")
	if err != nil {
		return fmt.Errorf("play: saving book %s: %w", b.path, err)
	}
	defer unlock()
	disk, err := readBook(b.path, b.stones)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err // a damaged file is not overwritten silently
	}
	for k, v := range disk {
		if _, ok := b.m[k]; !ok {
			b.m[k] = v
		}
	}
	if err := writeBook(b.path, b.stones, b.m); err != nil {
		return err
	}
	b.dirty = 0
	return nil
}

// readBook reads and checks the book file at path.
func readBook(path string, stones int) (map[classKey]layers.Value, error) {
	data, err := layers.ReadRegular(path, 1<<36) // a FIFO or a device is no book
	if err != nil {
		return nil, fmt.Errorf("play: reading book: %w", err)
	}
	return parseBook(data, path, stones)
}

// parseBook checks and decodes the bytes of a book file.
func parseBook(data []byte, path string, stones int) (map[classKey]layers.Value, error) {
	if len(data) < bookHeader+8 || string(data[:8]) != bookMagic {
		return nil, fmt.Errorf("play: book %s: %w: no book header", path, layers.ErrFormat)
	}
	le := binary.LittleEndian
	if v := le.Uint16(data[8:]); v != bookVersion {
		return nil, fmt.Errorf("play: book %s: %w: version %d, want %d", path, layers.ErrFormat, v, bookVersion)
	}
	if s := int(data[10]); s != stones {
		return nil, fmt.Errorf("play: book %s: %w: a book of the %d-stone game, want %d", path, layers.ErrFormat, s, stones)
	}
	n := le.Uint64(data[12:])
	if n > uint64(len(data)) || uint64(len(data)) != bookHeader+bookEntry*n+8 {
		return nil, fmt.Errorf("play: book %s: %w: %d bytes for %d entries", path, layers.ErrFormat, len(data), n)
	}
	body := data[:len(data)-8]
	if sum := crc64.Checksum(body, bookCRC); sum != le.Uint64(data[len(body):]) {
		return nil, fmt.Errorf("play: book %s: %w", path, layers.ErrChecksum)
	}
	m := make(map[classKey]layers.Value, n)
	prev := classKey(0)
	for i := range n {
		e := body[bookHeader+bookEntry*i:]
		k, v := classKey(le.Uint64(e)), layers.Value(e[8])
		if i > 0 && k <= prev || v == layers.Unused {
			return nil, fmt.Errorf("play: book %s: %w: entry %d out of order or unused", path, layers.ErrFormat, i)
		}
		m[k], prev = v, k
	}
	return m, nil
}

// encodeBook returns the bytes of a book file holding m.
func encodeBook(stones int, m map[classKey]layers.Value) []byte {
	keys := slices.Sorted(maps.Keys(m))
	var buf bytes.Buffer
	buf.Grow(bookHeader + bookEntry*len(keys) + 8)
	le := binary.LittleEndian
	buf.WriteString(bookMagic)
	buf.Write(le.AppendUint16(nil, bookVersion))
	buf.Write([]byte{byte(stones), 0})
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

// writeBook writes m to path: to a temporary file in the same directory,
// synced, then renamed over path.
func writeBook(path string, stones int, m map[classKey]layers.Value) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("play: writing book: %w", err)
	}
	_, err = f.Write(encodeBook(stones, m))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = layers.ReplaceFile(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("play: writing book %s: %w", path, err)
	}
	return nil
}
