package pack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// examplePath is a package checked in: the whole 3-stone game as
// `muehlectl solve --stones 3 --all-phases` computed it and `muehlectl
// export` wrote it (7 layers, package format 3, its placement layers
// dense: the moving layer a zstd frame, smaller here than context
// streams, each placement layer a block without its rank directory).
// examplePathV2 is the same game as the program of package format 2 wrote
// it (the layers the same, the coder of a block not in its header).
// examplePathV1 is the same game as the program of package format 1 wrote
// it: its layer files of the format before (layers.OldVersion), the
// placement layers of one byte per slot with the unreachable classes
// Unused, with their reach files.
const (
	examplePath   = "testdata/k3.mpk"
	examplePathV2 = "testdata/k3-v2.mpk"
	examplePathV1 = "testdata/k3-v1.mpk"
)

// TestExamplePackage reads the checked-in packages, of formats 3, 2 and
// 1: the manifest (rules, layer format, layouts, the statistics of
// 3-3 as the solver's own tests know them), the blocks, and installs
// each. The layers of packages 3 and 2 are verified, as exported, each of
// the layout the manifest says, and the same. Those of format 1 are installed as they were
// (ImportResult.Old; their headers the manifest's, their reach files
// beside them) and, rewritten by layers.DB.ConvertOld (dense placement
// layers, the folder being of the reachable sweep), are verified too and
// hold the values of the package of format 3.
func TestExamplePackage(t *testing.T) {
	converted := map[layers.Key][]byte{} // the bodies installed from examplePath
	for _, tc := range []struct {
		path        string
		version     int
		layerFormat int
	}{
		{examplePath, 3, 2},
		{examplePathV2, 2, 2},
		{examplePathV1, 1, 1},
	} {
		p, err := Open(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		m := p.Manifest
		if d := m.Rules.Differences(RulesOf(muehle.Standard.With(3))); d != "" || m.Fingerprint != RulesOf(muehle.Standard.With(3)).Fingerprint() {
			t.Errorf("%s: rules: %s; fingerprint %s, want %s", tc.path, d, m.Fingerprint, RulesOf(muehle.Standard.With(3)).Fingerprint())
		}
		if len(m.Layers) != 7 {
			t.Fatalf("%s: got %d layers, want the 7 of the 3-stone game", tc.path, len(m.Layers))
		}
		if m.Version != tc.version || m.LayerFormat != tc.layerFormat {
			t.Errorf("%s: package format %d, layer format %d; want %d and %d", tc.path, m.Version, m.LayerFormat, tc.version, tc.layerFormat)
		}
		// cmd/muehlectl's TestReportsDamage: stats of 3-3 after a solve.
		l := m.Layers[0]
		if l.Key != "3-3" || l.Slots != 183512 || l.Won != 140621 || l.Lost != 28736 || l.Drawn != 269 || l.DeepestWin != 25 || l.DeepestLoss != 26 {
			t.Errorf("%s: layer 1: got %s %d slots %d/%d/%d deepest %d/%d; want 3-3 183512 slots 140621/28736/269 deepest 25/26",
				tc.path, l.Key, l.Slots, l.Won, l.Lost, l.Drawn, l.DeepestWin, l.DeepestLoss)
		}
		if err := p.Check(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		res, err := p.Import(context.Background(), dir, ImportOptions{ClaimName: testClaim})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Installed) != 7 {
			t.Errorf("%s: installed %d layers, want 7", tc.path, len(res.Installed))
		}
		db, err := layers.OpenDB(dir, muehle.Standard.With(3))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if tc.version == 1 {
			if len(res.Old) != 7 {
				t.Errorf("%s: %d layers of the format before, want 7", tc.path, len(res.Old))
			}
			for i, k := range res.Installed {
				if h, err := db.OldHeader(k); err != nil || h != m.Layers[i].header(muehle.Standard.With(3)) {
					t.Errorf("%s: layer %s installed: %+v (%v), want the old header %+v", tc.path, k, h, err, m.Layers[i].header(muehle.Standard.With(3)))
				}
				if _, err := os.Stat(db.ReachPath(k)); err != nil && !k.IsMoving() {
					t.Errorf("%s: layer %s installed without its reach file: %v", tc.path, k, err)
				}
				if ok, err := db.ConvertOld(k, !k.IsMoving()); !ok || err != nil {
					t.Fatalf("%s: converting %s: %v, %v", tc.path, k, ok, err)
				}
			}
		} else if len(res.Old) != 0 {
			t.Errorf("%s: layers of the format before: %v, want none", tc.path, res.Old)
		}
		dense := 0
		for _, k := range res.Installed {
			if st, err := db.Check(k); st != layers.StatusVerified {
				t.Errorf("%s: layer %s after the import: %v (%v), want verified", tc.path, k, st, err)
			}
			f, err := db.Layer(k)
			if err != nil {
				t.Fatal(err)
			}
			if f.Header().Dense() {
				dense++
			}
			if tc.version == 3 {
				converted[k] = bytes.Clone(f.Body())
			} else if !bytes.Equal(f.Body(), converted[k]) {
				t.Errorf("%s: layer %s converted: its body is not that of %s", tc.path, k, examplePath)
			}
		}
		if dense != 6 {
			t.Errorf("%s: %d dense layers, want the 6 placement layers", tc.path, dense)
		}
	}
}

// exampleDerivedPath is a package of format 4 checked in: the moving
// layers of the 4-stone game as `muehlectl solve --stones 4` computed them
// and `muehlectl export --derive-bits 0` wrote them, 4-3 left out (the
// second of its pair). cmd/muehlectl's TestImportExampleDerived installs
// it, computing 4-3, and verifies the copy.
const exampleDerivedPath = "testdata/k4-moving.mpk"

// TestExampleDerived reads the checked-in package of format 4: its
// manifest leaves out 4-3 alone, its blocks check, and an import installs
// the layers before 4-3 and then asks for 4-3 from the deriver, and only
// for it.
func TestExampleDerived(t *testing.T) {
	p, err := Open(exampleDerivedPath)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m := p.Manifest
	var keys []string
	for _, l := range m.Layers {
		keys = append(keys, fmt.Sprintf("%s:%v", l.Key, l.Derived))
	}
	if m.Version != 4 || m.Variant() != muehle.Standard.With(4) || strings.Join(keys, " ") != "3-3:false 3-4:false 4-3:true 4-4:false" {
		t.Fatalf("package format %d of %s, layers %v; want format 4 of the 4-stone game, 3-3, 3-4, 4-3 (left out), 4-4", m.Version, m.Variant().Name(), keys)
	}
	if err := p.Check(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var asked []layers.Key
	stop := errors.New("stop here")
	dir := t.TempDir()
	res, err := p.Import(context.Background(), dir, ImportOptions{ClaimName: testClaim,
		Derive: func(_ context.Context, db *layers.DB, k layers.Key, _ int, _ []byte, _ *atomic.Uint64) error {
			asked = append(asked, k)
			return stop
		}})
	if !errors.Is(err, stop) || len(asked) != 1 || asked[0] != layers.Moving(4, 3) {
		t.Fatalf("import: %v, the deriver asked for %v; want it asked for 4-3 alone, and its error", err, asked)
	}
	if got := fmt.Sprint(res.Installed); got != "[3-3 3-4]" {
		t.Errorf("installed before 4-3: %s, want [3-3 3-4]", got)
	}
}

// smallPath is a package of three small placement layers of the
// 3-stone game (`muehlectl export --layer p0+3-0+3,p0+3-1+2,p1+2-1+2`),
// dense; smallPathV1 the same of package format 1: the seeds of
// FuzzPackage.
const (
	smallPath   = "testdata/k3-small.mpk"
	smallPathV1 = "testdata/k3-small-v1.mpk"
)

// FuzzPackage reads arbitrary bytes as a package: reading the manifest
// and checking the blocks never panics, and what passes is a package
// whose manifest reads again the same.
func FuzzPackage(f *testing.F) {
	for _, path := range []string{smallPath, smallPathV1} {
		good, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(good)
		f.Add(good[:len(good)/2])
		f.Add(good[:preambleSize+100])
	}
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := newPackage(bytes.NewReader(data), int64(len(data)), "fuzz")
		if err != nil {
			return
		}
		if err := p.Check(context.Background(), nil); err != nil {
			return
		}
		js, err := jsonMarshal(p.Manifest)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parseManifest(js); err != nil {
			t.Errorf("a manifest read once does not read again: %v", err)
		}
	})
}

