package dbservice

import (
	"errors"
	"strings"
	"testing"
	"time"

	"muehle/layers"
	"muehle/retro"
)

func TestEstimateWords(t *testing.T) {
	tests := []struct {
		est  Estimate
		want string
	}{
		{Estimate{}, "Every layer asked for is already computed."},
		{Estimate{Units: 2, Positions: 1234567, Bytes: 1234823, TempBytes: 9876536, Time: 90 * time.Minute, Cores: 8},
			"2 parts to compute: 1,234,567 positions.\nDisk: 1.2 MB for the layers, and up to 9.9 MB more\nwhile a part is computed.\n" +
				"Time: about 1.5 hours on this machine's 8 cores. A rough guess:\n" +
				"the times measured on a 2-core machine (partly beside other work),\n" +
				"scaled by the cores; it can be 2 to 4 times off either way. After\n" +
				"the first computation here, the speed measured then is used."},
		{Estimate{Units: 1, Positions: 5e9, Bytes: 5e9, Time: 50 * time.Hour, Cores: 2, Speed: 1.25},
			"1 parts to compute: 5,000,000,000 positions.\nDisk: 5.0 GB for the layers.\n" +
				"Time: about 2.1 days on this machine, at the speed measured in the\n" +
				"last computation here: 1.25× the model's, which says 2.6 days.\n" +
				"Other programs running at the same time slow it down."},
		{Estimate{Units: 73, Positions: 77e6, Bytes: 77e6, Time: 145 * time.Second, Cores: 2, Speed: 0.2, Measured: 73},
			"73 parts to compute: 77,000,000 positions.\nDisk: 77.0 MB for the layers.\n" +
				"Time: about 2 min on this machine, at the speed measured when the\n" +
				"last 73 parts of this folder were computed: 0.20× the model's,\n" +
				"which says 29 s.\nOther programs running at the same time slow it down."},
		{Estimate{Units: 45, Positions: 8e6, Bytes: 8e6, Time: 32 * time.Second, Cores: 2, Load: 18},
			"45 parts to compute: 8,000,000 positions.\nDisk: 8.0 MB for the layers.\n" +
				"Time: about 32 s on this machine's 2 cores, busy now (load 18.0):\n" +
				"the model's 3 s at the share of the cores left. A rough guess: the\n" +
				"model's times are of a 2-core machine; it can be 2 to 4 times off.\n" +
				"After the first computation here, the speed measured then is used."},
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
	got := EstimateTasks(tasks, 4, 0)
	wantTime := time.Duration(retro.WallSeconds(100+300+1000*retro.VerifyShare, 4) * float64(time.Second))
	if got.Units != 3 || got.Positions != 1500 || got.Bytes != 1500+3*layers.HeaderSize || got.TempBytes != 8000 || got.Time != wantTime {
		t.Errorf("estimate: got %+v, want 3 units, 1500 positions, %d bytes, 8000 temporary, %v", got, 1500+3*layers.HeaderSize, wantTime)
	}
	if got := EstimateTasks(tasks, 4, 0.5); got.Time != 2*wantTime {
		t.Errorf("estimate at half the model's speed: got %v, want %v", got.Time, 2*wantTime)
	}
	// Kept compressed: the layers at the compressed share, and the
	// largest part's flat files (the first task's) on top of the largest
	// work lists and the layers kept flat for their placement parents
	// while it is computed; once only.
	z := got.KeptCompressed(500).KeptCompressed(700)
	flat := float64(got.Bytes)
	wantBytes := uint64(flat * retro.CompressedShare)
	wantTemp := uint64(8000 + 1000 + layers.HeaderSize + 500)
	if !z.Compressed || z.Bytes != wantBytes || z.TempBytes != wantTemp || z.Time != got.Time {
		t.Errorf("kept compressed: got %+v, want %d bytes, %d temporary, %v", z, wantBytes, wantTemp, got.Time)
	}
	if s := z.String(); !strings.Contains(s, "for the layers (kept compressed)") {
		t.Errorf("kept compressed: %q does not say so", s)
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
		if got := Percent(tt.f); got != tt.want {
			t.Errorf("Percent(%v): got %q, want %q", tt.f, got, tt.want)
		}
	}
}

func TestProgressWords(t *testing.T) {
	p := Progress{Unit: "4-8 + 8-4", Phase: "finding wins and losses", Step: 12, Steps: 27, Fraction: 0.434,
		Elapsed: 65*time.Minute + 10*time.Second, PartElapsed: 4*time.Minute + 9*time.Second, Left: 7*time.Hour + 30*time.Minute}
	tests := []struct {
		p           Progress
		lines, redo string
	}{
		{p, "Part 12 of 27: 4-8 + 8-4, finding wins and losses (43 %)\n11 done, 16 to do · 1:05 h elapsed · about 7.5 hours left",
			"keeping 11 finished parts and computing 4-8 + 8-4 again from its start (4:09 min of work lost)."},
		{Progress{Unit: "3-3", Phase: "counting moves", Step: 1, Steps: 1, Left: -1, Elapsed: 3 * time.Second},
			"Part 1 of 1: 3-3, counting moves (0 %)\n0 done, 1 to do · 0:03 min elapsed · time left: measuring",
			"computing 3-3 again from its start (0:00 min of work lost)."},
		{Progress{Unit: "3-4 + 4-3", Phase: "checking 4-3", Step: 2, Steps: 2, Fraction: 1, Left: 0, Verifying: true},
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
	est := Estimate{Units: 3, Bytes: 9e9, TempBytes: 8.4e9}
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
		refuse, warn := est.DiskProblem("/data/muehle", tt.free, tt.ferr)
		if refuse != tt.refuse || warn != tt.warn {
			t.Errorf("DiskProblem(free %d, %v): got %q, %q, want %q, %q", tt.free, tt.ferr, refuse, warn, tt.refuse, tt.warn)
		}
	}
}
