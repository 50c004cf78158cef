//go:build unix

package layers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"muehle/muehle"
)

// within fails the test when f does not return within five seconds: the
// calls below used to wait forever on a FIFO. It panics then, ending the
// test binary: the stuck call holds the database's lock, so that the
// test's cleanup would wait forever too.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		panic(fmt.Sprintf("%s: %s: still waiting after 5 s (a FIFO blocks it)", t.Name(), what))
	}
}

// TestFIFOsAreDamage puts a FIFO where a layer, its block file, its
// verification record, a claim and the temporary files of a layer and of
// a record go, and checks that every reader and writer of the folder
// returns at once, a FIFO layer counting as damaged (issue 28).
func TestFIFOsAreDamage(t *testing.T) {
	k := Moving(3, 3)
	setup := func(t *testing.T) *DB {
		db, err := OpenDB(t.TempDir(), muehle.Standard.With(3))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if err := db.Write(k, fingerprintBody(t, db.Indexer().Layer(k))); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkVerified(k); err != nil {
			t.Fatal(err)
		}
		db.Close()
		db, err = OpenDB(db.Dir(), muehle.Standard.With(3))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	fifo := func(t *testing.T, path string) {
		os.Remove(path)
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}

	t.Run("layer", func(t *testing.T) {
		db := setup(t)
		fifo(t, db.Path(k))
		within(t, "Damage", func() {
			if err := db.Damage(k); !isDamaged(err) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("Damage: got %v, want damaged: not a regular file", err)
			}
		})
		within(t, "Check", func() {
			if st, err := db.Check(k); st != StatusDamaged || !errors.Is(err, ErrFormat) {
				t.Errorf("Check: got %v, %v; want damaged wrapping ErrFormat", st, err)
			}
		})
		within(t, "Probe", func() {
			p, _ := db.Indexer().Layer(k).Position(0)
			if _, err := db.Probe(p); !isDamaged(err) {
				t.Errorf("Probe: got %v, want damaged", err)
			}
		})
		within(t, "ReadHeader", func() {
			if _, err := ReadHeader(db.Path(k), muehle.Standard.With(3), k); !errors.Is(err, ErrFormat) {
				t.Errorf("ReadHeader: got %v, want ErrFormat", err)
			}
		})
	})
	t.Run("block file", func(t *testing.T) {
		db := setup(t)
		fifo(t, blocksPath(db.Path(k)))
		within(t, "Check", func() {
			if st, err := db.Check(k); st != StatusVerified || err != nil {
				t.Errorf("Check: got %v, %v; want verified (the body is checked without the block file)", st, err)
			}
		})
	})
	t.Run("verification record", func(t *testing.T) {
		db := setup(t)
		fifo(t, db.VerifiedPath(k))
		within(t, "Verified", func() {
			if db.Verified(k) {
				t.Errorf("Verified: got true, want false (the record is not a file)")
			}
		})
		within(t, "MarkVerified", func() {
			if err := db.MarkVerified(k); err != nil || !db.Verified(k) {
				t.Errorf("MarkVerified: got %v, verified %v; want the record replaced", err, db.Verified(k))
			}
		})
	})
	t.Run("temporary files", func(t *testing.T) {
		db := setup(t)
		fifo(t, db.VerifiedPath(k)+".tmp")
		within(t, "MarkVerified", func() {
			if err := db.MarkVerified(k); err == nil || !strings.Contains(err.Error(), "regular") {
				t.Errorf("MarkVerified over a FIFO: got %v, want an error", err)
			}
		})
		fifo(t, db.Path(k)+".tmp")
		within(t, "Write", func() {
			if err := db.Write(k, fingerprintBody(t, db.Indexer().Layer(k))); err == nil {
				t.Errorf("Write over a FIFO: got nil, want an error")
			}
		})
	})
	t.Run("claim", func(t *testing.T) {
		db := setup(t)
		fifo(t, db.ClaimPath("m3-3"))
		within(t, "Claims", func() {
			if _, err := db.Claims(); err != nil {
				t.Errorf("Claims: got %v", err)
			}
		})
		within(t, "Claim", func() {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			if l, err := db.Claim(ctx, "m3-3", false); err == nil {
				l.Release()
			}
		})
		if _, err := ReadLock(filepath.Join(db.sub, "m3-3.claim")); err == nil {
			t.Errorf("ReadLock of a FIFO: got nil, want an error")
		}
	})
}
