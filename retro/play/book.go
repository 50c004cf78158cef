package play

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
// The file's format is layers' (layers/book.go): it names its game and
// stones, and a book of the older format, which named its stones only, is
// still read.
//
// A Book is safe for concurrent use.
type Book struct {
	path    string
	variant muehle.Variant

	mu    sync.RWMutex
	m     map[classKey]layers.Value
	dirty int // entries added since the last load or save
}

// BookPath returns the default book file of variant v in the database
// directory dir: placement.book in the variant's folder.
func BookPath(dir string, v muehle.Variant) string {
	return layers.BookPath(dir, v)
}

// OpenBook returns the book of variant v stored at path; a missing file
// gives an empty book (created by the first Save). A file of another game
// or a damaged one is an error wrapping layers.ErrFormat or
// layers.ErrChecksum.
func OpenBook(path string, v muehle.Variant) (*Book, error) {
	b := &Book{path: path, variant: v, m: make(map[classKey]layers.Value)}
	m, err := readBook(path, v)
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
	if dir := filepath.Dir(b.path); filepath.Clean(b.path) == BookPath(filepath.Dir(dir), muehle.Standard.With(b.variant.Stones)) {
		if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("play: saving book: %w", err)
		}
	}
	unlock, err := lockFile(b.path + ".lock")
	if err != nil {
		return fmt.Errorf("play: saving book %s: %w", b.path, err)
	}
	defer unlock()
	disk, err := readBook(b.path, b.variant)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err // a damaged file is not overwritten silently
	}
	for k, v := range disk {
		if _, ok := b.m[k]; !ok {
			b.m[k] = v
		}
	}
	if err := writeBook(b.path, b.variant, b.m); err != nil {
		return err
	}
	b.dirty = 0
	return nil
}

// readBook reads and checks the book file at path.
func readBook(path string, v muehle.Variant) (map[classKey]layers.Value, error) {
	data, err := layers.ReadRegular(path, 1<<36) // a FIFO or a device is no book
	if err != nil {
		return nil, fmt.Errorf("play: reading book: %w", err)
	}
	return parseBook(data, path, v)
}

// parseBook checks and decodes the bytes of a book file.
func parseBook(data []byte, path string, v muehle.Variant) (map[classKey]layers.Value, error) {
	m, err := layers.DecodeBook[classKey](data, v)
	if err != nil {
		return nil, fmt.Errorf("play: book %s: %w", path, err)
	}
	return m, nil
}

// writeBook writes m to path: to a temporary file in the same directory,
// synced, then renamed over path.
func writeBook(path string, v muehle.Variant, m map[classKey]layers.Value) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("play: writing book: %w", err)
	}
	_, err = f.Write(layers.EncodeBook(v, m))
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
