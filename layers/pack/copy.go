package pack

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"io"
	"os"
	"path/filepath"
	"sync"

	"muehle/layers"
)

// Copied layers (package format 5). A layer kept compressed (layers/doc.go,
// "Compressed layer files") travels as its file, byte for byte, and its
// block file with it: export reads and checks it, import writes it back,
// so that the imported folder is the exporting one and neither codes a
// block. The file's bytes go in blocks of kind 2, the block file's in
// blocks of kind 3, each holding the next blockBytes bytes as they are
// (coder 4). The compressed file checks itself: its header, offset table
// and the CRC-64 of every block of body in that table, which combine to
// the header's body checksum. Export opens it in full before it copies it
// (every frame decoded and checked, the header's figures recounted), and
// import does so with the file it wrote before it renames it into place
// and compares the header with the manifest's.

// copySource is a layer that a package copies: its compressed file and
// its block file.
type copySource struct {
	db     *layers.DB
	k      layers.Key
	path   string
	size   uint64
	h      layers.Header
	blocks []byte // the block file, nil when there is none
}

// newCopySource looks at the compressed layer k of db: its header (the
// body is checked when it is copied) and its block file.
func newCopySource(db *layers.DB, k layers.Key) (*copySource, error) {
	h, err := db.Header(k)
	if err != nil {
		return nil, fmt.Errorf("pack: layer %s: %w", k, err)
	}
	path := db.Path(k)
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("pack: layer %s: %w", k, err)
	}
	c := &copySource{db: db, k: k, path: path, size: uint64(fi.Size()), h: h}
	if b, err := layers.ReadRegular(db.BlocksPath(k), maxBlockFile); err == nil && len(b) >= minBlockFile {
		c.blocks = b
	}
	return c, nil
}

// blockFile describes the block file copied with the layer, nil when
// there is none.
func (c *copySource) blockFile() *Copied {
	if c.blocks == nil {
		return nil
	}
	sum := crc64.Checksum(c.blocks, ecma)
	return &Copied{Bytes: uint64(len(c.blocks)), CRC64: fmt.Sprintf("%016x", sum), sum: sum}
}

// errChanged is the error of a layer file that changed while a package
// was written: another program compressed, repaired or replaced it.
func errChanged(k layers.Key) error {
	return fmt.Errorf("pack: layer %s: %w: its file changed while exporting; export again", k, layers.ErrFormat)
}

