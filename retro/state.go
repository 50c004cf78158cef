package retro

import (
	"fmt"
	"os"
	"path/filepath"
	"unsafe"

	mmap "github.com/edsrzf/mmap-go"

	"muehle/layers"
)

// allocState returns n zeroed state words, in memory (on huge pages where
// the system has them: the words are changed at random) or, when spill is set,
// in a memory-mapped file at path that the operating system pages in and
// out; release frees them (and removes the file, and its folder when that
// is left empty).
func allocState(n uint64, spill bool, path string) (words []uint32, release func(), err error) {
	if !spill {
		mem, release, err := layers.AllocLarge(int(4 * n))
		if err != nil {
			return nil, nil, fmt.Errorf("retro: state of %d slots: %w", n, err)
		}
		if n == 0 {
			return nil, release, nil
		}
		return unsafe.Slice((*uint32)(unsafe.Pointer(&mem[0])), n), release, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, fmt.Errorf("retro: state file: %w", err)
	}
	f, err := layers.CreateRegular(path)
	if err != nil {
		return nil, nil, fmt.Errorf("retro: state file: %w", err)
	}
	if n == 0 {
		f.Close()
		return nil, func() { os.Remove(path) }, nil
	}
	if err := f.Truncate(int64(4 * n)); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("retro: state file %s: %w", path, err)
	}
	m, err := mmap.Map(f, mmap.RDWR, 0)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("retro: state file %s: %w", path, err)
	}
	words = unsafe.Slice((*uint32)(unsafe.Pointer(&m[0])), n)
	// The file stays open until the map is gone: on Windows, unmapping a
	// writable map flushes it through the file's handle, and fails (and
	// keeps the map, and so the file) when that handle is closed. Its
	// folder goes too once empty: on Windows the solver's removal of the
	// folder, while the state still lived, could not take the mapped file.
	return words, func() { m.Unmap(); f.Close(); os.Remove(path); os.Remove(filepath.Dir(path)) }, nil
}

// defaultMemBytes returns three quarters of the machine's memory
// (layers.TotalMemory), or 4 GiB when the system does not tell it.
func defaultMemBytes() int64 {
	if n, ok := layers.TotalMemory(); ok {
		return int64(n / 4 * 3)
	}
	return 4 << 30
}

// copyLarge returns a copy of the mapped layer body b in memory for random
// access (huge pages where the system has them), read sequentially from b:
// a layer file's mapped body read at random would fault page by page and
// miss the TLB. The pages of b leave the process's resident memory again,
// so that the layer is not held twice.
func copyLarge(b []byte) (c []byte, release func(), err error) {
	c, release, err = layers.AllocLarge(len(b))
	if err != nil {
		return nil, nil, err
	}
	copy(c, b)
	layers.DropPages(b)
	return c, release, nil
}

// bodyInPlace turns state words into the layer body they hold, in the
// words' own memory: byte i overwrites part of word i/4, which has been
// read by then, so the body costs no memory beside the state. The words
// must not be used afterwards; the body lives as long as their memory.
func bodyInPlace(words []uint32) []byte {
	if len(words) == 0 {
		return nil
	}
	body := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words))
	for i, s := range words {
		body[i] = byte(s & valueMask)
	}
	return body
}
