package pack

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc64"
	"runtime"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"muehle/layers"
	"muehle/muehle"
)

// ImportOptions say how Import installs a package.
type ImportOptions struct {
	// Variant, when its Stones are not 0, is the game the caller expects:
	// a package of another game or stone count is refused.
	Variant muehle.Variant
	// Force replaces verified layers that differ from the package's.
	Force bool
	// Progress receives the progress of the check and the install.
	Progress func(Progress)
	// Note receives a line on each layer: installed, skipped, replaced.
	Note func(string)
	// Derive computes the layers a package leaves out (derive.go):
	// retro.DeriveLayer. A package that leaves out any is refused without
	// it.
	Derive Deriver
	// ClaimName names the claim that covers layer k while it is installed:
	// the solver's unit of k (retro.NameOf), so that a solver and an import
	// never write one layer at once. It is needed; the solver, not this
	// package, names its units.
	ClaimName func(k layers.Key) string
}

// ImportResult says what Import did.
type ImportResult struct {
	Manifest  *Manifest
	Installed []layers.Key // layers written
	Skipped   []layers.Key // layers already there and identical
	// Old are the layers written in the format before (a package of
	// format 1): this program reads them only to rewrite them
	// (layers.DB.ConvertOld, retro.ConvertOld), which the caller does
	// next.
	Old []layers.Key
	// RecordLines is the number of lines of the package's solve record
	// added to the folder's, RecordRefused of those left out as invalid
	// (layers.MergeRecord).
	RecordLines, RecordRefused int
	// Unverified are the layers installed without a verification record
	// (a package exported with ExportOptions.Unverified): the programs that
	// present values read them only once verified (layers.DB.VerifiedOnly).
	Unverified []layers.Key
}

// Import installs the package at path into the database folder dir.
//
// It refuses, before it touches anything, a package for other rules or of
// another format, a damaged or truncated one (it reads the whole package
// and checks every block's frame first) and, unless opts.Force, one that
// would replace a verified layer by a different one. It then installs the
// layers one by one in the manifest's order: each layer's blocks are
// decompressed and checked, the layer file written under a temporary
// name (layers.LayerWriter) and its header compared with the manifest,
// and only then renamed into place, followed by its reach file and its
// verification record. A layer already there and identical is skipped
// (its missing side files written), so that an interrupted import resumes
// where it stopped. The folder's solve record gets the package's valid
// lines it lacks (layers.MergeRecord); invalid ones are left out. Each layer is installed under the claim of its unit, so a solver
// of the folder does not write it at the same time.
//
// A package of format 1 holds layer files of the format before
// (layers.OldVersion): they are installed as they were, byte for byte,
// and listed in ImportResult.Old, for the caller to rewrite them in this
// format (retro.ConvertOld, which keeps their verification); until then
// this program reads them as damaged. Such a layer is never skipped, as
// this package does not read its body.
func Import(ctx context.Context, dir, path string, opts ImportOptions) (*ImportResult, error) {
	p, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Import(ctx, dir, opts)
}

