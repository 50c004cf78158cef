package layers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/muehle"
)

var update = flag.Bool("update", false, "rewrite the files in testdata")

// sampleBody is a small body with known counts: 2 unused, 3 drawn, wins at
// depths 1, 1, 7 and losses at 0, 12.
var sampleBody = []byte{0, 1, 3, 3, 9, 2, 1, 14, 0, 1}

func TestWriteOpenLayer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m3-3.layer")
	if err := WriteLayer(path, muehle.Standard.With(3), Moving(3, 3), sampleBody); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary file left behind: %v", err)
	}
	f, err := OpenFile(path, muehle.Standard.With(3), Moving(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := f.Header()
	want := Header{Version: FileVersion, Stones: 3, Key: Moving(3, 3), Slots: 10, Won: 3, Lost: 2, Drawn: 3,
		DeepestWin: 7, DeepestLoss: 12, Checksum: h.Checksum}
	if h != want {
		t.Errorf("header: got %+v, want %+v", h, want)
	}
	for i, v := range sampleBody {
		if got := f.Value(uint64(i)); got != Value(v) {
			t.Errorf("Value(%d): got %v, want %v", i, got, Value(v))
		}
	}
	if got := f.Value(10); got != Unused {
		t.Errorf("Value(10): got %v, want unused", got)
	}
	if err := f.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestEmptyLayerDepths(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.layer")
	if err := WriteLayer(path, muehle.NineMensMorris, Moving(3, 4), []byte{1, 1, 0}); err != nil {
		t.Fatal(err)
	}
	h, err := ReadHeader(path, muehle.NineMensMorris, Moving(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if h.DeepestWin != -1 || h.DeepestLoss != -1 || h.Drawn != 2 {
		t.Errorf("header: got %+v, want no wins or losses and 2 drawn", h)
	}
}

// corruptions lists broken variants of a good file, the error they must
// give and a word the message must contain.
var corruptions = []struct {
	name   string
	change func(b []byte) []byte
	err    error
	word   string
}{
	{"truncated-body", func(b []byte) []byte { return b[:len(b)-1] }, ErrFormat, "truncated"},
	{"truncated-header", func(b []byte) []byte { return b[:100] }, ErrFormat, "shorter than the header"},
	{"empty", func(b []byte) []byte { return b[:0] }, ErrFormat, "shorter than the header"},
	{"extra-byte", func(b []byte) []byte { return append(b, 1) }, ErrFormat, "bytes"},
	{"bad-magic", func(b []byte) []byte { b[0] = 'X'; return b }, ErrFormat, "magic"},
	{"version-3", func(b []byte) []byte { b[8] = 3; return b }, ErrVersion, "version 3"},
	{"old-format", func(b []byte) []byte { return resign(b, func(b []byte) { b[8] = 1 }) }, ErrOldFormat, "muehlectl convert"},
	{"layout-2", func(b []byte) []byte { return resign(b, func(b []byte) { b[21] = 2 }) }, ErrFormat, "layout 2"},
	{"layout-dense", func(b []byte) []byte { return resign(b, func(b []byte) { b[21] = 1 }) }, ErrFormat, "storing 0 values"},
	{"flipped-key", func(b []byte) []byte { b[18] ^= 1; return b }, ErrChecksum, "header checksum"},
	{"flipped-count", func(b []byte) []byte { b[33] ^= 0x10; return b }, ErrChecksum, "header checksum"},
	{"flipped-reserved", func(b []byte) []byte { b[100] ^= 0x80; return b }, ErrChecksum, "header checksum"},
	{"flipped-body", func(b []byte) []byte { b[HeaderSize+4] ^= 4; return b }, ErrChecksum, "body checksum"},
	{"other-stones", func(b []byte) []byte { return resign(b, func(b []byte) { b[16] = 4 }) }, ErrFormat, "a file of Nine Men's Morris with 4 stones, want Nine Men's Morris with 3 stones"},
	{"other-key", func(b []byte) []byte { return resign(b, func(b []byte) { b[17] = 4 }) }, ErrFormat, "layer 4-3"},
	{"other-rules", func(b []byte) []byte { return resign(b, func(b []byte) { b[12] = 77 }) }, ErrFormat, "rules id 77 names no game"},
	{"other-game", func(b []byte) []byte { return resign(b, func(b []byte) { b[12] = 2 }) }, ErrFormat, "a file of Twelve Men's Morris with 3 stones, want Nine Men's Morris with 3 stones"},
	{"huge-slots", func(b []byte) []byte { return resign(b, func(b []byte) { b[31] = 0x7f }) }, ErrFormat, "truncated"},
}

// resign changes a header and recomputes its checksum, as a writer with
// other settings would have.
func resign(b []byte, f func([]byte)) []byte {
	f(b)
	binary.LittleEndian.PutUint32(b[72:], headerCRC(b))
	return b
}

func TestCorruptFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.layer")
	if err := WriteLayer(good, muehle.Standard.With(3), Moving(3, 3), sampleBody); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range corruptions {
		path := filepath.Join(dir, c.name+".layer")
		bad := c.change(bytes.Clone(data))
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(filepath.Join("testdata", c.name+".layer"), bad, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		f, err := OpenFile(path, muehle.Standard.With(3), Moving(3, 3))
		if err == nil {
			f.Close()
			t.Errorf("%s: OpenFile: got no error, want %v", c.name, c.err)
			continue
		}
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.word) {
			t.Errorf("%s: OpenFile: got %q, want %v naming %s and saying %q", c.name, err, c.err, path, c.word)
		}
	}
	if *update {
		if err := os.WriteFile(filepath.Join("testdata", "good.layer"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err = OpenFile(filepath.Join(dir, "absent.layer"), muehle.Standard.With(3), Moving(3, 3))
	if !errors.Is(err, ErrMissing) {
		t.Errorf("absent file: got %v, want ErrMissing", err)
	}
}

// FuzzOpenFile feeds arbitrary bytes to the reader as a file of layer 3-3;
// it must return an error or a file, never panic, and a file it accepts
// must have the size and checksum its header claims.
func FuzzOpenFile(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.layer"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(dir, "fuzz.layer")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := OpenFile(path, muehle.Standard.With(3), Moving(3, 3))
		if err != nil {
			return
		}
		defer file.Close()
		h := file.Header()
		if uint64(len(b)) != HeaderSize+h.Slots {
			t.Errorf("accepted a file of %d bytes with %d slots", len(b), h.Slots)
		}
		for i := range h.Slots {
			_ = file.Value(i)
		}
	})
}
