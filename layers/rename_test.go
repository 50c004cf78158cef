package layers

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"muehle/muehle"
)

// TestReplaceMappedLayer writes and removes a layer while DBs have it
// mapped: the DB that writes it (which keeps the old mapping for its
// readers) and another DB on the folder, as another process would. On
// Windows a mapped file cannot be replaced or removed in place
// (rename_windows.go moves it aside); everywhere, each old File keeps
// reading the old body, the next reads get the new one, and the folder
// is left with only its own files.
func TestReplaceMappedLayer(t *testing.T) {
	dir := t.TempDir()
	k := Moving(3, 3)
	db, err := OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	other, err := OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	old := fingerprintBody(t, db.Indexer().Layer(k))
	if err := db.Write(k, old); err != nil {
		t.Fatal(err)
	}
	f, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	g, err := other.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	i := uint64(bytes.IndexFunc(old, func(r rune) bool { return r != 0 }))
	newer := bytes.Clone(old)
	newer[i] ^= 0x40

	if err := db.Write(k, newer); err != nil {
		t.Fatalf("Write over a layer two DBs have mapped: %v", err)
	}
	if got := f.Value(i); got != Value(old[i]) {
		t.Errorf("the old File after the replacement: slot %d got %v, want the old %v", i, got, Value(old[i]))
	}
	if got := g.Value(i); got != Value(old[i]) {
		t.Errorf("the other DB's old File after the replacement: slot %d got %v, want the old %v", i, got, Value(old[i]))
	}
	h, err := db.Layer(k)
	if err != nil || h.Value(i) != Value(newer[i]) {
		t.Fatalf("the layer after the replacement: got %v, %v; want slot %d = %v", h, err, i, Value(newer[i]))
	}

	if err := db.Remove(k); err != nil {
		t.Fatalf("Remove of a layer two DBs have mapped: %v", err)
	}
	if _, err := os.Stat(db.Path(k)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the layer file after Remove: got %v, want none", err)
	}
	if got := g.Value(i); got != Value(old[i]) {
		t.Errorf("the other DB's old File after Remove: slot %d got %v, want %v", i, got, Value(old[i]))
	}
	if err := db.Write(k, old); err != nil {
		t.Fatalf("Write after Remove while mapped: %v", err)
	}
	db.Close()
	other.Close()
	// The files moved aside go with the next replacement in the folder.
	if err := WriteLayer(db.Path(k), muehle.Standard.With(3), k, old); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(db.GameDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".replaced") || strings.HasSuffix(n, ".tmp") {
			t.Errorf("left in the folder: %s", n)
		}
	}
}

// TestReplaceOpenFile replaces and removes a file that a reader holds
// open: through OpenRegular (which on Windows shares the file's
// deletion), and through os.Open (which on Windows does not: ReplaceFile
// waits until it is closed).
func TestReplaceOpenFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.verified")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(path+".tmp", []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRegular(path)
	if err != nil {
		t.Fatal(err)
	}
	write("two")
	if err := ReplaceFile(path+".tmp", path); err != nil {
		t.Fatalf("ReplaceFile over a file open through OpenRegular: %v", err)
	}
	if b, err := io.ReadAll(r); err != nil || string(b) != "one" {
		t.Errorf("the open reader after ReplaceFile: got %q, %v, want \"one\"", b, err)
	}
	r.Close()
	if b, err := os.ReadFile(path); err != nil || string(b) != "two" {
		t.Errorf("the file after ReplaceFile: got %q, %v, want \"two\"", b, err)
	}

	plain, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		plain.Close()
	}()
	write("three")
	if err := ReplaceFile(path+".tmp", path); err != nil {
		t.Fatalf("ReplaceFile over a file open for 300 ms through os.Open: %v", err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "three" {
		t.Errorf("the file after ReplaceFile: got %q, %v, want \"three\"", b, err)
	}

	r, err = OpenRegular(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := removeFile(path); err != nil {
		t.Errorf("removeFile of a file open through OpenRegular: %v", err)
	}
	r.Close()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the file after removeFile: got %v, want none", err)
	}
	if err := removeFile(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("removeFile of a missing file: got %v, want os.ErrNotExist", err)
	}
}
