package layers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"muehle/muehle"
)

// Compressed form 2 keeps the depth of the lost slots only: a won value is
// stored as wonCode, "won", and its depth found by one ply, 1 + the least
// depth among the children lost for their side to move (doc.go,
// "Compressed layer files"). The children's lost depths are always stored,
// so that the ply never recurses: it reads the children as stored.

// wonCode is what form 2 stores for a won value: WinIn(1), whose outcome
// is won, so that the coders' contexts and the outcome of a stored byte
// stay as they are.
const wonCode = byte(2 + 1)

// storedForm rewrites the bytes of raw, the body from byte base on, as
// form 2 stores them: a won value (from byte from on: the values of the
// body, after a dense body's bits and directory) becomes wonCode. It
// returns raw.
func storedForm(raw []byte, base, from int) []byte {
	v := raw[min(max(from-base, 0), len(raw)):]
	for ; len(v) >= 8; v = v[8:] {
		binary.LittleEndian.PutUint64(v, storedWord(binary.LittleEndian.Uint64(v)))
	}
	for j, b := range v {
		v[j] = byte(storedWord(uint64(b)))
	}
	return raw
}

// sameStored reports whether got is body as form 2 stores it (storedForm,
// the values from byte from on), without a copy of the whole body: a
// page at a time is copied and rewritten.
func sameStored(got, body []byte, from int) bool {
	if len(got) != len(body) {
		return false
	}
	var buf [4096]byte
	for lo := 0; lo < len(body); lo += len(buf) {
		hi := min(lo+len(buf), len(body))
		if !bytes.Equal(got[lo:hi], storedForm(append(buf[:0], body[lo:hi]...), lo, from)) {
			return false
		}
	}
	return true
}

// storedWord returns the eight bytes of x as form 2 stores them, each won
// value (2 + d, d odd: an odd byte above 2) made wonCode, without a
// branch: the bytes with bit 0 set and any of bits 1 to 7 are the won
// ones. A branch per byte took 18 % of writing a Lasker Morris layer
// compressed (BenchmarkWriteCompressed, 7-8), its outcome a coin toss.
func storedWord(x uint64) uint64 {
	const ones, highs, low7 = 0x0101010101010101, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	upper := x >> 1 & low7              // bits 1 to 7 of each byte
	some := (upper + low7) & highs >> 7 // 1 in each byte where one of them is set (no carry: at most 0xfe)
	won := (some & x & ones) * 0xff     // 0xff in each won byte
	return x&^won | ones*uint64(wonCode)&won
}

// checkStoredFigures is checkFigures for a body of form 2, count its
// values counted: every won value is wonCode, so the header's deepest win
// is not the body's.
func (h Header) checkStoredFigures(path string, count *[256]uint64) error {
	for v := int(wonCode) + 2; v < 256; v += 2 {
		if count[v] != 0 {
			return fmt.Errorf("layers: %s: %w: %d slots of value %d, which compressed form 2 does not store", path, ErrChecksum, count[v], v)
		}
	}
	got := h
	got.setFigures(count)
	if got.Won > 0 {
		got.DeepestWin = h.DeepestWin
	}
	if got != h {
		return fmt.Errorf("layers: %s: %w: the header's figures (won %d, lost %d, drawn %d, deepest loss %d) are not the stored body's (won %d, lost %d, drawn %d, deepest loss %d)",
			path, ErrChecksum, h.Won, h.Lost, h.Drawn, h.DeepestLoss, got.Won, got.Lost, got.Drawn, got.DeepestLoss)
	}
	return nil
}

// errNoLostChild is the damage of a slot stored won whose children are
// none of them lost.
var errNoLostChild = errors.New("stored won, but none of its children is lost")

