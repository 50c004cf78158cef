package layers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/muehle"
)

// TestOpenDBCreatesNothing checks that opening a database only reads: a
// missing folder is an empty database, and only Write creates it.
func TestOpenDBCreatesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub")
	db, err := OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := Moving(3, 3)
	if st, err := db.Check(k); st != StatusMissing || !errors.Is(err, ErrMissing) {
		t.Errorf("Check in a missing folder: got %v, %v, want missing", st, err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("folder after OpenDB and Check: got %v, want none", err)
	}
	if err := db.Write(k, make([]byte, db.Indexer().Layer(k).Size())); err != nil {
		t.Fatal(err)
	}
	if st, err := db.Check(k); st != StatusUnverified || err != nil {
		t.Errorf("Check after Write: got %v, %v, want unverified", st, err)
	}
}

// TestStatusDamage damages a layer file in each way a file can be damaged
// and checks that Check, Damage and Layer call it damaged, that the error
// wraps the cause and ErrMissing, whatever the verification record says.
func TestStatusDamage(t *testing.T) {
	k := Moving(3, 3)
	other := Moving(3, 4)
	for _, tc := range []struct {
		name  string
		cause error
		harm  func(t *testing.T, db *DB, path string)
	}{
		{"body byte flipped", ErrChecksum, func(t *testing.T, db *DB, path string) { flipByte(t, path, HeaderSize+100) }},
		{"header byte flipped", ErrChecksum, func(t *testing.T, db *DB, path string) { flipByte(t, path, 30) }},
		{"bad magic", ErrFormat, func(t *testing.T, db *DB, path string) { flipByte(t, path, 0) }},
		{"truncated", ErrFormat, func(t *testing.T, db *DB, path string) {
			if err := os.Truncate(path, HeaderSize+10); err != nil {
				t.Fatal(err)
			}
		}},
		{"shorter than a header", ErrFormat, func(t *testing.T, db *DB, path string) {
			if err := os.Truncate(path, 20); err != nil {
				t.Fatal(err)
			}
		}},
		{"another layer's file", ErrFormat, func(t *testing.T, db *DB, path string) {
			if err := os.Rename(db.Path(other), path); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := OpenDB(t.TempDir(), muehle.Standard.With(4))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, key := range []Key{k, other} {
				if err := db.Write(key, fingerprintBody(t, db.Indexer().Layer(key))); err != nil {
					t.Fatal(err)
				}
			}
			if err := db.MarkVerified(k); err != nil {
				t.Fatal(err)
			}
			if st, err := db.Check(k); st != StatusVerified || err != nil {
				t.Fatalf("Check before the damage: got %v, %v, want verified", st, err)
			}
			db.Close()
			tc.harm(t, db, db.Path(k))

			db, err = OpenDB(db.Dir(), muehle.Standard.With(4))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			st, err := db.Check(k)
			if st != StatusDamaged || !errors.Is(err, tc.cause) || !errors.Is(err, ErrMissing) {
				t.Errorf("Check: got %v, %v, want damaged wrapping %v and ErrMissing", st, err, tc.cause)
			}
			if got, ok := Damaged(err); !ok || got != k {
				t.Errorf("Damaged(%v): got %v, %v, want %v", err, got, ok, k)
			}
			if err := db.Damage(k); err == nil {
				t.Errorf("Damage after Check: got nil, want the damage")
			}
			if err := db.Remove(k); err != nil {
				t.Fatal(err)
			}
			if st, _ := db.Check(k); st != StatusMissing {
				t.Errorf("Check after Remove: got %v, want missing", st)
			}
		})
	}
}

// TestVerifiedRecord checks that a rewritten layer loses its record.
func TestVerifiedRecord(t *testing.T) {
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := Moving(3, 3)
	body := fingerprintBody(t, db.Indexer().Layer(k))
	if err := db.Write(k, body); err != nil {
		t.Fatal(err)
	}
	if db.Verified(k) {
		t.Errorf("Verified after Write: got true")
	}
	if err := db.MarkVerified(k); err != nil {
		t.Fatal(err)
	}
	if !db.Verified(k) {
		t.Errorf("Verified after MarkVerified: got false")
	}
	body[0] ^= 1
	if err := db.Write(k, body); err != nil {
		t.Fatal(err)
	}
	if db.Verified(k) {
		t.Errorf("Verified after rewriting the layer: got true")
	}
}

