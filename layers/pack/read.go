package pack

import (
	"context"
	"fmt"
	"hash/crc32"
	"io"
)

// Package is an open package: its manifest read and checked.
type Package struct {
	Manifest *Manifest
	src      *source
	r        io.ReaderAt
	size     int64
	start    int64 // the first block
	name     string
}

// Open opens the package at path (a file or a folder of parts) and reads
// and checks its preamble and manifest. It does not read the blocks:
// Check does.
func Open(path string) (*Package, error) {
	src, err := openSource(path)
	if err != nil {
		return nil, fmt.Errorf("pack: %w", err)
	}
	p, err := newPackage(src, src.Size(), path)
	if err != nil {
		src.Close()
		return nil, err
	}
	p.src = src
	return p, nil
}

// newPackage reads the manifest of the package in r of size bytes; name is
// for messages.
func newPackage(r io.ReaderAt, size int64, name string) (*Package, error) {
	pre := make([]byte, preambleSize)
	n, _ := r.ReadAt(pre, 0)
	version, mlen, mcrc, err := parsePreamble(pre[:n])
	if err != nil {
		return nil, fmt.Errorf("pack: %s: %w", name, err)
	}
	if int64(preambleSize+mlen) > size {
		return nil, fmt.Errorf("pack: %s: %w: %d bytes, the manifest alone needs %d", name, ErrTruncated, size, preambleSize+mlen)
	}
	js := make([]byte, mlen)
	if _, err := r.ReadAt(js, preambleSize); err != nil {
		return nil, fmt.Errorf("pack: %s: %w", name, err)
	}
	if got := crc32.Checksum(js, castagnoli); got != mcrc {
		return nil, fmt.Errorf("pack: %s: %w: the manifest's checksum is %08x, the preamble says %08x", name, ErrChecksum, got, mcrc)
	}
	m, err := parseManifest(js)
	if err != nil {
		return nil, fmt.Errorf("pack: %s: %w", name, err)
	}
	if m.Version != version {
		return nil, fmt.Errorf("pack: %s: %w: the preamble says package format %d, the manifest %d", name, ErrFormat, version, m.Version)
	}
	return &Package{Manifest: m, r: r, size: size, start: int64(preambleSize + mlen), name: name}, nil
}

// Size returns the package's size in bytes.
func (p *Package) Size() int64 { return p.size }

// Close closes the package's files.
func (p *Package) Close() error {
	if p.src != nil {
		return p.src.Close()
	}
	return nil
}

// block is one block read: its header and frame, checked against its
// CRC-32C.
type block struct {
	h     blockHeader
	frame []byte
}

// cursor reads the blocks of a package in order.
type cursor struct {
	p   *Package
	at  int64
	buf []byte
	n   uint64 // blocks read
}

func (p *Package) cursor() *cursor { return &cursor{p: p, at: p.start} }

// next reads the next block, which must be block seq of the given kind of
// layer i holding raw bytes; with skip set it reads the header only and
// steps over the frame.
func (c *cursor) next(i, kind, seq, raw int, skip bool) (block, error) {
	m := c.p.Manifest
	name := m.Layers[i].Key
	head := make([]byte, blockHead)
	if n, _ := c.p.r.ReadAt(head, c.at); n < blockHead {
		return block{}, fmt.Errorf("pack: %s: %w: it ends at byte %d, in block %d of %s of layer %s (%d of %d layers)", c.p.name, ErrTruncated, c.p.size, seq, kindName(kind), name, i+1, len(m.Layers))
	}
	want := blockHeader{layer: i, kind: kind, seq: seq, raw: raw}
	switch {
	case kind == kindFile || kind == kindBlocks:
		want.coder = coderStored
	case m.Version >= 3 && kind == kindBody:
		want.coder = coderDirectory
	}
	h, err := parseBlockHeader(head, want, m.BlockBytes, c.at, name)
	if err != nil {
		return block{}, fmt.Errorf("pack: %s: %w", c.p.name, err)
	}
	end := c.at + blockHead + int64(h.comp)
	if end > c.p.size {
		return block{}, fmt.Errorf("pack: %s: %w: it ends at byte %d, in block %d of %s of layer %s (%d of %d layers)", c.p.name, ErrTruncated, c.p.size, seq, kindName(kind), name, i+1, len(m.Layers))
	}
	b := block{h: h}
	if !skip {
		if cap(c.buf) < h.comp {
			c.buf = make([]byte, h.comp)
		}
		b.frame = c.buf[:h.comp]
		if _, err := c.p.r.ReadAt(b.frame, c.at+blockHead); err != nil {
			return block{}, fmt.Errorf("pack: %s: %w", c.p.name, err)
		}
		if got := crc32.Checksum(b.frame, castagnoli); got != h.cCRC {
			return block{}, fmt.Errorf("pack: %s: %w: block %d of %s of layer %s (bytes %d to %d of the package) has checksum %08x, its header says %08x",
				c.p.name, ErrChecksum, seq, kindName(kind), name, c.at+blockHead, end-1, got, h.cCRC)
		}
	}
	c.at = end
	c.n++
	return b, nil
}