// storedOnce returns the value of p's slot as its layer's file stores it
// (in form 2 a won slot as wonCode), with the open layer and the slot
// (also with an error found in its file); e is nil when p is lost without
// a file (fewer than LoseBelow stones). DB.stored calls it.
func (d *DB) storedOnce(p muehle.Position) (Value, *dbLayer, uint64, error) {
	t := p.Turn & 1
	m, o := p.Stones[t], p.Stones[t^1]
	if m&o != 0 || (m|o)&^p.Board().All() != 0 {
		return Unused, nil, 0, fmt.Errorf("layers: probing %v: %w: overlapping stones", p, muehle.ErrPosition)
	}
	if p.Game != d.v.Game {
		return Unused, nil, 0, fmt.Errorf("layers: probing %v: %w: a position of %s in the database of %s", p, muehle.ErrPosition, p.Game, d.v)
	}
	if m.Count()+int(p.Hand[t]) < LoseBelow { // the game's rule too: CheckVariant
		return LossIn(0), nil, 0, nil
	}
	k := KeyOf(p)
	e := d.cached(k)
	if e == nil || e.f == nil {
		var err error
		if e, err = d.layer(k, false); err != nil {
			return Unused, nil, 0, err
		}
	}
	i := e.l.Index(p)
	if e.f.body == nil { // compressed, read through the block cache
		v, err := d.cache.value(e.f.z, &e.f.h, i)
		if err != nil {
			d.cache.forget(e.f.z)
			return Unused, e, 0, d.blockDamaged(k, e, err)
		}
		return v, e, i, nil
	}
	if e.lazy != nil {
		if err := e.checkRead(i); err != nil {
			return Unused, e, 0, d.blockDamaged(k, e, err)
		}
	}
	return e.f.Value(i), e, i, nil
}

// ProbeOutcome returns whether p is won, drawn or lost for its side to
// move (NoOutcome: an unused slot), as Probe(p).Outcome() would, without
// a won slot's depth: in compressed form 2 without the ply of probes that
// finds it. The players read outcomes so where they need no depth
// (OutcomeProber).
func (d *DB) ProbeOutcome(p muehle.Position) (Outcome, error) {
	v, _, _, err := d.stored(p)
	if err != nil {
		return NoOutcome, err
	}
	return v.Outcome(), nil
}

// ProbeKept returns p's value as Probe does where its layer keeps it
// (kept true), and for a position stored won in compressed form 2 the
// stored "won" without the ply of probes that finds its depth (kept
// false; its depth is not p's). KeptProber.
func (d *DB) ProbeKept(p muehle.Position) (Value, bool, error) {
	v, e, _, err := d.stored(p)
	if err != nil || byte(v) != wonCode || e == nil || !e.f.open {
		return v, true, err
	}
	return v, false, nil
}

// wonDepth returns the depth of p, a position won for its side to move:
// 1 + the least depth of its children lost for theirs, read as their
// layers store them (captures first: a lost-in-0 child ends the search).
// A position none of whose children is lost gives errNoLostChild.
func (d *DB) wonDepth(p muehle.Position) (int, error) {
	var buf [muehle.MaxMoves]muehle.Move
	ms := p.AppendMoves(buf[:0])
	best := noLostChild
	for pass := range 2 {
		for _, m := range ms {
			if m.IsRemoval() != (pass == 0) {
				continue
			}
			v, _, _, err := d.stored(p.Play(m))
			if err != nil {
				return 0, err
			}
			if best.add(v) {
				return 1, nil
			}
		}
	}
	return best.depth()
}

// lostChild is the least depth of the lost children seen of a won
// position, noLostChild before the first.
type lostChild int

const noLostChild lostChild = -1

// add counts a child of value v and reports whether it is lost in 0: the
// position is won in 1, nothing is faster.
func (b *lostChild) add(v Value) bool {
	if v.Outcome() == Loss && (*b == noLostChild || lostChild(v.Depth()) < *b) {
		*b = lostChild(v.Depth())
	}
	return *b == 0
}

// depth returns the won position's depth, 1 + the least depth of its lost
// children, or errNoLostChild.
func (b lostChild) depth() (int, error) {
	if b == noLostChild {
		return 0, errNoLostChild
	}
	return int(b) + 1, nil
}

// wonValue returns the value of p, stored won in slot i of the open layer
// e of form 2: its depth by one ply. A slot without a lost child makes
// the layer damaged, as a failing block check does.
func (d *DB) wonValue(p muehle.Position, e *dbLayer, i uint64) (Value, error) {
	dep, err := d.wonDepth(p)
	if errors.Is(err, errNoLostChild) {
		return Unused, d.blockDamaged(e.l.Key(), e, fmt.Errorf("layers: %s: %w: slot %d: %v", e.f.path, ErrChecksum, i, err))
	}
	if err != nil {
		return Unused, err
	}
	return WinIn(dep), nil
}

