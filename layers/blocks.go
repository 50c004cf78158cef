package layers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The block file beside a layer file (m3-4.blocks beside m3-4.layer; see
// doc.go for the bytes) holds the CRC-64 of each block of the layer's
// body. It lets a reader check the blocks it reads, one at a time, instead
// of the whole body before its first read. It is trusted only when it is
// intact (its own CRC-32C), names the layer header it belongs to (body
// checksum and header checksum) and its block CRCs combine to exactly the
// header's body checksum: so it vouches for no other body than the one
// the header describes. A block file that fails any of this is ignored and
// replaced by the next full check of the body.
const (
	blocksMagic      = "MUEHLEBK"
	blocksVersion    = 1
	blocksHeaderSize = 48
	// The block sizes a reader accepts: 512 bytes to 1 GiB.
	minBlockShift = 9
	maxBlockShift = 30
)

// marshalBlocks returns the bytes of the block file of a layer with
// header h, whose header checksum (bytes 72-75 of the file) is hcrc.
func marshalBlocks(h Header, hcrc uint32, shift uint, sums []uint64) []byte {
	le := binary.LittleEndian
	b := make([]byte, blocksHeaderSize+8*len(sums)+4)
	copy(b, blocksMagic)
	le.PutUint32(b[8:], blocksVersion)
	le.PutUint32(b[12:], uint32(shift))
	le.PutUint64(b[16:], h.Slots)
	le.PutUint64(b[24:], h.Checksum)
	le.PutUint32(b[32:], hcrc)
	le.PutUint64(b[40:], uint64(len(sums)))
	for i, s := range sums {
		le.PutUint64(b[blocksHeaderSize+8*i:], s)
	}
	n := len(b) - 4
	le.PutUint32(b[n:], crc32.Checksum(b[:n], castagnoli))
	return b
}

// parseBlocks checks the bytes of a block file against the layer header h
// and its header checksum hcrc, and returns the block size's log2 and the
// block CRCs. The error says why the file is not to be trusted.
func parseBlocks(b []byte, h Header, hcrc uint32) (uint, []uint64, error) {
	le := binary.LittleEndian
	if len(b) < blocksHeaderSize+4 || string(b[:8]) != blocksMagic {
		return 0, nil, errors.New("not a block file")
	}
	n := len(b) - 4
	if got, want := le.Uint32(b[n:]), crc32.Checksum(b[:n], castagnoli); got != want {
		return 0, nil, fmt.Errorf("its checksum is %08x, want %08x", got, want)
	}
	if v := le.Uint32(b[8:]); v != blocksVersion {
		return 0, nil, fmt.Errorf("version %d, want %d", v, blocksVersion)
	}
	shift := uint(le.Uint32(b[12:]))
	if shift < minBlockShift || shift > maxBlockShift {
		return 0, nil, fmt.Errorf("blocks of 2^%d bytes", shift)
	}
	if le.Uint64(b[16:]) != h.Slots || le.Uint64(b[24:]) != h.Checksum || le.Uint32(b[32:]) != hcrc {
		return 0, nil, errors.New("it belongs to another layer header")
	}
	size := h.BodySize()
	blocks := (size + 1<<shift - 1) >> shift
	if le.Uint64(b[40:]) != blocks || uint64(n-blocksHeaderSize) != 8*blocks {
		return 0, nil, fmt.Errorf("%d blocks for a body of %d bytes", le.Uint64(b[40:]), size)
	}
	sums := make([]uint64, blocks)
	for i := range sums {
		sums[i] = le.Uint64(b[blocksHeaderSize+8*i:])
	}
	if sum := combineBlocks(sums, shift, int(size)); sum != h.Checksum {
		return 0, nil, fmt.Errorf("its blocks combine to %016x, the header says %016x", sum, h.Checksum)
	}
	return shift, sums, nil
}

// readBlocks reads the block file of the layer file at path, whose header
// is h with header checksum hcrc, and checks it (parseBlocks).
func readBlocks(path string, h Header, hcrc uint32) (uint, []uint64, error) {
	f, err := OpenRegular(blocksPath(path))
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, nil, err
	}
	// The largest a block file of this header can be: blocks of 512 bytes.
	if limit := blocksHeaderSize + 8*(h.BodySize()>>minBlockShift+1) + 4; !fi.Mode().IsRegular() || uint64(fi.Size()) > limit {
		return 0, nil, fmt.Errorf("%s: %d bytes, more than %d", f.Name(), fi.Size(), limit)
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return 0, nil, err
	}
	return parseBlocks(b, h, hcrc)
}