// Import installs the package into dir (see the function Import).
func (p *Package) Import(ctx context.Context, dir string, opts ImportOptions) (*ImportResult, error) {
	if opts.ClaimName == nil {
		return nil, errors.New("pack: ImportOptions.ClaimName is not set")
	}
	m := p.Manifest
	v := m.Variant()
	if opts.Derive == nil {
		for _, l := range m.Layers {
			if l.Derived {
				return nil, fmt.Errorf("pack: %s: layer %s is to be computed from the layers before it, and this import cannot (ImportOptions.Derive is not set)", p.name, l.Key)
			}
		}
	}
	if opts.Variant.Stones != 0 && opts.Variant != v {
		return nil, fmt.Errorf("pack: %s: %w: this package holds %s, not %s as asked", p.name, ErrRules, v.Name(), opts.Variant.Name())
	}
	if err := p.Check(ctx, opts.Progress); err != nil {
		return nil, err
	}
	note := opts.Note
	if note == nil {
		note = func(string) {}
	}
	same, err := p.present(dir, opts.Force)
	if err != nil {
		return nil, err
	}
	db, err := layers.OpenDB(dir, v) // creates nothing
	if err != nil {
		return nil, err
	}
	defer db.Close()
	workers := runtime.GOMAXPROCS(0)
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(workers), zstd.WithDecoderMaxMemory(uint64(2*m.BlockBytes)))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	// Claims and temporary files a killed import or solver left go first.
	if _, err := db.TidyClaims(ctx, func(name string) []layers.Key {
		var keys []layers.Key
		for _, l := range m.Layers {
			if opts.ClaimName(l.key) == name {
				keys = append(keys, l.key)
			}
		}
		return keys
	}); err != nil {
		note(fmt.Sprintf("tidying the claims: %v", err))
	}
	in := &installer{ctx: ctx, p: p, db: db, dec: dec, workers: workers, c: p.cursor(), progress: opts.Progress, claimName: opts.ClaimName, derive: opts.Derive, total: m.work()}
	res := &ImportResult{Manifest: m}
	for i, l := range m.Layers {
		in.step = i
		if same[i] {
			if err := in.sides(i); err != nil {
				return res, err
			}
			res.Skipped = append(res.Skipped, l.key)
			note(fmt.Sprintf("layer %d of %d  %-10s already there and identical, skipped", i+1, len(m.Layers), l.key))
			continue
		}
		replaced := db.Has(l.key) || db.Damage(l.key) != nil
		oh, oerr := db.OldHeader(l.key)
		again := l.Old() && oerr == nil && oh == l.header(v)
		install := in.layer
		if l.Copied() {
			install = in.copied
		}
		if err := install(i); err != nil {
			return res, err
		}
		res.Installed = append(res.Installed, l.key)
		if l.Old() {
			res.Old = append(res.Old, l.key)
		}
		what := "installed"
		switch {
		case again:
			what = "installed again (a file of the format before is checked when it is converted, not here)"
		case replaced || oerr == nil:
			what = "installed, replacing a different file"
		}
		if l.Verified == "" && !db.Verified(l.key) {
			what += ", NOT VERIFIED: the package has no verification record of it; query and the players read it once muehlectl verify has checked it"
			res.Unverified = append(res.Unverified, l.key)
		}
		note(fmt.Sprintf("layer %d of %d  %-10s %s (%d slots)", i+1, len(m.Layers), l.key, what, l.Slots))
	}
	if err := in.c.end(); err != nil {
		return res, err
	}
	added, refused, err := layers.MergeRecord(db.RecordPath(), []byte(m.SolveRecord))
	if err != nil {
		return res, fmt.Errorf("pack: the solve record: %w", err)
	}
	res.RecordLines, res.RecordRefused = added, refused
	if refused > 0 {
		note(fmt.Sprintf("the package's solve record: %d lines added, %d left out (not lines of a solve record)", added, refused))
	}
	return res, nil
}

// present looks at what the folder dir holds of the package's layers,
// each checked in full: identical layers (the same header, so the same
// values) are skipped, different ones replaced, a verified one only with
// force. It reads through a DB of its own, closed before any layer is
// installed: a layer installed as its compressed file is renamed into
// place, past the DB that installs it, which must not have it open.
func (p *Package) present(dir string, force bool) ([]bool, error) {
	m := p.Manifest
	v := m.Variant()
	db, err := layers.OpenDB(dir, v) // creates nothing
	if err != nil {
		return nil, err
	}
	defer db.Close()
	same := make([]bool, len(m.Layers))
	var conflicts []string
	for i, l := range m.Layers {
		k := l.key
		if n := db.Indexer().Layer(k).Size(); n != l.Slots {
			return nil, fmt.Errorf("pack: %s: %w: layer %s has %d slots, this program's index has %d", p.name, ErrFormat, k, l.Slots, n)
		}
		f, err := db.Layer(k) // the body checked in full
		switch {
		case errors.Is(err, layers.ErrMissing) && !isDamaged(err):
			// missing: installed
		case err != nil:
			// damaged: replaced, whatever its record says
		case f.Header() == l.header(v):
			same[i] = true
		case db.Verified(k) && !force:
			conflicts = append(conflicts, k.String())
		}
	}
	if len(conflicts) > 0 {
		why := ""
		if m.Version == 1 {
			why = " (the package holds layer files of the format before, which an import converts: they may be its layers, imported and converted before)"
		}
		return nil, fmt.Errorf("pack: %w: %s holds verified layers that differ from the package's: %s%s; nothing was changed (--force replaces them)",
			ErrConflict, dir, strings.Join(conflicts, ", "), why)
	}
	return same, nil
}

