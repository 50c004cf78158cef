// Package retro computes the database: retrograde analysis of the moving
// and flying phases, the placement phase by a sweep over finished layers,
// the verifier, and BestChild, the one definition of a position's value.
// The computer players that read the database live in retro/play, which
// never imports this package.
//
// # Retrograde analysis of a moving pair
//
// The moving layers M(w,b) and M(b,w) form a pair: a move without removal
// leads from one to the other, a move with a removal into M(b-1,w), which is
// finished. Solve computes the pairs by the number of stones, smallest
// first, each in three named phases (count in pair.go, propagate in
// propagate.go, the rest in solve.go):
//
//  1. count: every canonical slot is unranked; a position without moves is
//     lost in 0, and one whose removal leaves the opponent two stones is won
//     in one ply. Every other position gets its successor counter: its distinct
//     children inside the pair, plus one if a removal reaches a drawn
//     position (it can then never be lost), plus one standing for all
//     removals into positions the opponent wins. The removals seed the work
//     lists at their own depth: the fastest one into a lost position as a
//     win candidate, else the slowest one into a won position as the last
//     count-down of that extra unit.
//  2. propagate: the lists are worked through in increasing depth d. A
//     position decided at d un-moves to its parents (slides and jumps back,
//     never removals) and settles each distinct parent once: a lost child
//     wins an undecided parent at d+1; a won child counts its counter down,
//     and the last one loses it at d+1 — the largest depth among its children
//     plus one, because they arrive in increasing depth. Winners thus hurry
//     and losers delay, and depths run to the end of the game across
//     removals.
//  3. what is still undecided is drawn; the two layers are written.
//
// Each slot's state is a 32-bit word (value and counter) changed only by
// compare-and-swap, so workers on all cores share the arrays without locks
// and without data races. The per-depth work lists are cyclic disk arrays
// (layers.Cyclic): memory holds only their current blocks. A pair whose
// state exceeds the memory budget keeps it in a mapped file.
//
// Cost: each position is unranked and its moves generated once in the count
// phase, and once more in propagation for its un-moves; each move or
// un-move costs one index computation. Memory: 4 bytes per slot of the pair
// plus the work-list blocks.
//
// # Placement
//
// Placement positions form an acyclic graph, and the placement layers are
// computed from the last placement back to the empty board, so that every
// child of a position is already stored. A position's value is then the
// best of its children's values (BestChild): alpha-beta with the database
// as its transposition table, one ply deep, removals first, cut off by a win
// in 1.
//
// # Verification
//
// VerifyLayer re-derives every stored value from its children with
// BestChild. Wins and losses must be backed by a child one ply closer to the
// end, so by induction on the depth a layer that passes is exactly right,
// draws included.
package retro
