package pack

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"runtime"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"

	"muehle/layers"
)

// BlockBytes is the part of a layer body each block of a package holds:
// 4 MiB, 64 of the layer's own 64 KiB blocks. Context streams need blocks
// this large: in blocks of 1 MiB their tables cost a fifth of what they
// save (docs/export.md).
const BlockBytes = 4 << 20

// blockBytes is the block size Export writes; tests lower it to have
// many blocks in small layers.
var blockBytes = BlockBytes

// Progress reports how far an export or import has come.
type Progress struct {
	Phase    string     // "export", "check" (the package read through) or "install"
	Layer    layers.Key // the layer under way
	Deriving bool       // installing a layer computed from the layers before it (derive.go)
	Step     int        // its number, from 1
	Steps    int        // layers in all
	Done     uint64     // bytes of layer bodies done in this phase
	Total    uint64     // bytes of layer bodies in this phase
	Packed   int64      // package bytes written or read so far
}

// ExportOptions say what Export writes and how.
type ExportOptions struct {
	Out       string            // the package: a file, or with PartBytes a folder of parts
	PartBytes int64             // > 0: parts of at most this many bytes
	Level     zstd.EncoderLevel // 0: zstd.SpeedDefault
	Workers   int               // compressing goroutines; 0: one per core
	Exported  Machine           // this program and machine
	Computed  []Machine         // what the solve record says computed it
	Progress  func(Progress)
	// StoreAll stores every layer's values: none is left out to be
	// derived on import (derive.go). The package is larger, its import
	// faster.
	StoreAll bool
	// DeriveBits: a layer that may be derived is left out when its values
	// would take at least this many bits per slot stored (estimated on a
	// sample of its blocks); 0 means DefaultDeriveBits, a negative value
	// leaves out every one that may be.
	DeriveBits float64
	// Unverified exports layers that no verification record vouches for
	// too; without it such a layer is an error (ErrUnverified). Their
	// manifest entries lack `verified`, and Import says so of each.
	Unverified bool
}

// ErrUnverified: a layer to export has no verification record that
// matches it (layers.DB.MarkVerified), and ExportOptions.Unverified is
// not set. It wraps layers.ErrUnverified.
var ErrUnverified = fmt.Errorf("pack: %w", layers.ErrUnverified)

// ExportResult says what Export wrote.
type ExportResult struct {
	Manifest *Manifest
	Bytes    int64 // the package's size
	Parts    int
	Packed   []int64   // the bytes of each layer's blocks, headers included
	Blocks   uint64    // blocks written
	Coded    [5]uint64 // of them, by coder: zstd frames, context streams, context streams with the partner's values, rank directories left out, copied bytes
	// Estimated holds, for each layer that may be derived, the bits per
	// slot its values would take stored, estimated on a sample of its
	// blocks (0 for the others, and with StoreAll or a negative
	// DeriveBits).
	Estimated []float64
}

