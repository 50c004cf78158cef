package retro

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"muehle/layers"
	"muehle/muehle"
)

// settle tells slot i of layer l that one of its children has the value
// decided at depth d: a lost child (d even) wins the slot at d+1; a won
// child (d odd) counts down the slot's counter, and the last one loses it
// at d+1, the largest depth among its children plus one. A slot decided
// here is appended to the list of depth d+1.
func (pr *pair) settle(l int, i uint64, d int, out *pusher) error {
	w := &pr.state[l][i]
	for {
		s := atomic.LoadUint32(w)
		v := layers.Value(s & valueMask)
		if v != layers.Drawn {
			if v == layers.Unused {
				pr.errs.Add(1)
			}
			return nil // decided already, at a smaller depth
		}
		var ns uint32
		if d%2 == 0 {
			ns = uint32(layers.WinIn(d + 1))
		} else {
			c := s >> counterShift
			if c == 0 {
				pr.errs.Add(1)
				return nil
			}
			if c == 1 {
				ns = uint32(layers.LossIn(d + 1))
			} else {
				ns = uint32(layers.Drawn) | (c-1)<<counterShift
			}
		}
		if atomic.CompareAndSwapUint32(w, s, ns) {
			if layers.Value(ns&valueMask) != layers.Drawn {
				return out.push(d+1, makeEntry(l, i, false))
			}
			return nil
		}
	}
}

// propagate is the second phase: it works through the lists in increasing
// depth. A slot decided at depth d settles each of its distinct parents in
// the pair; a seed settles its own slot with the depth of its child in a
// smaller layer. What is never decided stays Drawn.
func (pr *pair) propagate(ctx context.Context, workers int, done *atomic.Uint64) error {
	defer pr.freeSort()
	for d := pr.lists.next(0); d >= 0; d = pr.lists.next(d + 1) {
		if err := pr.propagateDepth(ctx, d, workers, done); err != nil {
			return err
		}
		if err := pr.lists.done(d); err != nil {
			return err
		}
	}
	if n := pr.errs.Load(); n > 0 {
		return fmt.Errorf("retro: pair %s: %d inconsistencies: %w", pr.keys[0], n, errCorrupt)
	}
	return nil
}