// flipByte inverts the bits of the byte at off in the file at path.
func flipByte(t *testing.T, path string, off int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0xff
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// forgeFigures adds one to the won count of the layer file at path and
// takes one from the drawn count, and fixes the header checksum, as a
// forger would: the body and its checksum stay as they were.
func forgeFigures(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	le.PutUint64(b[32:], le.Uint64(b[32:])+1)
	le.PutUint64(b[48:], le.Uint64(b[48:])-1)
	le.PutUint32(b[72:], headerCRC(b))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHeaderFiguresChecked forges a layer header's figures with a fitting
// header checksum and checks that the layer loses its verification record
// (the record covers the whole header) and that the full check, which
// stats and verify run, finds the damage by recounting the body (issue 28).
func TestHeaderFiguresChecked(t *testing.T) {
	dir := t.TempDir()
	db, err := OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	k := Moving(3, 3)
	if err := db.Write(k, fingerprintBody(t, db.Indexer().Layer(k))); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkVerified(k); err != nil {
		t.Fatal(err)
	}
	db.Close()
	forgeFigures(t, db.Path(k))

	db, err = OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Header(k); err != nil {
		t.Fatalf("Header: got %v, want the forged header read (its checksum fits)", err)
	}
	if db.Verified(k) {
		t.Errorf("Verified after the header was forged: got true, want false")
	}
	st, err := db.Check(k)
	if st != StatusDamaged || !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "figures") {
		t.Errorf("Check: got %v, %v; want damaged: the header's figures are not the body's", st, err)
	}
	// A layer opened for probes is checked in full, figures too, when a
	// whole layer is asked for.
	db2, err := OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	p, _ := db2.Indexer().Layer(k).Position(0)
	db2.Probe(p)
	if _, err := db2.Layer(k); !errors.Is(err, ErrChecksum) {
		t.Errorf("Layer after Probe: got %v, want ErrChecksum", err)
	}
}

// TestVerifiedRecordOldForm checks that a record of the form written
// before the header checksum was added still counts while the body
// checksum and slots match.
func TestVerifiedRecordOldForm(t *testing.T) {
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := Moving(3, 3)
	if err := db.Write(k, fingerprintBody(t, db.Indexer().Layer(k))); err != nil {
		t.Fatal(err)
	}
	h, err := db.Header(k)
	if err != nil {
		t.Fatal(err)
	}
	old := fmt.Sprintf("verified %s checksum %016x slots %d at 2026-01-01T00:00:00Z\n", k, h.Checksum, h.Slots)
	if err := os.WriteFile(db.VerifiedPath(k), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if !db.Verified(k) {
		t.Errorf("Verified with a record of the older form: got false, want true")
	}
	wrong := fmt.Sprintf("verified %s checksum %016x slots %d header 00000000 at 2026-01-01T00:00:00Z\n", k, h.Checksum, h.Slots)
	if err := os.WriteFile(db.VerifiedPath(k), []byte(wrong), 0o644); err != nil {
		t.Fatal(err)
	}
	if db.Verified(k) {
		t.Errorf("Verified with a record of another header: got true, want false")
	}
}

// TestVerifiedOnly checks that a DB reading verified layers only refuses
// an unverified layer, as missing and saying why, through Probe, Layer
// and Header, and reads it once it is verified (issue 48, item 1).
func TestVerifiedOnly(t *testing.T) {
	dir := t.TempDir()
	// open opens the database in dir; with verifiedOnly, VerifiedOnly.
	open := func(verifiedOnly bool) *DB {
		db, err := OpenDB(dir, muehle.Standard.With(3))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if verifiedOnly {
			db.VerifiedOnly()
		}
		return db
	}
	db := open(false)
	k := Moving(3, 3)
	if err := db.Write(k, fingerprintBody(t, db.Indexer().Layer(k))); err != nil {
		t.Fatal(err)
	}
	var p muehle.Position
	for i := uint64(0); ; i++ {
		if q, ok := db.Indexer().Layer(k).Position(i); ok {
			p = q
			break
		}
	}
	ro := open(true)
	if _, err := ro.Probe(p); !errors.Is(err, ErrUnverified) || !errors.Is(err, ErrMissing) {
		t.Errorf("Probe of an unverified layer: got %v, want ErrUnverified (and ErrMissing)", err)
	}
	if _, err := ro.Layer(k); !errors.Is(err, ErrUnverified) {
		t.Errorf("Layer of an unverified layer: got %v, want ErrUnverified", err)
	}
	if _, err := ro.Header(k); !errors.Is(err, ErrUnverified) {
		t.Errorf("Header of an unverified layer: got %v, want ErrUnverified", err)
	}
	if _, err := db.Probe(p); err != nil {
		t.Errorf("Probe without VerifiedOnly: %v", err)
	}
	if err := db.MarkVerified(k); err != nil {
		t.Fatal(err)
	}
	if _, err := open(true).Probe(p); err != nil {
		t.Errorf("Probe of the verified layer: %v", err)
	}
}
