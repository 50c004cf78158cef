package play

import (
	"errors"
	"math"
	"os"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

func TestBahnsenD(t *testing.T) {
	for _, tc := range []struct {
		x    int
		want float64
	}{
		{0, 0}, {1, 0}, {7, 0.5}, {12, 0.9},
	} {
		if got := BahnsenD(tc.x); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("d(%d): got %v, want %v", tc.x, got, tc.want)
		}
	}
	// Increasing, below 1, tending to 1.
	prev := 0.0
	for x := 2; x <= 200; x++ {
		d := BahnsenD(x)
		if d <= prev || d >= 1 {
			t.Fatalf("d(%d) = %v after d(%d) = %v: want increasing below 1", x, d, x-1, prev)
		}
		prev = d
	}
	if prev < 0.999 {
		t.Errorf("d(200): got %v, want close to 1", prev)
	}
}

func TestBahnsenZ(t *testing.T) {
	for _, tc := range []struct {
		c     float64
		freqs []int
		want  float64
	}{
		{0.5, []int{2, 1}, math.Pow(0.5, math.Sqrt2)}, // the thesis's example, 0.38
		{0.25, []int{1}, 0.75},
		{0.1, []int{3, 3}, math.Pow(0.9, 3)},
		{1, []int{1, 1}, 0}, // every move wins: nobody overlooks that
	} {
		if got := BahnsenZ(tc.c, tc.freqs); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("z(%v, %v): got %v, want %v", tc.c, tc.freqs, got, tc.want)
		}
	}
	if got := BahnsenZ(0.5, []int{2, 1}); math.Round(got*100) != 38 {
		t.Errorf("the thesis's example: got %.3f, want 0.38", got)
	}
}

func TestBahnsenF(t *testing.T) {
	for _, tc := range []struct {
		removal bool
		recent  int
		want    float64
	}{
		{true, 0, 0}, {false, 0, 1}, {true, 5, 1}, {false, 5, 0}, {true, 2, 0.4}, {false, 1, 0.8},
	} {
		if got := BahnsenF(tc.removal, tc.recent); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("f(%v, %d): got %v, want %v", tc.removal, tc.recent, got, tc.want)
		}
	}
}

// TestWonShareReadsTheHeader checks that the shares of won and lost
// positions come from the layer's header alone: a layer whose body fails
// its checksum, which a full check would find, still gives them.
func TestWonShareReadsTheHeader(t *testing.T) {
	db, err := layers.OpenDB(t.TempDir(), muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := layers.Moving(3, 3)
	body := make([]byte, db.Indexer().Layer(k).Size())
	for i := range body {
		body[i] = byte([]layers.Value{layers.Decided(1), layers.Decided(2), layers.Drawn, layers.Drawn}[i%4])
	}
	if err := db.Write(k, body); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(db.Path(k), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{byte(layers.Decided(3))}, layers.HeaderSize+2); err != nil {
		t.Fatal(err)
	}
	f.Close()
	p := NewPerfect(db, nil, nil)
	won, lost, err := p.wonShare(k)
	n := float64(len(body))
	wantWon, wantLost := float64((len(body)+3)/4)/n, float64((len(body)+2)/4)/n
	if err != nil || won != wantWon || lost != wantLost {
		t.Errorf("wonShare(%v): got %v, %v, %v, want %v, %v", k, won, lost, err, wantWon, wantLost)
	}
	if _, err := db.Layer(k); !errors.Is(err, layers.ErrChecksum) {
		t.Errorf("Layer(%v) with a damaged body: got %v, want ErrChecksum", k, err)
	}
}
