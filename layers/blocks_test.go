package layers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"hash/crc64"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"muehle/muehle"
)

// smallBlocks makes WriteLayer and full checks use blocks of 512 bytes
// until the test ends, so that small layers have many blocks.
func smallBlocks(t *testing.T) {
	s := blockShift
	t.Cleanup(func() { blockShift = s })
	blockShift = minBlockShift
}

// blocksDB returns a 4-stone database in a temporary directory holding
// layer 3-4 (and 4-3) with fingerprint bodies, written with blocks of 512
// bytes.
func blocksDB(t *testing.T) (*DB, Key) {
	t.Helper()
	smallBlocks(t)
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	k := Moving(3, 4)
	for _, key := range []Key{k, k.Partner()} {
		if err := db.Write(key, fingerprintBody(t, db.Indexer().Layer(key))); err != nil {
			t.Fatal(err)
		}
	}
	return db, k
}

// reopen closes db and opens its folder again: nothing cached.
func reopen(t *testing.T, db *DB) *DB {
	t.Helper()
	db.Close()
	db, err := OpenDB(db.Dir(), muehle.Standard.With(db.Stones()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// checkedBlocks returns how many blocks of layer k the DB has checked
// lazily, and -1 when the layer is not open lazily.
func checkedBlocks(db *DB, k Key) int {
	e := db.cached(k)
	if e == nil || e.f == nil || e.lazy == nil {
		return -1
	}
	n := 0
	for b := range e.lazy.sums {
		if e.lazy.passed(b) {
			n++
		}
	}
	return n
}

// slotIn returns the first canonical slot of layer k in block b of 512
// bytes and its position.
func slotIn(t *testing.T, db *DB, k Key, b int) (uint64, muehle.Position) {
	t.Helper()
	l := db.Indexer().Layer(k)
	for i := uint64(b) << minBlockShift; i < min(uint64(b+1)<<minBlockShift, l.Size()); i++ {
		if p, ok := l.Position(i); ok {
			return i, p
		}
	}
	t.Fatalf("layer %v: no canonical slot in block %d", k, b)
	return 0, muehle.Position{}
}

func TestWriteLayerBlocks(t *testing.T) {
	smallBlocks(t)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 511, 512, 513, 5000} {
		path := filepath.Join(t.TempDir(), "m3-3.layer")
		body := make([]byte, n)
		for i := range body {
			body[i] = byte(rng.Uint32())
		}
		if err := WriteLayer(path, muehle.Standard.With(3), Moving(3, 3), body); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(path), "m3-3.blocks"))
		if err != nil {
			t.Fatalf("%d bytes: the block file: %v", n, err)
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp")); len(left) > 0 {
			t.Errorf("%d bytes: left behind: %v", n, left)
		}
		h, err := ReadHeader(path, muehle.Standard.With(3), Moving(3, 3))
		if err != nil {
			t.Fatal(err)
		}
		shift, sums, err := parseBlocks(b, h, binary.LittleEndian.Uint32(h.marshal()[72:]))
		if err != nil {
			t.Fatalf("%d bytes: the block file: %v", n, err)
		}
		if want := (n + 511) / 512; shift != minBlockShift || len(sums) != want {
			t.Fatalf("%d bytes: got %d blocks of %d bytes, want %d of 512", n, len(sums), 1<<shift, want)
		}
		for i, s := range sums {
			if want := crc64.Checksum(body[i*512:min(i*512+512, n)], crc64Table); s != want {
				t.Errorf("%d bytes, block %d: got %016x, want %016x", n, i, s, want)
			}
		}
	}
}

