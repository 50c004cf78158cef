// Package play holds the perfect players and the one list of player
// kinds: Perfect and its placement search, book and draw rules, the
// difficulty levels, and Spec, the grammar of player names that builds
// any player, the searching ones of package search included. It reads the
// database through layers.Prober and layer headers (LayerSource), imports
// search, layers and muehle, and never the solver (package retro), as a
// tablebase probing library never imports the generator; teach (review
// and training) sits above it. Its tests play on small games the solver
// computed once per test run through retro/retrotest and on the fakes of
// retro/playtest, helpers only tests may import; TestImportGraph in
// package muehle enforces all this.
//
// One concern per file:
//
//	perfect.go   Perfect, the perfect player: every move's value and the
//	             opponent's replies, the tie-break among moves of equal value;
//	             a move reads outcomes first, depths and replies only where
//	             its choice needs them (layers.OutcomeProber: outcomes apart)
//	placement.go PlacementSearch: exact values of placement positions
//	             without a stored layer, by alpha-beta down to the moving
//	             layers (docs/placement.md); MovingOnly, the prober that
//	             hides the placement layers from it
//	classtt.go   its transposition table, keyed by symmetry class
//	book.go      Book, its persistent cache of decided positions
//	booklock_*.go the file lock that lets processes share a book
//	bahnsen.go   Bahnsen's improved perfect play among drawing moves (§7.3
//	             of his thesis: A = v·z·f, G), with the rebuilt formulas
//	sector.go    the sector variant: the won share of the layer after the
//	             next removal
//	shipped.go   NewShipped, the perfect player the desktop program ships
//	             and muehlectl measures, with its defaults (placement time,
//	             fallback depth, book); Env and Sources, what Spec.New reads
//	games.go     Supported: the games the players and the database know
//	spec.go      Spec, the one grammar of player names ("ab:4", "perfect",
//	             "level:3", …), read by muehlectl and the desktop program
//	fallible.go  Fallible, a player that errs with a given probability
//	level.go     Level, the difficulty levels 1 to 10: the perfect player
//	             erring with a calibrated probability p(n)
//
// Every player implements muehle.Player and is synchronous: Move returns
// when the move is chosen or ctx is done. A player is not safe for
// concurrent use; give each goroutine its own.
package play
