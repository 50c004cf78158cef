package pack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"muehle/layers"
	"muehle/muehle"
)

// testDB writes a database of the 3-stone game in a new folder: every
// layer of layers.Order(3, true) with random values: the moving layers one
// byte per slot (a fifth Unused); the placement layers alternately dense
// (a fifth of the slots stored) and of one byte per slot with holes (as
// the reachable sweep wrote them before the dense files, here in this
// format). Each placement layer has a reach file derived from its
// body (the slots not Unused, or the dense body's own bits), except that
// one layer of each kind has one whose bits differ (stored) and one dense
// layer has none (as after retro.RemoveReach). Two layers in three are
// verified (of either kind), and the folder has a solve record. The values are not a
// solution: the package does not care what they mean.
func testDB(t *testing.T) (string, []layers.Key) {
	t.Helper()
	return testDBOf(t, func(rng *rand.Rand) byte { return byte(1 + rng.IntN(30)) })
}

// testDBOf is testDB with the values value draws (never Unused).
func testDBOf(t *testing.T, value func(*rand.Rand) byte) (string, []layers.Key) {
	t.Helper()
	dir := t.TempDir()
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(3, 3))
	keys := layers.Order(3, true)
	stored := map[bool]bool{} // a stored reach file written, for dense and not
	placement := 0
	for i, k := range keys {
		n := db.Indexer().Layer(k).Size()
		dense := !k.IsMoving() && placement%2 == 0
		bits := make([]byte, layers.ReachFileBytes(n)-layers.ReachHeaderSize)
		if dense {
			words := make([]uint64, (n+63)/64)
			var values []byte
			for j := range n {
				if rng.IntN(5) == 0 || j == 0 {
					words[j/64] |= 1 << (j % 64)
					values = append(values, value(rng))
				}
			}
			d, err := layers.NewDense(n, words, values)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.WriteDense(k, d); err != nil {
				t.Fatal(err)
			}
			for j, w := range words {
				le.PutUint64(bits[8*j:], w)
			}
		} else {
			body := make([]byte, n)
			for j := range body {
				if rng.IntN(5) > 0 {
					body[j] = value(rng)
				}
			}
			if err := db.Write(k, body); err != nil {
				t.Fatal(err)
			}
			setBits(bits, 0, body)
		}
		if i%3 != 1 {
			if err := db.MarkVerified(k); err != nil {
				t.Fatal(err)
			}
		}
		if k.IsMoving() {
			continue
		}
		placement++
		if placement == 5 {
			continue // a dense layer without a reach file
		}
		if !stored[dense] && n > 100 {
			bits[3] ^= 0x10 // a bit that does not follow from the body
			stored[dense] = true
		}
		if err := os.WriteFile(db.ReachPath(k), deriveReach(3, k, n, bits), 0o644); err != nil {
			t.Fatal(err)
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
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := Export(context.Background(), db, keys, ExportOptions{Out: out, Unverified: true, PartBytes: partBytes, Exported: Machine{Commit: "test"}})
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
		if res.Coded[coderStreams] == 0 || res.Coded[coderZstd] == 0 || res.Coded[coderDirectory] != 3 {
			t.Errorf("parts %d: blocks by coder %v; want some zstd frames and some context streams, and the 3 dense layers' rank directories left out", parts, res.Coded)
		}
		stored := 0
		for _, l := range res.Manifest.Layers {
			if l.Reach != nil && l.Reach.Stored {
				stored++
			}
		}
		if stored != 2 {
			t.Errorf("parts %d: %d reach files stored, want 2 (the others derived from the body)", parts, stored)
		}
		layouts := map[int]int{}
		for _, l := range res.Manifest.Layers {
			layouts[l.Layout]++
		}
		if res.Manifest.Version != flatVersion || res.Manifest.LayerFormat != layers.FileVersion || layouts[0] != 4 || layouts[1] != 3 {
			t.Errorf("parts %d: package format %d, layer format %d, layers by layout %v; want %d, %d and 4 of one byte per slot, 3 dense",
				parts, res.Manifest.Version, res.Manifest.LayerFormat, layouts, flatVersion, layers.FileVersion)
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
	db, err := layers.OpenDB(to, muehle.Standard.With(3))
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
	good, start := packageBytes(t, out)
	lastBlock := bytes.LastIndex(good, []byte(blockMagic))
	if l := res.Manifest.Layers[3]; l.Key != "p1+2-2+1" || !l.Dense() || l.Verified == "" || l.Slots != 706 {
		t.Fatalf("layer 4 of the test database: %s, dense %v, verified %v, %d slots; want p1+2-2+1 dense, verified, 706 slots", l.Key, l.Dense(), l.Verified != "", l.Slots)
	}
	// p1+2-2+1, its block rank of slots 512 to 705 made one more, the
	// package's checksums fitted around it: the bits (12 words), the
	// superblock rank (one), the rank of block 0, then that of block 1.
	// The package leaves the rank directory out (coder 3) and import
	// derives it from the bits: the block as derived does not have the
	// checksum of the forged one.
	forged, err := os.ReadFile(repack(t, out, 3, func(body []byte) { body[8*12+8+2]++ }))
	if err != nil {
		t.Fatal(err)
	}
	withManifest := manifestEditor(t, out)
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
		{"another package version", func() []byte { b := bytes.Clone(good); le.PutUint32(b[8:], Version+1); return fixPreamble(b) }(), ImportOptions{ClaimName: testClaim}, ErrVersion, fmt.Sprintf("package format %d", Version+1)},
		{"preamble and manifest of other versions", func() []byte { b := bytes.Clone(good); le.PutUint32(b[8:], 1); return fixPreamble(b) }(), ImportOptions{ClaimName: testClaim}, ErrFormat, fmt.Sprintf("the preamble says package format 1, the manifest %d", flatVersion)},
		{"another layer format", withManifest(func(m *Manifest) { m.LayerFormat = 3 }), ImportOptions{ClaimName: testClaim}, ErrVersion, "layer files of format 3"},
		{"layers of this format in a package of version 1", withManifest(func(m *Manifest) { m.Version = 1 }), ImportOptions{ClaimName: testClaim}, ErrVersion, "layer files of format 2, this program reads format 1 in a package of format 1"},
		{"layers of the format before in a package of this version", withManifest(func(m *Manifest) { m.LayerFormat = 1 }), ImportOptions{ClaimName: testClaim}, ErrVersion, fmt.Sprintf("layer files of format 1, this program reads format 2 in a package of format %d", flatVersion)},
		{"dense layers of the format before", withManifest(func(m *Manifest) {
			m.Version, m.LayerFormat = 1, 1
			for i := range m.Layers {
				m.Layers[i].Verified = "" // of files of format 2
			}
		}), ImportOptions{ClaimName: testClaim}, ErrFormat, "layer p2+1-3+0: layout 1 in a layer file of format 1"},
		{"an unknown layout", withManifest(func(m *Manifest) { m.Layers[0].Layout = 2 }), ImportOptions{ClaimName: testClaim}, ErrFormat, "layer 3-3: layout 2 in a layer file of format 2"},
		{"a dense layer said to have one byte per slot", withManifest(func(m *Manifest) { m.Layers[3].Layout = 0 }), ImportOptions{ClaimName: testClaim}, ErrFormat, "stored in a layer of one byte per slot"},
		{"a stored count not the values'", withManifest(func(m *Manifest) { m.Layers[3].Stored++ }), ImportOptions{ClaimName: testClaim}, ErrFormat, "won, lost or drawn"},
		{"a verified dense layer's stored count", withManifest(func(m *Manifest) { m.Layers[3].Stored++; m.Layers[3].Won++ }), ImportOptions{ClaimName: testClaim}, ErrFormat, "verification record"},
		{"an unverified dense layer's stored count", withManifest(func(m *Manifest) { m.Layers[1].Stored++; m.Layers[1].Won++ }), ImportOptions{ClaimName: testClaim}, ErrFormat, "of the body of layer p2+1-3+0 holds"},
		{"a forged dense body", forged, ImportOptions{ClaimName: testClaim}, ErrChecksum, "block 0 of the body of layer p1+2-2+1 has CRC-64"},
		{"other rules", withManifest(func(m *Manifest) { m.Rules["flyAt"] = "0"; m.Fingerprint = m.Rules.Fingerprint() }), ImportOptions{ClaimName: testClaim}, ErrRules, "flyAt is 0, this program's is 3"},
		{"another game", withManifest(func(m *Manifest) { m.Rules["game"] = "lasker"; m.Fingerprint = m.Rules.Fingerprint() }), ImportOptions{ClaimName: testClaim}, ErrRules, "phases is separate, this program's is mixed; rulesId is 1, this program's is 3"},
		{"another game's layers", withManifest(func(m *Manifest) {
			for n, v := range RulesOf(muehle.Twelve.With(3)) {
				m.Rules[n] = v
			}
			m.Fingerprint = m.Rules.Fingerprint()
		}), ImportOptions{ClaimName: testClaim}, ErrFormat, "verification record"},
		{"a game unknown", withManifest(func(m *Manifest) { m.Rules["game"] = "backgammon"; m.Fingerprint = m.Rules.Fingerprint() }), ImportOptions{ClaimName: testClaim}, ErrRules, `the game "backgammon", which this program does not know`},
		{"a game of another board", withManifest(func(m *Manifest) {
			for n, v := range RulesOf(muehle.Six.With(3)) {
				m.Rules[n] = v
			}
			m.Fingerprint = m.Rules.Fingerprint()
		}), ImportOptions{ClaimName: testClaim}, ErrFormat, "verification record"},
		{"too many stones", withManifest(func(m *Manifest) { m.Rules["stones"] = "10"; m.Fingerprint = m.Rules.Fingerprint() }), ImportOptions{ClaimName: testClaim}, ErrRules, `standard with "10" stones per side`},
		{"a rule unknown", withManifest(func(m *Manifest) { m.Rules["diagonals"] = "4"; m.Fingerprint = m.Rules.Fingerprint() }), ImportOptions{ClaimName: testClaim}, ErrRules, "does not know"},
		{"a wrong fingerprint", withManifest(func(m *Manifest) { m.Fingerprint = strings.Repeat("0", 32) }), ImportOptions{ClaimName: testClaim}, ErrFormat, "fingerprint"},
		{"another stone count", good, ImportOptions{ClaimName: testClaim, Variant: muehle.Standard.With(4)}, ErrRules, "holds Nine Men's Morris with 3 stones, not Nine Men's Morris with 4 stones"},
		{"a layer twice", withManifest(func(m *Manifest) { m.Layers[1] = m.Layers[0] }), ImportOptions{ClaimName: testClaim}, ErrFormat, "names layer 3-3 twice"},
		{"layers out of order", withManifest(func(m *Manifest) { m.Layers[1], m.Layers[2] = m.Layers[2], m.Layers[1] }), ImportOptions{ClaimName: testClaim}, ErrFormat, "out of the order"},
		{"a wrong layer checksum", withManifest(func(m *Manifest) { m.Layers[4].CRC64 = "0123456789abcdef" }), ImportOptions{ClaimName: testClaim}, ErrChecksum, "the manifest says 0123456789abcdef"},
	} {
		path := filepath.Join(t.TempDir(), "bad.mpk")
		os.WriteFile(path, tc.data, 0o644)
		to := t.TempDir()
		_, err := Import(context.Background(), to, path, tc.opts)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: got %v; want %v saying %q", tc.name, err, tc.want, tc.text)
		}
		if tc.name == "a forged dense body" {
			left, _ := filepath.Glob(filepath.Join(to, "k3", "p1+2-2+1.*"))
			tmp, _ := filepath.Glob(filepath.Join(to, "k3", "*.tmp"))
			if len(left)+len(tmp) > 0 {
				t.Errorf("%s: the refused layer left %v %v", tc.name, left, tmp)
			}
		}
		if tc.name == "a wrong layer checksum" || tc.name == "a forged dense body" {
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

// repack writes the package at path again with the body of its layer
// number target edited, the manifest's checksum of that layer fitted to
// the edited body and its verification record dropped: a package whose
// checksums all hold around a forged body. It returns the new package.
func repack(t *testing.T, path string, target int, edit func(body []byte)) string {
	t.Helper()
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m := p.Manifest
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	var sc streamCoder
	x, err := layers.DefaultIndexer()
	if err != nil {
		t.Fatal(err)
	}
	c := p.cursor()
	var bodies [][]byte
	read := func(i, kind int, n uint64) []byte {
		data := make([]byte, n)
		for seq := range p.blocksOf(n) {
			b, err := c.next(i, kind, seq, p.rawOf(n, seq), false)
			if err != nil {
				t.Fatal(err)
			}
			base := uint64(seq) * uint64(m.BlockBytes)
			dst := data[base : base+uint64(b.h.raw)]
			var v *partnerView
			switch b.h.coder {
			case coderPartner:
				j, ok := partnerOf(m, i)
				if !ok {
					t.Fatalf("layer %s: coder 2 without a partner", m.Key(i))
				}
				v = &partnerView{js: make([]uint64, b.h.raw), from: data, self: j == i, base: base}
				if j != i {
					v.from = bodies[j]
				}
				x.Layer(m.Key(i)).Swapped(base, v.js, x.Layer(m.Key(j)))
				fallthrough
			case coderStreams:
				if _, err = sc.decode(dst, b.frame, b.h.raw, base, geometry(x, &m.Layers[i]), v); err != nil {
					t.Fatal(err)
				}
			case coderDirectory:
				l := &m.Layers[i]
				head, tail, _ := directoryPart(l, base, b.h.raw)
				h, tl, err := (&installer{dec: dec}).directoryParts(b.frame, head, tail, &sc)
				if err != nil {
					t.Fatal(err)
				}
				dir, _ := layers.DenseRegions(l.Slots, l.Stored)
				copy(dst, h)
				copy(dst[len(dst)-len(tl):], tl)
				d := layers.DenseDirectory(l.Slots, data[:dir])
				lo := max(base, dir)
				copy(dst[lo-base:len(dst)-len(tl)], d[lo-dir:])
			default:
				raw, err := dec.DecodeAll(b.frame, nil)
				if err != nil {
					t.Fatal(err)
				}
				copy(dst, raw)
			}
		}
		return data
	}
	bodies = make([][]byte, len(m.Layers))
	reach := make([][]byte, len(m.Layers))
	for i := range m.Layers {
		l := &m.Layers[i]
		bodies[i] = read(i, kindBody, l.BodyBytes())
		if l.Reach != nil && l.Reach.Stored {
			reach[i] = read(i, kindReach, l.Reach.Bytes)
		}
	}
	edit(bodies[target])
	l := &m.Layers[target]
	l.sum = crc64.Checksum(bodies[target], ecma)
	l.CRC64, l.Verified = fmt.Sprintf("%016x", l.sum), ""
	out := filepath.Join(t.TempDir(), "forged.mpk")
	if _, err := writePackage(context.Background(), m, bodies, reach, make([]*copySource, len(m.Layers)), ExportOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	return out
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
	db, _ := layers.OpenDB(dir, muehle.Standard.With(3))
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	out := filepath.Join(t.TempDir(), "k3.mpk")
	_, err := Export(ctx, db, keys, ExportOptions{Out: out, Unverified: true, Progress: func(p Progress) {
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

// packageBytes returns the bytes of the package at path and the offset of
// its first block.
func packageBytes(t *testing.T, path string) ([]byte, int64) {
	t.Helper()
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	return good, p.start
}

// manifestEditor returns a function that gives the bytes of the package
// at path with its manifest edited by edit, the preamble fitted to it and
// the blocks as they were.
func manifestEditor(t *testing.T, path string) func(edit func(*Manifest)) []byte {
	good, start := packageBytes(t, path)
	return func(edit func(*Manifest)) []byte {
		m, err := parseManifest(good[preambleSize:start])
		if err != nil {
			t.Fatal(err)
		}
		edit(m)
		js, _ := jsonMarshal(m)
		return append(append(marshalPreamble(js, m.Version), js...), good[start:]...)
	}
}
