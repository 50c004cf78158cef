package muehle

import (
	"errors"
	"fmt"
	"testing"
)

func TestReason(t *testing.T) {
	p := NewPosition(9)
	_, syntax := ParseMove("foo")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"syntax", syntax, `Not a move: move "foo": the target "foo" is not a point (a1 to g7)`},
		{"illegal", p.CheckMove(Slide(4, 7)), "Illegal move d6-d5: White has 9 stones in hand and must place one (e.g. a7)"},
		{"position", fmt.Errorf("%w: with White to move White must have placed 2 stones", ErrPosition), "Impossible position: with White to move White must have placed 2 stones"},
		{"sentinel alone", ErrGameOver, "Game over"},
		{"empty", errors.New(""), "Not possible."},
		{"other package", errors.New("layers: missing"), "Layers: missing"},
	}
	for _, tc := range tests {
		if got := Reason(tc.err); got != tc.want {
			t.Errorf("%s: Reason(%q): got %q, want %q", tc.name, tc.err, got, tc.want)
		}
	}
}