// claimError words the failure to claim layer k for its install: another
// process holds the claim (a solver or another import, named by the
// claim), or the claim file could not be made (a read-only folder, a
// k<stones> that is not a folder).
func claimError(k layers.Key, err error) error {
	var held *layers.LockedError
	if errors.As(err, &held) {
		return fmt.Errorf("pack: layer %s: another process is working on it in this folder (%s); try again when it has finished: %w", k, held.Holder.Command, err)
	}
	return fmt.Errorf("pack: layer %s: its claim cannot be made in the folder: %w", k, err)
}

func isDamaged(err error) bool { _, ok := layers.Damaged(err); return ok }

// installer reads the blocks of a package in order and installs layers.
type installer struct {
	ctx       context.Context
	p         *Package
	db        *layers.DB
	dec       *zstd.Decoder
	workers   int           // goroutines decoding blocks
	sc        streamCoder   // decodes the blocks that need the blocks before them
	parts     []layers.Part // of the layer under way (geometry)
	bits      []byte        // of a dense layer under way: the bits of its stored slots, as they come
	directory []byte        // and its rank directory, derived from them
	partner   partnerLayer  // of the layer under way (coder 2)
	js        []uint64
	c         *cursor
	progress  func(Progress)
	claimName func(layers.Key) string // ImportOptions.ClaimName
	derive    Deriver                 // ImportOptions.Derive
	step      int
	done      uint64
	total     uint64
	raw       []byte
}

// partnerLayer is what coder 2 reads for the layer under way: the
// layers of it and its partner, and the partner's body (for a layer that
// is its own partner, its own body as it is decoded, every block copied
// in).
type partnerLayer struct {
	ok      bool
	self    bool
	li, pli *layers.LayerIndex
	from    []byte
}

// A blockJob is a block of a layer's data on its way: read in order,
// decoded and checked on any of the workers (prepare), and written in
// order (finish).
type blockJob struct {
	b     block // its frame a copy, the job's own
	base  uint64
	raw   []byte
	tail  []byte // coder 3: the bytes after the rank directory
	js    []uint64
	err   error
	ready chan struct{} // closed when prepared
}

// prepare decodes and checks the block of job j of layer i, but for a
// block of coder 2 in a layer that is its own partner, which needs the
// blocks before it (finish decodes it; prepare finds its partner slots).
func (in *installer) prepare(j *blockJob, i int, sc *streamCoder) {
	h := j.b.h
	pl := &in.partner
	var err error
	switch h.coder {
	case coderStreams:
		j.raw, err = sc.decode(nil, j.b.frame, h.raw, j.base, in.parts, nil)
	case coderDirectory:
		head, tail, ok := directoryPart(&in.p.Manifest.Layers[i], j.base, h.raw)
		if !ok {
			j.err = fmt.Errorf("pack: %s: %w: block %d of layer %s is coded without a rank directory, and it holds none", in.p.name, ErrFormat, h.seq, in.p.Manifest.Layers[i].Key)
			return
		}
		j.raw, j.tail, err = in.directoryParts(j.b.frame, head, tail, sc)
		if err != nil {
			j.err = fmt.Errorf("pack: %s: %w: block %d of layer %s does not decompress: %v", in.p.name, ErrChecksum, h.seq, in.p.Manifest.Layers[i].Key, err)
		}
		return
	case coderPartner:
		if !pl.ok {
			j.err = fmt.Errorf("pack: %s: %w: block %d of layer %s is coded with its partner layer's values, and the package holds no partner before it", in.p.name, ErrFormat, h.seq, in.p.Manifest.Layers[i].Key)
			return
		}
		j.js = make([]uint64, h.raw)
		pl.li.Swapped(j.base, j.js, pl.pli)
		if pl.self {
			return
		}
		j.raw, err = sc.decode(nil, j.b.frame, h.raw, j.base, in.parts, &partnerView{js: j.js, from: pl.from, base: j.base})
	default:
		j.raw, err = in.dec.DecodeAll(j.b.frame, nil)
	}
	j.err = in.checked(j.raw, err, h, i)
}

