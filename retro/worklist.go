package retro

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"muehle/layers"
)

// An entry of a work list: a slot of one of the two layers of a pair, and
// what the entry says about it.
//
//	bit 63      seed: a child outside the pair (a removal) has the list's depth;
//	            clear: the slot itself was decided at the list's depth
//	bit 62      the slot belongs to the second layer of the pair
//	bits 0-61   the slot index
type entry uint64

const (
	entrySeed   entry = 1 << 63
	entrySecond entry = 1 << 62
	entryIndex  entry = entrySecond - 1
)

func makeEntry(layer int, index uint64, seed bool) entry {
	e := entry(index)
	if layer == 1 {
		e |= entrySecond
	}
	if seed {
		e |= entrySeed
	}
	return e
}

func (e entry) layer() int {
	if e&entrySecond != 0 {
		return 1
	}
	return 0
}

func (e entry) index() uint64 { return uint64(e & entryIndex) }
func (e entry) seed() bool    { return e&entrySeed != 0 }

// worklists holds one first-in first-out list per depth, each a cyclic disk
// array in dir, so that memory stays bounded however long the lists grow.
// Appending is safe for concurrent use; reading is done by one goroutine.
type worklists struct {
	dir          string
	capacity     uint64 // records per list: enough for every slot of the pair twice
	blockRecords int

	mu    sync.Mutex
	lists map[int]*layers.Cyclic
	seq   int
}

func newWorklists(dir string, slots uint64, blockRecords int) (*worklists, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("retro: work lists: %w", err)
	}
	return &worklists{dir: dir, capacity: 2*slots + 1, blockRecords: blockRecords, lists: map[int]*layers.Cyclic{}}, nil
}

// list returns the list of depth d, creating it when needed. w.mu must be held.
func (w *worklists) list(d int) (*layers.Cyclic, error) {
	if l, ok := w.lists[d]; ok {
		return l, nil
	}
	w.seq++
	path := filepath.Join(w.dir, fmt.Sprintf("depth%03d-%d.ring", d, w.seq))
	l, err := layers.CreateCyclic(path, 8, w.capacity, w.blockRecords)
	if err != nil {
		return nil, fmt.Errorf("retro: work list for depth %d: %w", d, err)
	}
	w.lists[d] = l
	return l, nil
}

// push appends the entries es to the list of depth d.
func (w *worklists) push(d int, es []entry) error {
	if len(es) == 0 {
		return nil
	}
	if d > layers.MaxDepth {
		return fmt.Errorf("retro: depth %d exceeds the largest storable depth %d", d, layers.MaxDepth)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	l, err := w.list(d)
	if err != nil {
		return err
	}
	var rec [8]byte
	for _, e := range es {
		binary.LittleEndian.PutUint64(rec[:], uint64(e))
		if err := l.Write(rec[:]); err != nil {
			return fmt.Errorf("retro: work list for depth %d: %w", d, err)
		}
	}
	return nil
}

// next returns the smallest depth ≥ d with a list that has entries, or -1.
func (w *worklists) next(d int) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	best := -1
	for depth, l := range w.lists {
		if depth >= d && l.Len() > 0 && (best < 0 || depth < best) {
			best = depth
		}
	}
	return best
}

// drain reads up to len(buf) entries of the list of depth d into buf and
// returns how many it read; 0 when the list is empty.
func (w *worklists) drain(d int, buf []entry) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	l, ok := w.lists[d]
	if !ok {
		return 0, nil
	}
	var rec [8]byte
	n := 0
	for n < len(buf) {
		ok, err := l.Read(rec[:])
		if err != nil {
			return n, fmt.Errorf("retro: work list for depth %d: %w", d, err)
		}
		if !ok {
			break
		}
		buf[n] = entry(binary.LittleEndian.Uint64(rec[:]))
		n++
	}
	return n, nil
}

// done closes and removes the list of depth d, which must be empty.
func (w *worklists) done(d int) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	l, ok := w.lists[d]
	if !ok {
		return nil
	}
	delete(w.lists, d)
	return l.Close()
}

// close removes every list.
func (w *worklists) close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	var first error
	for d, l := range w.lists {
		if err := l.Close(); err != nil && first == nil {
			first = err
		}
		delete(w.lists, d)
	}
	return first
}