// fill completes the open layer e of form 2, its stored body decoded in
// memory: a copy of the body with every won slot's depth found by one ply
// (fillWon), checked as a flat body is (its CRC-64 against the header's
// body checksum, its figures, a dense body's directory), replaces e in
// the DB. A slot without a lost child, or a body that does not check,
// makes the layer damaged.
func (d *DB) fill(k Key, e *dbLayer) (*File, error) {
	body := make([]byte, len(e.f.body))
	copy(body, e.f.body)
	registerDecoded(body)
	f := &File{path: e.f.path, h: e.f.h, z: e.f.z, body: body}
	err := d.fillWon(k, f.h, body, nil)
	if err == nil && f.h.Dense() {
		if f.dense, err = denseView(body, f.h.Slots, f.h.Stored); err != nil {
			err = fmt.Errorf("layers: %s: %w: %v", f.path, ErrFormat, err)
		}
	}
	if err == nil {
		sums := make([]uint64, blockCount(len(body), blockShift))
		count := countValues(body, f.h.valuesFrom(), blockShift, sums)
		if sum := combineBlocks(sums, blockShift, len(body)); sum != f.h.Checksum {
			err = fmt.Errorf("layers: %s: %w: the body with its won depths found has checksum %016x, the header says %016x", f.path, ErrChecksum, sum, f.h.Checksum)
		} else {
			err = f.checkContents(count)
		}
	}
	s, _ := keySlot(k)
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		var de *DamagedError
		switch {
		case errors.As(err, &de) && de.Key == k: // a won slot without a lost child
			return nil, d.damaged(s, e, de)
		case de == nil && (errors.Is(err, ErrChecksum) || errors.Is(err, ErrFormat)):
			return nil, d.damaged(s, e, &DamagedError{Key: k, Err: err})
		}
		return nil, err // a child's layer missing or damaged: k is not
	}
	if d.slots[s].Load() == e {
		d.slots[s].Store(&dbLayer{f: f, l: e.l, at: e.at})
		d.holdDecoded(k)
	}
	return f, nil
}

// fillWon sets the depth of every won slot of body, the stored body of
// layer k (header h), decoded in form 2, by one ply over its children
// read through d, on all cores; with marks, of a body of one byte per
// slot, only of the won slots whose bit is set there (bit i%64 of
// marks[i/64] for slot i). A won slot without a lost child gives a
// *DamagedError of k (wrapping ErrChecksum); a child's layer missing or
// damaged, its error.
func (d *DB) fillWon(k Key, h Header, body []byte, marks []uint64) error {
	l := d.x.Layer(k)
	var dv *Dense
	if h.Dense() {
		var err error
		if dv, err = denseView(body, h.Slots, h.Stored); err != nil {
			return &DamagedError{Key: k, Err: fmt.Errorf("layers: %s: %w: %v", d.Path(k), ErrFormat, err)}
		}
	}
	const chunk = 1 << 16
	chunks := (h.Slots + chunk - 1) / chunk
	var next atomic.Uint64
	var failed atomic.Bool
	var mu sync.Mutex
	var first error
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
		failed.Store(true)
	}
	one := func(r *plyReader, i uint64, p muehle.Position, at *byte) bool {
		p.Game = d.v.Game
		dep, err := r.wonDepth(p)
		switch {
		case errors.Is(err, errNoLostChild):
			fail(&DamagedError{Key: k, Err: fmt.Errorf("layers: %s: %w: slot %d: %v", d.Path(k), ErrChecksum, i, err)})
			return false
		case err != nil:
			fail(fmt.Errorf("layers: layer %v's won depths: %w", k, err))
			return false
		}
		*at = byte(WinIn(dep))
		return true
	}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			r := &plyReader{d: d, k: k}
			defer r.release()
			for !failed.Load() {
				c := next.Add(1) - 1
				if c >= chunks {
					return
				}
				lo, hi := c*chunk, min((c+1)*chunk, h.Slots)
				if dv == nil { // the won slots only, unranked in increasing order
					for i := lo; i < hi; i++ {
						if body[i] != wonCode || marks != nil && marks[i/64]&(1<<(i%64)) == 0 {
							continue
						}
						p, ok := l.PositionAt(i, &r.cur)
						if !ok {
							fail(&DamagedError{Key: k, Err: fmt.Errorf("layers: %s: %w: slot %d is stored won but is no position", d.Path(k), ErrChecksum, i)})
							return
						}
						if !one(r, i, p, &body[i]) {
							return
						}
					}
					continue
				}
				at := dv.rank(lo)
				for i := range SetBits(dv.bits, lo, hi) {
					if dv.values[at] == wonCode {
						p, ok := l.Position(i)
						if !ok {
							fail(&DamagedError{Key: k, Err: fmt.Errorf("layers: %s: %w: slot %d is stored won but is no position", d.Path(k), ErrChecksum, i)})
							return
						}
						if !one(r, i, p, &dv.values[at]) {
							return
						}
					}
					at++
				}
			}
		})
	}
	wg.Wait()
	return first
}

