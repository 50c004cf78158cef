package dbservice

import (
	"math"
	"testing"
	"time"

	"muehle/layers"
	"muehle/retro"
)

// TestMeter follows the time left of a run on 2 cores of 100 processor
// seconds of the model: at the start the model's 100/(2·CoreUse) s at the
// speed the run began with, after measureAfter at the speed the run
// measures.
func TestMeter(t *testing.T) {
	k := layers.Moving(3, 3)
	p := retro.Progress{Unit: "m3-3", Layer: k, Step: 1, Steps: 2, Phase: retro.PhaseCount, Total: 10, WorkTotal: 100}
	m := NewMeter(2, 0.5)
	want := time.Duration(retro.WallSeconds(100, 2) / 0.5 * float64(time.Second))
	if got := m.At(p); got.Left-want > time.Millisecond || want-got.Left > time.Millisecond || got.Overall != 0 {
		t.Errorf("at the start at half the model's speed: got %v left, overall %v; want %v, 0", got.Left, got.Overall, want)
	}
	// 20 s after the first report, a fifth done: 20/(2·CoreUse) model
	// seconds in 20, though the run began at the model's speed; the 80
	// processor seconds left at that speed take 80 s.
	m = NewMeter(2, 0)
	m.start = time.Now().Add(-25 * time.Second) // 5 s of them the plan
	m.first = time.Now().Add(-20 * time.Second)
	p.Done, p.WorkDone = 2, 20
	got := m.At(p)
	if got.Left < 79*time.Second || got.Left > 81*time.Second || got.Overall != 0.2 || got.Fraction != 0.2 || got.Elapsed < 25*time.Second {
		t.Errorf("after 20 s, a fifth done: got %v left, overall %v, fraction %v, %v elapsed; want 1m20s, 0.2, 0.2, 25 s with the plan",
			got.Left, got.Overall, got.Fraction, got.Elapsed)
	}
	if s, want := m.Speed(), retro.WallSeconds(20, 2)/20; s < want-0.01 || s > want+0.01 {
		t.Errorf("speed measured: got %v, want %.3f", s, want)
	}
}

// TestMeterShare follows a run that gets a small share of the
// processors: 2 cores, 100 processor seconds of the model, a fifth of
// them done 20 s after the first report in 6 s of processor time (0.3 of
// the 2 cores). The time left is 80 s at that share; on 2 idle cores the
// 80 model seconds left take 24 s of processor time, 24/(2·CoreUse) =
// 13.2 s.
func TestMeterShare(t *testing.T) {
	p := retro.Progress{Unit: "m3-3", Layer: layers.Moving(3, 3), Step: 1, Steps: 2, Phase: retro.PhaseCount, Total: 10, WorkTotal: 100}
	cpu := 100 * time.Second // the process's processor time before the run's units
	m := NewMeter(2, 0)
	m.cpuTime = func() (time.Duration, bool) { return cpu, true }
	if got := m.At(p); got.Share != 0 || got.IdleLeft != -1 || got.ShareWords() != "" {
		t.Errorf("at the first report: got share %v, idle %v, %q; want none measured", got.Share, got.IdleLeft, got.ShareWords())
	}
	m.first = time.Now().Add(-20 * time.Second)
	cpu += 6 * time.Second
	p.Done, p.WorkDone = 2, 20
	got := m.At(p)
	if got.Left < 79*time.Second || got.Left > 81*time.Second || got.Share < 0.29 || got.Share > 0.31 ||
		math.Abs(got.IdleLeft.Seconds()-retro.WallSeconds(24, 2)) > 0.1 || got.Cores != 2 {
		t.Errorf("after 20 s: got %v left, share %v of %d, %v on idle cores; want 1m20s, 0.3 of 2, %.1f s", got.Left, got.Share, got.Cores, got.IdleLeft, retro.WallSeconds(24, 2))
	}
	if w, want := got.ShareWords(), "at this run's share of the processors (0.30 of 2 cores); about 13 s on 2 idle cores"; w != want {
		t.Errorf("ShareWords: got %q, want %q", w, want)
	}
	// The campaign's case: 15 days at 0.3 of 2 cores, 4.5 days of
	// processor time.
	q := Progress{Left: 15 * 24 * time.Hour, Share: 0.3, Cores: 2, IdleLeft: 54 * time.Hour}
	if w, want := q.LeftWords()+" in the run "+q.ShareWords(),
		"about 15.0 days left in the run at this run's share of the processors (0.30 of 2 cores); about 2.2 days on 2 idle cores"; w != want {
		t.Errorf("the sentence: got %q, want %q", w, want)
	}
	// Without the processor time (a system where it is not read).
	m = NewMeter(2, 0)
	m.cpuTime = func() (time.Duration, bool) { return 0, false }
	m.At(p)
	m.first = time.Now().Add(-20 * time.Second)
	if got := m.At(p); got.Share != 0 || got.IdleLeft != -1 {
		t.Errorf("without processor time: got share %v, idle %v; want none", got.Share, got.IdleLeft)
	}
}

// TestRate checks the prior rate before the minimum time and work, the
// measured one after, and an unknown time left without either.
func TestRate(t *testing.T) {
	r := Rate{Prior: 40, MinTime: 10 * time.Second, MinWork: 100}
	for _, tt := range []struct {
		done    float64
		elapsed time.Duration
		want    float64
	}{
		{0, 0, 40}, {50, 20 * time.Second, 40}, {200, 5 * time.Second, 40}, {200, 20 * time.Second, 10},
	} {
		if got := r.At(tt.done, tt.elapsed); got != tt.want {
			t.Errorf("At(%v, %v): got %v, want %v", tt.done, tt.elapsed, got, tt.want)
		}
	}
	if got := Left(100, Rate{}.At(0, time.Second)); got != -1 {
		t.Errorf("time left without a rate: got %v, want -1 (not known)", got)
	}
	if got := Left(100, 10); got != 10*time.Second {
		t.Errorf("Left(100, 10): got %v, want 10s", got)
	}
}
