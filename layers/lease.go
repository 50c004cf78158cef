package layers

import "sync/atomic"

// A file the DB hands out no more (replaced on disk, let go of under the
// memory bound, found damaged) is retired: it may still be read, by a
// probe that found it just before, or by a holder of a File that Layer or
// Borrow returned. Its mapping keeps a replaced file's disk space taken,
// so the DB gives the mapping up as soon as no holder is left, rather
// than at Close:
//
//   - Holders are counted per mapping (lease.users): Borrow counts one
//     until its release is called, Layer one for good (its File stays
//     valid until Close or ReleaseRetired, as it always has), and the
//     DB's own long reads (Compress, the won depths of DB.Layer) count
//     theirs.
//   - Probes are not counted: that would put two atomic writes to shared
//     memory on every probe. A probe reads its value and then looks
//     whether the file it read was retired meanwhile; if so it probes
//     again, from the DB's new entry (DB.stored). For a stale probe's
//     reads to stay harmless, a retired mapping is not unmapped but
//     replaced in place by an empty anonymous one (vacate: mmap with
//     MAP_FIXED), which reads as zeros and holds neither the file nor
//     memory: the file's disk space is given back at once. The address
//     range itself is unmapped at Close or ReleaseRetired.
//
// The check after the read is sound where the processor does not reorder
// loads with each other (x86-64: vacate_amd64.go, on Linux and macOS): a probe
// that read a page of the empty mapping reads the flag the DB set before
// replacing it. Elsewhere vacate declines, and a retired file stays
// mapped until Close or ReleaseRetired, as before.

// lease is what a DB knows of the holders of one mapped file: a flat
// file's mapping (File.m) or a compressed one's (zFile.m, shared by the
// Files made of it).
type lease struct {
	users   atomic.Int64 // holders: Layer, Borrow, the DB's long reads
	retired atomic.Bool  // the DB hands the file out no more
	vacated bool         // the mapping replaced by an empty one, or unmapped; DB.mu
}

// lease returns the lease of f's mapping.
func (f *File) lease() *lease {
	if f.z != nil {
		return &f.z.ls
	}
	return &f.ls
}

// mapping returns f's mapped file: the flat file or the compressed one.
func (f *File) mapping() []byte {
	if f.z != nil {
		return f.z.m
	}
	return f.m
}

// hold counts a holder of e's file, unless the file has been retired
// (then it reports false, and the caller looks up the layer again).
func (d *DB) hold(e *dbLayer) bool {
	l := e.f.lease()
	l.users.Add(1)
	if l.retired.Load() {
		d.release(e.f)
		return false
	}
	return true
}

// release ends a holding of f's mapping that hold counted; the last
// holder of a retired file gives its mapping up (vacateLocked).
func (d *DB) release(f *File) {
	l := f.lease()
	if l.users.Add(-1) == 0 && l.retired.Load() {
		d.mu.Lock()
		d.vacateLocked(f)
		d.mu.Unlock()
	}
}

// vacateLocked gives up the mapping of f, a retired file, unless it has
// holders: it replaces it by an empty one (vacate), so that the file's
// disk space (a file replaced on disk) is given back while probes that
// read it just before stay harmless. Where vacate declines, the mapping
// stays until Close or ReleaseRetired. d.mu is held.
func (d *DB) vacateLocked(f *File) {
	l := f.lease()
	if l.vacated || l.users.Load() > 0 || f.closed {
		return
	}
	if vacate(f.mapping()) == nil {
		l.vacated = true
	}
}