// Export writes layers keys of db to a package, with their verification
// records, reach files and the folder's solve record. A layer kept
// compressed travels as its file, byte for byte, with its block file
// (package format 5, copy.go): checked in full as it is copied. Any other
// layer travels as its body, coded (format 4): checked in full first. A
// missing or damaged layer is an error, and so is a file of the format
// before, which `muehlectl convert` rewrites first. It writes under a
// temporary name and renames when complete; on an error or cancellation
// nothing is left.
func Export(ctx context.Context, db *layers.DB, keys []layers.Key, opts ExportOptions) (*ExportResult, error) {
	if len(keys) == 0 {
		return nil, errors.New("pack: no layer to export")
	}
	m := &Manifest{Format: manifestFormat, Version: flatVersion, Rules: RulesOf(db.Variant()),
		LayerFormat: layers.FileVersion, BlockBytes: blockBytes, Created: time.Now().UTC().Format(time.RFC3339),
		Exported: opts.Exported, Computed: opts.Computed}
	m.Fingerprint = m.Rules.Fingerprint()
	if rec, err := layers.ReadRegular(db.RecordPath(), layers.MaxRecordBytes); err == nil {
		m.SolveRecord = string(rec)
	}
	bodies := make([][]byte, len(keys)) // the flat layer files' bodies, mapped
	reach := make([][]byte, len(keys))  // stored reach files
	copies := make([]*copySource, len(keys))
	for i, k := range keys {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var h layers.Header
		var body []byte
		if db.Compressed(k) {
			c, err := newCopySource(db, k)
			if err != nil {
				return nil, err
			}
			copies[i], h = c, c.h
			m.Version = Version
		} else {
			f, err := db.Layer(k)
			if err != nil {
				return nil, fmt.Errorf("pack: layer %s: %w", k, err)
			}
			if f.Compressed() { // compressed since Compressed looked
				return nil, fmt.Errorf("pack: layer %s: %w: compressed while exporting; export again", k, layers.ErrFormat)
			}
			body, h = f.Body(), f.Header()
			bodies[i] = body
		}
		l := Layer{Key: k.String(), Layout: int(h.Layout), Slots: h.Slots, Stored: h.Stored, CRC64: fmt.Sprintf("%016x", h.Checksum),
			Won: h.Won, Lost: h.Lost, Drawn: h.Drawn, DeepestWin: h.DeepestWin, DeepestLoss: h.DeepestLoss,
			key: k, sum: h.Checksum, version: h.Version}
		if c := copies[i]; c != nil {
			l.File, l.BlockFile = &Copied{Bytes: c.size}, c.blockFile()
		}
		if b, err := layers.ReadRegular(db.VerifiedPath(k), 4096); err == nil && recordMatches(string(b), k, h) {
			l.Verified = string(b)
		} else if !opts.Unverified {
			return nil, fmt.Errorf("layer %s: %w; export it so only when asked (muehlectl export --unverified)", k, ErrUnverified)
		}
		if b, err := layers.ReadRegular(db.ReachPath(k), int64(layers.ReachFileBytes(h.Slots))); err == nil && !k.IsMoving() && uint64(len(b)) == layers.ReachFileBytes(h.Slots) {
			l.Reach = &Reach{Bytes: uint64(len(b)), CRC64: fmt.Sprintf("%016x", crc64.Checksum(b, ecma)), Stored: true}
			if body != nil { // a copied layer's body is not decoded: its reach file is stored
				bits := make([]byte, len(b)-layers.ReachHeaderSize)
				reachBits(bits, 0, body, h.Dense())
				l.Reach.Stored = !bytes.Equal(deriveReach(db.Stones(), k, h.Slots, bits), b)
			}
			if l.Reach.Stored {
				reach[i] = b
			}
		}
		m.Layers = append(m.Layers, l)
	}
	var estimated []float64
	if !opts.StoreAll {
		var err error
		if estimated, err = planDerived(ctx, m, bodies, opts); err != nil {
			return nil, err
		}
	}
	res, err := writePackage(ctx, m, bodies, reach, copies, opts)
	if res != nil {
		res.Estimated = estimated
	}
	return res, err
}