// finish returns the data of job j of layer i, prepared: for a block of
// coder 2 in a layer that is its own partner it decodes it now, the
// blocks before it being in the partner buffer; in such a layer it
// copies every other block there.
func (in *installer) finish(j *blockJob, i int) ([]byte, error) {
	pl := &in.partner
	h := j.b.h
	if h.coder == coderDirectory {
		return in.withDirectory(j, i)
	}
	if in.bits != nil && j.base < uint64(len(in.bits)) {
		copy(in.bits[j.base:], j.raw)
	}
	if !pl.self {
		return j.raw, nil
	}
	if h.coder != coderPartner {
		copy(pl.from[j.base:], j.raw)
		return j.raw, nil
	}
	dst := pl.from[j.base : j.base+uint64(h.raw)]
	raw, err := in.sc.decode(dst, j.b.frame, h.raw, j.base, in.parts, &partnerView{js: j.js, from: pl.from, self: true, base: j.base})
	return raw, in.checked(raw, err, h, i)
}

// directoryParts decodes the data of a block of coder 3 (directory.go): the
// head bytes before the rank directory and the tail bytes after it.
func (in *installer) directoryParts(p []byte, head, tail int, sc *streamCoder) (h, t []byte, err error) {
	n, m := binary.Uvarint(p)
	if m <= 0 || n > uint64(len(p)-m) || (n == 0) != (head == 0) {
		return nil, nil, errStreams("a bad length before the rank directory")
	}
	p = p[m:]
	if head > 0 {
		if h, err = in.dec.DecodeAll(p[:n], make([]byte, 0, head)); err != nil {
			return nil, nil, err
		}
	}
	p = p[n:]
	switch {
	case tail == 0 && len(p) == 0:
	case tail == 0 || len(p) == 0:
		return nil, nil, errStreams("%d bytes after the rank directory, %d coded", tail, len(p))
	case p[0] == coderZstd:
		t, err = in.dec.DecodeAll(p[1:], make([]byte, 0, tail))
	case p[0] == coderStreams:
		t, err = sc.decode(nil, p[1:], tail, 0, nil, nil)
	default:
		return nil, nil, errStreams("the bytes after the rank directory coded by coder %d", p[0])
	}
	if err == nil && (len(h) != head || len(t) != tail) {
		err = errStreams("%d and %d bytes around the rank directory, want %d and %d", len(h), len(t), head, tail)
	}
	return h, t, err
}

// withDirectory returns the data of block j of coder 3 of layer i: the
// bytes before the rank directory, which complete the layer's bits, the
// directory's bytes the block holds, derived from them, and the bytes
// after it.
func (in *installer) withDirectory(j *blockJob, i int) ([]byte, error) {
	l := &in.p.Manifest.Layers[i]
	dir, val := layers.DenseRegions(l.Slots, l.Stored)
	if j.base < dir { // else the block starts within the directory
		copy(in.bits[j.base:], j.raw)
	}
	if in.directory == nil {
		in.directory = layers.DenseDirectory(l.Slots, in.bits)
	}
	lo, hi := max(j.base, dir), min(j.base+uint64(j.b.h.raw), val)
	raw := make([]byte, 0, j.b.h.raw)
	raw = append(raw, j.raw...)
	raw = append(raw, in.directory[lo-dir:hi-dir]...)
	raw = append(raw, j.tail...)
	return raw, in.checked(raw, nil, j.b.h, i)
}

