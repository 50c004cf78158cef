package retro

import (
	"testing"

	"muehle/muehle"
)

// TestReferenceFourStones compares the whole game of four stones a side,
// moving (78 million raw positions) and placement, with the reference.
// It is long (skipped with -short): the reference visits every raw
// position in its first two rounds and then only the parents of what the
// round before decided.
func TestReferenceFourStones(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the reference solver on four stones takes minutes; skipped with -short")
	}
	compareWithReference(t, muehle.Standard.With(4))
	comparePlacement(t, muehle.Standard.With(4))
}

// TestReferenceFourStonesTwelve is TestReferenceFourStones for Twelve
// Men's Morris.
func TestReferenceFourStonesTwelve(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the reference solver on four stones takes minutes; skipped with -short")
	}
	compareWithReference(t, muehle.Twelve.With(4))
	comparePlacement(t, muehle.Twelve.With(4))
}

// TestReferenceFourStonesLasker compares every raw position of every
// layer of Lasker Morris with four stones a side (with stones in hand or
// not) with the reference.
func TestReferenceFourStonesLasker(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the reference solver on four stones takes minutes; skipped with -short")
	}
	compareWithReference(t, muehle.Lasker.With(4))
}

// TestReferenceSmallBoardsLong compares every position of Five and Six
// Men's Morris, with and without flying (moving and placement), with the
// reference. Long: skipped with -short (TestReferenceThreeMensMorris is the
// short one).
func TestReferenceSmallBoardsLong(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the reference solver on the 16-point board takes minutes; skipped with -short")
	}
	for _, g := range []muehle.GameID{muehle.Five, muehle.FiveFlying, muehle.Six, muehle.SixFlying} {
		t.Run(g.String(), func(t *testing.T) {
			v := g.With(g.Rules().Stones)
			compareWithReference(t, v)
			comparePlacement(t, v)
		})
	}
}
