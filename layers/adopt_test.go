package layers

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"muehle/muehle"
)

// TestAdopt gives the 4-stone standard game layers 3-4 (flat) and 4-3
// (compressed) verified in Lasker Morris of 4 stones: each reads there
// slot for slot as in Lasker Morris, its header names the standard game
// and is otherwise the same, its block file is sound, and its
// verification record counts, says where it came from, and carries over
// the note that the compressed file was checked in full. Adopting
// again does nothing; a layer not verified in the source, a placement
// layer, and a layer of a game on another board are refused.
func TestAdopt(t *testing.T) {
	s, zs, zw := blockShift, zShift, zWrite
	t.Cleanup(func() { blockShift, zShift, zWrite = s, zs, zw })
	blockShift, zShift, zWrite = minBlockShift, minBlockShift, 1 // form 1: the values as they are
	root := t.TempDir()
	open := func(v muehle.Variant) *DB {
		db, err := OpenDB(root, v)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	src, dst := open(muehle.Lasker.With(4)), open(muehle.Standard.With(4))
	flatKey, zKey := Moving(3, 4), Moving(4, 3)
	for _, k := range []Key{flatKey, zKey, Moving(4, 4)} {
		if err := src.Write(k, fingerprintBody(t, src.Indexer().Layer(k))); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []Key{flatKey, zKey} {
		if err := src.MarkVerified(k); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, done, err := src.Compress(zKey); err != nil || !done {
		t.Fatalf("compressing %v: %v, %v", zKey, done, err)
	}

	for _, k := range []Key{flatKey, zKey} {
		if ok, err := dst.Adopt(src, k); !ok || err != nil {
			t.Fatalf("adopting %v: %v, %v; want it adopted", k, ok, err)
		}
		if got, want := dst.Compressed(k), src.Compressed(k); got != want {
			t.Errorf("%v: compressed %v, want %v as in the source", k, got, want)
		}
		// The source checked its compressed file in full (Compress):
		// so is the copy, without decoding it again.
		_, _, want := src.soundRecorded(k)
		if _, _, got := dst.soundRecorded(k); got != want || got != (k == zKey) {
			t.Errorf("%v: noted as checked in full %v, the source %v; want it noted for the compressed layer alone", k, got, want)
		}
		hs, _ := src.Header(k)
		hd, err := dst.Header(k)
		if err != nil || hd.Game != muehle.Standard || hd.Stones != 4 {
			t.Fatalf("%v: header %+v, %v; want the standard game's, 4 stones", k, hd, err)
		}
		hd.Game, hd.Stones = hs.Game, hs.Stones
		if hd != hs {
			t.Errorf("%v: header %+v, want %+v but for the game", k, hd, hs)
		}
		if h, _ := dst.Header(k); func() bool { _, _, err := readBlocks(dst.Path(k), h, headerSum(h)); return err != nil }() {
			t.Errorf("%v: the block file does not vouch for the adopted layer", k)
		}
		if !dst.Verified(k) {
			t.Errorf("%v: not verified after adopting", k)
		}
		if st, err := dst.Check(k); st != StatusVerified || err != nil {
			t.Errorf("%v: Check %v, %v; want verified", k, st, err)
		}
		rec, _ := os.ReadFile(dst.VerifiedPath(k))
		if !strings.Contains(string(rec), " adopted from lasker k4") {
			t.Errorf("%v: record %q, want it to name Lasker Morris of 4 stones", k, rec)
		}
		fs, err := src.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		fd, err := dst.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fd.Body(), fs.Body()) {
			t.Errorf("%v: the adopted body differs from the source's", k)
		}
		if ok, err := dst.Adopt(src, k); ok || err != nil {
			t.Errorf("adopting %v again: %v, %v; want nothing done", k, ok, err)
		}
	}

	if _, err := dst.Adopt(src, Moving(4, 4)); err == nil || !strings.Contains(err.Error(), "not verified") {
		t.Errorf("adopting 4-4, not verified in the source: got %v, want a refusal", err)
	}
	if dst.Verified(Moving(4, 4)) || fileExists(dst.Path(Moving(4, 4))) {
		t.Errorf("a refused layer left a file")
	}
	if _, err := dst.Adopt(src, Key{W: 3, B: 3, WH: 1, BH: 1}); err == nil {
		t.Errorf("adopting a placement layer: got no error")
	}
	twelve := open(muehle.Twelve.With(4))
	if _, err := twelve.Adopt(src, flatKey); err == nil {
		t.Errorf("adopting a layer of another board: got no error")
	}
}

// fileExists reports whether path names a file.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
