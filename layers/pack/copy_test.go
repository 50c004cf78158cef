package pack

import (
	"bytes"
	"context"
	"errors"
	"hash/crc32"
	"hash/crc64"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// compressedDB is testDB, its values mostly drawn (so that they
// compress), with its layers compressed in place
// (layers.DB.Compress), but for a layer or two that compress would leave
// flat anyway or that stays flat on purpose (the first placement layer):
// a folder as `muehlectl compress` leaves one, and a mixed one. It
// returns the folder, its layers and the layers compressed. Its values
// are no game's, so it compresses in form 1, every value as it is (form
// 2 finds a won slot's depth from its children: TestCopiedForm2).
func compressedDB(t *testing.T) (string, []layers.Key, map[layers.Key]bool) {
	t.Helper()
	defer layers.SetCompressForm(layers.SetCompressForm(1))
	dir, keys := testDBOf(t, func(rng *rand.Rand) byte {
		if rng.IntN(8) > 0 {
			return byte(layers.Drawn)
		}
		return byte(2 + rng.IntN(30))
	})
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	z := map[layers.Key]bool{}
	flat := false
	for _, k := range keys {
		if !k.IsMoving() && !flat {
			flat = true
			continue
		}
		if _, _, done, err := db.Compress(k); err != nil {
			t.Fatal(err)
		} else if done {
			z[k] = true
		}
	}
	if len(z) < 3 || len(z) == len(keys) {
		t.Fatalf("%d of %d layers compressed; want most, not all", len(z), len(keys))
	}
	return dir, keys, z
}

// TestCopiedRoundTrip exports a folder whose layers are mostly kept
// compressed: those travel as their files (package format 5, coder 4),
// the others as bodies; imported into an empty folder, as one file and as
// parts, every file is the exporting folder's byte for byte (layer files,
// block files, verification records, reach files, the solve record), and
// importing again skips every layer.
func TestCopiedRoundTrip(t *testing.T) {
	smallBlocks(t)
	dir, keys, z := compressedDB(t)
	for _, parts := range []int64{0, 100_000} {
		out := filepath.Join(t.TempDir(), "k3.mpk")
		res := export(t, dir, keys, out, parts)
		m := res.Manifest
		if m.Version != Version || res.Coded[coderStored] == 0 {
			t.Errorf("parts %d: package format %d, %d blocks copied; want format %d and some", parts, m.Version, res.Coded[coderStored], Version)
		}
		for i, l := range m.Layers {
			if l.Copied() != z[m.Key(i)] {
				t.Errorf("parts %d: layer %s copied %v, compressed in the folder %v", parts, l.Key, l.Copied(), z[m.Key(i)])
			}
			if l.Copied() && (l.BlockFile == nil || l.Derived || (l.Reach != nil && !l.Reach.Stored)) {
				t.Errorf("parts %d: copied layer %s: block file %v, derived %v, reach %+v; want its block file, not derived, a reach file stored", parts, l.Key, l.BlockFile, l.Derived, l.Reach)
			}
		}
		to := t.TempDir()
		ir, err := Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim})
		if err != nil {
			t.Fatal(err)
		}
		if len(ir.Installed) != len(keys) {
			t.Errorf("parts %d: installed %d of %d", parts, len(ir.Installed), len(keys))
		}
		sameFolders(t, dir, to)
		if ir, err = Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim}); err != nil || len(ir.Skipped) != len(keys) {
			t.Errorf("parts %d: importing again: %v, %d of %d skipped", parts, err, len(ir.Skipped), len(keys))
		}
		sameFolders(t, dir, to)
	}
}

