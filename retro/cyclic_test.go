package retro

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestCyclicQueue drives cyclic arrays of several shapes with random bursts
// of writes and reads and compares every record read with a plain queue.
func TestCyclicQueue(t *testing.T) {
	for _, c := range []struct {
		rec      int
		capacity uint64
		block    int
	}{
		{8, 1000, 64},  // capacity not a multiple of the block
		{8, 1024, 64},  // a multiple
		{3, 10, 1},     // one record per block
		{5, 7, 7},      // one block
		{4, 3, 16},     // a block bigger than the capacity
		{16, 100, 33},  // odd sizes
		{1, 4096, 512}, // one-byte records
	} {
		path := filepath.Join(t.TempDir(), "q")
		q, err := createCyclic(path, c.rec, c.capacity, c.block)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(c.rec), c.capacity))
		var want [][]byte // the reference queue
		var next uint64   // the next record's serial number
		rec := make([]byte, c.rec)
		written := uint64(0)
		for written < 200*c.capacity+5000 {
			for range r.IntN(int(c.capacity) + 2) {
				for i := range rec {
					rec[i] = byte(next >> (8 * (i % 8)))
				}
				rec[0] ^= byte(r.IntN(256)) // not just a counter
				err := q.Write(rec)
				if uint64(len(want)) == c.capacity {
					if !errors.Is(err, errOverrun) {
						t.Fatalf("%+v: write to a full array: got %v, want errOverrun", c, err)
					}
					break
				}
				if err != nil {
					t.Fatalf("%+v: write %d: %v", c, next, err)
				}
				want = append(want, append([]byte(nil), rec...))
				next++
				written++
			}
			for range r.IntN(int(c.capacity) + 2) {
				got := make([]byte, c.rec)
				ok, err := q.Read(got)
				if err != nil {
					t.Fatal(err)
				}
				if ok != (len(want) > 0) {
					t.Fatalf("%+v: read: got ok %v with %d records queued", c, ok, len(want))
				}
				if !ok {
					break
				}
				if string(got) != string(want[0]) {
					t.Fatalf("%+v: read record %d: got %x, want %x", c, next-uint64(len(want)), got, want[0])
				}
				want = want[1:]
			}
			if q.Len() != uint64(len(want)) {
				t.Fatalf("%+v: Len: got %d, want %d", c, q.Len(), len(want))
			}
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		blocks := (c.capacity + uint64(c.block) - 1) / uint64(c.block)
		if got, want := fi.Size(), int64(blocks)*int64(c.block*c.rec); got != want {
			t.Errorf("%+v: file size: got %d, want %d", c, got, want)
		}
		if err := q.Close(); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%+v: file still there after Close: %v", c, err)
		}
	}
}

// TestCyclicFillDrain fills the array to the brim, checks the overrun, and
// drains it, many times over, so that the data wraps around the file.
func TestCyclicFillDrain(t *testing.T) {
	q, err := createCyclic(filepath.Join(t.TempDir(), "q"), 8, 300, 32)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	var rec [8]byte
	var w, r uint64
	for round := range 50 {
		for q.Len() < 300 {
			binary.LittleEndian.PutUint64(rec[:], w)
			if err := q.Write(rec[:]); err != nil {
				t.Fatalf("round %d: write %d: %v", round, w, err)
			}
			w++
		}
		if err := q.Write(rec[:]); !errors.Is(err, errOverrun) {
			t.Fatalf("round %d: write to a full array: got %v, want errOverrun", round, err)
		}
		for range 100 + round { // drain part of it, at shifting offsets
			ok, err := q.Read(rec[:])
			if !ok || err != nil {
				t.Fatalf("round %d: read: got %v, %v", round, ok, err)
			}
			if got := binary.LittleEndian.Uint64(rec[:]); got != r {
				t.Fatalf("round %d: read: got record %d, want %d", round, got, r)
			}
			r++
		}
	}
	for {
		ok, err := q.Read(rec[:])
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if got := binary.LittleEndian.Uint64(rec[:]); got != r {
			t.Fatalf("drain: got record %d, want %d", got, r)
		}
		r++
	}
	if r != w {
		t.Errorf("read %d records, wrote %d", r, w)
	}
}

func TestCyclicBadArgs(t *testing.T) {
	dir := t.TempDir()
	for _, c := range [][3]int{{0, 10, 1}, {8, 0, 1}, {8, 10, 0}} {
		if q, err := createCyclic(filepath.Join(dir, "q"), c[0], uint64(c[1]), c[2]); err == nil {
			q.Close()
			t.Errorf("createCyclic%v: got no error", c)
		}
	}
	q, err := createCyclic(filepath.Join(dir, "q"), 4, 10, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if err := q.Write(make([]byte, 5)); err == nil {
		t.Errorf("Write of a wrong size: got no error")
	}
	if _, err := q.Read(make([]byte, 3)); err == nil {
		t.Errorf("Read into a wrong size: got no error")
	}
}

// TestCyclicRecords drives WriteRecords and ReadRecords with random runs of
// records, mixed with single Write and Read calls, and compares everything
// read with a plain queue.
func TestCyclicRecords(t *testing.T) {
	for _, c := range []struct {
		rec      int
		capacity uint64
		block    int
	}{
		{8, 1000, 64},
		{8, 1024, 64},
		{3, 10, 1},
		{5, 7, 7},
		{4, 3, 16},
		{16, 100, 33},
	} {
		q, err := createCyclic(filepath.Join(t.TempDir(), "q"), c.rec, c.capacity, c.block)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(c.block), c.capacity))
		var want []byte // the reference queue, records back to back
		var serial byte
		for round := range 3000 {
			n := r.IntN(int(c.capacity) + 2)
			b := make([]byte, n*c.rec)
			for i := range b {
				b[i] = serial
				serial++
			}
			var err error
			if round%5 == 0 && n > 0 {
				err = q.Write(b[:c.rec])
				b = b[:c.rec]
				n = 1
			} else {
				err = q.WriteRecords(b)
			}
			if uint64(len(want)/c.rec+n) > c.capacity {
				if !errors.Is(err, errOverrun) {
					t.Fatalf("%+v: writing %d records with %d unread: got %v, want errOverrun", c, n, len(want)/c.rec, err)
				}
			} else {
				if err != nil {
					t.Fatalf("%+v: write: %v", c, err)
				}
				want = append(want, b...)
			}
			m := r.IntN(int(c.capacity) + 2)
			got := make([]byte, m*c.rec+r.IntN(c.rec)) // room for m records and a part of one
			k, err := q.ReadRecords(got)
			if err != nil {
				t.Fatal(err)
			}
			if wantK := min(m, len(want)/c.rec); k != wantK {
				t.Fatalf("%+v: ReadRecords read %d records, want %d", c, k, wantK)
			}
			if string(got[:k*c.rec]) != string(want[:k*c.rec]) {
				t.Fatalf("%+v: ReadRecords: got %v, want %v", c, got[:k*c.rec], want[:k*c.rec])
			}
			want = want[k*c.rec:]
			if q.Len() != uint64(len(want)/c.rec) {
				t.Fatalf("%+v: Len %d, want %d", c, q.Len(), len(want)/c.rec)
			}
		}
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
