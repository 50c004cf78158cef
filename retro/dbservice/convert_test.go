package dbservice

import (
	"strings"
	"testing"
	"time"

	"muehle/layers"
)

func TestConvertWords(t *testing.T) {
	p := Progress{Converting: true, Unit: "p6+1-8+0", Phase: "converting", Step: 200, Steps: 546, Overall: 0.4,
		Elapsed: 4*time.Minute + 10*time.Second, Left: 6 * time.Minute}
	if got, want := p.Lines(), "Converting layer 200 of 546: p6+1-8+0\n199 done, 347 to do · 4:10 min elapsed · about 6 min left"; got != want {
		t.Errorf("progress:\ngot  %q\nwant %q", got, want)
	}
	// The 9-stone game in the older format: 8.3 GiB of moving layers,
	// 16.7 GiB of placement layers (docs/figures.md).
	o := Old{Layers: 546, Bytes: 25 << 30}
	if got, want := Rough(o.Time()), "11 min"; got != want {
		t.Errorf("time to convert the 9-stone game: got %s, want %s", got, want)
	}
	if got := (Old{Layers: 1, Bytes: 1e6}).Words(); !strings.HasPrefix(got, "This folder holds 1 layer in the older file format") ||
		!strings.Contains(got, "takes about 1 s (it reads and writes their 1.0 MB once).") {
		t.Errorf("one small layer: %q", got)
	}
}

// TestConversionProgress follows a conversion of two layers, 100 and 300
// MB: within a layer the share grows at the speed so far (convertRate
// before any layer is done), and the time left follows it.
func TestConversionProgress(t *testing.T) {
	a, b := layers.Moving(3, 3), layers.Moving(3, 4)
	t0 := time.Unix(1e9, 0)
	c := conversion{start: t0, sizes: map[layers.Key]uint64{a: 100e6, b: 300e6}, total: 400e6}
	if _, ok := c.at(t0); ok {
		t.Errorf("progress before the first layer")
	}
	for _, tc := range []struct {
		next    bool
		k       layers.Key
		at      time.Duration
		overall float64
		left    time.Duration
	}{
		{true, a, 0, 0, 10 * time.Second},                             // 400 MB at 40 MB/s
		{false, a, time.Second, 0.1, 9 * time.Second},                 // 40 MB of a
		{false, a, 10 * time.Second, 0.2375, 7625 * time.Millisecond}, // 95 % of a at most
		{true, b, 2 * time.Second, 0.25, 6 * time.Second},             // a took 2 s: 50 MB/s
		{false, b, 4 * time.Second, 0.5, 4 * time.Second},             // 100 MB of b
	} {
		var pr Progress
		if tc.next {
			pr, _ = c.next(tc.k, map[layers.Key]int{a: 0, b: 1}[tc.k], 2, t0.Add(tc.at))
		} else {
			pr, _ = c.at(t0.Add(tc.at))
		}
		if pr.Unit != tc.k.String() || pr.Elapsed != tc.at || abs(pr.Overall-tc.overall) > 1e-9 || abs(pr.Left.Seconds()-tc.left.Seconds()) > 1e-6 {
			t.Errorf("at %v: got %s, %v elapsed, overall %v, %v left; want %s, overall %v, %v left",
				tc.at, pr.Unit, pr.Elapsed, pr.Overall, pr.Left, tc.k, tc.overall, tc.left)
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }
