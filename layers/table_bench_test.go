package layers

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkBuildTable builds the group-B table (target: at most 5 s).
func BenchmarkBuildTable(b *testing.B) {
	for b.Loop() {
		t, err := buildTable()
		if err != nil {
			b.Fatal(err)
		}
		t.release()
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/build")
}

// BenchmarkLoadTable reads and checks the cached group-B table of the
// DefaultIndexer. The first load in a process also pays for fresh memory.
func BenchmarkLoadTable(b *testing.B) {
	testIndexer(b)
	dir, err := os.UserCacheDir()
	if err != nil {
		b.Skip(err)
	}
	path := filepath.Join(dir, "muehle", TableFile)
	for b.Loop() {
		t, err := loadTable(path)
		if err != nil {
			b.Skip(err)
		}
		t.release()
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/load")
}
