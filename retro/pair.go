package retro

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"muehle/layers"
	"muehle/muehle"
)

// A pair is the unit of retrograde analysis: a moving layer M(w,b) and its
// partner M(b,w), between which every move without removal goes; when w = b
// the layer is its own partner. Moves with a removal lead into smaller
// layers, which are finished and read from the database.
//
// During the analysis every slot has a 32-bit state word:
//
//	bits 0-7    the layers.Value; Drawn (1) also means "not decided yet"
//	bits 8-15   while undecided: the children not yet known to be won for
//	            the opponent (the successor counter)
//
// In propagation each word has one owner among the workers (slotOwner),
// the only one that reads or writes it: no compare-and-swap, no lock.
type pair struct {
	game  muehle.GameID        // the game of the positions
	keys  []layers.Key         // one key, or two for w ≠ b
	index []*layers.LayerIndex // numbering of each layer
	state [][]uint32           // state words of each layer
	// out holds, for each layer, the layers outside the pair that its
	// moves of each kind lead to (a slide's child is in the pair)
	out   [][moveKinds]outLayer
	lists *worklists
	errs  atomic.Uint64 // inconsistencies met (index or counter errors)
	// sortMax is the most work-list entries propagation reads and sorts
	// at once; sortBuf and sortTmp are its buffers (chunkFor), which
	// sortRelease gives back.
	sortMax          int
	sortBuf, sortTmp []entry
	sortRelease      func()
	// pending marks, for each layer, the slots whose seeds wait for the
	// won depths of their children (listPending); nil when no layer
	// the moves lead to was read as stored.
	pending [][]uint64
}

// outLayer is a finished layer that moves of one kind lead to from a
// layer of the pair: a removal's, or in a game whose phases mix a
// placement's.
type outLayer struct {
	ix   *layers.LayerIndex // nil: the layer's positions make no such move
	body []byte             // its values, copied to memory for random access where they fit
	ends bool               // such a move ends the game: the opponent keeps two stones
	// marks is nil when body holds every value. Otherwise body is the
	// layer as compressed form 2 stores it (layers.DB.BorrowStored),
	// every won slot "won" without its depth, and marks has a bit for
	// each slot: the won children whose depths the count phase needs,
	// found once it is over (layers.DB.FillWon).
	marks []uint64
}

// partner returns the layer of the pair that a move without removal from
// layer l leads to.
func (pr *pair) partner(l int) int { return len(pr.keys) - 1 - l }

// slots returns the number of slots of the pair.
func (pr *pair) slots() uint64 {
	var n uint64
	for _, ix := range pr.index {
		n += ix.Size()
	}
	return n
}

const (
	valueMask    = 0xff
	counterShift = 8
)

// pusher buffers the work-list entries of one worker by depth, for the
// worker's shard of the lists.
type pusher struct {
	lists *worklists
	shard int
	buf   [][]entry // by depth
}

func newPusher(lists *worklists, shard int) *pusher {
	return &pusher{lists: lists, shard: shard}
}

func (p *pusher) push(d int, e entry) error {
	if d >= len(p.buf) {
		if d > layers.MaxDepth+1 {
			return p.lists.push(p.shard, d, []entry{e}) // which refuses it
		}
		p.buf = append(p.buf, make([][]entry, d+1-len(p.buf))...)
	}
	b := append(p.buf[d], e)
	if len(b) >= 4096 {
		if err := p.lists.push(p.shard, d, b); err != nil {
			return err
		}
		b = b[:0]
	}
	p.buf[d] = b
	return nil
}

func (p *pusher) flush() error {
	for d, b := range p.buf {
		if err := p.lists.push(p.shard, d, b); err != nil {
			return err
		}
		p.buf[d] = b[:0]
	}
	return nil
}

// errCorrupt reports a state the analysis cannot reach with a correct index
// and move generator.
var errCorrupt = errors.New("retro: inconsistent successor counts or index")

// initLayer is the first phase (count) for layer l: it marks unused slots, blocked
// positions (lost in 0) and wins by removing the opponent's third stone
// (won in 1); counts for every other position its distinct children inside
// the pair; and seeds the work lists with the values of the children in
// smaller layers, at their own depth.
func (pr *pair) initLayer(ctx context.Context, l, workers int, done *atomic.Uint64) error {
	ix, state := pr.index[l], pr.state[l]
	return pr.countRanges(ctx, l, workers, done, func(c *counter, push *pusher, lo, hi uint64) error {
		// The slots in order with their positions (Positions: a B
		// class's B part read once for all its slots); those between
		// are no position's.
		next := lo
		for i, pos := range ix.Positions(lo, hi) {
			for ; next < i; next++ {
				state[next] = uint32(layers.Unused)
			}
			next = i + 1
			pos.Game = pr.game
			s, list, seed, err := c.count(pos)
			if err != nil {
				return fmt.Errorf("retro: layer %s slot %d: %w", pr.keys[l], i, err)
			}
			state[i] = s
			switch {
			case list >= 0:
				if err := push.push(list, makeEntry(l, i, seed)); err != nil {
					return err
				}
			case list == listPending:
				setBit(pr.pending[l], i)
			}
		}
		for ; next < hi; next++ {
			state[next] = uint32(layers.Unused)
		}
		return nil
	})
}

