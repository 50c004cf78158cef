package retro

import (
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// TestOldRecordsUnits reads the solve records checked in under testdata
// (layers/record.go reads them) and checks that each line names a unit of
// its game.
func TestOldRecordsUnits(t *testing.T) {
	for _, tc := range []struct {
		file   string
		stones int
	}{
		{"testdata/solve-record-k9-idle-2026-11-24.tsv", 9},
		{"testdata/solve-record-k9.tsv", 9},
		{"testdata/solve-record-k5.tsv", 5},
	} {
		recs, err := layers.ReadRecordFile(tc.file)
		if err != nil || len(recs) == 0 {
			t.Fatalf("%s: got %d records, %v", tc.file, len(recs), err)
		}
		units := Units(muehle.Standard.With(tc.stones), SolveOptions{Placement: true})
		for _, r := range recs {
			if _, err := FindUnit(units, string(r.Unit)); err != nil {
				t.Errorf("%s: unit %q: %v", tc.file, r.Unit, err)
			}
		}
	}
}
