package layers

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"muehle/muehle"
)

// LoseBelow is the stone count, on the board and in hand, below which a side
// has lost in every game a database holds (muehle.Rules.LoseBelow:
// CheckVariant refuses a game with another). The layers start there: each
// side of a layer has at least LoseBelow stones, and a game has at least
// LoseBelow stones a side.
const LoseBelow = 3

// Key identifies a layer, always from the view of the side to move ("W" =
// side to move, "B" = opponent): stones on the board W and B, and in hand WH
// and BH. Moving layers have WH = BH = 0.
//
// Placement layers have the side to move with WH ≥ 1 stones in hand and
// WH == BH (White to move) or WH == BH+1 (Black to move, having placed one
// stone fewer). A placement layer with WH == 1 and BH == 0 leads to moving
// layers. In a game whose phases mix (Lasker Morris) every split of the
// hands is a layer (ValidMixed), e.g. p3+0-2+1.
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
		if k.WH == 0 && k.BH == 0 {
			// p3+0-4+0 is the moving layer 3-4, and has one name.
			return Key{}, fmt.Errorf("layers: bad layer key %q: a layer named with p needs stones in a hand", s)
		}
	}
	if int(k.W)+int(k.B) > muehle.MaxPoints {
		return Key{}, fmt.Errorf("layers: bad layer key %q: more stones than any board has points (%d)", s, muehle.MaxPoints)
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
// seen from the opponent (a moving layer after the last placement):
// Child of the move a layer of separate phases makes.
func (k Key) Partner() Key {
	c, _ := k.Child(!k.IsMoving(), false)
	return c
}

// RemovalLayer returns the layer that a move with a removal from k leads
// to: M(B-1, W) from a moving layer; from a placement layer the one
// after placing a stone and removing one, seen from the opponent. ok is
// false when the removal leaves the opponent fewer than three stones on
// the board and in hand, which ends the game (the opponent loses). It
// does not ask whether k's positions can close a mill at all.
func (k Key) RemovalLayer() (r Key, ok bool) {
	return k.Child(!k.IsMoving(), true)
}

// Successors returns every layer that one move from k can lead to: the
// partner, and the layer after a removal where a removal is possible. Layers
// in which the side to move (the opponent of k's mover) would have fewer
// than three stones in total are left out: the game is over there.
func (k Key) Successors() []Key {
	s := []Key{k.Partner()}
	// A placement closes a mill only with muehle.MillPoints own stones on
	// the board afterwards; a moving side always has that many.
	if r, ok := k.RemovalLayer(); ok && (k.IsMoving() || k.W+1 >= muehle.MillPoints) {
		s = append(s, r)
	}
	return s
}

// MovingLayers returns all moving layers M(w,b) with LoseBelow ≤ w,b ≤
// stones, ordered by w, then b.
func MovingLayers(stones int) []Key {
	var ks []Key
	for w := LoseBelow; w <= stones; w++ {
		for b := LoseBelow; b <= stones; b++ {
			ks = append(ks, Moving(w, b))
		}
	}
	return ks
}

// PlacementLayers returns all placement layers of the game with stones per
// side, ordered by the stones in hand (the last placement first), then by
// W, B and the hands. The stones of every layer fit on the game's board:
// a game's stones a side are at most half its points (muehle.Rules.Check).
func PlacementLayers(stones int) []Key {
	var ks []Key
	for wh := 1; wh <= stones; wh++ {
		for bh := wh - 1; bh <= wh; bh++ {
			for w := 0; w+wh <= stones; w++ {
				for b := 0; b+bh <= stones; b++ {
					if w+wh < LoseBelow || b+bh < LoseBelow {
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
	for t := 2 * LoseBelow; t <= 2*stones; t++ {
		for w := LoseBelow; 2*w <= t; w++ {
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
	if stones < LoseBelow || stones > muehle.MaxStones {
		return false
	}
	if int(k.W)+int(k.WH) > stones || int(k.B)+int(k.BH) > stones ||
		int(k.W)+int(k.WH) < LoseBelow || int(k.B)+int(k.BH) < LoseBelow {
		return false
	}
	// The mover is White when the hands are equal, else Black (holding one
	// stone more): muehle.HandsFit, the rule Position.Validate applies.
	return muehle.HandsFit([2]uint8{k.WH, k.BH}, muehle.White) ||
		muehle.HandsFit([2]uint8{k.BH, k.WH}, muehle.Black)
}

// Child returns the layer a move from layer k leads to, seen from the
// opponent, who moves next: a placement (place) or a slide or jump, with a
// removal (remove) or without. ok is false when the removal leaves the
// opponent fewer than three stones on the board and in hand, which ends
// the game. Partner and RemovalLayer are Child of the kind of move a
// layer of separate phases makes.
func (k Key) Child(place, remove bool) (c Key, ok bool) {
	c = Key{W: k.B, B: k.W, WH: k.BH, BH: k.WH}
	if place {
		c.B, c.BH = c.B+1, c.BH-1
	}
	if remove {
		if c.W == 0 || int(c.W)-1+int(c.WH) < LoseBelow {
			return Key{}, false
		}
		c.W--
	}
	return c, true
}

// The layers of a game whose phases mix (Lasker Morris): a side with
// stones in hand may place one or move a stone on the board. A layer is
// still named by the stones on the board and in hand of each side, but
// any split of a side's stones between board and hand can meet any split
// of the other's, and moves without removal (slides and jumps) connect a
// layer with stones in hand to its partner, so these layers are solved in
// pairs like the moving ones; placements lead, as removals do, to layers
// solved before (one stone fewer in hand).

// ValidMixed reports whether k is a layer of the mixed game with stones
// per side: each side has LoseBelow to stones stones on the board and in hand.
// Every split of the hands is a layer, also those no game reaches (the
// side to move holding all its stones while the other has moved, for
// one): the solver computes them with the rest, which is simpler than
// telling them apart.
func (k Key) ValidMixed(stones int) bool {
	tw, tb := int(k.W)+int(k.WH), int(k.B)+int(k.BH)
	return stones >= LoseBelow && stones <= muehle.MaxStones && tw >= LoseBelow && tw <= stones && tb >= LoseBelow && tb <= stones
}

// MixedPartner returns the layer a slide or jump without removal from k
// leads to, which k is solved with: Child(false, false).
func (k Key) MixedPartner() Key {
	c, _ := k.Child(false, false)
	return c
}

// MixedSuccessors returns the layers one move from layer k of a mixed game
// can lead to: the partner, and where k's mover has stones in hand the
// layer after a placement; each with a removal too where one leaves the
// opponent three stones or more.
func (k Key) MixedSuccessors() []Key {
	var s []Key
	for _, place := range []bool{false, true} {
		if place && k.WH == 0 {
			continue
		}
		for _, remove := range []bool{false, true} {
			if c, ok := k.Child(place, remove); ok && !slices.Contains(s, c) {
				s = append(s, c)
			}
		}
	}
	return s
}

// MixedOrder returns an order of computation of the layers of the mixed
// game with stones per side: the moving layers as Order gives them (with
// empty hands the game is the standard one's moving phase), then, if
// placement is set, the layers with stones in hand by the stones in both
// hands (fewest first: a placement leads to one stone fewer), then by the
// stones on the board (a removal leads to one fewer), the two layers of a
// pair adjacent.
func MixedOrder(stones int, placement bool) []Key {
	ks := Order(stones, false)
	if !placement {
		return ks
	}
	var hands []Key
	for wh := 0; wh <= stones; wh++ {
		for bh := 0; bh <= stones; bh++ {
			for w := 0; w+wh <= stones; w++ {
				for b := 0; b+bh <= stones; b++ {
					k := Key{W: uint8(w), B: uint8(b), WH: uint8(wh), BH: uint8(bh)}
					if !k.IsMoving() && k.ValidMixed(stones) {
						hands = append(hands, k)
					}
				}
			}
		}
	}
	// pairKey orders a pair by its smaller layer, so that both sort together.
	pairKey := func(k Key) Key {
		if p := k.MixedPartner(); KeyLess(p, k) {
			return p
		}
		return k
	}
	slices.SortStableFunc(hands, func(x, y Key) int {
		px, py := pairKey(x), pairKey(y)
		return cmp.Or(
			cmp.Compare(x.WH+x.BH, y.WH+y.BH),
			cmp.Compare(x.W+x.B, y.W+y.B),
			cmp.Compare(px.W, py.W), cmp.Compare(px.WH, py.WH), cmp.Compare(px.B, py.B), cmp.Compare(px.BH, py.BH),
			boolCompare(x != px, y != py))
	})
	return append(ks, hands...)
}

// KeyLess orders keys by W, WH, B, BH: the smaller of a pair of layers
// names its unit.
func KeyLess(x, y Key) bool {
	return cmp.Or(cmp.Compare(x.W, y.W), cmp.Compare(x.WH, y.WH), cmp.Compare(x.B, y.B), cmp.Compare(x.BH, y.BH)) < 0
}

// boolCompare orders false before true.
func boolCompare(x, y bool) int {
	switch {
	case x == y:
		return 0
	case !x:
		return -1
	}
	return 1
}
