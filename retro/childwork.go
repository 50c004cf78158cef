package retro

import (
	"slices"

	"muehle/layers"
	"muehle/muehle"
)

// childWork is one worker's scratch space for the children of a position:
// the moves are gathered first, by their kind, then the children ranked
// together from the position and the moves (IndexMoves) and their values
// or states loaded together, so that the cache misses of one position's
// children overlap instead of following one another.
type childWork struct {
	moves   [muehle.MaxMoves]muehle.Move
	kms     [moveKinds][muehle.MaxMoves]muehle.Move // the moves, by their kind
	kidIx   [moveKinds][muehle.MaxMoves]uint64      // their children's slots
	unmoves [muehle.MaxUnmoves]muehle.Move          // the verifier's search for a parent
}

// bestWork is one worker's scratch space for childTables.best: a
// position's moves, by their kind, and its children's slots; and the
// verifier's search for a parent.
type bestWork struct {
	moves   [muehle.MaxMoves]muehle.Move
	kms     [moveKinds][muehle.MaxMoves]muehle.Move
	kidIx   [moveKinds][muehle.MaxMoves]uint64
	unmoves [muehle.MaxUnmoves]muehle.Move
	// what best looked at last (markStored): how many moves, and how
	// many of each kind when not split
	nm int
	n  [moveKinds]int
}

// The kinds of moves, by the layer they lead to (layers.Key.Child): a
// slide or jump, or a placement, each without or with a removal. A
// moving layer's moves are slides; a placement layer's placements; in a
// game whose phases mix a layer with stones in hand has both.
const (
	kindSlide = iota
	kindSlideRemove
	kindPlace
	kindPlaceRemove
	moveKinds
)

// moveKind returns the kind of move m.
func moveKind(m muehle.Move) int {
	k := kindSlide
	if m.From == muehle.NoPoint {
		k = kindPlace
	}
	if m.IsRemoval() {
		k++
	}
	return k
}

// kindChild returns the layer the moves of a kind lead to from layer k:
// layers.Key.Child. ok is false when such a move's removal ends the game.
func kindChild(k layers.Key, kind int) (layers.Key, bool) {
	return k.Child(kind >= kindPlace, kind&1 == 1)
}

// kindsOf returns the kinds of moves the positions of layer k of variant v
// make: placements where the side to move has stones in hand, slides
// where it has none, both in a game whose phases mix.
func kindsOf(v muehle.Variant, k layers.Key) []int {
	switch {
	case k.WH == 0:
		return []int{kindSlide, kindSlideRemove}
	case v.Rules().Mixed:
		return []int{kindSlide, kindSlideRemove, kindPlace, kindPlaceRemove}
	}
	return []int{kindPlace, kindPlaceRemove}
}

// kindLayer is the layer the moves of one kind lead to from a layer.
type kindLayer struct {
	key  layers.Key
	ends bool // such a move ends the game: its removal leaves the opponent two stones
	made bool // the layer's positions make such moves, into key, one of its successors
}

// kindLayers returns, for each kind of move the positions of layer k of
// variant v make (kindsOf), the layer it leads to (kindChild), whether it
// ends the game, and whether that layer is among k's successors (a
// placement cannot close a mill before the mover has two stones on the
// board). The count phase and the children tables both read it.
func kindLayers(v muehle.Variant, k layers.Key) (t [moveKinds]kindLayer) {
	succ := layers.SuccessorsIn(v, k)
	for _, kind := range kindsOf(v, k) {
		x, ok := kindChild(k, kind)
		t[kind] = kindLayer{key: x, ends: !ok, made: ok && slices.Contains(succ, x)}
	}
	return t
}