// writePackage writes the package of manifest m: the preamble and the
// manifest, the blocks of each layer's body (bodies[i], mapped: their
// pages are let go once written) or compressed file (copies[i]) and
// stored reach file (reach[i], nil when not stored), the trailer.
func writePackage(ctx context.Context, m *Manifest, bodies, reach [][]byte, copies []*copySource, opts ExportOptions) (*ExportResult, error) {
	js, err := jsonMarshal(m)
	if err != nil {
		return nil, err
	}
	if _, err := parseManifest(js); err != nil { // what a reader will say
		return nil, fmt.Errorf("pack: the manifest written would not be read: %w", err)
	}
	e, err := newExporter(ctx, m, bodies, opts)
	if err != nil {
		return nil, err
	}
	defer e.close()
	out, err := newSink(opts.Out, opts.PartBytes)
	if err != nil {
		return nil, fmt.Errorf("pack: %w", err)
	}
	e.out = out
	err = e.write(append(marshalPreamble(js, m.Version), js...))
	for i, body := range bodies {
		if err != nil {
			break
		}
		e.step = i
		switch {
		case copies[i] != nil:
			err = e.copyLayer(i, copies[i])
		case m.Layers[i].Derived:
			e.done += uint64(len(body))
		default:
			err = e.blocks(i, kindBody, body)
		}
		if err == nil && reach[i] != nil {
			err = e.blocks(i, kindReach, reach[i])
		}
		// The pages, read through once, leave the process's resident
		// memory (else it grew to the whole database: 14 GB).
		layers.DropPages(body)
	}
	if err == nil {
		err = e.write(marshalTrailer(e.nblocks, uint64(out.n)+trailerSize))
	}
	if err == nil {
		err = out.Finish()
	}
	if err != nil {
		out.Abort()
		return nil, fmt.Errorf("pack: writing %s: %w", opts.Out, err)
	}
	return &ExportResult{Manifest: m, Bytes: out.n, Parts: out.Parts(), Packed: e.packed, Blocks: e.nblocks, Coded: e.coded}, nil
}

