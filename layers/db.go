package layers

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"muehle/muehle"
)

// missingRecheck is how long a DB trusts that a layer is absent or
// damaged before it looks at the directory again (another process may
// have written it). A damaged file is read again only when it has changed
// since (see dbLayer.seen).
const missingRecheck = time.Second

// DB is the database of one variant (a game and its stones per side): one
// file per layer in its GameDir. Layers are opened lazily and cached; it is safe for
// concurrent use.
type DB struct {
	dir string // the directory given to OpenDB
	sub string // GameDir(dir, v)
	v   muehle.Variant
	x   *Indexer

	slots [keySlots]atomic.Pointer[dbLayer] // by keySlot

	mu           sync.Mutex // serialises opening, writing and closing
	closed       bool
	verifiedOnly atomic.Bool // VerifiedOnly
	old          []*File     // retired files, unmapped on Close or ReleaseRetired (lease.go)

	cache   blockCache        // decoded blocks of compressed layers, for Probe
	decoded []Key             // compressed layers held decoded in full, oldest first; d.mu
	nextUse func(Key) int     // SetNextUse; d.mu
	sound   map[Key]soundFile // compressed layers checked in full (Check); d.mu
}

// dbLayer is what a DB knows about one layer: the open file and its index,
// or the error of the last attempt to open it and when that was. A file
// opened for Probe may have its body checked block by block as probes
// read it (lazy); DB.Layer checks the rest.
type dbLayer struct {
	f    *File
	l    *LayerIndex
	lazy *blockChecks // nil once the whole body is checked
	err  error
	at   time.Time
	full bool // found damaged: the next opening checks the whole body
	// seen is the damaged file as it was when found damaged (nil when it
	// could not be looked at): while it stays the same file with the same
	// size and time, looking again does not read it again.
	seen os.FileInfo
}

// unchanged reports whether e records a damaged file that is still the
// file at path, unchanged: same file, size and modification time.
func (e *dbLayer) unchanged(path string) bool {
	if e == nil || e.seen == nil || !isDamaged(e.err) {
		return false
	}
	return stillSame(path, e.seen)
}

// stillSame reports whether the file at path is still the file seen, as it
// was: the same file, size and modification time.
func stillSame(path string, seen os.FileInfo) bool {
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, seen) && fi.Size() == seen.Size() && fi.ModTime().Equal(seen.ModTime())
}

// ready reports whether e answers a request without opening the file: an
// open file (checked in full if full is asked for), or a failure to open
// less than missingRecheck ago.
func (e *dbLayer) ready(full bool) bool {
	switch {
	case e == nil:
		return false
	case e.f != nil:
		return !full || e.lazy == nil && (e.f.z == nil || e.f.body != nil)
	}
	return time.Since(e.at) < missingRecheck
}

// keySlots is the number of keys whose counts are all at most
// muehle.MaxStones, numbered by keySlot.
const keySlots = (muehle.MaxStones + 1) * (muehle.MaxStones + 1) * (muehle.MaxStones + 1) * (muehle.MaxStones + 1)

// keySlot numbers the keys whose counts are all at most muehle.MaxStones.
func keySlot(k Key) (int, bool) {
	const n = muehle.MaxStones + 1
	if k.W >= n || k.B >= n || k.WH >= n || k.BH >= n {
		return 0, false
	}
	return ((int(k.W)*n+int(k.B))*n+int(k.WH))*n + int(k.BH), true
}

// OpenDB opens the database of variant v in the database folder dir. It
// creates nothing: a missing directory is an empty database, created by the
// first Write. It uses the indexer of v's board (IndexerFor).
func OpenDB(dir string, v muehle.Variant) (*DB, error) {
	if err := CheckVariant(v); err != nil {
		return nil, fmt.Errorf("layers: opening database %s: %w", dir, err)
	}
	x, err := IndexerFor(v.Rules().Board)
	if err != nil {
		return nil, err
	}
	sub := GameDir(dir, v)
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("layers: opening database %s: not a directory", dir)
	}
	return &DB{dir: dir, sub: sub, v: v, x: x}, nil
}

