package layers

import (
	"os"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"muehle/muehle"
)

// TestColdProbeReadsLittle evicts a layer file of 3.3 MB from the page
// cache, probes one slot in its middle, and expects about the block the
// probe checks to have been read, not the file (as when a layer whose
// block file is not trusted is checked in full on opening).
func TestColdProbeReadsLittle(t *testing.T) {
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	k := Moving(4, 4)
	l := db.Indexer().Layer(k)
	if err := db.Write(k, fingerprintBody(t, l)); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db)
	fd, err := os.Open(db.Path(k))
	if err != nil {
		t.Fatal(err)
	}
	err = unix.Fadvise(int(fd.Fd()), 0, 0, unix.FADV_DONTNEED)
	fd.Close()
	if err != nil {
		t.Skipf("cannot evict the file from the page cache: %v", err)
	}
	i := l.Size() / 2
	p, ok := l.Position(i)
	for ; !ok; p, ok = l.Position(i) {
		i++
	}
	if got, err := db.Probe(p); err != nil || got != fingerprint(p) {
		t.Fatalf("Probe: %v, %v, want %v", got, err, fingerprint(p))
	}
	m := db.cached(k).f.m
	page := unix.Getpagesize()
	vec := make([]byte, (len(m)+page-1)/page)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Skipf("mincore: %v", e)
	}
	in := 0
	for _, v := range vec {
		in += int(v & 1)
	}
	if limit := 4 << blockShift; in*page > limit {
		t.Errorf("one cold probe of a %d-byte layer brought %d bytes into memory, want at most %d", len(m), in*page, limit)
	}
}
