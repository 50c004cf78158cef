package layers

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenDBCreatesNothing checks that opening a database only reads: a
// missing folder is an empty database, and only Write creates it.
func TestOpenDBCreatesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub")
	db, err := OpenDB(dir, 3)
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
			db, err := OpenDB(t.TempDir(), 4)
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

			db, err = OpenDB(db.Dir(), 4)
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
	db, err := OpenDB(t.TempDir(), 3)
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