// VerifiedOnly makes d read only verified layers from now on: a layer
// whose file no verification record matches (MarkVerified) gives an error
// wrapping ErrUnverified, and so ErrMissing, from Probe, Layer and Header,
// as a missing layer does. The programs that present values as the
// database's truth (query, the players, the window) read through such a
// DB; the solver, the verifier and export read every layer. Call it
// before the first read.
func (d *DB) VerifiedOnly() { d.verifiedOnly.Store(true) }

// Dir returns the directory given to OpenDB.
func (d *DB) Dir() string { return d.dir }

// Variant returns the game and stones per side of the database.
func (d *DB) Variant() muehle.Variant { return d.v }

// Stones returns the stones per side of the database's game.
func (d *DB) Stones() int { return d.v.Stones }

// Rules returns the rule set of the database's game.
func (d *DB) Rules() *muehle.Rules { return d.v.Rules() }

// Indexer returns the indexer that numbers the layers' slots.
func (d *DB) Indexer() *Indexer { return d.x }

// Has reports whether a complete file of layer k exists: its header is valid
// for this game and layer and the file has the size the header and the
// index demand. The body checksum is verified only when the layer is opened.
func (d *DB) Has(k Key) bool {
	if e := d.cached(k); e != nil && e.f != nil {
		return true
	}
	_, err := d.readHeader(k)
	return err == nil
}

// Header returns the header of layer k's file, checked as Has checks it,
// without reading the body: the counts of won, lost and drawn slots, for
// instance, for a player in the middle of a move. It reads the file's
// first 128 bytes unless the DB has the layer open. A missing layer gives
// an error wrapping ErrMissing, a bad header or a layer the DB has found
// damaged a *DamagedError.
func (d *DB) Header(k Key) (Header, error) {
	if e := d.cached(k); e != nil {
		if e.f != nil {
			return e.f.Header(), nil
		}
		if isDamaged(e.err) {
			return Header{}, e.err
		}
	}
	return d.readHeader(k)
}

// readHeader reads and checks the header of layer k's file, its slot count
// against the index included; a bad one gives a *DamagedError.
func (d *DB) readHeader(k Key) (Header, error) {
	if !ValidIn(d.v, k) {
		return Header{}, fmt.Errorf("layers: layer %v is not of %s: %w", k, d.v.Name(), ErrMissing)
	}
	h, err := ReadHeader(d.Path(k), d.v, k)
	switch {
	case errors.Is(err, ErrMissing):
		return h, err
	case err != nil:
		return h, &DamagedError{Key: k, Err: err}
	case h.Slots != d.x.Layer(k).Size():
		return h, &DamagedError{Key: k, Err: fmt.Errorf("layers: %s: %w: %d slots, the index of layer %v has %d", d.Path(k), ErrFormat, h.Slots, k, d.x.Layer(k).Size())}
	case d.verifiedOnly.Load() && !d.verifiedRecord(k, h):
		return Header{}, fmt.Errorf("layers: layer %v in %s: %w", k, d.sub, ErrUnverified)
	}
	return h, nil
}

// cached returns what the DB knows about k, nil if nothing.
func (d *DB) cached(k Key) *dbLayer {
	s, ok := keySlot(k)
	if !ok {
		return nil
	}
	return d.slots[s].Load()
}

// Layer returns the open file of layer k, its body checked in full,
// opening it on first use (or checking the blocks that probes have not
// checked yet, when Probe opened it). A layer without a file gives an
// error wrapping ErrMissing; a bad file a *DamagedError, which wraps
// ErrFormat, ErrChecksum or ErrVersion and also ErrMissing (readers treat
// a damaged layer as a missing one).
//
// The File stays valid until Close or ReleaseRetired, even when the layer's
// file is replaced meanwhile, whose disk space it then keeps taken: a
// reader that is done with it before should use Borrow.
func (d *DB) Layer(k Key) (*File, error) {
	return d.held(k) // never released: until Close or ReleaseRetired
}