// refreshBlocks writes the block file of the layer file at path, just
// checked in full with block CRCs sums (blocks of 1<<shift bytes), unless
// a valid one with the same blocks is there. It is best-effort: a folder
// that cannot be written to keeps its old block file or none. The file is
// not synced: a torn one fails its checks and is written again.
func refreshBlocks(path string, h Header, hcrc uint32, shift uint, sums []uint64) {
	if s, old, err := readBlocks(path, h, hcrc); err == nil && s == shift && slices.Equal(old, sums) {
		return
	}
	bpath := blocksPath(path)
	removeStaleTemps(bpath)
	f, err := os.CreateTemp(filepath.Dir(bpath), filepath.Base(bpath)+".*.tmp")
	if err != nil {
		return
	}
	_, err = f.Write(marshalBlocks(h, hcrc, shift, sums))
	if err == nil {
		// Readable by all, as the layer file is: CreateTemp makes it 0600,
		// and another user probing a shared folder would check in full.
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = ReplaceFile(f.Name(), bpath)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}

// staleTemp is the age from which refreshBlocks takes a temporary block
// file as left by a process killed while writing it: writing one takes
// milliseconds.
const staleTemp = 10 * time.Minute

// removeStaleTemps removes the temporary files of the block file bpath
// (bpath.*.tmp, as refreshBlocks names them) older than staleTemp. It is
// best-effort, as refreshBlocks is.
func removeStaleTemps(bpath string) {
	dir, base := filepath.Dir(bpath), filepath.Base(bpath)+"."
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, base) || !strings.HasSuffix(name, ".tmp") || e.IsDir() {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleTemp {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// blockChecks is the state of a lazily checked body: the CRC of each
// block from its block file, and which blocks have passed their check. It
// is safe for concurrent use; two goroutines may check the same block.
type blockChecks struct {
	shift uint            // log2 of the block size
	sums  []uint64        // CRC-64 of each block
	done  []atomic.Uint64 // bit b%64 of word b/64: block b checked
}

func newBlockChecks(shift uint, sums []uint64) *blockChecks {
	return &blockChecks{shift: shift, sums: sums, done: make([]atomic.Uint64, (len(sums)+63)/64)}
}

// checkOffset checks the block holding byte off of body, the body of the
// layer file at path, unless it has passed already (or off lies outside
// the body, which reads as Unused); the error wraps ErrChecksum.
func (c *blockChecks) checkOffset(path string, body []byte, off uint64) error {
	b := off >> c.shift
	if b >= uint64(len(c.sums)) || c.passed(int(b)) {
		return nil
	}
	return c.check(path, body, off)
}

// passed reports whether block b has passed its check.
func (c *blockChecks) passed(b int) bool { return c.done[b>>6].Load()&(1<<(b&63)) != 0 }

// check checks the block holding byte off of body, the body of the layer
// file at path, and records it as checked when it passes. The error wraps
// ErrChecksum.
func (c *blockChecks) check(path string, body []byte, off uint64) error {
	b := int(off >> c.shift)
	if b >= len(c.sums) {
		return nil
	}
	prefetch(body[b<<c.shift : min((b+1)<<c.shift, len(body))])
	if err := c.checkBlock(path, body, b); err != nil {
		return err
	}
	c.done[b>>6].Or(1 << (b & 63))
	return nil
}

// checkBlock compares block b of body with its CRC.
func (c *blockChecks) checkBlock(path string, body []byte, b int) error {
	lo, hi := b<<c.shift, min((b+1)<<c.shift, len(body))
	if sum := crc64.Checksum(body[lo:hi], crc64Table); sum != c.sums[b] {
		return fmt.Errorf("layers: %s: %w: body checksum of block %d (bytes %d to %d of the body) %016x, its block file says %016x",
			path, ErrChecksum, b, lo, hi-1, sum, c.sums[b])
	}
	return nil
}

// checkRest checks every block of body not checked yet, on all cores, and
// returns the error of the first block that fails.
func (c *blockChecks) checkRest(path string, body []byte) error {
	errs := make([]error, len(c.sums))
	forBlocks(len(c.sums), len(body), func(lo, hi int) {
		for b := lo; b < hi; b++ {
			if !c.passed(b) {
				errs[b] = c.checkBlock(path, body, b)
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// forBlocks calls do for ranges of the blocks 0 to n-1 of a body of size
// bytes that together cover them all, on up to GOMAXPROCS goroutines with
// at least checksumPart bytes each, and returns when all are done.
func forBlocks(n, size int, do func(lo, hi int)) {
	parts := min(runtime.GOMAXPROCS(0), size/checksumPart, n)
	if parts < 2 {
		do(0, n)
		return
	}
	var wg sync.WaitGroup
	for i := range parts {
		lo, hi := i*n/parts, (i+1)*n/parts
		wg.Go(func() { do(lo, hi) })
	}
	wg.Wait()
}
