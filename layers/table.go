package layers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"unsafe"

	"muehle/muehle"
)

// The group-B table gives each of the 3^16 B codes its class among the
// codes with the same stone counts and the symmetry that maps it to the
// class representative (the smallest code of the class), and names the
// stabilizer of that representative. One uint32 per code:
//
//	bits  0-17  class number within the (w, b) count group
//	bits 18-21  symmetry s with s(code) = representative
//	bits 22-27  stabilizer id: stabs[id] is the 16-bit mask of the
//	            symmetries that fix the representative (id 0 = identity only)
const (
	classBits = 18
	classMask = 1<<classBits - 1
	symShift  = classBits
	stabShift = classBits + 4
	maxStabs  = 64
	// repStabShift places the stabilizer id above the code (< 2^26) in an
	// entry of reps.
	repStabShift = 26
	repCodeMask  = 1<<repStabShift - 1
)

// bTable is the group-B table with what the index derives from it.
type bTable struct {
	tab        []uint32                     // numBCodes entries, see above
	reps       []uint32                     // representatives (code | stabilizer id<<repStabShift), group by group, in class order
	groupStart [numBGroups + 1]uint32       // reps[groupStart[g]:groupStart[g+1]] are group g's
	stabs      [maxStabs]uint16             // stabilizer masks by id
	stabCount  [numBGroups][maxStabs]uint32 // representatives per group and stabilizer
	release    func()                       // frees tab (and reps when loaded from a file)
	_          [0]func()                    // not comparable
}

// buildTable computes the group-B table: every code not yet seen, in
// increasing order, is the smallest of its class and becomes its
// representative; its 16 images get the class number and the symmetry back.
func buildTable() (*bTable, error) {
	mem, release, err := AllocLarge(4 * numBCodes)
	if err != nil {
		return nil, fmt.Errorf("layers: group-B table: %w", err)
	}
	t := &bTable{tab: unsafe.Slice((*uint32)(unsafe.Pointer(&mem[0])), numBCodes), release: release}
	ok := false
	defer func() {
		if !ok {
			release()
		}
	}()
	const unset = ^uint32(0)
	for i := range t.tab {
		t.tab[i] = unset
	}
	var reps [numBGroups][]uint32
	nStabs := 1
	t.stabs[0] = 1
	var img [muehle.NumSymmetries]uint32
	for c := range uint32(numBCodes) {
		if t.tab[c] != unset {
			continue
		}
		w, b := bMasks(c)
		g := bGroup(bits.OnesCount16(w), bits.OnesCount16(b))
		cls := uint32(len(reps[g]))
		if cls > classMask {
			return nil, fmt.Errorf("layers: group-B table: more than %d classes with %d+%d stones", classMask+1, bits.OnesCount16(w), bits.OnesCount16(b))
		}
		var stab uint16
		for s := range muehle.Symmetry(muehle.NumSymmetries) {
			img[s] = bCodeOf(symBMask(s, w), symBMask(s, b))
			if img[s] == c {
				stab |= 1 << s
			}
		}
		id := 0
		for id < nStabs && t.stabs[id] != stab {
			id++
		}
		if id == nStabs {
			if nStabs == maxStabs {
				return nil, fmt.Errorf("layers: group-B table: more than %d stabilizers", maxStabs)
			}
			t.stabs[id] = stab
			nStabs++
		}
		t.stabCount[g][id]++
		reps[g] = append(reps[g], c|uint32(id)<<repStabShift)
		for s := muehle.NumSymmetries - 1; s >= 0; s-- {
			inv := uint32(muehle.Symmetry(s).Inverse())
			t.tab[img[s]] = cls | inv<<symShift | uint32(id)<<stabShift
		}
	}
	n := 0
	for g := range reps {
		t.groupStart[g] = uint32(n)
		n += len(reps[g])
	}
	t.groupStart[numBGroups] = uint32(n)
	t.reps = make([]uint32, 0, n)
	for g := range reps {
		t.reps = append(t.reps, reps[g]...)
	}
	ok = true
	return t, nil
}