// TestCopiedResume: a folder with a copied layer already there but its
// block file and record missing, and a different unverified one, ends
// as the exporting folder.
func TestCopiedResume(t *testing.T) {
	smallBlocks(t)
	dir, keys, z := compressedDB(t)
	out := filepath.Join(t.TempDir(), "k3.mpk")
	export(t, dir, keys, out, 0)
	to := t.TempDir()
	os.MkdirAll(filepath.Join(to, "k3"), 0o755)
	var copied []layers.Key
	for _, k := range keys {
		if z[k] {
			copied = append(copied, k)
		}
	}
	name := func(k layers.Key, suffix string) string {
		if k.IsMoving() {
			return "m" + k.String() + suffix
		}
		return k.String() + suffix
	}
	b, err := os.ReadFile(filepath.Join(dir, "k3", name(copied[0], ".layer")))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(to, "k3", name(copied[0], ".layer")), b, 0o644)
	b, _ = os.ReadFile(filepath.Join(dir, "k3", name(copied[1], ".layer")))
	b[len(b)-1] ^= 1 // a frame that does not decode as its table says: damaged
	os.WriteFile(filepath.Join(to, "k3", name(copied[1], ".layer")), b, 0o644)
	ir, err := Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim})
	if err != nil {
		t.Fatal(err)
	}
	if len(ir.Skipped) != 1 || ir.Skipped[0] != copied[0] {
		t.Errorf("skipped %v, want [%v]", ir.Skipped, copied[0])
	}
	sameFolders(t, dir, to)
}

// TestCopiedDamage: a compressed layer whose frame is damaged is not
// exported; a package whose copied file was damaged and its blocks'
// checksums fitted around the damage is refused on import, the layer not
// installed.
func TestCopiedDamage(t *testing.T) {
	smallBlocks(t)
	dir, keys, z := compressedDB(t)
	out := filepath.Join(t.TempDir(), "k3.mpk")
	res := export(t, dir, keys, out, 0)
	target := -1
	for i := range res.Manifest.Layers {
		if z[res.Manifest.Key(i)] {
			target = i
			break
		}
	}
	k := res.Manifest.Key(target)

	// The package: the last byte of the layer's compressed file (a frame's)
	// flipped, its block's checksums fitted.
	good, start := packageBytes(t, out)
	forged := bytes.Clone(good)
	var last int64 = -1
	for at := start; at+blockHead <= int64(len(forged)) && string(forged[at:at+4]) == blockMagic; {
		h := forged[at : at+blockHead]
		n := int64(le.Uint32(h[20:]))
		if int(le.Uint32(h[4:])) == target && h[8] == kindFile {
			last = at
		}
		at += blockHead + n
	}
	if last < 0 {
		t.Fatalf("no block of layer %s's compressed file in the package", k)
	}
	h := forged[last : last+blockHead]
	frame := forged[last+blockHead : last+blockHead+int64(le.Uint32(h[20:]))]
	frame[len(frame)-1] ^= 0x40
	le.PutUint64(h[24:], crc64.Checksum(frame, ecma))
	le.PutUint32(h[32:], crc32.Checksum(frame, castagnoli))
	le.PutUint32(h[36:], crc32.Checksum(h[:36], castagnoli))
	bad := filepath.Join(t.TempDir(), "bad.mpk")
	os.WriteFile(bad, forged, 0o644)
	to := t.TempDir()
	_, err := Import(context.Background(), to, bad, ImportOptions{ClaimName: testClaim})
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "layer "+k.String()+" as copied") {
		t.Errorf("a copied file damaged in the package: got %v, want ErrChecksum naming layer %s as copied", err, k)
	}
	db, _ := layers.OpenDB(to, muehle.Standard.With(3))
	defer db.Close()
	if db.Has(k) {
		t.Errorf("layer %s installed from a damaged package", k)
	}

	// The folder: the same byte flipped in the layer's file.
	src, _ := layers.OpenDB(dir, muehle.Standard.With(3))
	defer src.Close()
	b, _ := os.ReadFile(src.Path(k))
	b[len(b)-1] ^= 0x40
	os.WriteFile(src.Path(k), b, 0o644)
	_, err = Export(context.Background(), src, keys, ExportOptions{Out: filepath.Join(t.TempDir(), "x.mpk"), Unverified: true})
	if !errors.Is(err, layers.ErrChecksum) || !strings.Contains(err.Error(), k.String()) {
		t.Errorf("exporting a damaged compressed layer: got %v, want layers.ErrChecksum naming %s", err, k)
	}
}