// Borrow is Layer for a reader that says when it is done with the File:
// release (to be called once) ends its use of the File, of its body and
// of a View of it, so that the DB can give up the file's mapping, and
// with it the disk space of a file replaced meanwhile, at once rather
// than at Close or ReleaseRetired (lease.go).
func (d *DB) Borrow(k Key) (f *File, release func(), err error) {
	f, err = d.held(k)
	if err != nil {
		return nil, nil, err
	}
	var once sync.Once
	return f, func() { once.Do(func() { d.release(f) }) }, nil
}

// held is Layer, the File's mapping held (lease.go) for the caller to
// release.
func (d *DB) held(k Key) (*File, error) {
	for {
		e, err := d.layer(k, true)
		if err != nil {
			return nil, err
		}
		if !d.hold(e) { // retired meanwhile: look again
			continue
		}
		if !e.f.open {
			return e.f, nil
		}
		// Compressed form 2, decoded as stored: find the won depths. The
		// filled File shares e's mapping, and with it the holding.
		f, err := d.fill(k, e)
		if err != nil {
			d.release(e.f)
		}
		return f, err
	}
}

// layer is Layer returning the cache entry; with full unset it opens the
// file for Probe, lazily when its block file allows. A layer found damaged
// is opened in full the next time, whatever is asked: its damage may lie
// in a block that probes would not read for a while.
func (d *DB) layer(k Key, full bool) (*dbLayer, error) {
	if e := d.cached(k); e.ready(full) {
		return e, e.err
	}
	s, ok := keySlot(k)
	if !ok || !ValidIn(d.v, k) {
		return nil, fmt.Errorf("layers: layer %v is not of %s: %w", k, d.v.Name(), ErrMissing)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, fmt.Errorf("layers: database %s is closed", d.dir)
	}
	old := d.slots[s].Load()
	if old.ready(full) {
		return old, old.err
	}
	if old.unchanged(d.Path(k)) { // damaged and not rewritten: trust it again
		e := *old
		e.at = time.Now()
		d.slots[s].Store(&e)
		return &e, e.err
	}
	var prior *File                                   // retired once the new entry is in place: probes of old then look again and find it
	if old != nil && old.f != nil && old.f.z != nil { // compressed, open for Probe: open it again, decoded
		d.cache.forget(old.f.z)
		prior, old = old.f, nil
	}
	if old != nil && old.f != nil { // open for Probe; check the rest of the body
		err := old.lazy.checkRest(old.f.path, old.f.body)
		if err == nil {
			err = old.f.checkContents(countValues(old.f.body, old.f.h.valuesFrom(), blockShift, nil))
		}
		if err != nil {
			return nil, d.damaged(s, old, &DamagedError{Key: k, Err: err})
		}
		DropPages(old.f.m) // as OpenFile does
		e := &dbLayer{f: old.f, l: old.l, at: old.at}
		d.slots[s].Store(e)
		return e, nil
	}
	lazy := !full && (old == nil || !old.full)
	e := &dbLayer{l: d.x.Layer(k), at: time.Now()}
	e.f, e.lazy, e.err = openFileParts(d.Path(k), d.v, k, lazy, false, e.l.Parts())
	if e.err == nil && e.f.Header().Slots != e.l.Size() {
		e.err = fmt.Errorf("layers: %s: %w: %d slots, the index of layer %v has %d", d.Path(k), ErrFormat, e.f.Header().Slots, k, e.l.Size())
		e.f.Close()
		e.f, e.lazy = nil, nil
	}
	if e.err == nil && d.verifiedOnly.Load() && !d.verifiedRecord(k, e.f.Header()) {
		e.err = fmt.Errorf("layers: layer %v in %s: %w", k, d.sub, ErrUnverified)
		e.f.Close()
		e.f, e.lazy = nil, nil
	}
	if e.err != nil && !errors.Is(e.err, ErrMissing) {
		e.err = &DamagedError{Key: k, Err: e.err}
		e.full = true
		e.seen, _ = os.Stat(d.Path(k))
	}
	d.slots[s].Store(e)
	if prior != nil {
		d.retireLocked(prior)
	}
	if e.err == nil && e.f.z != nil && e.f.body != nil { // decoded; in form 2 as stored, for the fill (DB.fill, plyReader.flatDepth)
		d.holdDecoded(k)
	}
	return e, e.err
}