// newExporter returns the exporter of the layers of m, whose bodies are
// bodies, as opts say; it writes nowhere until given its sink (out).
func newExporter(ctx context.Context, m *Manifest, bodies [][]byte, opts ExportOptions) (*exporter, error) {
	level := opts.Level
	if level == 0 {
		level = zstd.SpeedDefault
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
	if err != nil {
		return nil, err
	}
	e := &exporter{ctx: ctx, enc: enc, workers: opts.Workers, m: m, bodies: bodies, progress: opts.Progress,
		packed: make([]int64, len(m.Layers)), total: m.work()}
	if e.workers <= 0 {
		e.workers = runtime.GOMAXPROCS(0)
	}
	e.coders = make([]streamCoder, e.workers)
	e.js = make([][]uint64, e.workers)
	if e.x, err = layers.DefaultIndexer(); err != nil {
		enc.Close()
		return nil, err
	}
	return e, nil
}

// close frees the exporter's encoder.
func (e *exporter) close() { e.enc.Close() }

// exporter writes the blocks of a package.
type exporter struct {
	ctx      context.Context
	out      *sink
	enc      *zstd.Encoder
	coders   []streamCoder // one per worker
	js       [][]uint64    // one per worker: partner slots (coder 2)
	bodies   [][]byte
	x        *layers.Indexer
	workers  int
	m        *Manifest
	progress func(Progress)
	nblocks  uint64
	coded    [5]uint64
	step     int
	done     uint64
	total    uint64
	packed   []int64
}

func (e *exporter) write(b []byte) error { _, err := e.out.Write(b); return err }

// blocks writes data of the given kind of layer i as blocks, compressing
// a batch of them at a time on the workers (code).
func (e *exporter) blocks(i, kind int, data []byte) error {
	bs := e.m.BlockBytes
	n := (len(data) + bs - 1) / bs
	frames := make([][]byte, e.workers*2)
	others := make([][]byte, len(frames))
	coders := make([]int, len(frames))
	sums := make([]uint64, len(frames))
	lc := e.layerCoding(i, kind)
	for b0 := 0; b0 < n; b0 += len(frames) {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		batch := min(len(frames), n-b0)
		var wg sync.WaitGroup
		next := make(chan int, batch)
		for j := range batch {
			next <- j
		}
		close(next)
		for w := range min(e.workers, batch) {
			wg.Go(func() {
				for j := range next {
					lo := (b0 + j) * bs
					raw := data[lo:min(lo+bs, len(data))]
					frames[j], others[j], coders[j] = e.code(w, lc, raw, lo, frames[j], others[j])
					sums[j] = crc64.Checksum(raw, ecma)
				}
			})
		}
		wg.Wait()
		for j := range batch {
			lo := (b0 + j) * bs
			raw := data[lo:min(lo+bs, len(data))]
			h := blockHeader{layer: i, kind: kind, coder: coders[j], seq: b0 + j, raw: len(raw), comp: len(frames[j]),
				rawCRC: sums[j], cCRC: crc32.Checksum(frames[j], castagnoli)}
			if err := e.write(h.marshal()); err != nil {
				return err
			}
			if err := e.write(frames[j]); err != nil {
				return err
			}
			e.nblocks++
			e.coded[coders[j]]++
			e.packed[i] += int64(blockHead + len(frames[j]))
			if kind == kindBody {
				e.done += uint64(len(raw))
			}
		}
		if e.progress != nil {
			e.progress(Progress{Phase: "export", Layer: e.m.Key(i), Step: e.step + 1, Steps: len(e.m.Layers),
				Done: e.done, Total: e.total, Packed: e.out.n})
		}
	}
	return nil
}

// layerCoding is what coding the blocks of one layer's data needs: the
// layer's geometry, and its partner's (coder 2).
type layerCoding struct {
	l       *Layer
	streams bool // a body in a package of format 3 or later: the coders besides zstd
	parts   []layers.Part
	partner bool
	self    bool
	li, pli *layers.LayerIndex
	from    []byte // the partner's body
}

// layerCoding prepares the coding of the data of the given kind of layer
// i.
func (e *exporter) layerCoding(i, kind int) *layerCoding {
	lc := &layerCoding{l: &e.m.Layers[i], streams: kind == kindBody && e.m.Version >= 3, parts: geometry(e.x, &e.m.Layers[i])}
	if pj, ok := partnerOf(e.m, i); ok {
		lc.partner, lc.self = true, pj == i
		lc.li, lc.pli, lc.from = e.x.Layer(e.m.Key(i)), e.x.Layer(e.m.Key(pj)), e.bodies[pj]
	}
	return lc
}

// code codes the block raw, which starts at byte lo of its layer's data,
// on worker w: as a zstd frame and, in a body, as context streams (with
// the partner's values where the layer has a partner before it), or
// without its rank directory. It returns the smaller coding, the buffer
// of the other (for the next call) and the coder of the one returned.
func (e *exporter) code(w int, lc *layerCoding, raw []byte, lo int, frame, other []byte) (best, spare []byte, coder int) {
	if head, tail, ok := directoryPart(lc.l, uint64(lo), len(raw)); lc.streams && ok {
		return e.withoutDirectory(frame[:0], raw, head, tail, &e.coders[w]), other, coderDirectory
	}
	frame = e.enc.EncodeAll(raw, frame[:0])
	if !lc.streams {
		return frame, other, coderZstd
	}
	var v *partnerView
	coder = coderStreams
	if lc.partner {
		if cap(e.js[w]) < len(raw) {
			e.js[w] = make([]uint64, len(raw))
		}
		js := e.js[w][:len(raw)]
		lc.li.Swapped(uint64(lo), js, lc.pli)
		v = &partnerView{js: js, from: lc.from, self: lc.self, base: uint64(lo)}
		coder = coderPartner
	}
	other = e.coders[w].encode(other[:0], raw, uint64(lo), lc.parts, v)
	if len(other) < len(frame) {
		return other, frame, coder
	}
	return frame, other, coderZstd
}

// withoutDirectory appends to dst the data of coder 3 for a block raw of a
// dense body whose first head bytes come before the rank directory and
// last tail bytes after it (directory.go).
func (e *exporter) withoutDirectory(dst, raw []byte, head, tail int, sc *streamCoder) []byte {
	var f []byte
	if head > 0 {
		f = e.enc.EncodeAll(raw[:head], nil)
	}
	dst = binary.AppendUvarint(dst, uint64(len(f)))
	dst = append(dst, f...)
	if tail > 0 {
		t := raw[len(raw)-tail:]
		z := e.enc.EncodeAll(t, nil)
		if s := sc.encode(nil, t, 0, nil, nil); len(s) < len(z) {
			return append(append(dst, coderStreams), s...)
		}
		dst = append(append(dst, coderZstd), z...)
	}
	return dst
}