// TestLazyProbe checks that Probe opens a layer with a block file without
// checking its body, checks only the blocks it reads, answers as a fully
// checked layer does, and that Layer then checks the rest.
func TestLazyProbe(t *testing.T) {
	db, k := blocksDB(t)
	full := reopen(t, db)
	if _, err := full.Layer(k); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db)
	r := rand.New(rand.NewPCG(11, 12))
	for range 200 {
		p := randomPosition(r, 3, 4)
		got, err := db.Probe(p)
		want, ferr := full.Probe(p)
		if err != nil || ferr != nil || got != want || got != fingerprint(p) {
			t.Fatalf("Probe(%v): got %v, %v, want %v, %v from the full check and %v", p, got, err, want, ferr, fingerprint(p))
		}
	}
	blocks := len(db.cached(k).lazy.sums)
	if n := checkedBlocks(db, k); n < 1 || n >= blocks {
		t.Errorf("blocks checked after 200 probes: got %d, want some of %d", n, blocks)
	}
	if n := checkedBlocks(full, k); n != -1 {
		t.Errorf("Layer: the layer is open lazily (%d blocks checked), want checked in full", n)
	}
	_, p := slotIn(t, db, k, 0)
	if n := testing.AllocsPerRun(100, func() { db.Probe(p) }); n != 0 {
		t.Errorf("lazy Probe allocates %v times, want 0", n)
	}
	f, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	if n := checkedBlocks(db, k); n != -1 {
		t.Errorf("after Layer: the layer is still open lazily (%d blocks checked), want checked in full", n)
	}
	if want := fingerprintBody(t, db.Indexer().Layer(k)); !bytes.Equal(f.Body(), want) {
		t.Errorf("Layer after lazy probes: the body differs from the one written")
	}
}

// TestLazyProbeConcurrent probes a lazily opened layer from several
// goroutines (run it with -race).
func TestLazyProbeConcurrent(t *testing.T) {
	db, k := blocksDB(t)
	db = reopen(t, db)
	var wg sync.WaitGroup
	for g := range 4 {
		r := rand.New(rand.NewPCG(13, uint64(g)))
		ps := make([]muehle.Position, 2000)
		for i := range ps {
			ps[i] = randomPosition(r, 3, 4)
		}
		wg.Go(func() {
			for _, p := range ps {
				if got, err := db.Probe(p); err != nil || got != fingerprint(p) {
					t.Errorf("goroutine %d: Probe(%v): got %v, %v, want %v", g, p, got, err, fingerprint(p))
					return
				}
			}
		})
	}
	wg.Wait()
	if n := checkedBlocks(db, k); n < 2 {
		t.Errorf("blocks checked: got %d, want several, lazily", n)
	}
}

// TestLazyDamagedBlock damages one byte of a layer's body and checks that
// the block holding it is found damaged by a probe into it or by Layer,
// and that from then on the whole layer is damaged for the DB, even after
// missingRecheck or Recheck, when the file is opened again and checked in
// full.
func TestLazyDamagedBlock(t *testing.T) {
	for _, tc := range []struct {
		name string
		find func(db *DB, k Key, bad muehle.Position) error
	}{
		{"probe into the block", func(db *DB, k Key, bad muehle.Position) error { _, err := db.Probe(bad); return err }},
		{"Layer", func(db *DB, k Key, bad muehle.Position) error { _, err := db.Layer(k); return err }},
		{"Check", func(db *DB, k Key, bad muehle.Position) error { _, err := db.Check(k); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, k := blocksDB(t)
			const badBlock, goodBlock = 3, 7
			i, bad := slotIn(t, db, k, badBlock)
			_, good := slotIn(t, db, k, goodBlock)
			flipByte(t, db.Path(k), HeaderSize+int64(i))
			db = reopen(t, db)
			if got, err := db.Probe(good); err != nil || got != fingerprint(good) {
				t.Fatalf("Probe into another block first: got %v, %v, want %v", got, err, fingerprint(good))
			}
			err := tc.find(db, k, bad)
			if _, ok := err.(*DamagedError); !ok || !errors.Is(err, ErrChecksum) || !errors.Is(err, ErrMissing) {
				t.Fatalf("got %v, want a *DamagedError wrapping ErrChecksum and ErrMissing", err)
			}
			if !strings.Contains(err.Error(), db.Path(k)) {
				t.Errorf("got %q, want it to name %s", err, db.Path(k))
			}
			check := func(when string) {
				if _, err := db.Probe(good); !isDamaged(err) || !errors.Is(err, ErrChecksum) {
					t.Errorf("%s: Probe into another block: got %v, want the damage", when, err)
				}
				if _, err := db.Layer(k); !isDamaged(err) {
					t.Errorf("%s: Layer: got %v, want the damage", when, err)
				}
				if st, err := db.Check(k); st != StatusDamaged || !errors.Is(err, ErrChecksum) {
					t.Errorf("%s: Check: got %v, %v, want damaged, ErrChecksum", when, st, err)
				}
				if err := db.Damage(k); !isDamaged(err) {
					t.Errorf("%s: Damage: got %v, want the damage", when, err)
				}
				if _, err := db.Header(k); !isDamaged(err) {
					t.Errorf("%s: Header: got %v, want the damage", when, err)
				}
			}
			check("at once")
			s, _ := keySlot(k)
			old := *db.slots[s].Load()
			old.at = time.Now().Add(-2 * missingRecheck)
			db.slots[s].Store(&old)
			check("after the recheck delay")
			db.Recheck(k)
			check("after Recheck")
			if got, err := db.Probe(slotPosition(t, db, Moving(4, 3), 0)); err != nil || got == Unused {
				t.Errorf("Probe into the sound partner layer: got %v, %v", got, err)
			}
		})
	}
}