// holdDecoded records that the DB holds compressed layer k decoded in
// full, and lets go of such layers (the oldest first, or by SetNextUse)
// while their bytes exceed the bound less the block cache's floor (never
// k itself): their entries are dropped, so that the
// garbage collector frees a body once its last reader drops it. The
// block cache gets what they leave of the bound and gives up blocks
// until it fits. d.mu is held.
func (d *DB) holdDecoded(k Key) {
	d.decoded = append(slices.DeleteFunc(d.decoded, func(x Key) bool { return x == k }), k)
	d.fitDecoded()
}

// fitDecoded lets go of the layers held decoded in full, as holdDecoded
// says, while they exceed the bound less the block cache's floor, never
// the newest. d.mu is held.
func (d *DB) fitDecoded() {
	var total int64
	for _, x := range d.decoded {
		if e := d.cached(x); e != nil && e.f != nil {
			total += int64(len(e.f.body))
		}
	}
	limit := d.cache.heldRoom()
	defer d.cache.shrink()
	defer func() { d.cache.held.Store(total) }()
	for total > limit && len(d.decoded) > 1 {
		i := d.letGo()
		x := d.decoded[i]
		d.decoded = slices.Delete(d.decoded, i, i+1)
		s, _ := keySlot(x)
		e := d.slots[s].Load()
		if e == nil || e.f == nil || e.f.z == nil || e.f.body == nil {
			continue
		}
		total -= int64(len(e.f.body))
		d.slots[s].Store(nil)
		d.retireLocked(&File{path: e.f.path, h: e.f.h, z: e.f.z})
	}
}

// letGo returns the index in d.decoded of the layer to let go of first:
// the oldest, or with SetNextUse the one needed last (never the newest).
// d.mu is held.
func (d *DB) letGo() int {
	if d.nextUse == nil {
		return 0
	}
	return NeededLast(d.decoded, d.nextUse)
}

// NeededLast returns the index of the key of keys, the last left out (the
// newest, never let go), whose next use by next comes last, the oldest of
// them on a tie: what a DB with SetNextUse lets go of first, and what the
// cost model's copy of it (retro.HeldLayers) does.
func NeededLast(keys []Key, next func(Key) int) int {
	i, last := 0, -1
	for j, x := range keys[:len(keys)-1] {
		if n := next(x); n > last {
			i, last = j, n
		}
	}
	return i
}

// SetNextUse tells the DB when each layer will be read next, in steps of
// a plan (a larger number later; math.MaxInt never), so that it lets go
// of the layers it holds decoded in full that are needed last, not the
// oldest: a solver that knows its units reads the same layers again from
// a smaller hold (retro.Solve). next must be safe to call from any
// goroutine; nil puts back the oldest first.
func (d *DB) SetNextUse(next func(Key) int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.nextUse = next
}

// SetCacheBytes bounds the memory of compressed layers: the layers Layer
// decoded in full that the DB holds, and the decoded blocks Probe keeps,
// together up to n bytes (DefaultCacheBytes when n ≤ 0), the blocks
// getting what the layers leave, and at least an eighth of n (the layers
// held are let go for it, but for the last one decoded). A lower bound
// lets go at once of the layers held beyond it. A layer a reader holds
// stays in memory until it is dropped.
func (d *DB) SetCacheBytes(n int64) {
	d.cache.mu.Lock()
	d.cache.max = n
	d.cache.mu.Unlock()
	d.mu.Lock()
	d.fitDecoded() // and the blocks
	d.mu.Unlock()
}

