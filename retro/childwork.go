package retro

import "muehle/muehle"

// childWork is one worker's scratch space for the children of a position:
// the children are gathered first, then ranked together (IndexAll) and
// their values or states loaded together, so that the cache misses of one
// position's children overlap instead of following one another.
type childWork struct {
	moves          [muehle.MaxMoves]muehle.Move
	slide, removal [muehle.MaxMoves]muehle.Position // children without and with a removal
	slideIx, rmIx  [muehle.MaxMoves]uint64          // their slots
	unmoves        [muehle.MaxUnmoves]muehle.Move   // the verifier's search for a parent
}