// end checks the trailer after the last block.
func (c *cursor) end() error {
	t := make([]byte, trailerSize)
	if n, _ := c.p.r.ReadAt(t, c.at); n < trailerSize {
		return fmt.Errorf("pack: %s: %w: it ends at byte %d, before its trailer", c.p.name, ErrTruncated, c.p.size)
	}
	if string(t[:8]) != endMagic || le.Uint32(t[28:]) != crc32.Checksum(t[:28], castagnoli) {
		return fmt.Errorf("pack: %s: %w: at byte %d, after the last block, there is no trailer", c.p.name, ErrFormat, c.at)
	}
	if le.Uint64(t[8:]) != c.n || int64(le.Uint64(t[16:])) != c.at+trailerSize {
		return fmt.Errorf("pack: %s: %w: the trailer says %d blocks and %d bytes, the package has %d and %d", c.p.name, ErrFormat, le.Uint64(t[8:]), le.Uint64(t[16:]), c.n, c.at+trailerSize)
	}
	if c.p.size != c.at+trailerSize {
		return fmt.Errorf("pack: %s: %w: %d bytes after the trailer", c.p.name, ErrFormat, c.p.size-c.at-trailerSize)
	}
	return nil
}

// blocksOf returns the number of blocks of n bytes.
func (p *Package) blocksOf(n uint64) int {
	return int((n + uint64(p.Manifest.BlockBytes) - 1) / uint64(p.Manifest.BlockBytes))
}

// rawOf returns the bytes block seq of data of n bytes holds.
func (p *Package) rawOf(n uint64, seq int) int {
	bs := uint64(p.Manifest.BlockBytes)
	return int(min(bs, n-uint64(seq)*bs))
}

// Check reads the whole package and checks its structure: every block in
// its place with its header and frame checksums, the trailer, nothing
// after it. It does not decompress (Import checks the values too).
func (p *Package) Check(ctx context.Context, progress func(Progress)) error {
	c := p.cursor()
	m := p.Manifest
	var done uint64
	total := m.work()
	for i, l := range m.Layers {
		if l.Derived {
			done += l.BodyBytes()
		}
		for _, st := range l.streams() {
			for seq := range p.blocksOf(st.n) {
				if seq%64 == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				if _, err := c.next(i, st.kind, seq, p.rawOf(st.n, seq), false); err != nil {
					return err
				}
				if st.kind == kindBody || st.kind == kindFile {
					done += uint64(p.rawOf(st.n, seq))
				}
				if progress != nil && seq%16 == 15 {
					progress(Progress{Phase: "check", Layer: l.key, Step: i + 1, Steps: len(m.Layers), Done: done, Total: total, Packed: c.at})
				}
			}
		}
		if progress != nil {
			progress(Progress{Phase: "check", Layer: l.key, Step: i + 1, Steps: len(m.Layers), Done: done, Total: total, Packed: c.at})
		}
	}
	return c.end()
}