// The cache file of the group-B table, all little-endian:
//
//	0   8  magic "MUEHLEGB"
//	8   4  format version (2)
//	12  4  number of codes (3^16)
//	16  4  number of representatives
//	20  4  CRC-32C (Castagnoli) of everything after the 64-byte header
//	24 40  zero
//	64     stabs: 64 × uint16
//	       groupStart: 290 × uint32
//	       stabCount: 289 × 64 × uint32
//	       tab: 3^16 × uint32
//	       reps: number of representatives × uint32 (code | stabilizer id<<26)
const (
	tableMagic   = "MUEHLEGB"
	tableVersion = 2
	tableHeader  = 64
	// TableFile is the name of the cached group-B table in a cache directory.
	TableFile = "groupb-v2.tab"
)

// tableLayout returns the byte offsets of the parts of a cache file with
// nReps representatives, and its total size.
func tableLayout(nReps int) (groupStart, stabCount, tab, reps, size int) {
	groupStart = tableHeader + 2*maxStabs
	stabCount = groupStart + 4*(numBGroups+1)
	tab = stabCount + 4*numBGroups*maxStabs
	reps = tab + 4*numBCodes
	size = reps + 4*nReps
	return
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// littleEndian reports whether the machine stores integers little-endian, so
// that the mapped cache file can be used in place.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// writeTable writes t to path atomically (temporary file, sync, rename).
func writeTable(t *bTable, path string) error {
	gsOff, scOff, tabOff, _, size := tableLayout(len(t.reps))
	buf := make([]byte, size)
	copy(buf, tableMagic)
	le := binary.LittleEndian
	le.PutUint32(buf[8:], tableVersion)
	le.PutUint32(buf[12:], numBCodes)
	le.PutUint32(buf[16:], uint32(len(t.reps)))
	for i, s := range t.stabs {
		le.PutUint16(buf[tableHeader+2*i:], s)
	}
	for i, v := range t.groupStart {
		le.PutUint32(buf[gsOff+4*i:], v)
	}
	for g := range t.stabCount {
		for i, v := range t.stabCount[g] {
			le.PutUint32(buf[scOff+4*(g*maxStabs+i):], v)
		}
	}
	p := buf[tabOff:]
	for i, v := range t.tab {
		le.PutUint32(p[4*i:], v)
	}
	p = p[4*numBCodes:]
	for i, v := range t.reps {
		le.PutUint32(p[4*i:], v)
	}
	le.PutUint32(buf[20:], crc32.Checksum(buf[tableHeader:], castagnoli))
	return WriteAtomic(path, buf)
}

// WriteAtomic writes data to a temporary file beside path (unique, so that
// processes writing the same file at the same time do not mix their
// bytes), syncs it and renames it to path, so that path is either absent,
// the old file or the complete new one.
func WriteAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("layers: writing %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = ReplaceFile(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("layers: writing %s: %w", path, err)
	}
	return nil
}