// countRanges runs fn over the slots of layer l in ranges, on workers
// goroutines, each with a counter of the layer and a pusher of its own,
// and flushes the pushers at the end.
func (pr *pair) countRanges(ctx context.Context, l, workers int, done *atomic.Uint64, fn func(c *counter, push *pusher, lo, hi uint64) error) error {
	pushers := make([]*pusher, workers)
	for w := range pushers {
		pushers[w] = newPusher(pr.lists, w)
	}
	err := forRanges(ctx, workers, pr.index[l].Size(), 1<<14, done, func(w int, lo, hi uint64) error {
		c := counter{part: pr.index[pr.partner(l)], out: &pr.out[l]}
		if b := pr.game.Rules().Board; !b.SameSymmetries(muehle.StandardBoard) {
			c.small = b
		}
		return fn(&c, pushers[w], lo, hi)
	})
	if err != nil {
		return err
	}
	for _, p := range pushers {
		if err := p.flush(); err != nil {
			return err
		}
	}
	return nil
}

// counter is one worker's count phase of a layer of the pair.
type counter struct {
	// small is the board when its symmetries are not the standard
	// board's (muehle.Bitboard.Symmetric), else nil.
	small *muehle.Board
	part  *layers.LayerIndex // the partner, where slides without removal lead
	out   *[moveKinds]outLayer
	cw    childWork
	seen  distinct
}

// count returns the first state word of pos (mover in Stones[White]) and
// the work list it goes on: the depth of the list, or -1 for none, and
// whether the entry is a seed (a removal's depth) rather than the decided
// position itself.
func (c *counter) count(pos muehle.Position) (state uint32, list int, seed bool, err error) {
	// Two moves without removal reach children of the same slot only when a
	// symmetry maps one child onto the other; it then fixes the opponent's
	// stones, which these moves leave alone. Without such a symmetry every
	// slide is a child of its own: the slides are counted, not generated,
	// where they are all the moves without removal (no stones in hand).
	var dedupe bool
	if c.small == nil {
		dedupe = pos.Stones[muehle.Black].Symmetric()
	} else {
		dedupe = c.small.Symmetric(pos.Stones[muehle.Black])
	}
	var ms []muehle.Move
	n := 0 // distinct children inside the pair
	if !dedupe && pos.Hand[pos.Turn] == 0 {
		ms, n = pos.AppendRemovalMoves(c.cw.moves[:0])
	} else {
		ms = pos.AppendMoves(c.cw.moves[:0])
	}
	if len(ms) == 0 && n == 0 {
		if v := layers.NoMoves(&pos); v == layers.Drawn {
			// A draw by the rules: one unit that is never counted
			// down, as for a removal into a draw.
			return uint32(layers.Drawn) | 1<<counterShift, -1, false, nil
		}
		return uint32(layers.LossIn(0)), 0, false, nil
	}
	var no [moveKinds]int
	for _, m := range ms {
		kind := moveKind(m)
		switch {
		case kind == kindSlide && dedupe:
			c.cw.kms[kind][no[kind]] = m
			no[kind]++
		case kind == kindSlide:
			n++
		case c.out[kind].ends: // the opponent is left with two stones
			return uint32(layers.WinIn(1)), 1, false, nil
		default:
			c.cw.kms[kind][no[kind]] = m
			no[kind]++
		}
	}
	if ns := no[kindSlide]; ns > 0 {
		c.part.IndexMoves(pos, c.cw.kms[kindSlide][:ns], c.cw.kidIx[kindSlide][:ns])
		c.seen.reset()
		for _, j := range c.cw.kidIx[kindSlide][:ns] {
			if c.seen.add(j) {
				n++
			}
		}
	}
	r := removals{minLoss: -1, maxWin: -1}
	for kind := kindSlideRemove; kind < moveKinds; kind++ {
		nk := no[kind]
		if nk == 0 {
			continue
		}
		o := &c.out[kind]
		if o.ix == nil {
			return 0, -1, false, fmt.Errorf("a move of kind %d leads to no layer of the unit's: %w", kind, errCorrupt)
		}
		o.ix.IndexMoves(pos, c.cw.kms[kind][:nk], c.cw.kidIx[kind][:nk])
		for _, j := range c.cw.kidIx[kind][:nk] {
			v := o.body[j]
			r.unknown = r.unknown || v == storedWon && o.marks != nil
			if !r.add(layers.Value(v)) {
				return 0, -1, false, fmt.Errorf("a move leads to slot %d of layer %s, which has no value: %w", j, o.ix.Key(), errCorrupt)
			}
		}
	}
	count, d := r.counter(n)
	if r.unknown && r.minLoss < 0 && !r.draw {
		// The seed is the slowest of the won children, some of them
		// stored without their depths: mark those, and wait.
		for kind := kindSlideRemove; kind < moveKinds; kind++ {
			o := &c.out[kind]
			if o.marks == nil {
				continue
			}
			for _, j := range c.cw.kidIx[kind][:no[kind]] {
				if o.body[j] == storedWon {
					setBit(o.marks, j)
				}
			}
		}
		d = listPending
	}
	return uint32(layers.Drawn) | uint32(count)<<counterShift, d, d >= 0, nil
}

