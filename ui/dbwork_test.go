package ui

import (
	"strings"
	"testing"
	"time"

	"muehle/retro"
)

func TestComputeProgressAndEstimate(t *testing.T) {
	e := NewEngines(t.TempDir())
	db, err := e.database()
	if err != nil {
		t.Fatal(err)
	}
	opts := retro.SolveOptions{MaxStones: 6} // with verification: all four phases
	w, total := weights(db, opts)
	if len(w) != 1 || total != db.Indexer().Layer(layersKey(t, "3-3")).Size() {
		t.Fatalf("weights of the 3-3 run: got %v (sum %d), want the size of layer 3-3", w, total)
	}
	var seen []DBProgress
	if err := e.solve(t.Context(), db, opts, func(p DBProgress) { seen = append(seen, p) }); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Fatal("no progress reported")
	}
	last := 0.0
	for _, p := range seen {
		if p.Overall < last-1e-9 || p.Overall > 1 {
			t.Fatalf("overall progress went from %v to %v", last, p.Overall)
		}
		last = p.Overall
		if !strings.Contains(p.Text, "left") || !strings.Contains(p.Text, "part 1 of 1: layer 3-3") {
			t.Errorf("progress text %q does not say the whole and the part", p.Text)
		}
	}
	if last < 0.99 {
		t.Errorf("overall progress at the end: got %v, want 1", last)
	}
	if _, busy := e.computing(); busy {
		t.Errorf("a layer is still marked as computing after the run")
	}
	sum := e.Summary()
	for _, want := range []string{"Rows: stones of\nthe side to move", "# complete   · missing\n* computing  ! damaged", "  3   #"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	// The small endgames still to do: 3-4 with 4-3, with the speed just
	// measured giving a time.
	e.SetRate(1e6)
	est, err := e.Estimate(true)
	if err != nil {
		t.Fatal(err)
	}
	want := db.Indexer().Layer(layersKey(t, "3-4")).Size() + db.Indexer().Layer(layersKey(t, "4-3")).Size()
	if est.Units != 1 || est.Positions != want || est.Bytes != want {
		t.Errorf("estimate: got %+v, want 1 unit of %d positions and bytes", est, want)
	}
	if got, wantT := est.Time, time.Duration(float64(want)/1e6*float64(time.Second)); got != wantT {
		t.Errorf("estimated time: got %v, want %v", got, wantT)
	}
}

func TestEstimateWords(t *testing.T) {
	tests := []struct {
		est  DBEstimate
		want string
	}{
		{DBEstimate{}, "Every layer asked for is already computed."},
		{DBEstimate{Units: 2, Positions: 1234567, Bytes: 1234567},
			"2 parts to compute: 1,234,567 positions, 1.2 MB on disk. The time is estimated once the first layer is done here."},
		{DBEstimate{Units: 1, Positions: 5e9, Bytes: 5e9, Time: 90 * time.Minute},
			"1 parts to compute: 5,000,000,000 positions, 5.0 GB on disk, about 1.5 hours on this machine (measured in the last computation)."},
	}
	for _, tt := range tests {
		if got := tt.est.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