// plyReader finds the depths of won positions of layer k for fillWon, as
// DB.wonDepth does, but faster: the moves of a position sorted by their
// kind (slide or placement, with a removal or not), whose children all lie
// in one layer (Key.Child), ranked together from the position and the
// moves (LayerIndex.IndexMoves: the children are never made), their
// values read from the layers' open entries. When the children lie in
// layers held in memory one byte per slot, as a moving layer's and Lasker
// Morris's mixed layers' do once decoded or mapped, the slides' children
// and then the placements' are ranked at once (IndexMovesSplit) and their
// bytes read directly, the least lost one kept without a branch
// (flatDepth). One per goroutine.
type plyReader struct {
	d     *DB
	k     Key
	kinds [4]plyKind
	moves [muehle.MaxMoves]muehle.Move
	kms   [4][muehle.MaxMoves]muehle.Move
	ix    [muehle.MaxMoves]uint64
	cur   Cursor // of layer k's slots, walked in increasing order
	// groups are the slides' and the placements' layers as flatDepth
	// reads them.
	groups [2]flatGroup
}

// lostKey[v] is v for a lost value, 255 (a won value) for any other: the
// least key of a position's children is its fastest lost child, 255 when
// none is lost.
var lostKey = func() (t [256]byte) {
	for v := range 256 {
		t[v] = 255
		if Value(v).Outcome() == Loss {
			t[v] = byte(v)
		}
	}
	return t
}()

// inMemory reports whether the layer the moves of kind j lead to, open,
// is held in memory and checked in full, and makes it so: a flat file
// opened for probes is checked now, as DB.Layer would; a compressed one
// opened for probes is decoded now (as Layer holds it, within the DB's
// memory bound): in form 2 as stored, which holds every lost slot's
// depth, all that the fill reads. Decoding a layer costs a few ns per
// slot, where each won slot filled through the block cache costs some
// 100 ns more than through a body in memory (doc.go), and a cache
// smaller than the layer decodes its blocks again and again. A layer
// that cannot be read in full (damaged) is left as it was: the probes
// find the damage as before.
func (r *plyReader) inMemory(j int) bool {
	t := r.kind(j)
	if t.e.lazy != nil || t.e.f.body == nil { // read so far block by block
		c, _ := r.k.Child(j >= 2, j&1 == 1)
		e, err := r.d.layer(c, true)
		if err != nil || e.f != t.e.f && !r.d.hold(e) {
			return false
		}
		if e.f != t.e.f {
			r.d.release(t.e.f)
		}
		t.e = e
	}
	return t.e.lazy == nil && t.e.f.body != nil
}

// flatDepth is wonDepth of p, whose moves are ms (AppendMoves:
// placements first, then slides), when the layers they lead to are held in
// memory one byte per slot (flat), as a moving layer's children are once
// decoded or mapped, and Lasker Morris's mixed layers' (a placement
// layer of the reachable sweep, dense, is not), or a removal ends the
// game: ok false when one is not. The slides' children, with a removal and
// without, are ranked at once (LayerIndex.IndexMovesSplit), then the
// placements'; their bytes are read directly and the least lost one kept
// without a branch. The depth is -1 when no child is lost.
func (r *plyReader) flatDepth(p muehle.Position, ms []muehle.Move) (depth int, ok bool) {
	b := 0
	for b < len(ms) && ms[b].From == muehle.NoPoint {
		b++
	}
	least := byte(255)
	for place, part := range [2][]muehle.Move{ms[b:], ms[:b]} {
		if len(part) == 0 {
			continue
		}
		g := &r.groups[place]
		if g.state == 0 {
			r.lookFlat(place)
		}
		if g.state < 0 {
			return 0, false
		}
		if g.state == 1 { // the removals' layer is not flat
			for _, m := range part {
				if m.IsRemoval() {
					if g.ends {
						return 1, true
					}
					return 0, false
				}
			}
		}
		ix := r.ix[:len(part)]
		g.l.IndexMovesSplit(p, part, ix, g.split)
		for j, x := range ix {
			least = min(least, lostKey[g.bodies[uint8(part[j].Remove)>>7][x]])
		}
	}
	if least == 255 {
		return -1, true
	}
	return Value(least).Depth() + 1, true
}

// flatGroup is what flatDepth reads of the moves of one group, slides or
// placements: state 2 when the layers of the group's moves with a removal
// and without are held flat (bodies: [0] the removals', [1] the others'),
// 1 when only the latter is (ends: a removal ends the game), -1 when not
// even that, 0 before looking.
type flatGroup struct {
	state    int8
	ends     bool
	l, split *LayerIndex
	bodies   [2][]byte
}