// storedWon is a won value as compressed form 2 stores it, without its
// depth: WinIn(1) (TestStoredLayers holds it to layers.WinIn).
const storedWon = byte(2 + 1)

// listPending is the list of a position whose seed waits for the depths of
// won children read as stored (outLayer.marks): seedPending gives it.
const listPending = -2

// seedPending ends the count phase when some of the layers the moves lead
// to were read as stored: it finds the depths of the won children the
// positions marked (layers.DB.FillWon), and counts each pending position
// again, now with every value it reads, for its seed.
func (pr *pair) seedPending(ctx context.Context, db *layers.DB, workers int) error {
	filled := map[layers.Key]bool{} // a layer two kinds of move lead to shares its body and marks
	for l := range pr.out {
		for kind := range pr.out[l] {
			o := &pr.out[l][kind]
			if o.marks == nil || filled[o.ix.Key()] {
				continue
			}
			filled[o.ix.Key()] = true
			if err := db.FillWon(o.ix.Key(), o.body, o.marks); err != nil {
				return fmt.Errorf("retro: pair %s: the won depths of %s: %w", pr.keys[0], o.ix.Key(), err)
			}
		}
	}
	for l := range pr.out {
		for kind := range pr.out[l] {
			pr.out[l][kind].marks = nil // every value the count reads is there now
		}
	}
	for l, ix := range pr.index {
		pending := pr.pending[l]
		err := pr.countRanges(ctx, l, workers, nil, func(c *counter, push *pusher, lo, hi uint64) error {
			for i := range layers.SetBits(pending, lo, hi) {
				pos, ok := ix.Position(i)
				if !ok {
					return fmt.Errorf("retro: layer %s slot %d is pending but no position's: %w", pr.keys[l], i, errCorrupt)
				}
				pos.Game = pr.game
				s, list, seed, err := c.count(pos)
				if err != nil {
					return fmt.Errorf("retro: layer %s slot %d: %w", pr.keys[l], i, err)
				}
				if s != pr.state[l][i] || list < 0 {
					return fmt.Errorf("retro: layer %s slot %d: counted %08x, list %d, after the won depths, %08x before: %w", pr.keys[l], i, s, list, pr.state[l][i], errCorrupt)
				}
				if err := push.push(list, makeEntry(l, i, seed)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// removals sums up what a position's moves out of the pair lead to (its
// removals; in a game whose phases mix its placements too), as depths in
// the finished layers, -1 where there is none: the fastest loss for the
// opponent, the slowest win for the opponent, and whether any is a draw.
type removals struct {
	minLoss, maxWin int
	draw            bool
	unknown         bool // a won child without its depth (outLayer.marks)
}

// add takes in the value v of a child out of the pair, seen from the
// child's side to move; it reports false when v is no value (Unused).
func (r *removals) add(v layers.Value) bool {
	switch v.Outcome() {
	case layers.Loss:
		if r.minLoss < 0 || v.Depth() < r.minLoss {
			r.minLoss = v.Depth()
		}
	case layers.Win:
		r.maxWin = max(r.maxWin, v.Depth())
	case layers.Draw:
		r.draw = true
	default:
		return false
	}
	return true
}

// counter returns the successor counter of a position with n distinct
// children inside the pair, and the depth at which its removals seed the
// work lists (-1: no seed). A removal into a lost or drawn position means
// the position can never be lost, so it gets one unit that is never
// counted down; the seed at minLoss then wins it, unless a child inside the
// pair wins it sooner. Otherwise all removals into won positions count as
// one unit, counted down by the seed at maxWin, the slowest of them.
func (r removals) counter(n int) (count, seed int) {
	switch {
	case r.minLoss >= 0:
		return n + 1, r.minLoss
	case r.draw:
		return n + 1, -1
	case r.maxWin >= 0:
		return n + 1, r.maxWin
	}
	return n, -1
}
