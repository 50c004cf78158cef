//go:build amd64 || arm64

package layers

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/edsrzf/mmap-go"
)

// TestMapBeyond4GiB maps a file of 5 GiB as OpenFile maps a layer (the
// whole file, read-only) and reads bytes written beyond 4 GiB: the
// largest layers of the standard game are larger than that, and on
// Windows the size and offset of a mapping go to the system in two 32-bit
// halves. The file is sparse where the file system allows (on NTFS its
// space is reserved), so the test needs 10 GiB free.
func TestMapBeyond4GiB(t *testing.T) {
	const size = 5 << 30
	dir := t.TempDir()
	if free, err := FreeBytes(dir); err != nil || free < 2*size {
		t.Skipf("needs %d GiB free in %s: %d, %v", 2*size>>30, dir, free, err)
	}
	path := filepath.Join(dir, "big.layer")
	f, err := CreateRegular(path)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(path)
	marks := map[int64]byte{4<<30 - 1: 0x11, 4 << 30: 0x22, 4<<30 + 12345: 0x33, size - 1: 0x44}
	for off, b := range marks {
		if _, err := f.WriteAt([]byte{b}, off); err != nil {
			f.Close()
			t.Fatal(err)
		}
	}
	f.Close()

	f, err = OpenRegular(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mmap.Map(f, mmap.RDONLY, 0)
	f.Close()
	if err != nil {
		t.Fatalf("mapping %d bytes: %v", int64(size), err)
	}
	defer m.Unmap()
	if len(m) != size {
		t.Fatalf("mapped %d bytes, want %d", len(m), int64(size))
	}
	for off, b := range marks {
		if m[off] != b {
			t.Errorf("byte %d: got %#x, want %#x", off, m[off], b)
		}
	}
	if m[4<<30+1] != 0 {
		t.Errorf("byte %d: got %#x, want 0", int64(4<<30+1), m[4<<30+1])
	}
}
