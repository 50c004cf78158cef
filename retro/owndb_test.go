package retro

import (
	"context"
	"fmt"
	"testing"

	"muehle/layers"
	"muehle/layers/layerstest"
	"muehle/muehle"
	"muehle/muehle/testenv"
)

// TestSolveOwnDBGivesBackFlatFiles solves the moving layers of the
// 4-stone game kept compressed, as `muehlectl solve --compress` does
// (OwnDB): the flat file of each layer, replaced by its compressed file,
// is unmapped after its unit, so its disk space is free again while the
// run goes on; the database closed only at the end holds none. Without
// OwnDB, as the window's Database tab solves while its players read the
// DB, the same holds: the solver borrows the layers it reads
// (layers.DB.Borrow), and a file no reader holds is given up at once.
func TestSolveOwnDBGivesBackFlatFiles(t *testing.T) {
	testenv.SlowUnderRace(t, "solves the 4-stone game's moving layers twice, compressed")
	for _, own := range []bool{true, false} {
		t.Run(fmt.Sprintf("OwnDB=%v", own), func(t *testing.T) {
			dir := t.TempDir()
			db, err := layers.OpenDB(dir, muehle.Standard.With(4))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			units := 0
			opts := SolveOptions{MaxStones: 8, Workers: 1, Compress: true, OwnDB: own, Progress: func(p Progress) {
				if p.Phase == PhaseDone {
					units++
				}
			}}
			if err := Solve(context.Background(), db, opts); err != nil {
				t.Fatal(err)
			}
			if units == 0 {
				t.Fatal("no unit done")
			}
			for _, k := range layers.MovingLayers(4) {
				if !db.Compressed(k) {
					t.Errorf("layer %s not compressed", k)
				}
			}
			if names := layerstest.DeletedMappings(t, dir); len(names) > 0 {
				t.Errorf("after the run, before Close: %d deleted files still mapped, want none: %v", len(names), names)
			}
		})
	}
}