// FuzzManifest parses arbitrary manifests: no panic, and an accepted one
// lists valid layers of its game in order, each once, each of a known
// layout (dense only in the format of today's layer files), only a dense
// one with a stored count, never above its slots.
func FuzzManifest(f *testing.F) {
	for _, path := range []string{examplePath, examplePathV1, exampleDerivedPath} {
		good, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		_, n, _, err := parsePreamble(good)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(good[preambleSize : preambleSize+n])
	}
	f.Add([]byte(`{"format":"muehle database package","version":1}`))
	f.Add([]byte(`{"format":"muehle database package","version":2}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, js []byte) {
		m, err := parseManifest(js)
		if err != nil {
			return
		}
		seen := map[layers.Key]bool{}
		for i := range m.Layers {
			k := m.Key(i)
			if !k.Valid(m.Variant().Stones) || seen[k] {
				t.Errorf("accepted layer %v of %s (twice: %v)", k, m.Variant().Name(), seen[k])
			}
			seen[k] = true
			if m.Layers[i].Derived && !derivable(m, i) {
				t.Errorf("accepted layer %v, left out, which cannot be derived: %s", k, whyNotDerivable(m, i))
			}
			if l := &m.Layers[i]; l.Stored > l.Slots || !l.Dense() && (l.Stored != 0 || l.Layout != 0) || l.Dense() && l.Old() || l.version != m.LayerFormat {
				t.Errorf("accepted layer %v of format %d (package's %d), layout %d, %d slots storing %d", k, l.version, m.LayerFormat, l.Layout, l.Slots, l.Stored)
			}
		}
	})
}