// probeInFull probes a position in block 2 of layer k, expects its
// value, and expects the probe to have checked the layer in full (no
// valid block file to open it lazily). It returns the position.
func probeInFull(t *testing.T, db *DB, k Key) muehle.Position {
	t.Helper()
	p := slotPosition(t, db, k, 2)
	if got, err := db.Probe(p); err != nil || got != fingerprint(p) {
		t.Fatalf("Probe: got %v, %v, want %v", got, err, fingerprint(p))
	}
	if n := checkedBlocks(db, k); n != -1 {
		t.Errorf("the layer is open lazily (%d blocks checked), want checked in full", n)
	}
	return p
}

// slotPosition returns the position of the first canonical slot of block b
// of layer k.
func slotPosition(t *testing.T, db *DB, k Key, b int) muehle.Position {
	_, p := slotIn(t, db, k, b)
	return p
}

// TestBlockFileRepair harms the block file of a layer in each way and
// checks that the layer still opens, checked in full, that the full check
// writes the block file again, and that the next DB then opens it lazily.
func TestBlockFileRepair(t *testing.T) {
	for _, tc := range []struct {
		name string
		harm func(t *testing.T, db *DB, k Key, bpath string)
	}{
		{"missing", func(t *testing.T, db *DB, k Key, bpath string) {
			if err := os.Remove(bpath); err != nil {
				t.Fatal(err)
			}
		}},
		{"byte flipped", func(t *testing.T, db *DB, k Key, bpath string) { flipByte(t, bpath, blocksHeaderSize+20) }},
		{"last byte flipped", func(t *testing.T, db *DB, k Key, bpath string) { flipByte(t, bpath, fileSize(t, bpath)-1) }},
		{"truncated", func(t *testing.T, db *DB, k Key, bpath string) {
			if err := os.Truncate(bpath, fileSize(t, bpath)-8); err != nil {
				t.Fatal(err)
			}
		}},
		{"empty", func(t *testing.T, db *DB, k Key, bpath string) {
			if err := os.Truncate(bpath, 0); err != nil {
				t.Fatal(err)
			}
		}},
		{"another body's", func(t *testing.T, db *DB, k Key, bpath string) {
			copyFile(t, otherBlocks(t, db, k), bpath)
		}},
		{"another body's, claiming this header", func(t *testing.T, db *DB, k Key, bpath string) {
			// A block file intact and naming this layer's header, whose
			// blocks are another body's: only their combination tells.
			b, err := os.ReadFile(otherBlocks(t, db, k))
			if err != nil {
				t.Fatal(err)
			}
			mine, err := os.ReadFile(bpath)
			if err != nil {
				t.Fatal(err)
			}
			copy(b[16:40], mine[16:40]) // slots, body checksum, header checksum
			n := len(b) - 4
			binary.LittleEndian.PutUint32(b[n:], crc32.Checksum(b[:n], castagnoli))
			if err := os.WriteFile(bpath, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, k := blocksDB(t)
			bpath := blocksPath(db.Path(k))
			good, err := os.ReadFile(bpath)
			if err != nil {
				t.Fatal(err)
			}
			tc.harm(t, db, k, bpath)
			db = reopen(t, db)
			p := probeInFull(t, db, k)
			if got, err := os.ReadFile(bpath); err != nil || !bytes.Equal(got, good) {
				t.Errorf("the block file after the full check: got %d bytes, %v, want the %d written by WriteLayer", len(got), err, len(good))
			}
			if fi, err := os.Stat(bpath); err != nil {
				t.Error(err)
			} else if fi.Mode().Perm() != 0o644 && runtime.GOOS != "windows" { // no such modes on Windows
				t.Errorf("the block file after the full check: mode %v, want -rw-r--r-- as the layer's (another user may probe it)", fi.Mode().Perm())
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(bpath), "*.tmp")); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
			db = reopen(t, db)
			if _, err := db.Probe(p); err != nil {
				t.Fatal(err)
			}
			if n := checkedBlocks(db, k); n != 1 {
				t.Errorf("blocks checked after one probe with the new block file: got %d, want 1", n)
			}
		})
	}
}

