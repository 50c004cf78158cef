package layers

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// residentOf returns the resident bytes of every mapping of the file at
// path in this process (/proc/self/smaps, "Rss") and the number of those
// mappings; a mapping of the file deleted since counts too.
func residentOf(t *testing.T, path string) (rss uint64, mappings int) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if fs := strings.Fields(line); len(fs) >= 5 && strings.Contains(fs[0], "-") && !strings.HasSuffix(fs[0], ":") {
			name := strings.TrimSuffix(strings.TrimSpace(line[strings.Index(line, fs[4])+len(fs[4]):]), " (deleted)")
			in = name == path
			if in {
				mappings++
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "Rss:"); ok && in {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("smaps: %q: %v", line, err)
			}
			rss += kb << 10
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rss, mappings
}

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
		rss, n := residentOf(t, db.Path(k))
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
	if _, n := residentOf(t, db.Path(k)); n != 1 {
		t.Errorf("after compressing %s: %d mappings of its path, want 1 (the flat file, deleted)", k, n)
	}
	if err := db.ReleaseRetired(); err != nil {
		t.Fatal(err)
	}
	if _, n := residentOf(t, db.Path(k)); n != 0 {
		t.Errorf("after ReleaseRetired: %d mappings of %s, want none", n, db.Path(k))
	}
	got := layerValues(t, db, k)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s slot %d: %v after compressing, %v before", k, i, got[i], want[i])
		}
	}
}