// examplePathV5 is a package of format 5 checked in: the whole 3-stone
// game as `muehlectl solve --stones 3 --all-phases --compress` computed it
// and `muehlectl export --stones 3` wrote it; the layers that compress
// kept compressed (3-3 and three placement layers) copied with their block
// files, the three too small to gain coded as in format 4.
const examplePathV5 = "testdata/k3-v5.mpk"

// TestExamplePackageV5 reads the checked-in package of format 5 and
// installs it: every layer verified, those copied compressed, and every
// layer's values those of the package of format 3 (examplePath), the
// same game exported flat by the program before.
func TestExamplePackageV5(t *testing.T) {
	p, err := Open(examplePathV5)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m := p.Manifest
	copied := 0
	for _, l := range m.Layers {
		if l.Copied() {
			copied++
		}
	}
	if m.Version != 5 || m.Variant() != muehle.Standard.With(3) || len(m.Layers) != 7 || copied != 4 {
		t.Fatalf("package format %d of %s, %d layers, %d copied; want format 5 of the 3-stone game, 7 layers, 4 copied", m.Version, m.Variant().Name(), len(m.Layers), copied)
	}
	install := func(path string) *layers.DB {
		dir := t.TempDir()
		if _, err := Import(context.Background(), dir, path, ImportOptions{ClaimName: testClaim}); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		db, err := layers.OpenDB(dir, muehle.Standard.With(3))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	v5, v3 := install(examplePathV5), install(examplePath)
	for i, l := range m.Layers {
		k := m.Key(i)
		if st, err := v5.Check(k); st != layers.StatusVerified || v5.Compressed(k) != l.Copied() {
			t.Errorf("layer %s: %v, %v, compressed %v; want verified, compressed %v", k, st, err, v5.Compressed(k), l.Copied())
		}
		a, err := v5.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		b, err := v3.Layer(k)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Body(), b.Body()) || a.Header() != b.Header() {
			t.Errorf("layer %s: its body or header differs from the package of format 3's", k)
		}
	}
}

// TestCopiedForm2 exports a folder holding a layer of compressed form 2
// (the checked-in layer 3-3 of the 5-stone game, its won slots stored
// without their depth, verified): it travels as its file, and imported
// into an empty folder it is the exporting folder's byte for byte and
// probes the same.
func TestCopiedForm2(t *testing.T) {
	smallBlocks(t)
	v, k := muehle.Standard.With(5), layers.Moving(3, 3)
	b, err := os.ReadFile("../testdata/compressed2-k5-m3-3.layer")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db, err := layers.OpenDB(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := os.MkdirAll(db.GameDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db.Path(k), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if db.Form(k) != 2 {
		t.Fatalf("form %d, want 2", db.Form(k))
	}
	if err := db.MarkVerified(k); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "k5.mpk")
	res, err := Export(context.Background(), db, []layers.Key{k}, ExportOptions{Out: out, PartBytes: 0, Exported: Machine{Commit: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Manifest.Layers[0].Copied() {
		t.Errorf("layer %s not copied", k)
	}
	to := t.TempDir()
	if _, err := Import(context.Background(), to, out, ImportOptions{ClaimName: testClaim}); err != nil {
		t.Fatal(err)
	}
	in, err := layers.OpenDB(to, v)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	for _, path := range [][2]string{{db.Path(k), in.Path(k)}, {db.VerifiedPath(k), in.VerifiedPath(k)}} {
		x, err1 := os.ReadFile(path[0])
		y, err2 := os.ReadFile(path[1])
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("%s: %d bytes imported (%v), %d exported (%v); want the same", filepath.Base(path[1]), len(y), err2, len(x), err1)
		}
	}
	l := db.Indexer().Layer(k)
	for i := uint64(0); i < l.Size(); i += 97 {
		p, ok := l.Position(i)
		if !ok {
			continue
		}
		p.Game = v.Game
		want, err1 := db.Probe(p)
		got, err2 := in.Probe(p)
		if err1 != nil || err2 != nil || got != want {
			t.Fatalf("slot %d: imported %v, %v; exported %v, %v", i, got, err2, want, err1)
		}
	}
	if st, err := in.Check(k); st != layers.StatusVerified {
		t.Errorf("imported layer: %v, %v; want verified", st, err)
	}
}