// CacheBytes returns the bytes of decoded blocks the block cache holds.
func (d *DB) CacheBytes() int64 { return d.cache.size() }

// CacheLimit returns the bound of SetCacheBytes in bytes.
func (d *DB) CacheLimit() int64 { return d.cacheLimit() }

// cacheLimit returns the bound of SetCacheBytes.
func (d *DB) cacheLimit() int64 {
	d.cache.mu.Lock()
	defer d.cache.mu.Unlock()
	return d.cache.bound()
}

// damaged records that the open layer e in slot s is damaged, as err
// says, unless e has been replaced already, and returns err. The file is
// retired: probes may still be reading it. d.mu is held.
func (d *DB) damaged(s int, e *dbLayer, err *DamagedError) error {
	if d.slots[s].Load() == e {
		seen, _ := os.Stat(e.f.path)
		d.slots[s].Store(&dbLayer{l: e.l, err: err, at: time.Now(), full: true, seen: seen})
		d.retireLocked(e.f)
	}
	return err
}

// blockDamaged is damaged for Probe, which does not hold d.mu.
func (d *DB) blockDamaged(k Key, e *dbLayer, err error) error {
	s, _ := keySlot(k)
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.damaged(s, e, &DamagedError{Key: k, Err: err})
}

// Write stores the body of layer k (one Value per slot of the layer's
// index) in its file, with its block file (WriteLayer), and makes the DB
// use the new file, which counts as not verified until MarkVerified. It
// creates the directory if needed.
func (d *DB) Write(k Key, body []byte) error {
	if n := d.x.Layer(k).Size(); uint64(len(body)) != n {
		return fmt.Errorf("layers: writing layer %v: %d slots, want %d", k, len(body), n)
	}
	return d.write(k, func(path string) error { return WriteLayer(path, d.v, k, body) })
}

// WriteDense stores layer k as a dense file holding dv (WriteDenseLayer),
// as Write stores a layer of one byte per slot.
func (d *DB) WriteDense(k Key, dv *Dense) error {
	if n := d.x.Layer(k).Size(); dv.Slots() != n {
		return fmt.Errorf("layers: writing layer %v: %d slots, want %d", k, dv.Slots(), n)
	}
	return d.write(k, func(path string) error { return WriteDenseLayer(path, d.v, k, dv) })
}

// write writes the file of layer k with writeFile, given its path, for
// Write and WriteDense.
func (d *DB) write(k Key, writeFile func(path string) error) error {
	_, ok := keySlot(k)
	if !ok || !ValidIn(d.v, k) {
		return fmt.Errorf("layers: writing layer %v: not a layer of %s", k, d.v.Name())
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("layers: database %s is closed", d.dir)
	}
	if err := d.ensureDir(); err != nil {
		return err
	}
	if err := d.removeVerified(k); err != nil { // the new file is not verified yet
		return err
	}
	if err := writeFile(d.Path(k)); err != nil {
		return err
	}
	d.forgetLocked(k)
	return nil
}

// forgetLocked drops the open file of layer k, which was just replaced, so
// that the next read opens the new one; the old file is retired, its
// mapping given up once no reader holds it (lease.go). d.mu is held.
func (d *DB) forgetLocked(k Key) {
	s, _ := keySlot(k)
	if e := d.slots[s].Swap(nil); e != nil && e.f != nil {
		if e.f.z != nil {
			d.cache.forget(e.f.z)
		}
		d.retireLocked(e.f)
	}
}

// retireLocked retires f, a file the DB hands out no more (replaced, let
// go of, damaged), once its entry has left its slot: its mapping is given
// up at once when no reader holds it, else when the last holder releases
// it (lease.go), and is unmapped at Close or ReleaseRetired. Until then
// its mapped pages leave the process's resident memory (DropPages): a
// reader that still reads it reads them again. Kept resident, the same
// pages counted once more for every time a layer was opened again (a
// compressed solve decodes the layers each unit reads, and lets go of
// them under its memory bound), and the peak memory of the units grew
// from unit to unit past the machine's memory. d.mu is held.
func (d *DB) retireLocked(f *File) {
	f.lease().retired.Store(true)
	d.old = append(d.old, f)
	d.vacateLocked(f)
	if !f.lease().vacated {
		f.dropMapped()
	}
}