// lookFlat finds out the flatGroup of the slides (place 0) or of the
// placements (1).
func (r *plyReader) lookFlat(place int) {
	g := &r.groups[place]
	plain, rem := 2*place, 2*place+1 // the kinds (2×place + remove)
	g.state = -1
	body, ok := r.flat(plain)
	if !ok {
		return
	}
	g.state, g.l, g.split, g.bodies[1] = 1, r.kinds[plain].e.l, r.kinds[plain].e.l, body
	if g.ends = r.kind(rem).ends; g.ends {
		return
	}
	if body, ok := r.flat(rem); ok {
		g.state, g.split, g.bodies[0] = 2, r.kinds[rem].e.l, body
	}
}

// flat returns the body of the layer the moves of kind j lead to, and
// whether it is held in memory one byte per slot (inMemory).
func (r *plyReader) flat(j int) ([]byte, bool) {
	t := r.kind(j)
	if t.ends || t.err != nil || !r.inMemory(j) || t.e.f.dense != nil || uint64(len(t.e.f.body)) != t.e.l.Size() {
		return nil, false
	}
	return t.e.f.body, true
}

// plyKind is the layer the moves of one kind lead to from layer k.
type plyKind struct {
	looked bool
	whole  bool // inMemory asked
	ends   bool // such a move's removal ends the game: a child lost in 0
	e      *dbLayer
	err    error
}

// kind returns the layer the moves of kind j (2×place + remove) lead to,
// opened for probes on first use, its file held until release.
func (r *plyReader) kind(j int) *plyKind {
	t := &r.kinds[j]
	if !t.looked {
		t.looked = true
		c, ok := r.k.Child(j >= 2, j&1 == 1)
		if t.ends = !ok; ok {
			for {
				if t.e, t.err = r.d.layer(c, false); t.err != nil || r.d.hold(t.e) {
					break
				}
			}
		}
	}
	return t
}

// release ends the holding of the files the reader's layers read.
func (r *plyReader) release() {
	for j := range r.kinds {
		if t := &r.kinds[j]; t.looked && t.err == nil && t.e != nil {
			r.d.release(t.e.f)
		}
	}
}

// value returns slot i of the open layer e as its file stores it.
func (r *plyReader) value(e *dbLayer, i uint64) (Value, error) {
	if e.f.body == nil {
		v, err := r.d.cache.value(e.f.z, &e.f.h, i)
		if err != nil {
			r.d.cache.forget(e.f.z)
			return Unused, r.d.blockDamaged(e.l.Key(), e, err)
		}
		return v, nil
	}
	if e.lazy != nil {
		if err := e.checkRead(i); err != nil {
			return Unused, r.d.blockDamaged(e.l.Key(), e, err)
		}
	}
	return e.f.Value(i), nil
}

// wonDepth is DB.wonDepth of p, a position of layer k with its mover in
// Stones[White].
func (r *plyReader) wonDepth(p muehle.Position) (int, error) {
	ms := p.AppendMoves(r.moves[:0])
	if d, ok := r.flatDepth(p, ms); ok {
		if d < 0 {
			return 0, errNoLostChild
		}
		return d, nil
	}
	var n [4]int
	for _, m := range ms {
		j := 0
		if m.From == muehle.NoPoint {
			j = 2
		}
		if m.IsRemoval() {
			j++
		}
		r.kms[j][n[j]] = m
		n[j]++
	}
	best := noLostChild
	for _, j := range [4]int{1, 3, 0, 2} { // removals first
		if n[j] == 0 {
			continue
		}
		t := r.kind(j)
		if t.ends {
			return 1, nil
		}
		if t.err != nil {
			return 0, t.err
		}
		if !t.whole {
			t.whole = true
			r.inMemory(j)
		}
		ix := r.ix[:n[j]]
		t.e.l.IndexMoves(p, r.kms[j][:n[j]], ix)
		for _, i := range ix {
			v, err := r.value(t.e, i)
			if err != nil {
				return 0, err
			}
			if best.add(v) {
				return 1, nil
			}
		}
	}
	return best.depth()
}

// SetCompressForm makes Compress write compressed form n (1: every value
// as it is, as before form 2; 2: CompressForm) from now on, and returns
// the form written before. Tests of the packages above make folders of
// form 1 with it, to check that they are read and converted.
func SetCompressForm(n int) int {
	old := zWrite
	if n == 1 || n == zVersion {
		zWrite = n
	}
	return old
}
