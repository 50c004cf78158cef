//go:build unix

package layers

import (
	"os"
	"syscall"
	"testing"
	"time"

	"muehle/muehle"
)

// BenchmarkFillWon reads layer MUEHLE_FILL_LAYER (6-6 when unset) of the
// standard game's folder MUEHLE_FILL_DB, compressed in form 2, in full
// through a database opened afresh for each read (DB.Layer: decoded, its
// won depths found by one ply, checked), and reports the processor time
// of each read (cpu-ns/op, all goroutines) and per won slot
// (cpu-ns/won):
//
//	MUEHLE_FILL_DB=/tmp/h51i-db go test -run '^$' -bench FillWon -benchtime 1x -count 3 ./layers/
func BenchmarkFillWon(b *testing.B) {
	dir := os.Getenv("MUEHLE_FILL_DB")
	if dir == "" {
		b.Skip("MUEHLE_FILL_DB names no folder")
	}
	k := Moving(6, 6)
	if s := os.Getenv("MUEHLE_FILL_LAYER"); s != "" {
		var err error
		if k, err = ParseKey(s); err != nil {
			b.Fatal(err)
		}
	}
	var cpu time.Duration
	var won uint64
	for b.Loop() {
		db, err := OpenDB(dir, muehle.NineMensMorris)
		if err != nil {
			b.Fatal(err)
		}
		if db.Form(k) != 2 {
			b.Fatalf("layer %s is not in compressed form 2", k)
		}
		c0 := processTime()
		f, err := db.Layer(k)
		if err != nil {
			b.Fatal(err)
		}
		cpu += processTime() - c0
		won += f.Header().Won
		db.Close()
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(won), "cpu-ns/won")
}

// processTime returns the processor time of the process so far (user and
// system, all threads).
func processTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
