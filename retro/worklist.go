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

// worklists holds the first-in first-out lists of work by depth, each a
// cyclic disk array in dir, so that memory stays bounded however long the
// lists grow. Every worker appends to lists of its own (a shard), so
// appending never waits for another worker; a list of depth d is read by
// one goroutine once nothing is appended to it any more (entries of depth
// d are made while depth d-1 is worked through, or in the count phase).
type worklists struct {
	dir          string
	capacity     uint64 // records per list: enough for every slot of the pair twice
	blockRecords int
	shards       []*listShard
	raw          []byte // the reader's buffer
}

// listShard is one worker's lists by depth. Its mutex is taken by the
// worker that appends and by the reader, hardly ever at the same time.
type listShard struct {
	mu    sync.Mutex
	lists map[int]*cyclic
	buf   []byte // records being appended, encoded
}

func newWorklists(dir string, slots uint64, blockRecords, workers int) (*worklists, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("retro: work lists: %w", err)
	}
	w := &worklists{dir: dir, capacity: 2*slots + 1, blockRecords: blockRecords}
	for range workers {
		w.shards = append(w.shards, &listShard{lists: map[int]*cyclic{}})
	}
	return w, nil
}

// list returns shard s's list of depth d, creating it when needed. The
// shard's mutex must be held.
func (w *worklists) list(s, d int) (*cyclic, error) {
	sh := w.shards[s]
	if l, ok := sh.lists[d]; ok {
		return l, nil
	}
	path := filepath.Join(w.dir, fmt.Sprintf("depth%03d-w%d.ring", d, s))
	l, err := createCyclic(path, 8, w.capacity, w.blockRecords)
	if err != nil {
		return nil, fmt.Errorf("retro: work list for depth %d: %w", d, err)
	}
	sh.lists[d] = l
	return l, nil
}

// push appends the entries es to worker s's list of depth d.
func (w *worklists) push(s, d int, es []entry) error {
	if len(es) == 0 {
		return nil
	}
	if d > layers.MaxDepth {
		return fmt.Errorf("retro: depth %d exceeds the largest storable depth %d", d, layers.MaxDepth)
	}
	sh := w.shards[s]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	l, err := w.list(s, d)
	if err != nil {
		return err
	}
	sh.buf = sh.buf[:0]
	for _, e := range es {
		sh.buf = binary.LittleEndian.AppendUint64(sh.buf, uint64(e))
	}
	if err := l.WriteRecords(sh.buf); err != nil {
		return fmt.Errorf("retro: work list for depth %d: %w", d, err)
	}
	return nil
}

// next returns the smallest depth ≥ d with a list that has entries, or -1.
func (w *worklists) next(d int) int {
	best := -1
	for _, sh := range w.shards {
		sh.mu.Lock()
		for depth, l := range sh.lists {
			if depth >= d && l.Len() > 0 && (best < 0 || depth < best) {
				best = depth
			}
		}
		sh.mu.Unlock()
	}
	return best
}

// length returns the number of entries of the lists of depth d.
func (w *worklists) length(d int) uint64 {
	var n uint64
	for _, sh := range w.shards {
		sh.mu.Lock()
		if l, ok := sh.lists[d]; ok {
			n += l.Len()
		}
		sh.mu.Unlock()
	}
	return n
}

// drain reads up to len(buf) entries of the lists of depth d into buf and
// returns how many it read; 0 when they are all empty. Only one goroutine
// may drain. It reads through a buffer of at most drainRaw entries, so a
// long buf costs no second copy of its size.
func (w *worklists) drain(d int, buf []entry) (int, error) {
	const drainRaw = 1 << 14
	n := 0
	if len(w.raw) < 8*drainRaw {
		w.raw = make([]byte, 8*drainRaw)
	}
	for _, sh := range w.shards {
		sh.mu.Lock()
		l, ok := sh.lists[d]
		var err error
		for ok && n < len(buf) {
			var got int
			got, err = l.ReadRecords(w.raw[:8*min(len(buf)-n, drainRaw)])
			for i := range got {
				buf[n] = entry(binary.LittleEndian.Uint64(w.raw[8*i:]))
				n++
			}
			if got == 0 || err != nil {
				break
			}
		}
		sh.mu.Unlock()
		if err != nil {
			return n, fmt.Errorf("retro: work list for depth %d: %w", d, err)
		}
		if n == len(buf) {
			break
		}
	}
	return n, nil
}

// done closes and removes the lists of depth d, which must be empty.
func (w *worklists) done(d int) error {
	var first error
	for _, sh := range w.shards {
		sh.mu.Lock()
		if l, ok := sh.lists[d]; ok {
			delete(sh.lists, d)
			if err := l.Close(); err != nil && first == nil {
				first = err
			}
		}
		sh.mu.Unlock()
	}
	return first
}

// close removes every list.
func (w *worklists) close() error {
	var first error
	for _, sh := range w.shards {
		sh.mu.Lock()
		for d, l := range sh.lists {
			if err := l.Close(); err != nil && first == nil {
				first = err
			}
			delete(sh.lists, d)
		}
		sh.mu.Unlock()
	}
	return first
}