// ReleaseRetired unmaps the files the DB keeps only for readers that may
// still hold them (layers replaced, removed, let go of under the memory
// bound, found damaged), so that the disk space of a file replaced on
// disk (a flat layer by its compressed file) is given back now rather
// than at Close. A retired file that no reader holds is given up without
// it (lease.go); this call is for the Files that Layer handed out, which
// the DB cannot know to be done with. Call it only where nothing else
// reads the DB and no File that Layer or Borrow returned before, nor a
// Copy of its View, is used any more: a solver that alone uses the DB,
// between two units (retro.SolveOptions.OwnDB).
func (d *DB) ReleaseRetired() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var errs []error
	for _, f := range d.old {
		errs = append(errs, f.Close())
	}
	d.old = nil
	return errors.Join(errs...)
}

// stored is storedOnce, probing again while the file it read has been
// retired meanwhile (lease.go): its mapping may have been given up under
// the read, which then read zeros, and a damage found in it is not the
// layer's. The slot holds the layer's new entry by then.
func (d *DB) stored(p muehle.Position) (Value, *dbLayer, uint64, error) {
	for {
		v, e, i, err := d.storedOnce(p)
		if e == nil || !e.f.lease().retired.Load() {
			return v, e, i, err
		}
		probedAgain.Add(1)
	}
}

// probedAgain counts the probes that read a retired file and probed
// again, for the tests.
var probedAgain atomic.Int64

// Probe returns the value of p for its side to move. p may be any position
// of the game, either colour to move; a side to move with fewer than
// LoseBelow (three) stones in total has lost (LossIn(0), no file needed). It returns an error
// wrapping ErrMissing when p's layer is not in the database, and a
// *DamagedError when it is damaged. It does not allocate once the layer is
// open.
//
// Probe opens a layer without reading its body when the layer's block
// file is valid (blocks.go), and checks each block of the body the first
// time it reads from it; a block that fails makes the layer damaged for
// this DB from then on, for Probe, Layer, Header and Check alike. Without
// a valid block file it checks the whole body on opening, as Layer does.
func (d *DB) Probe(p muehle.Position) (Value, error) {
	for {
		v, e, i, err := d.storedOnce(p) // stored, without its call
		if e != nil && e.f.lease().retired.Load() {
			probedAgain.Add(1)
			continue
		}
		if err != nil || byte(v) != wonCode || !e.f.open {
			return v, err
		}
		return d.wonValue(p, e, i) // compressed form 2: won, its depth by one ply
	}
}

// checkRead checks the blocks of e's lazily checked body that reading
// slot i reads, those not checked yet: the slot's byte, or in a dense
// file the word of its bit, its directory entries and its value.
func (e *dbLayer) checkRead(i uint64) error {
	c, f := e.lazy, e.f
	if f.dense == nil || i >= f.h.Slots {
		return c.checkOffset(f.path, f.body, i)
	}
	word, super, sub := f.dense.directoryOffsets(i)
	for _, off := range [...]uint64{word, super, sub} {
		if err := c.checkOffset(f.path, f.body, off); err != nil {
			return err
		}
	}
	if off, ok := f.dense.valueOffset(i); ok {
		return c.checkOffset(f.path, f.body, off)
	}
	return nil
}

// Close unmaps every open file. The DB must not be used afterwards.
func (d *DB) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	var errs []error
	for i := range d.slots {
		if e := d.slots[i].Swap(nil); e != nil && e.f != nil {
			errs = append(errs, e.f.Close())
		}
	}
	for _, f := range d.old {
		errs = append(errs, f.Close())
	}
	d.old = nil
	return errors.Join(errs...)
}