// checked checks the data raw decoded (with the error err) from block h
// of layer i against the block's header.
func (in *installer) checked(raw []byte, err error, h blockHeader, i int) error {
	if err != nil {
		return fmt.Errorf("pack: %s: %w: block %d of %s of layer %s does not decompress: %v", in.p.name, ErrChecksum, h.seq, kindName(h.kind), in.p.Manifest.Layers[i].Key, err)
	}
	if len(raw) != h.raw {
		return fmt.Errorf("pack: %s: %w: block %d of %s of layer %s holds %d bytes, its header says %d", in.p.name, ErrFormat, h.seq, kindName(h.kind), in.p.Manifest.Layers[i].Key, len(raw), h.raw)
	}
	if sum := crc64.Checksum(raw, ecma); sum != h.rawCRC {
		return fmt.Errorf("pack: %s: %w: block %d of %s of layer %s has CRC-64 %016x, its header says %016x", in.p.name, ErrChecksum, h.seq, kindName(h.kind), in.p.Manifest.Layers[i].Key, sum, h.rawCRC)
	}
	return nil
}

// frame decompresses and checks block b of layer i, a zstd frame (a block
// of a reach file).
func (in *installer) frame(b block, i int) ([]byte, error) {
	raw, err := in.dec.DecodeAll(b.frame, in.raw[:0])
	if err == nil {
		in.raw = raw
	}
	return raw, in.checked(raw, err, b.h, i)
}

