// Package retro computes the database: retrograde analysis of the moving
// and flying phases, the placement phase by a sweep over finished layers,
// the verifier, and BestChild, the one definition of a position's value.
// The computer players that read the database live in retro/search,
// retro/play and retro/teach, which never import this package.
//
// # Files
//
//	solve.go      Solve and SolveUnit, the driver: claims, order, resume,
//	              progress, verification of each unit
//	disk.go       a unit refused before it starts when the disk cannot
//	              hold it (ErrDiskFull), unless compressing the layers
//	              lying flat makes room
//	keepflat.go   a layer kept flat until the layer whose placements
//	              lead to it is verified (phases mixed, Compress)
//	units.go      the units of work, their levels and dependencies
//	cost.go       the cost model: a unit's memory, processor time, disk
//	hold.go       what one solve holds decoded from one unit to the next:
//	              the DB's bound by phase, the read plan, the memory limit
//	pair.go       a pair's state words and the count phase (a moving
//	              pair, or in a game whose phases mix a pair of layers
//	              with stones in hand)
//	propagate.go  propagation by depth, each depth's list sorted by slot
//	worklist.go   the per-depth work lists on cyclic arrays, one set per
//	              worker
//	cyclic.go     the cyclic arrays: disk-backed ring buffers of records
//	childwork.go  a position's children gathered by the kind of move,
//	              ranked and looked up together
//	childtables.go the layers a layer's children lie in, one for each kind
//	              of move, copied into memory: best, BestChild without
//	              probes
//	state.go      the state words and copies of layers in memory (or a
//	              mapped file), the memory plan
//	children.go   BestChild, the rule every stored value obeys
//	distinct.go   the set that counts each child once
//	parallel.go   the workers and the ranges of slots spread over them
//	reach.go      the forward pass: the placement classes reachable from
//	              the empty board
//	reachfile.go  their bits in files beside the layers (the format:
//	              layers/reach.go)
//	placement.go  the placement sweep (the reachable classes, or every one)
//	verify.go     VerifyLayer, the verifier
//	derive.go     DeriveLayer: the verifier's rule run forwards, a layer
//	              computed from its children's (the layers a package
//	              leaves out)
//	convert.go    ConvertOld: a folder of the format before rewritten;
//	              RemoveReach
//	progress.go   Progress, the typed events of a run; Phase and
//	              UnitName are layers' (the solve record holds them)
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
//     lost in 0 (drawn where the rules draw it, layers.NoMoves: the full
//     board of Twelve Men's Morris, one counter unit that never counts
//     down), and one whose removal leaves the opponent two stones is won
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
// # Where the time goes, and how it is kept short
//
// Almost all of a pair's time is spent turning positions into slot numbers
// (the group-A/B index: a base-3 code of group B, a look-up in the 172 MB
// group-B table, the rank of group A) and in memory accesses at random
// places of arrays far larger than the caches: the group-B table, the
// state words, the values of the layers a removal leads to. The solver
// saves both:
//
//   - Counting without ranking. The counter needs the number of distinct
//     children inside the pair, not their slots. Two moves without removal
//     lead to the same slot only if a symmetry maps one child onto the
//     other; such a symmetry fixes the opponent's stones, which those
//     moves leave alone. So unless the opponent's stones are symmetric
//     (muehle.Bitboard.Symmetric, a few table look-ups), every such move
//     counts one child and is not ranked at all; only removals (whose
//     values are needed) and the rare symmetric positions are ranked.
//     Likewise in propagation: a decided position's parents are told
//     apart (distinct) only when its mover's stones are symmetric.
//   - Ranked from the move, never made. A child's slot (count, verify)
//     is computed from its parent's A and B codes and the move
//     (layers.LayerIndex.IndexMoves, IndexMovesSplit), a parent's
//     (propagate) from the child's codes and the un-slide (IndexUnslides);
//     no position is built and ranked from its bitboards. The count phase
//     and the verifier walk their slots in order (Positions), propagation
//     unranks its sorted list with a cursor (PositionAt).
//   - Misses that overlap. The children of a position (count, verify) and
//     the parents of a run of decided positions (propagate) are gathered
//     first, ranked together (their table entries all loaded before any
//     is ranked), and their values or state words loaded together before
//     any is used, so that the processor waits for many cache misses at
//     once instead of one after another.
//   - Decided positions in slot order. Propagation reads a depth's list
//     in chunks of up to a quarter of the pair's slots and sorts each by
//     layer and slot (a radix sort) before the workers take it: positions
//     next to each other in the slot order share their outer and inner
//     rings, so their parents' table entries and state words are mostly
//     in the caches already. In Twelve Men's Morris, where 94 % of the
//     moving positions are decided and each is propagated, that makes
//     propagation of 4-6 + 6-4 1.6 times as fast in processor time
//     (docs/solver.md); the buffers of the sort, 16 bytes an entry, are
//     allocated once per pair outside the Go heap. A long list is split
//     by its keys' top bits on both cores, and each worker sorts the runs
//     it takes (chunkWorks).
//   - Only the won depths needed. A layer out of the pair that lies in
//     compressed form 2 is read as stored, its won slots without their
//     depths (layers.DB.BorrowStored). The count phase needs a won
//     child's depth only where none of a position's moves out of the pair
//     leads to a loss or a draw: it marks those children, finds their
//     depths (layers.DB.FillWon) and then seeds the positions that waited
//     (seedPending). The verifier does the same for the positions it
//     finds lost (markStored, checkPending), on its own marks; k's
//     partner it reads complete, its won depths checked against its
//     header's checksum. In Lasker Morris a unit needs from a few per
//     cent to nearly all of the won depths of a layer it reads
//     (docs/solver.md). The count phase hands its copies, the depths it
//     found in them, to the unit's verifier (filledCopies), which reads
//     them once each checks against its file (layers.File.StoredCopy)
//     and so finds only the depths the count did not need. The
//     placement sweep and its verifier read their children so too
//     (solvePlacement's pending): the last placement's children lie in
//     moving layers, whose won depths the standard game's placement
//     phase found in full before, a minute for the largest.
//   - Huge pages. The state words and in-memory copies of the layers a
//     removal leads to live outside the Go heap on huge pages where the
//     system has them (layers.AllocLarge), so that a random access does
//     not also miss the TLB; the copies are read sequentially once
//     instead of faulting in a mapped file page by page.
//   - No shared lock. Each slot's state is a 32-bit word (value and
//     counter). In propagation each word has one owner, the worker of its
//     run of 4096 slots (slotOwner, by a hash), which alone reads and
//     writes it, with plain loads and stores: a worker settles the parents
//     it owns and sends the others in blocks to their owners, so there is
//     neither a lock nor a compare-and-swap per settle, and no data race.
//     In the count phase each worker writes the words of its own ranges.
//     Every worker appends to work lists of its own (one per depth; cyclic
//     disk arrays, cyclic.go, of which memory holds only the current
//     blocks); one
//     goroutine reads a depth's lists in large batches for all workers.
//     That reader is the only serial part of propagation, and it stays
//     small with many cores: per entry it copies 8 bytes and sorts them
//     in three or four passes, where a worker
//     unranks the position and ranks and settles (or sends) each of its
//     parents (up to 63 for a flying side). The count phase and
//     verification hand out ranges of slots through one atomic counter,
//     16,384 slots at a time. What is left between workers is the
//     memory they share: on the 2-core development machine two workers
//     solve the slide pair 5-7 + 7-5 1.85 times as fast as one, the
//     smaller 4-6 + 6-4 1.72 times, the flying pair 3-7 + 7-3 2.0 times
//     (docs/solver.md).
//
// Cost per slot of a pair: one unrank and one move generation in the count
// phase, plus one rank per removal; in propagation, for each decided
// position one unrank, one generation of un-slides and one rank and
// settle per parent. The
// flying pairs (a side with three stones) are the dearest per slot: a
// flying side has up to 3×21 un-jumps per position.
//
// Memory: 4 bytes per slot of the pair for the state, plus copies of the
// two layers that removals lead to (1 byte per slot each), plus the
// group-B table (172 MB) and the work-list blocks. The largest pairs
// (7-8 + 8-7, 8-9 + 9-8: 1.06 billion slots) thus need about 5.3 GiB. A
// pair whose state exceeds SolveOptions.MemBytes keeps it in a mapped file
// that the system pages instead.
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
// Only the classes a game can reach from the empty board are computed
// (reach.go): before the first placement layer, a forward pass marks them,
// one bit per slot, ply by ply from the empty board, each ply's bits
// written beside its layers (p5+2-4+2.reach, reachfile.go), so that an
// interrupted pass resumes at the first ply not written. Every child of a
// reachable position is reachable, so the sweep needs nothing else. The
// layer is written dense (layers.Dense): the bits of its reachable slots,
// their ranks and their values, so that the layer file holds its reach
// bits, and the reach files are removed once every placement layer is
// dense and verified. A player reading an unreachable class finds it
// Unused and falls back to its placement search. SolveOptions.PlacementAll
// computes every class instead (the full sweep, one byte per slot). The
// sweep reads the children's two layers from copies in memory
// (childtables.go), as the verifier does.
//
// # Verification
//
// VerifyLayer re-derives every stored value from its children with the
// rule of BestChild. Wins and losses must be backed by a child one ply
// closer to the end, so by induction on the depth a layer that passes is
// exactly right, draws included. A moving layer is verified in one pass in
// slot order against in-memory copies of the two layers its children are
// in, each position's children ranked and looked up together; no position
// is probed through the database's layer cache. The slots are walked in
// order (layers.LayerIndex.Positions: a B class's B part read once for
// all its slots), and a child's slot is computed from its parent and the
// move (layers.LayerIndex.IndexMovesSplit: the parent's A and B codes, in
// one word, changed at the move's points), the child never made; the
// moves into the two layers are ranked in one pass and the best child is
// kept without a branch (parentKey). DeriveLayer is the same
// loop writing what it finds. A placement layer is
// verified the same way; a dense one also finds every child of a stored
// position stored and a stored parent for every stored position one
// placement earlier (the empty board alone in the first layer), which
// over all layers proves that they store exactly the reachable classes.
//
// # Games
//
// The solver reads a game's rules only through package muehle (moves,
// un-moves, the position's Game byte, which every unranked position gets
// from the database's variant) and layers.NoMoves, so Twelve Men's Morris
// needs nothing of its own: its board has the standard board's points and
// symmetries, hence the same index, and the same phases.
//
// Lasker Morris mixes the phases: a side with stones in hand may slide as
// well as place, so the layers with stones in hand have cycles of moves of
// their own, which the placement sweep (each class once, from its
// children) cannot solve. The solver treats the two layers of fixed hands
// that slides connect (a layer and its partner, layers.Key.MixedPartner)
// like a moving pair: count and propagate as above, the moves out of the
// pair read from finished layers by their kind (childwork.go: a removal's
// child, a placement's, a placement's with a removal; layers.Key.Child).
// The hands only fall, so the units form levels: by the stones in both
// hands, then on the board (Units). Every split of the hands is a layer
// (layers.Key.ValidMixed), also those no game reaches, and the un-slides
// of a mixed game give parents whatever their hands, so that every stored
// value follows from its children and the verifier checks them all.
//
// # Units, claims and clusters
//
// Units (units.go) are the pieces a solver claims: a moving pair or a
// placement layer, named m3-4 or p5+2-4+2 (UnitName, the one name of a
// unit in claims, job names, the command line, progress and the solve
// record), each with its level and the units it needs. Solve claims every
// unit before computing it (layers.DB.Claim), so solvers sharing a folder
// divide the units; SolveUnit computes one, as a job of a batch system
// does. UnitCost (cost.go) is the model of a unit's memory and processor
// time behind muehlectl plan, the resources muehlectl slurm asks for and
// the estimate of the window's Database tab; UnitCostWith adds what
// reading the finished layers kept compressed costs (CostOptionsFor: as
// the folder keeps them, or as SolveOptions.Compress will), and with
// CostOptions.Held what one solve's DB holds decoded from one unit to the
// next, so that Plan and plan cost a layer read again as nothing.
// docs/cluster.md compares it with measured units.
//
// # Progress and the solve record
//
// Solve makes its Plan once, each task with its cost, and reports
// Progress (progress.go) as it goes: the unit, its Phase (a type, so that
// the window and muehlectl switch on constants), the task as planned, the
// share of it done (Task.Fraction, the phases weighed by their share of a
// unit's time) and of the whole run in the model's processor seconds. The
// window's Database tab and muehlectl solve show these events and plan
// nothing themselves. muehlectl solve appends a layers.Record per
// finished unit to the folder's solve record; layers/record.go is its one
// writer, reader and validator, and reads the records of earlier versions
// too (layers.TestOldRecordsParse).
package retro
