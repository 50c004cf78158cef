package layers

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"muehle/muehle"
)

// Key identifies a layer, always from the view of the side to move ("W" =
// side to move, "B" = opponent): stones on the board W and B, and in hand WH
// and BH. Moving layers have WH = BH = 0.
//
// Placement layers have the side to move with WH ≥ 1 stones in hand and
// WH == BH (White to move) or WH == BH+1 (Black to move, having placed one
// stone fewer). A placement layer with WH == 1 and BH == 0 leads to moving
// layers.
type Key struct{ W, B, WH, BH uint8 }

// Moving returns the key of the moving layer M(w,b): w stones of the side to
// move and b of the opponent on the board, none in hand.
func Moving(w, b int) Key { return Key{W: uint8(w), B: uint8(b)} }

// IsMoving reports whether k is a moving layer (no stones in hand).
func (k Key) IsMoving() bool { return k.WH == 0 && k.BH == 0 }

// String returns "3-4" for a moving layer and e.g. "p5+2-4+2" (board+hand of
// the side to move, then of the opponent) for a placement layer.
func (k Key) String() string {
	if k.IsMoving() {
		return fmt.Sprintf("%d-%d", k.W, k.B)
	}
	return fmt.Sprintf("p%d+%d-%d+%d", k.W, k.WH, k.B, k.BH)
}

// ParseKey parses the form written by String: "3-4" or "p5+2-4+2".
func ParseKey(s string) (Key, error) {
	bad := fmt.Errorf("layers: bad layer key %q", s)
	var n [4]int
	want := 2 // numbers expected
	seps := "-"
	t := s
	if strings.HasPrefix(t, "p") {
		t, want, seps = t[1:], 4, "+-+"
	}
	for i := range want {
		j := 0
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j == 0 || j > 2 || j == 2 && t[0] == '0' {
			return Key{}, bad
		}
		n[i], _ = strconv.Atoi(t[:j])
		t = t[j:]
		if i < want-1 {
			if len(t) == 0 || t[0] != seps[i] {
				return Key{}, bad
			}
			t = t[1:]
		}
	}
	if t != "" {
		return Key{}, bad
	}
	k := Key{W: uint8(n[0]), B: uint8(n[1])}
	if want == 4 {
		k = Key{W: uint8(n[0]), WH: uint8(n[1]), B: uint8(n[2]), BH: uint8(n[3])}
		if k.WH == 0 {
			return Key{}, fmt.Errorf("layers: bad layer key %q: a placement layer needs stones in the mover's hand", s)
		}
	}
	if int(k.W)+int(k.B) > muehle.NumPoints {
		return Key{}, fmt.Errorf("layers: bad layer key %q: more stones than points", s)
	}
	return k, nil
}

// KeyOf returns the layer of p, counted from the view of p's side to move.
func KeyOf(p muehle.Position) Key {
	t := p.Turn & 1
	return Key{
		W:  uint8(p.Stones[t].Count()),
		B:  uint8(p.Stones[t^1].Count()),
		WH: p.Hand[t],
		BH: p.Hand[t^1],
	}
}

// Partner returns the layer a move without removal leads to: M(b,w) for a
// moving layer; for a placement layer the layer after placing one stone,
// seen from the opponent (a moving layer after the last placement).
func (k Key) Partner() Key {
	if k.IsMoving() {
		return Key{W: k.B, B: k.W}
	}
	return Key{W: k.B, B: k.W + 1, WH: k.BH, BH: k.WH - 1}
}

// RemovalLayer returns the layer that a move with a removal from k leads
// to: M(B-1, W) from a moving layer; from a placement layer the one
// after placing a stone and removing one, seen from the opponent. ok is
// false when the removal leaves the opponent fewer than three stones on
// the board and in hand, which ends the game (the opponent loses). It
// does not ask whether k's positions can close a mill at all.
func (k Key) RemovalLayer() (r Key, ok bool) {
	if k.B == 0 || int(k.B)-1+int(k.BH) < 3 {
		return Key{}, false
	}
	if k.IsMoving() {
		return Key{W: k.B - 1, B: k.W}, true
	}
	return Key{W: k.B - 1, B: k.W + 1, WH: k.BH, BH: k.WH - 1}, true
}

// Successors returns every layer that one move from k can lead to: the
// partner, and the layer after a removal where a removal is possible. Layers
// in which the side to move (the opponent of k's mover) would have fewer
// than three stones in total are left out: the game is over there.
func (k Key) Successors() []Key {
	s := []Key{k.Partner()}
	// A placement closes a mill only with at least three own stones on
	// the board afterwards; a move, with at least three on the board.
	if r, ok := k.RemovalLayer(); ok && (k.IsMoving() || k.W+1 >= 3) {
		s = append(s, r)
	}
	return s
}

// MovingLayers returns all moving layers M(w,b) with 3 ≤ w,b ≤ stones,
// ordered by w, then b.
func MovingLayers(stones int) []Key {
	var ks []Key
	for w := 3; w <= stones; w++ {
		for b := 3; b <= stones; b++ {
			ks = append(ks, Moving(w, b))
		}
	}
	return ks
}

// PlacementLayers returns all placement layers of the game with stones per
// side, ordered by the stones in hand (the last placement first), then by
// W, B and the hands.
func PlacementLayers(stones int) []Key {
	var ks []Key
	for wh := 1; wh <= stones; wh++ {
		for bh := wh - 1; bh <= wh; bh++ {
			for w := 0; w+wh <= stones; w++ {
				for b := 0; b+bh <= stones; b++ {
					if w+wh < 3 || b+bh < 3 || w+b > muehle.NumPoints {
						continue
					}
					ks = append(ks, Key{uint8(w), uint8(b), uint8(wh), uint8(bh)})
				}
			}
		}
	}
	slices.SortStableFunc(ks, func(x, y Key) int {
		return cmp.Or(
			cmp.Compare(x.WH+x.BH, y.WH+y.BH),
			cmp.Compare(x.W, y.W), cmp.Compare(x.B, y.B),
			cmp.Compare(x.WH, y.WH))
	})
	return ks
}

// Order returns an order of computation in which every layer comes after
// all layers it depends on: the moving pairs by total stones, smallest
// first, the two layers of a pair adjacent (w ≤ b first); then, if
// placement is set, the placement layers from the last placement back to
// the empty board.
func Order(stones int, placement bool) []Key {
	var ks []Key
	for t := 6; t <= 2*stones; t++ {
		for w := 3; 2*w <= t; w++ {
			b := t - w
			if b > stones {
				continue
			}
			ks = append(ks, Moving(w, b))
			if w != b {
				ks = append(ks, Moving(b, w))
			}
		}
	}
	if placement {
		ks = append(ks, PlacementLayers(stones)...)
	}
	return ks
}

// Valid reports whether k is a layer of the game with stones per side.
func (k Key) Valid(stones int) bool {
	if stones < 3 || stones > muehle.MaxStones {
		return false
	}
	if int(k.W)+int(k.WH) > stones || int(k.B)+int(k.BH) > stones ||
		int(k.W)+int(k.WH) < 3 || int(k.B)+int(k.BH) < 3 {
		return false
	}
	// The mover is White when the hands are equal, else Black (holding one
	// stone more): muehle.HandsFit, the rule Position.Validate applies.
	return muehle.HandsFit([2]uint8{k.WH, k.BH}, muehle.White) ||
		muehle.HandsFit([2]uint8{k.BH, k.WH}, muehle.Black)
}