// blocks reads the n blocks of the body of layer i of size bytes in
// order, decodes them on the workers, and calls f with the data of each
// in order. It stops at the first error, f's too.
func (in *installer) blocks(i int, size uint64, f func(seq int, raw []byte) error) error {
	ctx, cancel := context.WithCancel(in.ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	work := make(chan *blockJob, in.workers)
	order := make(chan *blockJob, 2*in.workers)
	wg.Go(func() {
		defer close(order)
		defer close(work)
		for seq := range in.p.blocksOf(size) {
			j := &blockJob{base: uint64(seq) * uint64(in.p.Manifest.BlockBytes), ready: make(chan struct{})}
			j.b, j.err = in.c.next(i, kindBody, seq, in.p.rawOf(size, seq), false)
			j.b.frame = bytes.Clone(j.b.frame)
			select {
			case order <- j:
			case <-ctx.Done():
				return
			}
			if j.err != nil {
				close(j.ready)
				return
			}
			select {
			case work <- j:
			case <-ctx.Done():
				j.err = ctx.Err()
				close(j.ready)
				return
			}
		}
	})
	for range in.workers {
		wg.Go(func() {
			var sc streamCoder
			for j := range work {
				in.prepare(j, i, &sc)
				close(j.ready)
			}
		})
	}
	seq := 0
	for j := range order {
		if err := in.ctx.Err(); err != nil {
			return err
		}
		<-j.ready
		if j.err != nil {
			return j.err
		}
		raw, err := in.finish(j, i)
		if err != nil {
			return err
		}
		if err := f(seq, raw); err != nil {
			return err
		}
		seq++
	}
	if seq != in.p.blocksOf(size) {
		return in.ctx.Err()
	}
	return nil
}

// claim takes the claim of layer k's unit and removes what a killed
// process left beside its files; release lets the claim go.
func (in *installer) claim(k layers.Key) (release func(), err error) {
	claim, err := in.db.Claim(in.ctx, in.claimName(k), false)
	if err != nil {
		return nil, claimError(k, err)
	}
	if err := in.db.RemoveLeftovers(k); err != nil {
		claim.Release()
		return nil, err
	}
	return func() { claim.Release() }, nil
}

// layer installs layer i from its blocks.
func (in *installer) layer(i int) error {
	l := &in.p.Manifest.Layers[i]
	k := l.key
	release, err := in.claim(k)
	if err != nil {
		return err
	}
	defer release()
	var w *layers.LayerWriter
	switch {
	case l.Old():
		w, err = in.db.NewOldWriter(k)
	case l.Dense():
		w, err = in.db.NewDenseWriter(k, l.Stored)
	default:
		w, err = in.db.NewWriter(k)
	}
	if err != nil {
		return err
	}
	defer w.Abort()
	var bits []byte
	if l.Reach != nil && !l.Reach.Stored {
		bits = make([]byte, l.Reach.Bytes-layers.ReachHeaderSize)
	}
	if l.Derived {
		body, err := in.derived(i)
		if err == nil {
			_, err = w.Write(body)
		}
		if err != nil {
			return err
		}
		in.done += uint64(len(body))
		return in.install(i, w, nil)
	}
	in.parts = geometry(in.db.Indexer(), l)
	if err := in.partnerFor(i); err != nil {
		return err
	}
	in.bits, in.directory = nil, nil
	if l.Dense() && !l.Old() && in.p.Manifest.Version >= 3 {
		dir, _ := layers.DenseRegions(l.Slots, l.Stored)
		in.bits = make([]byte, dir)
	}
	defer func() { in.partner, in.bits, in.directory = partnerLayer{}, nil, nil }()
	var off uint64
	err = in.blocks(i, l.BodyBytes(), func(seq int, raw []byte) error {
		if _, err := w.Write(raw); err != nil {
			return in.unpacked(k, err)
		}
		if bits != nil {
			reachBits(bits, off, raw, l.Dense())
		}
		off += uint64(len(raw))
		in.done += uint64(len(raw))
		if in.progress != nil && seq%16 == 15 {
			in.report(k)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return in.install(i, w, bits)
}

// install checks the layer i written to w against the manifest and
// installs it and its reach file (derived from bits, or read from the
// package).
func (in *installer) install(i int, w *layers.LayerWriter, bits []byte) error {
	l := &in.p.Manifest.Layers[i]
	k := l.key
	h, err := w.Pending()
	if err != nil {
		return in.unpacked(k, err)
	}
	if want := l.header(in.p.Manifest.Variant()); h != want {
		how := "unpacked"
		if l.Derived {
			how = "derived"
		}
		return fmt.Errorf("pack: %s: %w: layer %s as %s has checksum %016x, won %d, lost %d, drawn %d, deepest %d/%d (format %d, %d stored); the manifest says %s, %d, %d, %d, %d/%d (format %d, %d stored)",
			in.p.name, ErrChecksum, k, how, h.Checksum, h.Won, h.Lost, h.Drawn, h.DeepestWin, h.DeepestLoss, h.Version, h.Stored,
			l.CRC64, l.Won, l.Lost, l.Drawn, l.DeepestWin, l.DeepestLoss, want.Version, want.Stored)
	}
	reach, err := in.reach(i, bits)
	if err != nil {
		return err
	}
	if _, err := w.Commit(); err != nil {
		return err
	}
	in.report(k)
	return in.writeSides(i, reach)
}

// partnerFor prepares what coder 2 reads for layer i: its partner's
// body, installed before it, or for a layer that is its own partner a
// buffer for its body.
func (in *installer) partnerFor(i int) error {
	m := in.p.Manifest
	in.partner = partnerLayer{}
	j, ok := partnerOf(m, i)
	if !ok || m.Version < 3 {
		return nil
	}
	x := in.db.Indexer()
	pl := partnerLayer{ok: true, self: j == i, li: x.Layer(m.Key(i)), pli: x.Layer(m.Key(j))}
	if pl.self {
		pl.from = make([]byte, m.Layers[i].BodyBytes())
	} else {
		f, err := in.db.Layer(m.Key(j))
		if err != nil {
			return fmt.Errorf("pack: layer %s, installed before %s, cannot be read: %w", m.Key(j), m.Key(i), err)
		}
		pl.from = f.Body()
	}
	in.partner = pl
	return nil
}

// unpacked returns the error of a layer whose body, as unpacked, cannot
// be written: one that does not hold together (a dense body whose bits and
// rank directory disagree: layers.ErrChecksum) is a damaged package.
func (in *installer) unpacked(k layers.Key, err error) error {
	if errors.Is(err, layers.ErrChecksum) {
		return fmt.Errorf("pack: %s: %w: layer %s as unpacked: %w", in.p.name, ErrChecksum, k, err)
	}
	return err
}

// reach returns the reach file of layer i: derived from the bits of its
// body, or read from its stored blocks; checked against the manifest.
// It returns nil when the layer has none.
func (in *installer) reach(i int, bits []byte) ([]byte, error) {
	l := &in.p.Manifest.Layers[i]
	if l.Reach == nil {
		return nil, nil
	}
	var file []byte
	if l.Reach.Stored {
		for seq := range in.p.blocksOf(l.Reach.Bytes) {
			b, err := in.c.next(i, kindReach, seq, in.p.rawOf(l.Reach.Bytes, seq), false)
			if err != nil {
				return nil, err
			}
			raw, err := in.frame(b, i)
			if err != nil {
				return nil, err
			}
			file = append(file, raw...)
		}
	} else {
		file = deriveReach(in.p.Manifest.Variant().Stones, l.key, l.Slots, bits)
	}
	if sum := crc64.Checksum(file, ecma); sum != l.Reach.sum {
		return nil, fmt.Errorf("pack: %s: %w: the reach file of layer %s has CRC-64 %016x, the manifest says %s", in.p.name, ErrChecksum, l.key, sum, l.Reach.CRC64)
	}
	return file, nil
}

// sides passes over the blocks of layer i, already installed and
// identical, and writes its reach file, block file (a layer copied) and
// verification record where they are missing or different.
func (in *installer) sides(i int) error {
	l := &in.p.Manifest.Layers[i]
	var reach []byte
	reachOK := true
	if l.Reach != nil {
		old, _ := layers.ReadRegular(in.db.ReachPath(l.key), int64(l.Reach.Bytes))
		reachOK = crc64.Checksum(old, ecma) == l.Reach.sum && uint64(len(old)) == l.Reach.Bytes
	}
	for _, st := range l.streams() {
		var err error
		switch {
		case st.kind == kindReach && !reachOK:
			reach, err = in.reach(i, nil)
		case st.kind == kindBlocks:
			err = in.sameBlockFile(i)
		default:
			err = in.skip(i, st)
		}
		if err != nil {
			return err
		}
	}
	in.done += l.work()
	if !reachOK && !l.Reach.Stored {
		f, err := in.db.Layer(l.key)
		if err != nil {
			return err
		}
		bits := make([]byte, l.Reach.Bytes-layers.ReachHeaderSize)
		reachBits(bits, 0, f.Body(), l.Dense())
		if reach, err = in.reach(i, bits); err != nil {
			return err
		}
	}
	in.report(l.key)
	return in.writeSides(i, reach)
}

// skip steps over the blocks of stream st of layer i, reading their
// headers only.
func (in *installer) skip(i int, st stream) error {
	for seq := range in.p.blocksOf(st.n) {
		if _, err := in.c.next(i, st.kind, seq, in.p.rawOf(st.n, seq), true); err != nil {
			return err
		}
	}
	return nil
}

// sameBlockFile reads the block file of layer i, copied with it, and
// writes it where the folder's differs.
func (in *installer) sameBlockFile(i int) error {
	l := &in.p.Manifest.Layers[i]
	b, err := in.readStored(i, kindBlocks, l.BlockFile)
	if err != nil {
		return err
	}
	path := in.db.BlocksPath(l.key)
	if old, err := layers.ReadRegular(path, maxBlockFile); err == nil && bytes.Equal(old, b) {
		return nil
	}
	return layers.WriteAtomic(path, b)
}

// writeSides writes the reach file (when not nil) and the verification
// record of layer i, which is in place.
func (in *installer) writeSides(i int, reach []byte) error {
	l := &in.p.Manifest.Layers[i]
	if reach != nil {
		if err := layers.WriteAtomic(in.db.ReachPath(l.key), reach); err != nil {
			return err
		}
	}
	if l.Verified != "" && !in.db.Verified(l.key) {
		if err := layers.WriteAtomic(in.db.VerifiedPath(l.key), []byte(l.Verified)); err != nil {
			return err
		}
	}
	return nil
}

func (in *installer) report(k layers.Key) {
	if in.progress != nil {
		in.progress(Progress{Phase: "install", Layer: k, Step: in.step + 1, Steps: len(in.p.Manifest.Layers), Done: in.done, Total: in.total, Packed: in.c.at})
	}
}
