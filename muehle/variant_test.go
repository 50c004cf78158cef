package muehle

import (
	"errors"
	"strings"
	"testing"
)

func TestSameSymmetries(t *testing.T) {
	for _, c := range []struct {
		a, b *Board
		want bool
	}{
		{StandardBoard, StandardBoard, true},
		{StandardBoard, DiagonalBoard, true},
		{DiagonalBoard, StandardBoard, true},
		{StandardBoard, SixBoard, false},
		{SixBoard, SixBoard, true},
	} {
		if got := c.a.SameSymmetries(c.b); got != c.want {
			t.Errorf("%s.SameSymmetries(%s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	// The symmetry methods of package muehle's standard board are the
	// diagonal board's too.
	for s := range Symmetry(NumSymmetries) {
		for p := range Point(NumPoints) {
			if got, want := DiagonalBoard.MapPoint(s, p), s.Point(p); got != want {
				t.Fatalf("diagonal board: %v maps %v to %v, the standard symmetry to %v", s, p, got, want)
			}
		}
	}
}

func TestVariant(t *testing.T) {
	for _, c := range []struct {
		v          Variant
		name, text string
		bad        string // part of Check's error, "" when valid
	}{
		{Standard.With(9), "Nine Men's Morris", "standard k9", ""},
		{Standard.With(3), "Nine Men's Morris with 3 stones", "standard k3", ""},
		{Twelve.With(12), "Twelve Men's Morris", "twelve k12", ""},
		{Twelve.With(13), "Twelve Men's Morris with 13 stones", "twelve k13", "want 3 to 12"},
		{Standard.With(2), "Nine Men's Morris with 2 stones", "standard k2", "want 3 to 9"},
		{Six.With(7), "Six Men's Morris with 7 stones", "six k7", "want 3 to 6"},
		{GameID(200).With(3), "GameID(200) k3", "GameID(200) k3", "names no game"},
	} {
		if got := c.v.Name(); got != c.name {
			t.Errorf("%v.Name() = %q, want %q", c.v, got, c.name)
		}
		if got := c.v.String(); got != c.text {
			t.Errorf("String() = %q, want %q", got, c.text)
		}
		err := c.v.Check()
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%v.Check() = %v, want nil", c.v, err)
		case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad) || !errors.Is(err, ErrPosition)):
			t.Errorf("%v.Check() = %v, want an ErrPosition saying %q", c.v, err, c.bad)
		}
		if err == nil {
			p := c.v.NewPosition()
			if p.Game != c.v.Game || int(p.Hand[White]) != c.v.Stones || p.Validate(c.v.Stones) != nil {
				t.Errorf("%v.NewPosition() = %v", c.v, p)
			}
		}
	}
	for _, r := range Games {
		if r.Stones > MaxStones {
			t.Errorf("%s: %d stones, more than MaxStones %d", r.ID, r.Stones, MaxStones)
		}
	}
}
