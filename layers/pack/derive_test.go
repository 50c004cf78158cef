package pack

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
)

// partnerSource returns the folder of partnerDB, its layers and the
// database open on it (closed when the test ends).
func partnerSource(t *testing.T) (string, []layers.Key, *layers.DB) {
	t.Helper()
	dir, keys := partnerDB(t)
	src, err := layers.OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return dir, keys, src
}

// copier is a stand-in for retro.DeriveLayer, which this package's tests
// cannot import: it gives each layer the body it has in the database src
// and records the layers asked for and whether their children's layers
// were in place then. The real derivation is tested in retro and, with
// this package, by muehlectl's export and import of solved games.
type copier struct {
	src    *layers.DB
	asked  []layers.Key
	absent []layers.Key // children's layers missing when asked
	change bool         // give a body with one value changed
}

func (c *copier) derive(_ context.Context, db *layers.DB, k layers.Key, _ int, body []byte, done *atomic.Uint64) error {
	c.asked = append(c.asked, k)
	for _, x := range layers.SuccessorsIn(db.Variant(), k) {
		if !db.Has(x) {
			c.absent = append(c.absent, x)
		}
	}
	f, err := c.src.Layer(k)
	if err != nil {
		return err
	}
	copy(body, f.Body())
	if c.change {
		body[len(body)/2] ^= 1
	}
	done.Add(uint64(len(body)))
	return nil
}

// TestDerivedLayers: of the pair 3-4, 4-3 the package leaves out 4-3,
// whose children's layers come before it, and stores the others; import
// refuses it without a deriver, asks the deriver for 4-3 alone once 3-4
// is in, installs the very files, and refuses a derived body that differs
// from the manifest's, leaving no file of that layer.
func TestDerivedLayers(t *testing.T) {
	smallBlocks(t)
	dir, keys, src := partnerSource(t)
	out := filepath.Join(t.TempDir(), "k4.mpk")
	res, err := Export(context.Background(), src, keys, ExportOptions{Out: out, Exported: Machine{Commit: "test"}, DeriveBits: -1})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range res.Manifest.Layers {
		if want := l.Key == "4-3"; l.Derived != want || (res.Packed[i] == 0) != want {
			t.Errorf("layer %s: derived %v, %d bytes of blocks; want derived %v, and blocks only when stored", l.Key, l.Derived, res.Packed[i], want)
		}
	}
	all := filepath.Join(t.TempDir(), "all.mpk")
	stored, err := Export(context.Background(), src, keys, ExportOptions{Out: all, Exported: Machine{Commit: "test"}, StoreAll: true})
	if err != nil {
		t.Fatal(err)
	}
	if stored.Bytes <= res.Bytes {
		t.Errorf("the package storing every layer has %d bytes, the one deriving 4-3 %d", stored.Bytes, res.Bytes)
	}

	into := t.TempDir()
	_, err = Import(context.Background(), into, out, ImportOptions{ClaimName: testClaim})
	if err == nil || !strings.Contains(err.Error(), "layer 4-3 is to be computed") {
		t.Errorf("import without a deriver: got %v, want a refusal naming 4-3", err)
	}
	if names, _ := filepath.Glob(filepath.Join(into, "k4", "*")); len(names) > 0 {
		t.Errorf("the refused import left %v", names)
	}

	c := &copier{src: src}
	if _, err := Import(context.Background(), into, out, ImportOptions{ClaimName: testClaim, Derive: c.derive}); err != nil {
		t.Fatal(err)
	}
	if len(c.asked) != 1 || c.asked[0] != (layers.Key{W: 4, B: 3}) || len(c.absent) > 0 {
		t.Errorf("the deriver was asked for %v, its children's layers %v missing; want 4-3 once, with 3-4 in place", c.asked, c.absent)
	}
	sameFolders(t, dir, into)

	bad := &copier{src: src, change: true}
	into = t.TempDir()
	_, err = Import(context.Background(), into, out, ImportOptions{ClaimName: testClaim, Derive: bad.derive})
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "layer 4-3 as derived has checksum") {
		t.Errorf("a derived body that differs: got %v, want ErrChecksum naming 4-3 as derived", err)
	}
	if left, _ := filepath.Glob(filepath.Join(into, "k4", "m4-3*")); len(left) > 0 {
		t.Errorf("the refused layer left %v", left)
	}

	failing := func(context.Context, *layers.DB, layers.Key, int, []byte, *atomic.Uint64) error {
		return errors.New("no memory")
	}
	_, err = Import(context.Background(), t.TempDir(), out, ImportOptions{ClaimName: testClaim, Derive: failing})
	if err == nil || !strings.Contains(err.Error(), "layer 4-3, derived from the layers before it: no memory") {
		t.Errorf("a deriver that fails: got %v", err)
	}
}

