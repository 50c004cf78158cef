package layers

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"muehle/muehle"
)

// TestClaim claims a unit, checks that a second claim is refused and that
// Claims lists the holder, then releases it.
func TestClaim(t *testing.T) {
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if c, err := db.Claims(); err != nil || len(c) != 0 {
		t.Errorf("Claims of a new folder: got %v, %v, want none", c, err)
	}
	l, err := db.Claim(context.Background(), "m3-3", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Claim(context.Background(), "m3-3", false); !errors.Is(err, ErrLocked) {
		t.Errorf("second Claim of m3-3: got %v, want ErrLocked", err)
	}
	other, err := db.Claim(context.Background(), "p2+1-3+0", false)
	if err != nil {
		t.Fatalf("Claim of another unit: %v", err)
	}
	c, err := db.Claims()
	if err != nil || len(c) != 2 || c["m3-3"].PID != os.Getpid() || c["p2+1-3+0"].PID != os.Getpid() {
		t.Errorf("Claims: got %+v, %v, want m3-3 and p2+1-3+0 held by pid %d", c, err, os.Getpid())
	}
	l.Release()
	other.Release()
	if c, err := db.Claims(); err != nil || len(c) != 0 {
		t.Errorf("Claims after Release: got %v, %v, want none", c, err)
	}
}

// TestRecheck checks that a layer another DB writes is seen at once after
// Recheck, though the first DB found it missing a moment before.
func TestRecheck(t *testing.T) {
	dir := t.TempDir()
	a, err := OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	k := Moving(3, 3)
	looked := time.Now()
	if _, err := a.Layer(k); !errors.Is(err, ErrMissing) {
		t.Fatalf("Layer before it is written: got %v, want ErrMissing", err)
	}
	body := make([]byte, b.Indexer().Layer(k).Size())
	for i := range body {
		body[i] = byte(Drawn)
	}
	if err := b.Write(k, body); err != nil {
		t.Fatal(err)
	}
	// Within missingRecheck of the first look the DB trusts what it saw.
	if _, err := a.Layer(k); time.Since(looked) < missingRecheck/2 && !errors.Is(err, ErrMissing) {
		t.Fatalf("Layer just after another DB wrote it: got %v, want the cached ErrMissing", err)
	}
	a.Recheck(k)
	if _, err := a.Layer(k); err != nil {
		t.Errorf("Layer after Recheck: got %v, want the layer", err)
	}
}
