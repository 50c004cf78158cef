package pack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/layers"
)

// testDB writes a database of the 3-stone game in a new folder: every
// layer of layers.Order(3, true) with random values (a fifth Unused),
// each placement layer with a reach file (derived from its body, except
// for one layer whose bits differ: stored), every other layer verified,
// and a solve record. The values are not a solution: the package does not
// care what they mean.
func testDB(t *testing.T) (string, []layers.Key) {
	t.Helper()
	dir := t.TempDir()
	db, err := layers.OpenDB(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(3, 3))
	keys := layers.Order(3, true)
	stored := false
	for i, k := range keys {
		body := make([]byte, db.Indexer().Layer(k).Size())
		for j := range body {
			if rng.IntN(5) > 0 {
				body[j] = byte(1 + rng.IntN(30))
			}
		}
		if err := db.Write(k, body); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			if err := db.MarkVerified(k); err != nil {
				t.Fatal(err)
			}
		}
		if !k.IsMoving() {
			bits := make([]byte, reachBytes(uint64(len(body)))-reachHead)
			setBits(bits, 0, body)
			if !stored && len(body) > 100 {
				bits[3] ^= 0x10 // a bit that does not follow from the body
				stored = true
			}
			if err := os.WriteFile(strings.TrimSuffix(db.Path(k), ".layer")+".reach", deriveReach(3, k, uint64(len(body)), bits), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	rec := "2026-11-26T06:18:57Z\t3-3\t183512\t0.417\tcount=0.029\t384\t2\t2\t012dcc6566fc\n"
	if err := os.WriteFile(filepath.Join(dir, "k3", "solve-record.tsv"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, keys
}

// smallBlocks makes Export write blocks of 64 KiB until the test ends.
func smallBlocks(t *testing.T) {
	old := blockBytes
	blockBytes = minBlockBytes
	t.Cleanup(func() { blockBytes = old })
}

// export writes the layers keys of the database in dir to a package.
func export(t *testing.T, dir string, keys []layers.Key, out string, partBytes int64) *ExportResult {
	t.Helper()
	db, err := layers.OpenDB(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := Export(context.Background(), db, keys, ExportOptions{Out: out, PartBytes: partBytes, Exported: Machine{Commit: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameFolders compares the files of two folders byte for byte.
func sameFolders(t *testing.T, a, b string) {
	t.Helper()
	files := func(root string) map[string][]byte {
		m := map[string][]byte{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				m[rel], _ = os.ReadFile(p)
			}
			return nil
		})
		return m
	}
	fa, fb := files(a), files(b)
	for name, x := range fa {
		if y, ok := fb[name]; !ok {
			t.Errorf("%s: missing after the import", name)
		} else if !bytes.Equal(x, y) {
			t.Errorf("%s: %d bytes after the import differ from the %d exported", name, len(y), len(x))
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			t.Errorf("%s: after the import, not in the exported folder", name)
		}
	}
	if len(fa) < 10 {
		t.Errorf("only %d files compared", len(fa))
	}
}

// TestRoundTrip exports every layer of a database, as one file and as
// parts, imports each into a fresh folder and compares every file byte
// for byte (layer, block, reach and verification files and the solve
// record); importing again skips every layer and changes nothing.
func TestRoundTrip(t *testing.T) {
	smallBlocks(t)
	dir, keys := testDB(t)
	for _, parts := range []int64{0, 100_000} {
		out := filepath.Join(t.TempDir(), "k3.mpk")
		res := export(t, dir, keys, out, parts)
		stored := 0
		for _, l := range res.Manifest.Layers {
			if l.Reach != nil && l.Reach.Stored {
				stored++
			}
		}
		if stored != 1 {
			t.Errorf("parts %d: %d reach files stored, want 1 (the others derived from the body)", parts, stored)
		}
		if parts > 0 && res.Parts < 2 {
			t.Errorf("parts of %d bytes: got %d parts of a %d-byte package", parts, res.Parts, res.Bytes)
		}
		to := t.TempDir()
		var notes []string
		ir, err := Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim, Note: func(s string) { notes = append(notes, s) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(ir.Installed) != len(keys) || len(ir.Skipped) != 0 {
			t.Errorf("parts %d: installed %d, skipped %d; want %d and 0", parts, len(ir.Installed), len(ir.Skipped), len(keys))
		}
		sameFolders(t, dir, to)
		again := out
		if parts > 0 {
			again = filepath.Join(out, "part-0001.mpk") // the folder named by its first part
		}
		ir, err = Import(context.Background(), to, again, ImportOptions{ClaimName: testClaim})
		if err != nil || len(ir.Skipped) != len(keys) {
			t.Errorf("parts %d: importing again: got %v, %d skipped; want all %d skipped", parts, err, len(ir.Skipped), len(keys))
		}
		sameFolders(t, dir, to)
	}
}

// TestResume imports into a folder that has some layers already (as an
// interrupted import leaves it, side files missing), a damaged layer and
// an unverified layer that differs: the identical ones are skipped, the
// others replaced, and the folder ends identical to the exported one. A
// verified layer that differs is refused without --force, changing
// nothing, and replaced with it.
func TestResume(t *testing.T) {
	smallBlocks(t)
	dir, keys := testDB(t)
	out := filepath.Join(t.TempDir(), "k3.mpk")
	export(t, dir, keys, out, 0)
	to := t.TempDir()
	os.MkdirAll(filepath.Join(to, "k3"), 0o755)
	copyFile := func(name string) {
		b, err := os.ReadFile(filepath.Join(dir, "k3", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(to, "k3", name), b, 0o644)
	}
	copyFile("m3-3.layer")                   // no block file, no record
	copyFile(keys[2].String() + ".layer")    // to be damaged
	copyFile(keys[2].String() + ".verified") // damaged, so replaced though verified
	p1 := filepath.Join(to, "k3", keys[2].String()+".layer")
	b, _ := os.ReadFile(p1)
	b[len(b)-1] ^= 1
	os.WriteFile(p1, b, 0o644)
	db, err := layers.OpenDB(to, 3)
	if err != nil {
		t.Fatal(err)
	}
	body := make([]byte, db.Indexer().Layer(keys[1]).Size())
	if err := db.Write(keys[1], body); err != nil { // different, unverified
		t.Fatal(err)
	}
	var notes []string
	ir, err := Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim, Note: func(s string) { notes = append(notes, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(ir.Skipped) != 1 || ir.Skipped[0] != keys[0] {
		t.Errorf("skipped %v, want [%v]\n%s", ir.Skipped, keys[0], strings.Join(notes, "\n"))
	}
	if !strings.Contains(strings.Join(notes, "\n"), "replacing a different file") {
		t.Errorf("notes do not say a file was replaced:\n%s", strings.Join(notes, "\n"))
	}
	sameFolders(t, dir, to)

	// A verified layer that differs.
	body = make([]byte, db.Indexer().Layer(keys[2]).Size())
	if err := db.Write(keys[2], body); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkVerified(keys[2]); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, _ := os.ReadFile(filepath.Join(to, "k3", "m3-3.layer"))
	os.Remove(filepath.Join(to, "k3", "m3-3.layer"))
	_, err = Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim})
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), keys[2].String()) || !strings.Contains(err.Error(), "--force") {
		t.Errorf("over a different verified layer: got %v, want ErrConflict naming %v and --force", err, keys[2])
	}
	if _, err := os.Stat(filepath.Join(to, "k3", "m3-3.layer")); !os.IsNotExist(err) {
		t.Errorf("a refused import installed m3-3 (%v)", err)
	}
	if _, err = Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim, Force: true}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(to, "k3", "m3-3.layer"))
	if !bytes.Equal(before, after) {
		t.Errorf("m3-3 after the forced import differs")
	}
	sameFolders(t, dir, to)
}

// TestBadPackages checks that each kind of damage is refused with a clear
// error wrapping the right sentinel, before anything is installed: a
// flipped byte in a block's frame, in a block header, in the manifest, in
// the preamble; a truncated package; a missing part; bytes after the end;
// a file that is not a package; a package of another format version; of
// other rules; of another stone count than asked for.
func TestBadPackages(t *testing.T) {
	smallBlocks(t)
	dir, keys := testDB(t)
	out := filepath.Join(t.TempDir(), "k3.mpk")
	res := export(t, dir, keys, out, 0)
	good, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	start := p.start
	p.Close()
	lastBlock := bytes.LastIndex(good, []byte(blockMagic))
	withManifest := func(edit func(*Manifest)) []byte {
		m, err := parseManifest(good[preambleSize:start])
		if err != nil {
			t.Fatal(err)
		}
		edit(m)
		js, _ := jsonMarshal(m)
		return append(append(marshalPreamble(js), js...), good[start:]...)
	}
	flip := func(at int64) []byte {
		b := bytes.Clone(good)
		b[at] ^= 0x20
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		opts ImportOptions
		want error
		text string
	}{
		{"a flipped byte in a frame", flip(start + blockHead + 5), ImportOptions{ClaimName: testClaim}, ErrChecksum, "block 0 of the body of layer 3-3"},
		{"a flipped byte in the last frame", flip(int64(lastBlock) + blockHead + 1), ImportOptions{ClaimName: testClaim}, ErrChecksum, "has checksum"},
		{"a flipped byte in a block header", flip(start + 13), ImportOptions{ClaimName: testClaim}, ErrChecksum, "header of block"},
		{"a flipped byte in the manifest", flip(preambleSize + 30), ImportOptions{ClaimName: testClaim}, ErrChecksum, "manifest's checksum"},
		{"a flipped byte in the preamble", flip(13), ImportOptions{ClaimName: testClaim}, ErrChecksum, "preamble's checksum"},
		{"truncated in a block", good[:len(good)/2], ImportOptions{ClaimName: testClaim}, ErrTruncated, "ends at byte"},
		{"truncated before the trailer", good[:len(good)-trailerSize], ImportOptions{ClaimName: testClaim}, ErrTruncated, "before its trailer"},
		{"truncated in the manifest", good[:100], ImportOptions{ClaimName: testClaim}, ErrTruncated, "the manifest alone needs"},
		{"bytes after the end", append(bytes.Clone(good), 0), ImportOptions{ClaimName: testClaim}, ErrFormat, "after the trailer"},
		{"not a package", []byte("PK\x03\x04 a zip file, say"), ImportOptions{ClaimName: testClaim}, ErrNotPackage, "does not start with"},
		{"an empty file", nil, ImportOptions{ClaimName: testClaim}, ErrNotPackage, "does not start with"},
		{"another package version", func() []byte { b := bytes.Clone(good); le.PutUint32(b[8:], 2); return fixPreamble(b) }(), ImportOptions{ClaimName: testClaim}, ErrVersion, "package format 2"},
		{"another layer format", withManifest(func(m *Manifest) { m.LayerFormat = 2 }), ImportOptions{ClaimName: testClaim}, ErrVersion, "layer files of format 2"},
		{"other rules", withManifest(func(m *Manifest) { m.Rules["flyAt"] = "0"; m.Fingerprint = m.Rules.Fingerprint() }), ImportOptions{ClaimName: testClaim}, ErrRules, "flyAt is 0, this program's is 3"},
		{"another game", withManifest(func(m *Manifest) { m.Rules["game"] = "lasker"; m.Fingerprint = m.Rules.Fingerprint() }), ImportOptions{ClaimName: testClaim}, ErrRules, `game "lasker"`},
		{"a rule unknown", withManifest(func(m *Manifest) { m.Rules["diagonals"] = "4"; m.Fingerprint = m.Rules.Fingerprint() }), ImportOptions{ClaimName: testClaim}, ErrRules, "does not know"},
		{"a wrong fingerprint", withManifest(func(m *Manifest) { m.Fingerprint = strings.Repeat("0", 32) }), ImportOptions{ClaimName: testClaim}, ErrFormat, "fingerprint"},
		{"another stone count", good, ImportOptions{ClaimName: testClaim, Stones: 4}, ErrRules, "the 3-stone game, not the 4-stone game"},
		{"a layer twice", withManifest(func(m *Manifest) { m.Layers[1] = m.Layers[0] }), ImportOptions{ClaimName: testClaim}, ErrFormat, "names layer 3-3 twice"},
		{"layers out of order", withManifest(func(m *Manifest) { m.Layers[1], m.Layers[2] = m.Layers[2], m.Layers[1] }), ImportOptions{ClaimName: testClaim}, ErrFormat, "out of the order"},
		{"a wrong layer checksum", withManifest(func(m *Manifest) { m.Layers[3].CRC64 = "0123456789abcdef" }), ImportOptions{ClaimName: testClaim}, ErrChecksum, "the manifest says 0123456789abcdef"},
	} {
		path := filepath.Join(t.TempDir(), "bad.mpk")
		os.WriteFile(path, tc.data, 0o644)
		to := t.TempDir()
		_, err := Import(context.Background(), to, path, tc.opts)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: got %v; want %v saying %q", tc.name, err, tc.want, tc.text)
		}
		if tc.name == "a wrong layer checksum" {
			continue // found only when the layer is unpacked; the layers before it are in
		}
		if names, _ := filepath.Glob(filepath.Join(to, "k3", "*")); len(names) > 0 {
			t.Errorf("%s: the refused import left %v", tc.name, names)
		}
	}
	_ = res

	// A missing part.
	parts := filepath.Join(t.TempDir(), "parts")
	export(t, dir, keys, parts, 50_000)
	os.Remove(filepath.Join(parts, "part-0002.mpk"))
	if _, err := Import(context.Background(), t.TempDir(), parts, ImportOptions{ClaimName: testClaim}); !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "lacks part-0002.mpk") {
		t.Errorf("a missing part: got %v, want ErrTruncated naming part-0002.mpk", err)
	}
	// The last part missing: the package ends early.
	names, _ := filepath.Glob(filepath.Join(parts, "part-*.mpk"))
	os.Remove(names[len(names)-1])
	os.Rename(filepath.Join(parts, "part-0003.mpk"), filepath.Join(parts, "part-0002.mpk"))
	if _, err := Import(context.Background(), t.TempDir(), parts, ImportOptions{ClaimName: testClaim}); err == nil {
		t.Errorf("parts missing: got no error")
	}
}

// fixPreamble recomputes the preamble's own checksum after an edit.
func fixPreamble(b []byte) []byte {
	le.PutUint32(b[20:], crc32.Checksum(b[:20], castagnoli))
	return b
}

// TestCancel checks that a cancelled export leaves no file and a
// cancelled import leaves no temporary file or claim.
func TestCancel(t *testing.T) {
	smallBlocks(t)
	dir, keys := testDB(t)
	db, _ := layers.OpenDB(dir, 3)
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	out := filepath.Join(t.TempDir(), "k3.mpk")
	_, err := Export(ctx, db, keys, ExportOptions{Out: out, Progress: func(p Progress) {
		if p.Step == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled export: got %v, want context.Canceled", err)
	}
	if names, _ := filepath.Glob(out + "*"); len(names) > 0 {
		t.Errorf("a cancelled export left %v", names)
	}
	export(t, dir, keys, out, 0)
	to := t.TempDir()
	ctx, cancel = context.WithCancel(context.Background())
	_, err = Import(ctx, to, out, ImportOptions{ClaimName: testClaim, Progress: func(p Progress) {
		if p.Phase == "install" && p.Step == 4 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled import: got %v, want context.Canceled", err)
	}
	left, _ := filepath.Glob(filepath.Join(to, "k3", "*.tmp"))
	claims, _ := filepath.Glob(filepath.Join(to, "k3", "*.claim"))
	if len(left)+len(claims) > 0 {
		t.Errorf("a cancelled import left %v %v", left, claims)
	}
	if _, err := Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim}); err != nil {
		t.Fatal(err)
	}
	sameFolders(t, dir, to)
	_ = fmt.Sprint
}

// testClaim names an import's claims in these tests as the solver names
// its units (retro.NameOf, which this package may not import): m3-4 for
// the pair 3-4 + 4-3, the layer's own name for a placement layer.
func testClaim(k layers.Key) string {
	if !k.IsMoving() {
		return k.String()
	}
	return fmt.Sprintf("m%d-%d", min(k.W, k.B), max(k.W, k.B))
}
