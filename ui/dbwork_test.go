package ui

import (
	"os"
	"strings"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

func TestComputeProgressAndEstimate(t *testing.T) {
	e := NewEngines(t.TempDir())
	db, err := e.database()
	if err != nil {
		t.Fatal(err)
	}
	opts := retro.SolveOptions{MaxStones: 6} // with verification: all four phases
	var seen []DBProgress
	if err := e.solve(t.Context(), db, opts, func(p DBProgress) { seen = append(seen, p) }); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Fatal("no progress reported")
	}
	last, part := 0.0, 0.0
	for _, p := range seen {
		if p.Overall < last-1e-9 || p.Overall > 1 || p.Part < part-1e-9 || p.Part > 1 {
			t.Fatalf("progress went back or past the end: overall %v to %v, part %v to %v", last, p.Overall, part, p.Part)
		}
		last, part = p.Overall, p.Part
		if l := p.Lines(); !strings.HasPrefix(l, "Part 1 of 1: 3-3, ") || !strings.Contains(l, "0 done, 1 to do · ") {
			t.Errorf("progress lines %q do not say the part and the whole", l)
		}
		if p.Left < 0 {
			t.Errorf("time left unknown at %v: the model gives it from the start", p.Overall)
		}
	}
	if last < 0.99 {
		t.Errorf("overall progress at the end: got %v, want 1", last)
	}
	if _, busy, _ := e.computing(); busy {
		t.Errorf("a layer is still marked as computing after the run")
	}
	if s := e.Speed(); s <= 0 {
		t.Errorf("speed after a run of a second's work: got %v, want the run's (issue 49: the next estimate learns from it)", s)
	}
	sum := e.Summary()
	for _, want := range []string{"Rows: stones of\nthe side to move", "# complete   · missing\n* computing  ! damaged", "  3   #",
		"Moving phase: 1 of 49 layers"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	// The small endgames still to do: 3-4 with 4-3, a pair of flying
	// layers, with the model's time on this machine's cores, kept
	// compressed (lying flat until verified).
	est, err := e.Estimate(true)
	if err != nil {
		t.Fatal(err)
	}
	slots := db.Indexer().Layer(layersKey(t, "3-4")).Size() + db.Indexer().Layer(layersKey(t, "4-3")).Size()
	flat := slots + 2*layers.HeaderSize
	if est.Units != 1 || est.Positions != slots || !est.Compressed || est.Bytes != uint64(float64(flat)*retro.CompressedShare) || est.TempBytes != 8*slots+flat {
		t.Errorf("estimate: got %+v, want 1 unit of %d positions, %d bytes flat kept compressed and %d temporary", est, slots, flat, 8*slots+flat)
	}
	if est.Cores != retro.Workers(0) || est.Time <= 0 || est.Speed <= 0 || est.Measured != 1 {
		t.Errorf("estimate after the run: got %d cores, %v, speed %v of %d parts, want the speed of the 1 part in the folder's solve record on %d cores",
			est.Cores, est.Time, est.Speed, est.Measured, retro.Workers(0))
	}
	// A speed measured elsewhere (a folder without a record): twice the
	// model's halves the time.
	if err := os.Remove(db.RecordPath()); err != nil {
		t.Fatal(err)
	}
	e.SetSpeed(1)
	est, err = e.Estimate(true)
	if err != nil {
		t.Fatal(err)
	}
	e.SetSpeed(2)
	fast, err := e.Estimate(true)
	if err != nil {
		t.Fatal(err)
	}
	if d := fast.Time - est.Time/2; fast.Speed != 2 || d < -time.Millisecond || d > time.Millisecond {
		t.Errorf("estimate at twice the model's speed: got %v, want %v", fast.Time, est.Time/2)
	}
}

func TestPlayerWords(t *testing.T) {
	tests := []struct {
		moving, placement int
		want              []string
	}{
		{0, 0, []string{"Moving phase: no layer yet; it plays alpha-beta there", "Opening: not stored (0 of 497 layers)", "reaches a missing layer"}},
		{3, 0, []string{"Moving phase: 3 of 49 layers", "elsewhere it plays alpha-beta", "reaches a missing layer"}},
		{49, 0, []string{"Moving phase: complete", "for up to 2 s, exact, and plays alpha-beta where that is not enough"}},
		{49, 497, []string{"Moving phase: complete", "Opening: stored; every placement comes from the database"}},
	}
	for _, tt := range tests {
		got := playerWords(muehle.NineMensMorris, tt.moving, 49, tt.placement, 497)
		for _, w := range append(tt.want, "After each alpha-beta move the status line says why.") {
			if !strings.Contains(got, w) {
				t.Errorf("playerWords(%d moving, %d placement) lacks %q:\n%s", tt.moving, tt.placement, w, got)
			}
		}
	}
}
