package retro

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/layers"
)

// BenchmarkSolveNamedUnit solves the unit MUEHLE_BENCH_UNIT (for example
// m4-8) of the game MUEHLE_BENCH_GAME as `muehlectl solve --compress`
// does: computed, written, verified and compressed, in a copy of the
// folder MUEHLE_BENCH_DB made afresh for each round (the folder holds the
// layers the unit reads, and those their won depths are found from when
// they are compressed in form 2), and then looks at the unit once more as
// the next pass of Solve does (check: DB.Check of its layers). It reports
// the processor time of the unit, of the look after it, and of both:
//
//	MUEHLE_BENCH_DB=/tmp/h51l-m48 MUEHLE_BENCH_GAME=lasker MUEHLE_BENCH_UNIT=m4-8 go test -run '^$' -bench NamedUnit -benchtime 1x ./retro/
//
// Nothing is written to that folder.
func BenchmarkSolveNamedUnit(b *testing.B) {
	src, name := os.Getenv("MUEHLE_BENCH_DB"), os.Getenv("MUEHLE_BENCH_UNIT")
	if src == "" || name == "" {
		b.Skip("MUEHLE_BENCH_DB and MUEHLE_BENCH_UNIT name no folder and unit")
	}
	v := benchVariant(b)
	from, err := layers.OpenDB(src, v)
	if err != nil {
		b.Fatal(err)
	}
	sub := layers.GameDir(src, v)
	from.Close()
	u, err := FindUnit(Units(v, SolveOptions{Placement: true}), name)
	if err != nil {
		b.Fatal(err)
	}
	opts := SolveOptions{Compress: true, OwnDB: true}
	var unitCPU, lookCPU float64
	for b.Loop() {
		b.StopTimer()
		dir := filepath.Join(b.TempDir(), "db")
		if err := os.CopyFS(layers.GameDir(dir, v), os.DirFS(sub)); err != nil {
			b.Fatal(err)
		}
		db, err := layers.OpenDB(dir, v)
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range u.Keys {
			for _, p := range []string{db.Path(k), db.VerifiedPath(k), strings.TrimSuffix(db.Path(k), ".layer") + ".blocks"} {
				os.Remove(p)
			}
		}
		b.StartTimer()
		c0, _ := layers.CPUTime()
		if _, err := SolveUnit(context.Background(), db, name, opts); err != nil {
			b.Fatal(err)
		}
		c1, _ := layers.CPUTime()
		if t := check(db, u, opts); t.Compute || len(t.Verify) > 0 {
			b.Fatalf("unit %s: still to do after solving: %+v", name, t)
		}
		c2, _ := layers.CPUTime()
		b.StopTimer()
		unitCPU += (c1 - c0).Seconds()
		lookCPU += (c2 - c1).Seconds()
		db.Close()
		os.RemoveAll(dir)
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(unitCPU/n, "unit-cpu-s/op")
	b.ReportMetric(lookCPU/n, "look-cpu-s/op")
	b.ReportMetric((unitCPU+lookCPU)/n, "cpu-s/op")
}
