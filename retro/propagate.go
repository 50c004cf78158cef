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
// here is appended to the list of depth d+1. Only the worker that owns the
// slot (slotOwner) calls it, so the word is read and written plainly.
func (pr *pair) settle(l int, i uint64, d int, out *pusher) error {
	w := &pr.state[l][i]
	s := *w
	v := layers.Value(s & valueMask)
	if v != layers.Drawn {
		if v == layers.Unused {
			pr.errs.Add(1)
		}
		return nil // decided already, at a smaller depth
	}
	if d%2 == 0 {
		*w = uint32(layers.WinIn(d + 1))
		return out.push(d+1, makeEntry(l, i, false))
	}
	c := s >> counterShift
	switch c {
	case 0:
		pr.errs.Add(1)
		return nil
	case 1:
		*w = uint32(layers.LossIn(d + 1))
		return out.push(d+1, makeEntry(l, i, false))
	}
	*w = uint32(layers.Drawn) | (c-1)<<counterShift
	return nil
}

// ownerShift gives the length of the runs of slots, 2^ownerShift, that
// propagation deals out to its workers (slotOwner).
const ownerShift = 12

// slotOwner returns which of workers workers settles slot i (of either
// layer) in propagation: the runs of 2^ownerShift slots go to the workers
// by a hash of the run's number, so that each owns about as many of the
// parents of any batch. A worker reads and writes only the state words it
// owns and sends the parents it finds of other slots to their owners:
// without a compare-and-swap per settle, and without data races.
func slotOwner(i uint64, workers int) int {
	h := uint32((i >> ownerShift) * 0x9e3779b97f4a7c15 >> 32)
	return int(uint64(h) * uint64(workers) >> 32)
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
// layer and slot (chunkWorks) as it hands it out to the workers: decided
// positions next to each other in the slot order share most of their
// stones, so their parents' slots, state words and index table entries lie
// close together, and the caches serve what random order fetched from
// memory (in Twelve Men's Morris nearly every position is decided and
// propagated). The order of the settles within a depth does not change any
// value (settle).
func (pr *pair) propagateDepth(ctx context.Context, d, workers int, done *atomic.Uint64) error {
	batches := make(chan work, workers)
	errc := make(chan error, workers+1)
	// wg counts the works of the chunk being worked through and the
	// blocks of slots sent to their owners: when it is zero, the chunk is
	// done and no block is on its way.
	var wg sync.WaitGroup
	// Each worker's inbox holds inboxBlocks blocks: a worker busy with a
	// batch of its own takes its inbox only between batches, and a sender
	// finding the inbox full waits.
	inbox := make([]chan *slotBlock, workers)
	for w := range inbox {
		inbox[w] = make(chan *slotBlock, inboxBlocks)
	}
	free := make(chan *slotBlock, inboxBlocks*workers)
	indexBits := pr.indexBits()
	for w := range workers {
		go func() {
			st := &settler{pr: pr, d: d, me: w, out: newPusher(pr.lists, w),
				inbox: inbox, outbox: make([][2]*slotBlock, workers), free: free, wg: &wg,
				dst: make([][]uint64, workers), end: make([]int, workers)}
			var bufs [2]parents
			var curs [2]layers.Cursor // the entries come sorted by layer and slot
			var small *muehle.Board
			if b := pr.game.Rules().Board; !b.SameSymmetries(muehle.StandardBoard) {
				small = b
			}
			for {
				var b work
				var ok bool
				select {
				case b, ok = <-batches:
				case in := <-inbox[w]:
					st.receive(in)
					continue
				}
				if !ok {
					break
				}
				es := b.sorted(indexBits)
				for lo := 0; lo < len(es); lo += propagateBatch {
					if lo > 0 {
						st.receiveWaiting()
					}
					part := es[lo:min(lo+propagateBatch, len(es))]
					for _, e := range part {
						if st.err != nil {
							break
						}
						l, i := e.layer(), e.index()
						if e.seed() {
							st.settleOrSend(l, i)
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
							st.settleParents(&bufs[p], p)
						}
						bufs[p].add(pos, pr.index[p], small)
					}
					for p := range bufs {
						st.settleParents(&bufs[p], p)
					}
					st.flush()
					done.Add(uint64(len(part)))
				}
				wg.Done()
			}
			err := st.err
			if err == nil {
				err = st.out.flush()
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
		for _, b := range chunkWorks(chunk[:n], pr.sortTmp[:n], indexBits, workers) {
			wg.Add(1)
			batches <- b
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

// A settler is one worker of the propagation of a depth. It settles the
// slots it owns (slotOwner) and gathers those of each other worker into
// blocks that it sends to that worker's inbox; while it waits to send, it
// settles what its own inbox holds, so that two workers sending to each
// other never wait for ever.
type settler struct {
	pr     *pair
	d, me  int
	out    *pusher
	inbox  []chan *slotBlock // every worker's
	outbox [][2]*slotBlock   // by worker and layer: the slots not sent yet
	free   chan *slotBlock   // blocks given back, for reuse
	wg     *sync.WaitGroup
	err    error // the first error; then the settler only keeps the count
	// settleParents's: its own parents, and each worker's destination
	// and its length
	own [parentBatch + muehle.MaxUnmoves]uint64
	dst [][]uint64
	end []int
}

// A slotBlock is a run of slots of one layer that one worker sends to
// another, their owner, to be settled. Its slots are of one layer, so
// that the loop loading their state words is short and many of their
// cache misses are under way at once.
type slotBlock struct {
	l  int
	js []uint64
}

// sendBlock is about the most slots a settler sends to another worker at
// once; inboxBlocks is how many blocks can wait in a worker's inbox (with
// 4, the workers of Twelve Men's Morris's pair 4-6 + 6-4 kept 1.82 of 2
// cores busy in propagation, with 32 1.92).
const (
	sendBlock   = 4096
	inboxBlocks = 32
)

// settleOrSend settles slot i of layer l when this settler owns it, or
// gathers it for its owner.
func (st *settler) settleOrSend(l int, i uint64) {
	if o := slotOwner(i, len(st.inbox)); o != st.me {
		b := st.blockFor(o, l, 1)
		b.js = append(b.js, i)
		st.sendFull(o, l)
		return
	}
	if err := st.pr.settle(l, i, st.d, st.out); err != nil && st.err == nil {
		st.err = err
	}
}

// blockFor returns the block of layer l for worker o, with room for n
// more slots: the block being filled, or when that has too little room
// (it is sent then) a block given back or a new one.
func (st *settler) blockFor(o, l, n int) *slotBlock {
	b := st.outbox[o][l]
	if b != nil && cap(b.js)-len(b.js) >= n {
		return b
	}
	if b != nil {
		st.send(o, b)
	}
	select {
	case b = <-st.free:
		b.l, b.js = l, b.js[:0]
	default:
		b = &slotBlock{l: l, js: make([]uint64, 0, sendBlock+parentBatch+muehle.MaxUnmoves)}
	}
	st.outbox[o][l] = b
	return b
}

// sendFull sends the block of layer l for worker o once it holds
// sendBlock slots.
func (st *settler) sendFull(o, l int) {
	if b := st.outbox[o][l]; len(b.js) >= sendBlock {
		st.send(o, b)
		st.outbox[o][l] = nil
	}
}

// flush sends every block that holds a slot.
func (st *settler) flush() {
	for o := range st.outbox {
		for l, b := range st.outbox[o] {
			if b != nil && len(b.js) > 0 {
				st.send(o, b)
				st.outbox[o][l] = nil
			}
		}
	}
}

// send hands the block b to worker o, settling the blocks sent to this
// settler while o's inbox is full.
func (st *settler) send(o int, b *slotBlock) {
	st.wg.Add(1)
	for {
		select {
		case st.inbox[o] <- b:
			return
		case in := <-st.inbox[st.me]:
			st.receive(in)
		}
	}
}

// receive settles the slots of a block another worker sent, all owned by
// this settler, and gives the block back.
func (st *settler) receive(b *slotBlock) {
	st.settleOwn(b.l, b.js)
	select {
	case st.free <- b:
	default:
	}
	st.wg.Done()
}

// receiveWaiting settles the blocks waiting in this settler's inbox, and
// returns when it is empty.
func (st *settler) receiveWaiting() {
	for {
		select {
		case in := <-st.inbox[st.me]:
			st.receive(in)
		default:
			return
		}
	}
}

// settleOwn settles the slots js of layer l, all owned by this settler,
// their state words loaded together first. Most are decided already:
// they are passed over here, settle (which checks again) is not called
// for them.
func (st *settler) settleOwn(l int, js []uint64) {
	if st.err != nil {
		return
	}
	pr, state := st.pr, st.pr.state[l]
	var sink uint32
	for _, j := range js {
		// an atomic load, which the compiler keeps though nothing reads sink
		sink |= atomic.LoadUint32(&state[j])
	}
	_ = sink
	for _, j := range js {
		if v := layers.Value(state[j] & valueMask); v != layers.Drawn {
			if v == layers.Unused {
				pr.errs.Add(1)
			}
			continue
		}
		if err := pr.settle(l, j, st.d, st.out); err != nil {
			st.err = err
			return
		}
	}
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

// propagateBatch is how many sorted entries a worker propagates before it
// sends the slots it gathered for the other workers to them.
const propagateBatch = 1 << 14

// A work is a part of a chunk of a work list that one worker propagates:
// entries sorted by layer and slot, or (runs set) runs of entries that
// share their key's bits from low up, in order, each still to be sorted
// by the bits below, with tmp (as long as es) as the second buffer.
type work struct {
	es, tmp []entry
	runs    []int // where each run begins in es, and len(es) at the end
	low     int
}

// sorted returns the entries of w sorted by layer and slot, in es or tmp.
func (w work) sorted(indexBits int) []entry {
	if w.runs == nil {
		return w.es
	}
	for r := range len(w.runs) - 1 {
		a, b := w.runs[r], w.runs[r+1]
		sortEntryBits(w.es[a:b], w.tmp[a:b], indexBits, w.low)
	}
	if radixPasses(w.low)%2 == 1 {
		return w.tmp
	}
	return w.es
}

// chunkWorks divides a chunk read from a work list (es, with tmp as long)
// into the works the workers propagate. A short chunk is sorted here, in
// one goroutine, and handed out in batches. A long one is split by the
// top bits of its keys, the workers sharing that pass (splitEntries), and
// handed out in runs of those bits, which the workers then sort each on
// its own: the sort no longer keeps one core waiting while the other
// sorts the whole list.
func chunkWorks(es, tmp []entry, indexBits, workers int) []work {
	n := len(es)
	keyBits := indexBits + 1
	if workers == 1 || n < splitMin || keyBits <= sortDigit {
		sorted := sortEntries(es, tmp, indexBits)
		var ws []work
		for lo := 0; lo < n; lo += propagateBatch {
			ws = append(ws, work{es: sorted[lo:min(lo+propagateBatch, n)]})
		}
		return ws
	}
	// The top bits: runs of about splitRun entries on average, at most
	// one digit.
	top := min(bits.Len(uint(n/splitRun)), sortDigit, keyBits)
	low := keyBits - top
	starts := splitEntries(es, tmp, indexBits, low, workers)
	// Works of whole runs, each of at least a thirty-second of a
	// worker's share, so that the last of them leaves little idle time.
	least := max(propagateBatch, n/(32*workers))
	var ws []work
	for r := 0; r < len(starts)-1; {
		a := starts[r]
		e := r + 1
		for e < len(starts)-1 && starts[e]-a < least {
			e++
		}
		b := starts[e]
		if b > a {
			runs := make([]int, e-r+1)
			for i := range runs {
				runs[i] = starts[r+i] - a
			}
			ws = append(ws, work{es: tmp[a:b], tmp: es[a:b], runs: runs, low: low})
		}
		r = e
	}
	return ws
}

const (
	// sortDigit is the bits of a pass of the radix sort.
	sortDigit = 11
	// splitMin is the fewest entries a chunk has for its sort to be split
	// among the workers; splitRun is about how many entries a run has
	// on average then.
	splitMin = 1 << 17
	splitRun = 1 << 14
)

// entryKey is the key entries are sorted by: the layer above the slot,
// which has at most indexBits bits.
func entryKey(e entry, indexBits int) uint64 {
	return uint64(e&entryIndex) | uint64(e&entrySecond)>>(62-indexBits)
}

// radixPasses returns how many passes sortEntryBits makes for bits bits.
func radixPasses(bits int) int { return (bits + sortDigit - 1) / sortDigit }

// sortEntries sorts es by layer and then slot, the seeds among the
// decided positions in the order they come, with tmp (as long as es) as
// the second buffer; the slots have at most indexBits bits. It returns
// the sorted entries, in es or in tmp.
func sortEntries(es, tmp []entry, indexBits int) []entry {
	sortEntryBits(es, tmp, indexBits, indexBits+1)
	if radixPasses(indexBits+1)%2 == 1 {
		return tmp[:len(es)]
	}
	return es
}

// sortEntryBits sorts es by the lowest bits bits of their keys, stably:
// a radix sort of sortDigit bits a pass, each pass two sequential reads
// and one scattered write, the passes going from es to tmp and back
// (radixPasses). Where the keys differ only in those bits, the entries
// are then in the order of sortEntries.
func sortEntryBits(es, tmp []entry, indexBits, bits int) {
	src, dst := es, tmp[:len(es)]
	for shift := 0; shift < bits; shift += sortDigit {
		var count [1 << sortDigit]int
		for _, e := range src {
			count[entryKey(e, indexBits)>>shift&(1<<sortDigit-1)]++
		}
		sum := 0
		for k, c := range count {
			count[k], sum = sum, sum+c
		}
		for _, e := range src {
			k := entryKey(e, indexBits) >> shift & (1<<sortDigit - 1)
			dst[count[k]] = e
			count[k]++
		}
		src, dst = dst, src
	}
}

// splitEntries orders es into tmp by the bits of their keys from low up
// (at most sortDigit of them), stably, workers goroutines each counting
// and then moving a part of es. It returns where the entries of each
// value of those bits begin in tmp, and len(es) at the end.
func splitEntries(es, tmp []entry, indexBits, low, workers int) []int {
	values := 1 << (indexBits + 1 - low)
	part := func(w int) []entry { return es[len(es)*w/workers : len(es)*(w+1)/workers] }
	counts := make([][]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			c := make([]int, values)
			for _, e := range part(w) {
				c[entryKey(e, indexBits)>>low]++
			}
			counts[w] = c
		})
	}
	wg.Wait()
	starts := make([]int, values+1)
	sum := 0
	for v := range values {
		starts[v] = sum
		for _, c := range counts {
			c[v], sum = sum, sum+c[v]
		}
	}
	starts[values] = sum
	for w := range workers {
		wg.Go(func() {
			c := counts[w]
			for _, e := range part(w) {
				k := entryKey(e, indexBits) >> low
				tmp[c[k]] = e
				c[k]++
			}
		})
	}
	wg.Wait()
	return starts
}

// parents gathers the parents (un-slides) of several decided positions of
// one layer, so that their group-B table entries, then their state words,
// are loaded together: the cache misses of many parents then overlap
// instead of following one another. Their slots are computed from the
// child and the un-move (layers.LayerIndex.UnslideCodes, RankUnslides),
// the parents never made.
type parents struct {
	moves [muehle.MaxUnmoves]muehle.Move
	// idx[:n] are the parents' codes, ranked to slots by settleParents;
	// the last ranked of idx are slots ranked already, of positions
	// whose parents had to be told apart (add)
	idx       [parentBatch + muehle.MaxUnmoves]uint64
	n, ranked int
	seen      distinct
}

// parentBatch is about how many parents are gathered before they are settled.
const parentBatch = 1024

func (b *parents) full() bool { return b.n+b.ranked >= parentBatch }

// add gathers in ix, the parents' layer, the distinct parents of the
// decided position pos; small is the board when its symmetries are not
// the standard board's, else nil.
//
// Two un-slides lead to parents of one slot only when a symmetry maps one
// parent onto the other; it then fixes pos's mover's stones, which
// un-slides leave alone (the parents' opponent's). Without such a
// symmetry the parents are distinct and need not be told apart; with one
// (few positions) they are ranked at once and told apart.
func (b *parents) add(pos muehle.Position, ix *layers.LayerIndex, small *muehle.Board) {
	var dedupe bool
	if mover := pos.Stones[pos.Turn]; small == nil {
		dedupe = mover.Symmetric()
	} else {
		dedupe = small.Symmetric(mover)
	}
	top := len(b.idx) - b.ranked
	if !dedupe {
		// full leaves room for MaxUnmoves below the slots ranked already.
		got := ix.AppendUnslideCodes(pos, b.idx[:b.n:top])
		if cap(got) != top {
			panic("retro: the parents of a batch outgrew its room")
		}
		b.n = len(got)
		return
	}
	us := pos.AppendUnslides(b.moves[:0])
	out := b.idx[top-len(us) : top]
	ix.IndexUnslides(pos, us, out)
	b.seen.reset()
	k := len(out)
	for i := len(out) - 1; i >= 0; i-- { // kept at the end of out
		if j := out[i]; b.seen.add(j) {
			k--
			out[k] = j
		}
	}
	b.ranked += len(out) - k
}

// settleParents settles the gathered parents, in layer p, that this
// settler owns and gathers the others for their owners (slotOwner), and
// empties b. The codes gathered are ranked first, all at once
// (RankUnslides), then the parents are dealt out without a branch, which
// the processor would mispredict for every other parent.
func (st *settler) settleParents(b *parents, p int) {
	n, top := b.n, len(b.idx)-b.ranked
	b.n, b.ranked = 0, 0
	if n+len(b.idx)-top == 0 || st.err != nil {
		return
	}
	st.pr.index[p].RankUnslides(b.idx[:n])
	workers := len(st.inbox)
	dst, end := st.dst[:workers], st.end[:workers]
	for o := range workers {
		if o == st.me {
			dst[o], end[o] = st.own[:], 0
			continue
		}
		blk := st.blockFor(o, p, n+len(b.idx)-top)
		dst[o], end[o] = blk.js[:cap(blk.js)], len(blk.js)
	}
	for _, js := range [2][]uint64{b.idx[:n], b.idx[top:]} {
		if workers == 2 {
			end[0], end[1] = dealTwo(js, dst[0], dst[1], end[0], end[1])
			continue
		}
		for _, j := range js {
			o := slotOwner(j, workers)
			dst[o][end[o]] = j
			end[o]++
		}
	}
	for o := range workers {
		if o != st.me {
			blk := st.outbox[o][p]
			blk.js = blk.js[:end[o]]
			st.sendFull(o, p)
		}
	}
	st.settleOwn(p, st.own[:end[st.me]])
}

// dealTwo deals the slots js out to two workers, appending each to d0[:e0]
// or d1[:e1] by its owner, and returns the new ends. Each slot is written
// to both at their ends and only its owner's end moves on, so the loop
// keeps the ends in registers and has no branch: the general loop's end
// in memory, incremented for every slot, made a chain of stores and loads
// (settleParents took 9.2 % of the samples of Twelve Men's Morris's pair
// 4-6 + 6-4 with it, 2.9 % without). Both have room for all of js: a slot
// written beyond a worker's end is never read. Inlined into
// settleParents it lost its registers to the stack (its loop counter and
// slot stored and loaded again for every slot), so it stays a call of its
// own, one per batch.
//
//go:noinline
func dealTwo(js, d0, d1 []uint64, e0, e1 int) (int, int) {
	for _, j := range js {
		o := slotOwner(j, 2)
		d0[e0] = j
		d1[e1] = j
		e0 += 1 - o
		e1 += o
	}
	return e0, e1
}
