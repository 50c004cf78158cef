package layers

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"muehle/layers/layerstest"
	"muehle/muehle"
)

// TestRetiredMappingsNotResident decodes two compressed layers in full,
// again and again, under a memory bound that holds only one, so that the
// DB lets go of each in turn and maps its file anew the next time, and
// replaces a flat layer by its compressed file. The mappings a DB keeps
// until Close for readers that may still hold them must not stay in the
// process's resident memory: a compressed solve that kept them counted
// every layer its units read once per unit in its peak memory (73 GB on a
// machine of 23 GiB) and kept the replaced flat files' pages.
func TestRetiredMappingsNotResident(t *testing.T) {
	db, keys := compressedDB(t, 12)
	flat := keys[2]
	if _, err := db.Layer(flat); err != nil { // mapped flat, then replaced
		t.Fatal(err)
	}
	for _, k := range keys {
		if _, _, _, err := db.Compress(k); err != nil {
			t.Fatal(err)
		}
	}
	db.SetCacheBytes(int64(db.Indexer().Layer(keys[0]).Size()) + 1) // room for one layer decoded
	const rounds = 6
	for range rounds {
		for _, k := range keys[:2] {
			if _, err := db.Layer(k); err != nil {
				t.Fatal(err)
			}
		}
	}
	page := uint64(os.Getpagesize())
	for _, k := range keys {
		kib, n := layerstest.Resident(t, db.Path(k))
		rss := uint64(kib) << 10
		t.Logf("%s: %d mappings, %d bytes resident", k, n, rss)
		fi, err := os.Stat(db.Path(k))
		if err != nil {
			t.Fatal(err)
		}
		// The pages of the compressed file once at most; the mappings are
		// of it and of the flat file it replaced.
		if limit := (uint64(fi.Size()) + page - 1) / page * page; rss > limit {
			t.Errorf("%s: %d bytes of its file resident in %d mappings, want at most the compressed file's pages (%d)", k, rss, n, limit)
		}
	}
}

// TestReleaseRetired replaces a flat layer that the DB has mapped by its
// compressed file: the flat file stays mapped, deleted, until
// ReleaseRetired unmaps it, and the layer reads on from its new file.
func TestReleaseRetired(t *testing.T) {
	db, keys := compressedDB(t, 12)
	k := keys[0]
	want := layerValues(t, db, k) // maps the flat file
	if _, _, done, err := db.Compress(k); err != nil || !done {
		t.Fatalf("Compress(%s): done %v, %v", k, done, err)
	}
	if _, n := layerstest.Resident(t, db.Path(k)); n != 1 {
		t.Errorf("after compressing %s: %d mappings of its path, want 1 (the flat file, deleted)", k, n)
	}
	if err := db.ReleaseRetired(); err != nil {
		t.Fatal(err)
	}
	if _, n := layerstest.Resident(t, db.Path(k)); n != 0 {
		t.Errorf("after ReleaseRetired: %d mappings of %s, want none", n, db.Path(k))
	}
	got := layerValues(t, db, k)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s slot %d: %v after compressing, %v before", k, i, got[i], want[i])
		}
	}
}

// TestRetiredGivenUpWhileProbed replaces the layers of a database, again
// and again (a flat file by its compressed one, the compressed one by a
// flat one), while two goroutines probe them: every probe gives the
// layer's value, and each file replaced is given up at once, not kept
// mapped until Close, unless a reader holds it: a File that Borrow
// returned keeps it until released, one that Layer returned until
// ReleaseRetired.
func TestRetiredGivenUpWhileProbed(t *testing.T) {
	db, keys := compressedDB(t, 12)
	type probe struct {
		p muehle.Position
		v Value
	}
	var probes []probe
	bodies := map[Key][]byte{}
	for _, k := range keys {
		f, release, err := db.Borrow(k)
		if err != nil {
			t.Fatal(err)
		}
		if f.Dense() == nil {
			bodies[k] = append([]byte(nil), f.Body()...)
		}
		l := db.Indexer().Layer(k)
		for i := uint64(0); i < l.Size(); i += 13 {
			if p, ok := l.Position(i); ok && f.Value(i) != Unused {
				p.Game = db.Variant().Game
				probes = append(probes, probe{p, f.Value(i)})
			}
		}
		release()
	}
	again := probedAgain.Load()
	stop := layerstest.Hammer(2, func(g, n int) error {
		pr := probes[(n*7919+g*31)%len(probes)]
		if v, err := db.Probe(pr.p); err != nil || v != pr.v {
			return fmt.Errorf("probe %v: %v, %v; want %v", pr.p, v, err, pr.v)
		}
		return nil
	})
	deleted := func(when string) {
		t.Helper()
		if names := layerstest.DeletedMappings(t, db.Dir()); len(names) > 0 {
			t.Errorf("%s: deleted files still mapped: %v", when, names)
		}
	}
	for round := range 4 {
		for _, k := range keys {
			if _, _, _, err := db.Compress(k); err != nil {
				t.Fatal(err)
			}
			deleted(fmt.Sprintf("round %d: %s compressed", round, k))
			if body, ok := bodies[k]; ok {
				if err := db.Write(k, body); err != nil { // the compressed file replaced, flat again
					t.Fatal(err)
				}
				if err := db.MarkVerified(k); err != nil {
					t.Fatal(err)
				}
				deleted(fmt.Sprintf("round %d: %s written flat again", round, k))
			}
			time.Sleep(5 * time.Millisecond) // probes open the new file
		}
	}
	errs, calls := stop()
	for _, err := range errs {
		t.Error(err)
	}
	t.Logf("%d probes, %d of them read a retired file and probed again", calls, probedAgain.Load()-again)

	// Held: by Borrow until released, by Layer until ReleaseRetired.
	k := keys[0]
	_, release, err := db.Borrow(k)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Layer(keys[1]); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys[:2] {
		if _, _, _, err := db.Compress(k); err != nil {
			t.Fatal(err)
		}
	}
	if names := layerstest.DeletedMappings(t, db.Dir()); len(names) != 2 {
		t.Errorf("layers replaced, one borrowed, one from Layer: deleted files mapped %v, want both", names)
	}
	release()
	if names := layerstest.DeletedMappings(t, db.Dir()); len(names) != 1 || !strings.Contains(names[0], keys[1].String()) {
		t.Errorf("after release: deleted files mapped %v, want only %s's (from Layer)", names, keys[1])
	}
	if err := db.ReleaseRetired(); err != nil {
		t.Fatal(err)
	}
	deleted("after ReleaseRetired")
}
