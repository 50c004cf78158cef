package ui

import (
	"errors"
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
	if s := e.Speed(); s != 0 {
		t.Errorf("speed after a run of a second's work: got %v, want none measured (the model stays)", s)
	}
	sum := e.Summary()
	for _, want := range []string{"Rows: stones of\nthe side to move", "# complete   · missing\n* computing  ! damaged", "  3   #",
		"Moving phase: 1 of 49 layers"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	// The small endgames still to do: 3-4 with 4-3, a pair of flying
	// layers, with the model's time on this machine's cores.
	est, err := e.Estimate(true)
	if err != nil {
		t.Fatal(err)
	}
	slots := db.Indexer().Layer(layersKey(t, "3-4")).Size() + db.Indexer().Layer(layersKey(t, "4-3")).Size()
	if est.Units != 1 || est.Positions != slots || est.Bytes != slots+2*layers.HeaderSize || est.TempBytes != 8*slots {
		t.Errorf("estimate: got %+v, want 1 unit of %d positions, %d bytes kept and %d temporary", est, slots, slots+2*layers.HeaderSize, 8*slots)
	}
	if est.Cores != retro.Workers(0) || est.Time <= 0 || est.Speed != 0 {
		t.Errorf("estimate without a measured speed: got %d cores, %v, speed %v, want the model's time on %d cores", est.Cores, est.Time, est.Speed, retro.Workers(0))
	}
	// A speed measured here: twice the model's halves the time.
	e.SetSpeed(2)
	fast, err := e.Estimate(true)
	if err != nil {
		t.Fatal(err)
	}
	if d := fast.Time - est.Time/2; fast.Speed != 2 || d < -time.Millisecond || d > time.Millisecond {
		t.Errorf("estimate at twice the model's speed: got %v, want %v", fast.Time, est.Time/2)
	}
}

func TestEstimateWords(t *testing.T) {
	tests := []struct {
		est  DBEstimate
		want string
	}{
		{DBEstimate{}, "Every layer asked for is already computed."},
		{DBEstimate{Units: 2, Positions: 1234567, Bytes: 1234823, TempBytes: 9876536, Time: 90 * time.Minute, Cores: 8},
			"2 parts to compute: 1,234,567 positions.\nDisk: 1.2 MB for the layers, and up to 9.9 MB more\nwhile a part is computed.\n" +
				"Time: about 1.5 hours on this machine's 8 cores. A rough guess:\n" +
				"the times measured on a 2-core machine (partly beside other work),\n" +
				"scaled by the cores; it can be 2 to 4 times off either way. After\n" +
				"the first long computation here, the speed measured then is used."},
		{DBEstimate{Units: 1, Positions: 5e9, Bytes: 5e9, Time: 50 * time.Hour, Cores: 2, Speed: 1.25},
			"1 parts to compute: 5,000,000,000 positions.\nDisk: 5.0 GB for the layers.\n" +
				"Time: about 2.1 days on this machine, at the speed measured in the\n" +
				"last long computation here: 1.25× the model's, which says 2.6 days.\n" +
				"Other programs running at the same time slow it down."},
	}
	for _, tt := range tests {
		if got := tt.est.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestEstimateSums checks how the estimate adds up tasks: the layers of
// computed tasks, the largest temporary space of one, and the time of
// verifying only as retro.VerifyShare of computing.
func TestEstimateSums(t *testing.T) {
	k := layers.Moving(3, 3)
	tasks := []retro.Task{
		{Unit: retro.Unit{Keys: []layers.Key{k}}, Compute: true, Cost: retro.Cost{CPUSeconds: 100, DiskBytes: 1000 + layers.HeaderSize, TempBytes: 8000}},
		{Unit: retro.Unit{Keys: []layers.Key{k, k}}, Compute: true, Cost: retro.Cost{CPUSeconds: 300, DiskBytes: 500 + 2*layers.HeaderSize, TempBytes: 4000}},
		{Unit: retro.Unit{Keys: []layers.Key{k}}, Verify: []layers.Key{k}, Cost: retro.Cost{CPUSeconds: 1000, DiskBytes: 7777, TempBytes: 99999}},
	}
	got := estimate(tasks, 4, 0)
	wantTime := time.Duration((100 + 300 + 1000*retro.VerifyShare) / 4 * float64(time.Second))
	if got.Units != 3 || got.Positions != 1500 || got.Bytes != 1500+3*layers.HeaderSize || got.TempBytes != 8000 || got.Time != wantTime {
		t.Errorf("estimate: got %+v, want 3 units, 1500 positions, %d bytes, 8000 temporary, %v", got, 1500+3*layers.HeaderSize, wantTime)
	}
	if got := estimate(tasks, 4, 0.5); got.Time != 2*wantTime {
		t.Errorf("estimate at half the model's speed: got %v, want %v", got.Time, 2*wantTime)
	}
}

// TestBarPercent checks the words of the bars: a long computation's
// first minutes are not "0 %", nor its last "100 %".
func TestBarPercent(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want string
	}{
		{0, "0 %"}, {0.0004, "under 0.1 %"}, {0.004, "0.4 %"}, {0.0994, "9.9 %"}, {0.1, "10 %"}, {0.434, "43 %"},
		{0.996, "99 %"}, {1, "100 %"},
	} {
		if got := barPercent(tt.f); got != tt.want {
			t.Errorf("barPercent(%v): got %q, want %q", tt.f, got, tt.want)
		}
	}
}

func TestProgressWords(t *testing.T) {
	p := DBProgress{Unit: "4-8 + 8-4", Phase: "finding wins and losses", Step: 12, Steps: 27, Fraction: 0.434,
		Elapsed: 65*time.Minute + 10*time.Second, PartElapsed: 4*time.Minute + 9*time.Second, Left: 7*time.Hour + 30*time.Minute}
	tests := []struct {
		p           DBProgress
		lines, redo string
	}{
		{p, "Part 12 of 27: 4-8 + 8-4, finding wins and losses (43 %)\n11 done, 16 to do · 1:05 h elapsed · about 7.5 hours left",
			"keeping 11 finished parts and computing 4-8 + 8-4 again from its start (4:09 min of work lost)."},
		{DBProgress{Unit: "3-3", Phase: "counting moves", Step: 1, Steps: 1, Left: -1, Elapsed: 3 * time.Second},
			"Part 1 of 1: 3-3, counting moves (0 %)\n0 done, 1 to do · 0:03 min elapsed · time left: measuring",
			"computing 3-3 again from its start (0:00 min of work lost)."},
		{DBProgress{Unit: "3-4 + 4-3", Phase: "checking 4-3", Step: 2, Steps: 2, Fraction: 1, Left: 0, Verifying: true},
			"Part 2 of 2: 3-4 + 4-3, checking 4-3 (100 %)\n1 done, 1 to do · 0:00 min elapsed · about 1 s left",
			"keeping the finished part and the layers of 3-4 + 4-3, which are written: only their check is redone."},
	}
	for _, tt := range tests {
		if got := tt.p.Lines(); got != tt.lines {
			t.Errorf("Lines: got %q, want %q", got, tt.lines)
		}
		if got := tt.p.RedoWords(); got != tt.redo {
			t.Errorf("RedoWords: got %q, want %q", got, tt.redo)
		}
	}
}

func TestDiskProblem(t *testing.T) {
	est := DBEstimate{Units: 3, Bytes: 9e9, TempBytes: 8.4e9}
	tests := []struct {
		free         uint64
		ferr         error
		refuse, warn string
	}{
		{17.4e9, nil, "", "Free there: 17.4 GB."},
		{17.4e9 - 1, nil, "Not enough disk space in\n/data/muehle\nThe computation needs about 17.4 GB (9.0 GB for the layers and up to 8.4 GB\n" +
			"while a part is computed), and 17.4 GB are free.\nFree some space, or choose another folder (Change folder…).", ""},
		{2e9, nil, "Not enough disk space in\n/data/muehle\nThe computation needs about 17.4 GB (9.0 GB for the layers and up to 8.4 GB\n" +
			"while a part is computed), and 2.0 GB are free.\nFree some space, or choose another folder (Change folder…).", ""},
		{0, errors.New("no statfs"), "", "The free disk space there cannot be measured (no statfs):\nmake sure 17.4 GB are free."},
	}
	for _, tt := range tests {
		refuse, warn := diskProblem("/data/muehle", est, tt.free, tt.ferr)
		if refuse != tt.refuse || warn != tt.warn {
			t.Errorf("diskProblem(free %d, %v): got %q, %q, want %q, %q", tt.free, tt.ferr, refuse, warn, tt.refuse, tt.warn)
		}
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