// copyLayer checks the compressed file of layer i in full and writes it
// and its block file as blocks of kinds 2 and 3.
func (e *exporter) copyLayer(i int, c *copySource) error {
	f, err := layers.OpenRegular(c.path)
	if err != nil {
		return fmt.Errorf("pack: layer %s: %w", c.k, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("pack: layer %s: %w", c.k, err)
	}
	if uint64(fi.Size()) != c.size {
		return errChanged(c.k)
	}
	lf, err := layers.OpenFile(c.path, c.db.Variant(), c.k) // every frame decoded and checked
	if err != nil {
		return fmt.Errorf("pack: layer %s: %w", c.k, err)
	}
	h := lf.Header()
	lf.Close()
	if now, err := os.Stat(c.path); err != nil || !os.SameFile(fi, now) || h != c.h {
		return errChanged(c.k) // what was checked is not what f reads
	}
	if err := e.stored(i, kindFile, f, c.size); err != nil {
		return err
	}
	if c.blocks != nil {
		return e.stored(i, kindBlocks, bytes.NewReader(c.blocks), uint64(len(c.blocks)))
	}
	return nil
}

// stored writes the n bytes of r as blocks of the given kind of layer i,
// the bytes as they are (coder 4): read a batch at a time, their
// checksums computed on the workers.
func (e *exporter) stored(i, kind int, r io.ReaderAt, n uint64) error {
	bs := uint64(e.m.BlockBytes)
	nb := int((n + bs - 1) / bs)
	bufs := make([][]byte, min(e.workers, nb))
	heads := make([]blockHeader, len(bufs))
	for b0 := 0; b0 < nb; b0 += len(bufs) {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		batch := min(len(bufs), nb-b0)
		for j := range batch {
			lo := uint64(b0+j) * bs
			if bufs[j] == nil {
				bufs[j] = make([]byte, min(bs, n))
			}
			raw := bufs[j][:min(bs, n-lo)]
			if _, err := r.ReadAt(raw, int64(lo)); err != nil {
				return fmt.Errorf("pack: layer %s: reading %s: %w", e.m.Key(i), kindName(kind), err)
			}
			bufs[j] = raw
		}
		forEach(batch, func(j int) {
			raw := bufs[j]
			heads[j] = blockHeader{layer: i, kind: kind, coder: coderStored, seq: b0 + j, raw: len(raw), comp: len(raw),
				rawCRC: crc64.Checksum(raw, ecma), cCRC: crc32.Checksum(raw, castagnoli)}
		})
		for j := range batch {
			if err := e.write(heads[j].marshal()); err != nil {
				return err
			}
			if err := e.write(bufs[j]); err != nil {
				return err
			}
			e.nblocks++
			e.coded[coderStored]++
			e.packed[i] += int64(blockHead + len(bufs[j]))
			if kind == kindFile {
				e.done += uint64(len(bufs[j]))
			}
		}
		if e.progress != nil {
			e.progress(Progress{Phase: "export", Layer: e.m.Key(i), Step: e.step + 1, Steps: len(e.m.Layers),
				Done: e.done, Total: e.total, Packed: e.out.n})
		}
	}
	return nil
}

// forEach calls f(j) for j from 0 to n-1, each on a goroutine of its own.
func forEach(n int, f func(j int)) {
	var wg sync.WaitGroup
	for j := range n {
		wg.Go(func() { f(j) })
	}
	wg.Wait()
}

// copied installs layer i from its compressed file's blocks: written to a
// temporary file, opened in full (every frame decoded and checked, the
// header's figures recounted) and its header compared with the
// manifest's, then renamed into place after its block file; its reach
// file and verification record follow.
func (in *installer) copied(i int) error {
	l := &in.p.Manifest.Layers[i]
	k := l.key
	v := in.p.Manifest.Variant()
	release, err := in.claim(k)
	if err != nil {
		return err
	}
	defer release()
	path := in.db.Path(k)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	tmp := path + ".tmp"
	defer os.Remove(tmp) // gone already when installed
	if err := in.writeCopy(i, tmp); err != nil {
		return err
	}
	lf, err := layers.OpenFile(tmp, v, k)
	if err != nil {
		if errors.Is(err, layers.ErrChecksum) || errors.Is(err, layers.ErrFormat) || errors.Is(err, layers.ErrVersion) {
			return fmt.Errorf("pack: %s: %w: layer %s as copied: %w", in.p.name, ErrChecksum, k, err)
		}
		return err
	}
	h := lf.Header()
	lf.Close()
	if want := l.header(v); h != want {
		return fmt.Errorf("pack: %s: %w: layer %s as copied has checksum %016x, won %d, lost %d, drawn %d, deepest %d/%d; the manifest says %s, %d, %d, %d, %d/%d",
			in.p.name, ErrChecksum, k, h.Checksum, h.Won, h.Lost, h.Drawn, h.DeepestWin, h.DeepestLoss,
			l.CRC64, l.Won, l.Lost, l.Drawn, l.DeepestWin, l.DeepestLoss)
	}
	var blocks []byte
	if l.BlockFile != nil {
		if blocks, err = in.readStored(i, kindBlocks, l.BlockFile); err != nil {
			return err
		}
	}
	reach, err := in.reach(i, nil)
	if err != nil {
		return err
	}
	// As layers.LayerWriter.Commit installs a layer: the record of the
	// file replaced goes first, the block file before the layer file.
	if err := os.Remove(in.db.VerifiedPath(k)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("pack: %w", err)
	}
	if blocks != nil {
		err = layers.WriteAtomic(in.db.BlocksPath(k), blocks)
	} else if err = os.Remove(in.db.BlocksPath(k)); errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	if err := layers.ReplaceFile(tmp, path); err != nil {
		return fmt.Errorf("pack: installing %s: %w", path, err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	in.report(k)
	return in.writeSides(i, reach)
}

// writeCopy writes the compressed file of layer i from its blocks to
// path, synced: read a batch at a time, their checksums checked on the
// workers.
func (in *installer) writeCopy(i int, path string) error {
	l := &in.p.Manifest.Layers[i]
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	defer f.Close()
	err = in.storedBlocks(i, kindFile, l.File.Bytes, func(data []byte) error {
		if _, err := f.Write(data); err != nil {
			return fmt.Errorf("pack: %w", err)
		}
		in.done += uint64(len(data))
		in.report(l.key)
		return nil
	})
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	return f.Close()
}

// storedBlocks reads the blocks of the given kind of layer i, n bytes
// stored as they are (coder 4), a batch at a time, checks each against
// its header on the workers, and calls f with the data of each in order.
func (in *installer) storedBlocks(i, kind int, n uint64, f func(data []byte) error) error {
	nb := in.p.blocksOf(n)
	batch := make([]block, max(1, min(in.workers, nb)))
	errs := make([]error, len(batch))
	for b0 := 0; b0 < nb; b0 += len(batch) {
		if err := in.ctx.Err(); err != nil {
			return err
		}
		m := min(len(batch), nb-b0)
		for j := range m {
			b, err := in.c.next(i, kind, b0+j, in.p.rawOf(n, b0+j), false)
			if err != nil {
				return err
			}
			batch[j] = block{h: b.h, frame: append(batch[j].frame[:0], b.frame...)}
		}
		forEach(m, func(j int) { errs[j] = in.checked(batch[j].frame, nil, batch[j].h, i) })
		for j := range m {
			if errs[j] != nil {
				return errs[j]
			}
			if err := f(batch[j].frame); err != nil {
				return err
			}
		}
	}
	return nil
}

// readStored reads the blocks of the given kind of layer i, a file c
// copied (coder 4), and checks the whole against c's CRC-64.
func (in *installer) readStored(i, kind int, c *Copied) ([]byte, error) {
	data := make([]byte, 0, c.Bytes)
	err := in.storedBlocks(i, kind, c.Bytes, func(b []byte) error { data = append(data, b...); return nil })
	if err != nil {
		return nil, err
	}
	if sum := crc64.Checksum(data, ecma); sum != c.sum {
		return nil, fmt.Errorf("pack: %s: %w: %s of layer %s has CRC-64 %016x, the manifest says %s", in.p.name, ErrChecksum, kindName(kind), in.p.Manifest.Layers[i].Key, sum, c.CRC64)
	}
	return data, nil
}
