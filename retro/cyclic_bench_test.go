package retro

import (
	"encoding/binary"
	"path/filepath"
	"testing"
)

// BenchmarkCyclic writes and reads 8-byte records through a cyclic array of
// 1M records in blocks of 64K records, half a million at a time.
func BenchmarkCyclic(b *testing.B) {
	q, err := createCyclic(filepath.Join(b.TempDir(), "q"), 8, 1<<20, 1<<16)
	if err != nil {
		b.Fatal(err)
	}
	defer q.Close()
	var rec [8]byte
	n := 0
	for b.Loop() {
		for i := range 1 << 19 {
			binary.LittleEndian.PutUint64(rec[:], uint64(i))
			if err := q.Write(rec[:]); err != nil {
				b.Fatal(err)
			}
		}
		for range 1 << 19 {
			if ok, err := q.Read(rec[:]); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
		n += 1 << 19
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(8*2*n)/b.Elapsed().Seconds()/1e6, "MB/s")
}
