package retro

import (
	"testing"

	"muehle/muehle"
	"muehle/muehle/testenv"
)

// TestReferenceFourStones compares the whole game of four stones a side,
// moving (78 million raw positions) and placement, with the reference.
// It is long (skipped with -short): the reference visits every raw
// position in its first two rounds and then only the parents of what the
// round before decided.
func TestReferenceFourStones(t *testing.T) {
	testenv.Long(t, "the reference solver on four stones takes minutes")
	compareWithReference(t, muehle.Standard.With(4))
	comparePlacement(t, muehle.Standard.With(4))
}

// TestReferenceFourStonesTwelve is TestReferenceFourStones for Twelve
// Men's Morris.
func TestReferenceFourStonesTwelve(t *testing.T) {
	testenv.Long(t, "the reference solver on four stones takes minutes")
	compareWithReference(t, muehle.Twelve.With(4))
	comparePlacement(t, muehle.Twelve.With(4))
}

// TestReferenceFourStonesLasker compares every raw position of every
// layer of Lasker Morris with four stones a side (with stones in hand or
// not) with the reference.
func TestReferenceFourStonesLasker(t *testing.T) {
	testenv.Long(t, "the reference solver on four stones takes minutes")
	compareWithReference(t, muehle.Lasker.With(4))
}
