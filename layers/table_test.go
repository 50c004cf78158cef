package layers

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"muehle/muehle/testenv"
)

// TestTableCache builds the table into an empty cache directory, loads it
// back, and refuses broken cache files.
func TestTableCache(t *testing.T) {
	testenv.Long(t, "builds the group-B table twice")
	dir := t.TempDir()
	built, err := NewIndexer(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, TableFile)
	loaded, err := loadTable(path)
	if err != nil {
		t.Fatalf("loading the table just written: %v", err)
	}
	defer loaded.release()
	b := built.t
	if !slices.Equal(b.tab, loaded.tab) || !slices.Equal(b.reps, loaded.reps) ||
		b.groupStart != loaded.groupStart || b.stabs != loaded.stabs || b.stabCount != loaded.stabCount {
		t.Fatalf("the loaded table differs from the built one")
	}
	// The table the other tests use (loaded or built elsewhere) is the same.
	if d := testIndexer(t).t; !slices.Equal(d.tab, b.tab) || !slices.Equal(d.reps, b.reps) {
		t.Errorf("DefaultIndexer's table differs from a fresh build")
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		change func([]byte) []byte
		want   error
	}{
		{"flipped table byte", func(b []byte) []byte { b[len(b)/2] ^= 1; return b }, ErrChecksum},
		{"truncated", func(b []byte) []byte { return b[:len(b)-4] }, ErrFormat},
		{"bad magic", func(b []byte) []byte { b[0] = 'X'; return b }, ErrFormat},
		{"old version", func(b []byte) []byte { b[8] = 1; return b }, ErrVersion},
	} {
		bad := filepath.Join(dir, "bad.tab")
		if err := os.WriteFile(bad, c.change(slices.Clone(good)), 0o644); err != nil {
			t.Fatal(err)
		}
		if tb, err := loadTable(bad); !errors.Is(err, c.want) {
			if err == nil {
				tb.release()
			}
			t.Errorf("%s: loadTable: got %v, want %v", c.name, err, c.want)
		}
	}
	// NewIndexer replaces a broken cache file with a good one.
	if err := os.WriteFile(path, good[:1000], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewIndexer(dir); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != int64(len(good)) {
		t.Errorf("rebuilt cache file: got %v, %v, want %d bytes", fi, err, len(good))
	}
}