// propagateDepth processes the list of depth d with workers goroutines.
// It reads the list in chunks of up to pr.sortMax entries and sorts each by
// layer and slot (sortEntries) before handing it out in batches: decided
// positions next to each other in the slot order share most of their
// stones, so their parents' slots, state words and index table entries lie
// close together, and the caches serve what random order fetched from
// memory (in Twelve Men's Morris nearly every position is decided and
// propagated). The order of the settles within a depth does not change any
// value (settle).
func (pr *pair) propagateDepth(ctx context.Context, d, workers int, done *atomic.Uint64) error {
	const batch = 1 << 14
	type work struct {
		es []entry
		wg *sync.WaitGroup
	}
	batches := make(chan work, workers)
	errc := make(chan error, workers+1)
	for w := range workers {
		go func() {
			out := newPusher(pr.lists, w)
			var bufs [2]parents
			var curs [2]layers.Cursor // the entries come sorted by layer and slot
			var small *muehle.Board
			if b := pr.game.Rules().Board; !b.SameSymmetries(muehle.StandardBoard) {
				small = b
			}
			var err error
			for b := range batches {
				for _, e := range b.es {
					if err != nil {
						break
					}
					l, i := e.layer(), e.index()
					if e.seed() {
						err = pr.settle(l, i, d, out)
						continue
					}
					pos, ok := pr.index[l].PositionAt(i, &curs[l])
					if !ok {
						pr.errs.Add(1)
						continue
					}
					pos.Game = pr.game
					p := pr.partner(l)
					if bufs[p].full() {
						err = pr.settleParents(&bufs[p], p, d, out)
					}
					bufs[p].add(pos, pr.index[p], small)
				}
				for p := range bufs {
					if err == nil {
						err = pr.settleParents(&bufs[p], p, d, out)
					}
				}
				done.Add(uint64(len(b.es)))
				b.wg.Done()
			}
			if err == nil {
				err = out.flush()
			}
			errc <- err
		}()
	}
	var readErr error
	for readErr == nil {
		if readErr = ctx.Err(); readErr != nil {
			break
		}
		chunk, err := pr.chunkFor(d)
		if err != nil {
			readErr = err
			break
		}
		n, err := pr.lists.drain(d, chunk)
		if err != nil {
			readErr = err
			break
		}
		if n == 0 {
			break
		}
		sorted := sortEntries(chunk[:n], pr.sortTmp[:n], pr.indexBits())
		var wg sync.WaitGroup
		for lo := 0; lo < n; lo += batch {
			wg.Add(1)
			batches <- work{sorted[lo:min(lo+batch, n)], &wg}
		}
		wg.Wait() // the chunk is read again for the next entries
	}
	close(batches)
	first := readErr
	for range workers {
		if err := <-errc; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// sortMax returns how many work-list entries propagation sorts at once in
// a pair of slots slots (16 bytes each, the two buffers of the sort): a
// quarter of the slots, so a whole depth's list in most pairs, but at
// most 2^24 entries (256 MiB, against the 4 GiB of state words of the
// largest standard pair), and one batch when the state itself does not
// fit in the memory budget (spill).
func sortMax(slots uint64, spill bool) int {
	if spill {
		return 1 << 14
	}
	return int(min(max(slots/4, 1<<14), 1<<24))
}

// chunkFor returns the buffer propagateDepth reads the list of depth d
// into: as long as the list, at most pr.sortMax entries, and at least
// one batch; pr.sortTmp, the sort's second buffer, is as long. Both are
// allocated once per pair, outside the Go heap (layers.AllocLarge), for
// pr.sortMax entries: the system gives them pages only as far as the
// longest list writes, and the collector never sees them (freeSort).
func (pr *pair) chunkFor(d int) ([]entry, error) {
	most := max(pr.sortMax, 1<<14)
	if pr.sortBuf == nil {
		mem, release, err := layers.AllocLarge(16 * most)
		if err != nil {
			return nil, fmt.Errorf("retro: pair %s: the sort's buffers: %w", pr.keys[0], err)
		}
		all := unsafe.Slice((*entry)(unsafe.Pointer(&mem[0])), 2*most)
		pr.sortBuf, pr.sortTmp, pr.sortRelease = all[:most], all[most:], release
	}
	return pr.sortBuf[:min(max(pr.lists.length(d), 1<<14), uint64(most))], nil
}

// freeSort gives back the sort's buffers (chunkFor).
func (pr *pair) freeSort() {
	if pr.sortRelease != nil {
		pr.sortRelease()
		pr.sortBuf, pr.sortTmp, pr.sortRelease = nil, nil, nil
	}
}

// indexBits returns the bits of the largest slot index of the pair.
func (pr *pair) indexBits() int {
	var most uint64
	for _, ix := range pr.index {
		most = max(most, ix.Size())
	}
	return bits.Len64(most)
}

// sortEntries sorts es by layer and then slot, the seeds among the
// decided positions in the order they come, with tmp (as long as es) as
// the second buffer; the slots have at most indexBits bits. It returns
// the sorted entries, in es or in tmp: a radix sort of 11 bits a pass,
// each pass two sequential reads and one scattered write.
func sortEntries(es, tmp []entry, indexBits int) []entry {
	const digit = 11
	src, dst := es, tmp[:len(es)]
	keyBits := indexBits + 1 // the layer above the slot
	key := func(e entry) uint64 {
		return uint64(e&entryIndex) | uint64(e&entrySecond)>>(62-indexBits)
	}
	for shift := 0; shift < keyBits; shift += digit {
		var count [1 << digit]int
		for _, e := range src {
			count[key(e)>>shift&(1<<digit-1)]++
		}
		sum := 0
		for k, c := range count {
			count[k], sum = sum, sum+c
		}
		for _, e := range src {
			k := key(e) >> shift & (1<<digit - 1)
			dst[count[k]] = e
			count[k]++
		}
		src, dst = dst, src
	}
	return src
}

// parents gathers the parents (un-slides) of several decided positions of
// one layer, so that their state words are loaded together: the cache
// misses of many parents then overlap instead of following one another.
// Their slots are computed from the child and the un-move
// (layers.LayerIndex.IndexUnslides), the parents never made.
type parents struct {
	moves [muehle.MaxUnmoves]muehle.Move
	idx   [parentBatch + muehle.MaxUnmoves]uint64
	ends  []int // ends[c]: the end in idx of the parents of the c-th child
	// dedupe[c]: the c-th child's parents may share a slot (add)
	dedupe []bool
	n      int
	seen   distinct
}

// parentBatch is about how many parents are gathered before they are settled.
const parentBatch = 1024

func (b *parents) full() bool { return b.n >= parentBatch }

// add appends the slots in ix, the parents' layer, of the parents of the
// decided position pos; small is the board when its symmetries are not
// the standard board's, else nil.
//
// Two un-slides lead to parents of one slot only when a symmetry maps one
// parent onto the other; it then fixes pos's mover's stones, which
// un-slides leave alone (the parents' opponent's). Without such a
// symmetry the parents are distinct and need not be told apart.
func (b *parents) add(pos muehle.Position, ix *layers.LayerIndex, small *muehle.Board) {
	us := pos.AppendUnslides(b.moves[:0])
	ix.IndexUnslides(pos, us, b.idx[b.n:])
	b.n += len(us)
	b.ends = append(b.ends, b.n)
	dedupe := false
	if len(us) > 1 {
		if mover := pos.Stones[pos.Turn]; small == nil {
			dedupe = mover.Symmetric()
		} else {
			dedupe = small.Symmetric(mover)
		}
	}
	b.dedupe = append(b.dedupe, dedupe)
}

// settleParents settles every distinct parent of each gathered child, the
// parents being in layer p, and empties b.
func (pr *pair) settleParents(b *parents, p, d int, out *pusher) error {
	if b.n == 0 {
		b.ends, b.dedupe = b.ends[:0], b.dedupe[:0]
		return nil
	}
	state := pr.state[p]
	var sink uint32
	for _, j := range b.idx[:b.n] {
		sink |= atomic.LoadUint32(&state[j]) // brings the words into the cache together
	}
	_ = sink
	start := 0
	for c, end := range b.ends {
		dedupe := b.dedupe[c]
		if dedupe {
			b.seen.reset()
		}
		for _, j := range b.idx[start:end] {
			if dedupe && !b.seen.add(j) {
				continue
			}
			if err := pr.settle(p, j, d, out); err != nil {
				return err
			}
		}
		start = end
	}
	b.n, b.ends, b.dedupe = 0, b.ends[:0], b.dedupe[:0]
	return nil
}