// loadTable reads the cache file at path into memory and checks it.
func loadTable(path string) (*bTable, error) {
	if !littleEndian {
		return nil, errors.New("layers: the group-B cache needs a little-endian machine")
	}
	f, err := OpenRegular(path)
	if err != nil {
		return nil, fmt.Errorf("layers: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("layers: %w", err)
	}
	_, _, _, _, minSize := tableLayout(0)
	_, _, _, _, maxSize := tableLayout(numBCodes)
	if fi.Size() < int64(minSize) || fi.Size() > int64(maxSize) {
		return nil, fmt.Errorf("layers: %s: %w: %d bytes", path, ErrFormat, fi.Size())
	}
	mem, release, err := AllocLarge(int(fi.Size()))
	if err != nil {
		return nil, fmt.Errorf("layers: loading %s: %w", path, err)
	}
	// Read in pieces: a signal ends the process between two reads, not
	// after the whole file (183 MB, seconds from a busy disk).
	for off := 0; off < len(mem); off += tableReadPiece {
		if _, err := io.ReadFull(f, mem[off:min(off+tableReadPiece, len(mem))]); err != nil {
			release()
			return nil, fmt.Errorf("layers: loading %s: %w", path, err)
		}
	}
	t, err := parseTable(mem, path)
	if err != nil {
		release()
		return nil, err
	}
	t.release = release
	return t, nil
}

// tableReadPiece is the size of one read of the group-B cache file.
const tableReadPiece = 4 << 20

// parseTable checks the cache file image b and returns the table that uses
// it in place. b must be 4-byte aligned.
func parseTable(b []byte, path string) (*bTable, error) {
	le := binary.LittleEndian
	switch {
	case string(b[:8]) != tableMagic:
		return nil, fmt.Errorf("layers: %s: %w: bad magic", path, ErrFormat)
	case le.Uint32(b[8:]) != tableVersion:
		return nil, fmt.Errorf("layers: %s: %w: version %d, want %d", path, ErrVersion, le.Uint32(b[8:]), tableVersion)
	case le.Uint32(b[12:]) != numBCodes:
		return nil, fmt.Errorf("layers: %s: %w: %d codes", path, ErrFormat, le.Uint32(b[12:]))
	}
	nReps := int(le.Uint32(b[16:]))
	gsOff, scOff, tabOff, repOff, size := tableLayout(nReps)
	if len(b) != size {
		return nil, fmt.Errorf("layers: %s: %w: %d bytes, want %d", path, ErrFormat, len(b), size)
	}
	if crc32.Checksum(b[tableHeader:], castagnoli) != le.Uint32(b[20:]) {
		return nil, fmt.Errorf("layers: %s: %w", path, ErrChecksum)
	}
	t := &bTable{
		tab:  unsafe.Slice((*uint32)(unsafe.Pointer(&b[tabOff])), numBCodes),
		reps: unsafe.Slice((*uint32)(unsafe.Pointer(&b[repOff])), nReps),
	}
	for i := range t.stabs {
		t.stabs[i] = le.Uint16(b[tableHeader+2*i:])
	}
	for i := range t.groupStart {
		t.groupStart[i] = le.Uint32(b[gsOff+4*i:])
	}
	for g := range t.stabCount {
		for i := range t.stabCount[g] {
			t.stabCount[g][i] = le.Uint32(b[scOff+4*(g*maxStabs+i):])
		}
	}
	if t.groupStart[0] != 0 || t.groupStart[numBGroups] != uint32(nReps) || t.stabs[0] != 1 {
		return nil, fmt.Errorf("layers: %s: %w: inconsistent group offsets", path, ErrFormat)
	}
	for g := range numBGroups {
		var n uint32
		for _, c := range t.stabCount[g] {
			n += c
		}
		if t.groupStart[g+1] < t.groupStart[g] || t.groupStart[g+1]-t.groupStart[g] != n {
			return nil, fmt.Errorf("layers: %s: %w: inconsistent group offsets", path, ErrFormat)
		}
	}
	return t, nil
}

// openTable loads the table cached in dir, or builds it and caches it there
// (dir "" = build only). It returns the table even when only the caching
// failed, together with that error.
func openTable(dir string) (*bTable, error) {
	if dir == "" {
		return buildTable()
	}
	path := filepath.Join(dir, TableFile)
	if t, err := loadTable(path); err == nil {
		return t, nil
	}
	t, err := buildTable()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return t, fmt.Errorf("layers: caching the group-B table: %w", err)
	}
	if err := writeTable(t, path); err != nil {
		return t, err
	}
	os.Remove(filepath.Join(dir, "groupb-v1.tab")) // the cache of an older format
	return t, nil
}