// TestDerivedRefused: a manifest that leaves out a layer import cannot
// compute (the first of a pair, whose partner comes after it; a layer not
// verified, or whose partner is not) is refused before anything is
// installed.
func TestDerivedRefused(t *testing.T) {
	testenv.SlowUnderRace(t, "exports the 4-stone layers and imports the package once per refusal; TestDerivedLayers imports a derived layer under it")
	smallBlocks(t)
	_, keys, src := partnerSource(t)
	out := filepath.Join(t.TempDir(), "k4.mpk")
	if _, err := Export(context.Background(), src, keys, ExportOptions{Out: out, Exported: Machine{Commit: "test"}, DeriveBits: -1}); err != nil {
		t.Fatal(err)
	}
	withManifest := manifestEditor(t, out)
	for _, tc := range []struct {
		name string
		edit func(*Manifest)
		text string
	}{
		{"the first of a pair", func(m *Manifest) { m.Layers[0].Derived = true }, "layer 3-4 is to be derived from the layers before it, which needs before it: 4-3"},
		{"a layer not verified", func(m *Manifest) { m.Layers[1].Verified = "" }, "layer 4-3 is to be derived from the layers before it, which needs a verified layer"},
		{"a layer that is its own partner", func(m *Manifest) { m.Layers[2].Derived = true }, "layer 4-4 is to be derived from the layers before it, which needs before it: 4-4"},
		{"a layer whose partner is not verified", func(m *Manifest) { m.Layers[0].Verified = "" }, "layer 4-3 is to be derived from the layers before it, which needs verified before it: 3-4"},
	} {
		path := filepath.Join(t.TempDir(), "bad.mpk")
		os.WriteFile(path, withManifest(tc.edit), 0o644)
		to := t.TempDir()
		_, err := Import(context.Background(), to, path, ImportOptions{ClaimName: testClaim, Derive: (&copier{src: src}).derive})
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: got %v; want ErrFormat saying %q", tc.name, err, tc.text)
		}
		if names, _ := filepath.Glob(filepath.Join(to, "k4", "*")); len(names) > 0 {
			t.Errorf("%s: the refused import left %v", tc.name, names)
		}
	}
}

// TestDeriveBits: export estimates what 4-3 would take stored, within a
// quarter of what it takes in a package that stores it, and leaves it out
// when the estimate reaches DeriveBits, not when it falls short.
func TestDeriveBits(t *testing.T) {
	testenv.SlowUnderRace(t, "four exports of the 4-stone layers; TestDerivedLayers exports and derives concurrently under it")
	smallBlocks(t)
	_, keys, src := partnerSource(t)
	export := func(opts ExportOptions) *ExportResult {
		t.Helper()
		opts.Out, opts.Exported = filepath.Join(t.TempDir(), "k4.mpk"), Machine{Commit: "test"}
		res, err := Export(context.Background(), src, keys, opts)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	all := export(ExportOptions{StoreAll: true})
	stored := 8 * float64(all.Packed[1]) / float64(all.Manifest.Layers[1].Slots)
	probe := export(ExportOptions{DeriveBits: 1000})
	est := probe.Estimated[1]
	if est < 0.75*stored || est > 1.25*stored || probe.Estimated[0] != 0 || probe.Estimated[2] != 0 {
		t.Fatalf("estimates %v; want 4-3's within a quarter of the %.3f bits per slot it takes stored, none for the others", probe.Estimated, stored)
	}
	if probe.Manifest.Layers[1].Derived {
		t.Errorf("4-3 left out at %g bits per slot, estimated %.3f", 1000.0, est)
	}
	if res := export(ExportOptions{DeriveBits: est + 0.001}); res.Manifest.Layers[1].Derived {
		t.Errorf("4-3 left out at %.3f bits per slot, estimated %.3f", est+0.001, est)
	}
	if res := export(ExportOptions{DeriveBits: est - 0.001}); !res.Manifest.Layers[1].Derived {
		t.Errorf("4-3 stored at %.3f bits per slot, estimated %.3f", est-0.001, est)
	}
}