// TestBlockFileUnwritable checks that a layer opens, and stays checked in
// full, where its block file cannot be written.
func TestBlockFileUnwritable(t *testing.T) {
	// A read-only folder keeps root's writes out nowhere, and nobody's on
	// Windows.
	readOnlySkip := ""
	if os.Geteuid() == 0 {
		readOnlySkip = "root writes to read-only folders"
	} else if runtime.GOOS == "windows" {
		readOnlySkip = "on Windows a read-only folder takes new files"
	}
	for _, tc := range []struct {
		name string
		skip string
		harm func(t *testing.T, db *DB, bpath string)
	}{
		{"block file path is a folder", "", func(t *testing.T, db *DB, bpath string) {
			if err := os.Remove(bpath); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(bpath, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"read-only folder", readOnlySkip, func(t *testing.T, db *DB, bpath string) {
			if err := os.Remove(bpath); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Dir(bpath)
			if err := os.Chmod(dir, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip != "" {
				t.Skip(tc.skip)
			}
			db, k := blocksDB(t)
			bpath := blocksPath(db.Path(k))
			tc.harm(t, db, bpath)
			for range 2 {
				db = reopen(t, db)
				probeInFull(t, db, k)
				if _, err := db.Layer(k); err != nil {
					t.Errorf("Layer: %v", err)
				}
			}
			if fi, err := os.Stat(bpath); err == nil && fi.Mode().IsRegular() {
				t.Errorf("a block file was written")
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(bpath), "*.tmp")); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// TestRemoveBlocks checks that Remove deletes the block file and Write
// replaces it.
func TestRemoveBlocks(t *testing.T) {
	db, k := blocksDB(t)
	bpath := blocksPath(db.Path(k))
	old, err := os.ReadFile(bpath)
	if err != nil {
		t.Fatal(err)
	}
	body := fingerprintBody(t, db.Indexer().Layer(k))
	body[100] ^= 1
	if err := db.Write(k, body); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(bpath); err != nil || bytes.Equal(b, old) {
		t.Errorf("block file after Write: got %v, the same bytes: %v, want a new one", err, bytes.Equal(b, old))
	}
	if err := db.Remove(k); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bpath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("block file after Remove: got %v, want none", err)
	}
}

// TestDBHeader checks that Header reads the header without opening the
// layer.
func TestDBHeader(t *testing.T) {
	db, k := blocksDB(t)
	db = reopen(t, db)
	h, err := db.Header(k)
	if err != nil {
		t.Fatal(err)
	}
	if e := db.cached(k); e != nil {
		t.Errorf("Header opened the layer")
	}
	f, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	if h != f.Header() {
		t.Errorf("Header: got %+v, want the file's %+v", h, f.Header())
	}
	if _, err := db.Header(Moving(4, 4)); !errors.Is(err, ErrMissing) || isDamaged(err) {
		t.Errorf("Header of an absent layer: got %v, want ErrMissing", err)
	}
	flipByte(t, db.Path(k.Partner()), 40)
	if _, err := db.Header(k.Partner()); !isDamaged(err) || !errors.Is(err, ErrChecksum) {
		t.Errorf("Header with a flipped header byte: got %v, want the damage", err)
	}
}

// FuzzParseBlocks feeds arbitrary block files to the parser for the
// header of a small layer: it must never panic, and what it accepts must
// combine to the header's checksum.
func FuzzParseBlocks(f *testing.F) {
	body := []byte("a body of thirty-seven bytes or so...")
	h, _ := headerOf(muehle.Standard.With(3), Moving(3, 3), body, nil)
	hcrc := binary.LittleEndian.Uint32(h.marshal()[72:])
	f.Add(marshalBlocks(h, hcrc, minBlockShift, blockSums(body, minBlockShift)))
	f.Fuzz(func(t *testing.T, b []byte) {
		shift, sums, err := parseBlocks(b, h, hcrc)
		if err == nil && combineBlocks(sums, shift, len(body)) != h.Checksum {
			t.Errorf("accepted blocks that do not combine to the checksum")
		}
	})
}

// otherBlocks writes layer k with another body of the same size in a
// folder of its own and returns its block file.
func otherBlocks(t *testing.T, db *DB, k Key) string {
	t.Helper()
	other, err := OpenDB(t.TempDir(), muehle.Standard.With(db.Stones()))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	body := fingerprintBody(t, db.Indexer().Layer(k))
	body[600] ^= 1
	if err := other.Write(k, body); err != nil {
		t.Fatal(err)
	}
	return blocksPath(other.Path(k))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestDamagedNotReread checks that a layer found damaged is read again
// after missingRecheck only when its file has changed: unchanged, the DB
// keeps the damage it found (the same error, no new check of the body);
// repaired in place, or replaced by a new file, it opens again.
func TestDamagedNotReread(t *testing.T) {
	db, k := blocksDB(t)
	s, _ := keySlot(k)
	i, bad := slotIn(t, db, k, 3)
	flipByte(t, db.Path(k), HeaderSize+int64(i))
	db = reopen(t, db)
	if _, err := db.Probe(bad); !isDamaged(err) {
		t.Fatalf("Probe into the damaged block: got %v, want the damage", err)
	}
	later := func() {
		old := *db.slots[s].Load()
		old.at = time.Now().Add(-2 * missingRecheck)
		db.slots[s].Store(&old)
	}
	found := db.slots[s].Load().err
	for range 3 {
		later()
		if _, err := db.Probe(bad); err != found {
			t.Fatalf("after the recheck delay, the file unchanged: got %v, want the same error as found (%v), not a new check", err, found)
		}
	}

	// Repaired in place: the same file, a new modification time (set a
	// second on, not to depend on the clock's resolution).
	flipByte(t, db.Path(k), HeaderSize+int64(i))
	fi, err := os.Stat(db.Path(k))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(db.Path(k), time.Time{}, fi.ModTime().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	later()
	if got, err := db.Probe(bad); err != nil || got != fingerprint(bad) {
		t.Fatalf("after an in-place repair: got %v, %v, want %v", got, err, fingerprint(bad))
	}

	// Damaged again, then replaced by a new file written by another DB.
	flipByte(t, db.Path(k), HeaderSize+int64(i))
	db = reopen(t, db)
	if _, err := db.Probe(bad); !isDamaged(err) {
		t.Fatalf("Probe into the damaged block: got %v, want the damage", err)
	}
	other, err := OpenDB(db.Dir(), muehle.Standard.With(db.Stones()))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Write(k, fingerprintBody(t, other.Indexer().Layer(k))); err != nil {
		t.Fatal(err)
	}
	later()
	if got, err := db.Probe(bad); err != nil || got != fingerprint(bad) {
		t.Fatalf("after another DB wrote the layer: got %v, %v, want %v", got, err, fingerprint(bad))
	}
}

// TestBlockFileRepairRemovesStaleTemps checks that writing a block file
// removes the temporary files of that block file left by a killed process
// (older than staleTemp), and keeps a recent one (another process may be
// writing it) and those of other layers.
func TestBlockFileRepairRemovesStaleTemps(t *testing.T) {
	db, k := blocksDB(t)
	bpath := blocksPath(db.Path(k))
	if err := os.Remove(bpath); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * staleTemp)
	stale, fresh := bpath+".111.tmp", bpath+".222.tmp"
	other := blocksPath(db.Path(k.Partner())) + ".333.tmp"
	for _, p := range []string{stale, fresh, other} {
		if err := os.WriteFile(p, []byte("torn"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{stale, other} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	db = reopen(t, db)
	probeInFull(t, db, k)
	if _, err := os.Stat(bpath); err != nil {
		t.Fatalf("no block file after the full check: %v", err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale temporary file %s: got %v, want it removed", stale, err)
	}
	for _, p := range []string{fresh, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: got %v, want it kept", p, err)
		}
	}
}
