package pack

import (
	"bytes"
	"context"
	"os"
	"testing"

	"muehle/layers"
)

// examplePath is a package checked in: the whole 3-stone game as
// `muehlectl solve --stones 3 --all-phases` computed it and `muehlectl
// export` wrote it (7 layers, 73 KB).
const examplePath = "testdata/k3.mpk"

// TestExamplePackage reads the checked-in package: its manifest (rules,
// layers, the statistics of 3-3 as the solver's own tests know them), its
// blocks, and installs it: every layer verified, as exported.
func TestExamplePackage(t *testing.T) {
	p, err := Open(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m := p.Manifest
	if d := m.Rules.Differences(StandardRules(3)); d != "" || m.Fingerprint != StandardRules(3).Fingerprint() {
		t.Errorf("rules: %s; fingerprint %s, want %s", d, m.Fingerprint, StandardRules(3).Fingerprint())
	}
	if len(m.Layers) != 7 {
		t.Fatalf("got %d layers, want the 7 of the 3-stone game", len(m.Layers))
	}
	// cmd/muehlectl's TestReportsDamage: stats of 3-3 after a solve.
	l := m.Layers[0]
	if l.Key != "3-3" || l.Slots != 183512 || l.Won != 140621 || l.Lost != 28736 || l.Drawn != 269 || l.DeepestWin != 25 || l.DeepestLoss != 26 {
		t.Errorf("layer 1: got %s %d slots %d/%d/%d deepest %d/%d; want 3-3 183512 slots 140621/28736/269 deepest 25/26",
			l.Key, l.Slots, l.Won, l.Lost, l.Drawn, l.DeepestWin, l.DeepestLoss)
	}
	if err := p.Check(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	res, err := p.Import(context.Background(), dir, ImportOptions{ClaimName: testClaim})
	if err != nil {
		t.Fatal(err)
	}
	db, err := layers.OpenDB(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, k := range res.Installed {
		if st, err := db.Check(k); st != layers.StatusVerified {
			t.Errorf("layer %s after the import: %v (%v), want verified", k, st, err)
		}
	}
	if len(res.Installed) != 7 {
		t.Errorf("installed %d layers, want 7", len(res.Installed))
	}
}

// smallPath is a package of three small placement layers of the
// 3-stone game (`muehlectl export --layer p0+3-0+3,p0+3-1+2,p1+2-1+2`),
// the seed of FuzzPackage.
const smallPath = "testdata/k3-small.mpk"

// FuzzPackage reads arbitrary bytes as a package: reading the manifest
// and checking the blocks never panics, and what passes is a package
// whose manifest reads again the same.
func FuzzPackage(f *testing.F) {
	good, err := os.ReadFile(smallPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(good[:preambleSize+100])
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
// lists valid layers of its game in order, each once.
func FuzzManifest(f *testing.F) {
	good, err := os.ReadFile(examplePath)
	if err != nil {
		f.Fatal(err)
	}
	n, _, err := parsePreamble(good)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good[preambleSize : preambleSize+n])
	f.Add([]byte(`{"format":"muehle database package","version":1}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, js []byte) {
		m, err := parseManifest(js)
		if err != nil {
			return
		}
		seen := map[layers.Key]bool{}
		for i := range m.Layers {
			k := m.Key(i)
			if !k.Valid(m.Stones()) || seen[k] {
				t.Errorf("accepted layer %v of the %d-stone game (twice: %v)", k, m.Stones(), seen[k])
			}
			seen[k] = true
		}
	})
}
