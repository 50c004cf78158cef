// Package play holds the computer players that read the database: the
// alpha-beta player, the conspiracy number player and the perfect player.
// It reads the database through layers.Prober, layer headers
// (LayerSource) and, for training, TrainingDB, and never imports the
// solver (package retro), as a tablebase probing library never imports
// the generator. Its tests play on small games the
// solver computed once per test run through retro/retrotest, a helper only
// tests may import; TestImportGraph in package muehle enforces both.
//
// One concern per file:
//
//	search.go    the search: limits, options, results, the node and
//	             quiescence recursion, move ordering, repetition
//	alphabeta.go AlphaBeta, the player: iterative deepening, aspiration
//	             windows, ties at the root
//	tt.go        the transposition table (16-byte entries)
//	ccns.go      controlled conspiracy number search (Cc2s) on any game
//	             with cnGame: values, targets, UpdateValue, PartialExpansion,
//	             Split, the root's DetermineMove, conspiracy numbers, the
//	             tables of fulfilled targets
//	ccns_player.go CCNS, the conspiracy number player: Cc2s on our move
//	             generator, evaluated by the alpha-beta searcher, reading
//	             the database (docs/search.md)
//	strategies.go leaf-disjoint strategies for a position's true value in
//	             its tree t plies deep: the measure of the search-with-errors
//	             experiment
//	zobrist.go   Zobrist keys (board, side to move, stones in hand)
//	evaluate.go  the static evaluation (material, mills, mobility)
//	probe.go     database values as search scores; MovingOnly
//	perfect.go   Perfect, the perfect player: every move's value and the
//	             opponent's replies, the tie-break among moves of equal value
//	placement.go PlacementSearch: exact values of placement positions
//	             without a stored layer, by alpha-beta down to the moving
//	             layers (docs/placement.md)
//	classtt.go   its transposition table, keyed by symmetry class
//	book.go      Book, its persistent cache of decided positions
//	booklock_*.go the file lock that lets processes share a book
//	review.go    the game review: each move's verdict (value before and
//	             after, the mark, the best move), principal lines and
//	             refutations
//	verdict_text.go a verdict as a game record comment, and back
//	tree.go      TraceTree: the alpha-beta player's search recorded node
//	             by node (window, value, move ordering, cut moves), or
//	             minimax with the same code, with database values beside
//	tree_text.go the tree as text: scores, bounds, marks, the legend
//	ccns_tree.go TraceCCNS: the conspiracy number player's search recorded
//	             (value, evaluations, last target, the strategies each node
//	             holds for the root's decision), with database values beside
//	ccns_tree_text.go that tree as text: its lines, words, the legend
//	training.go  training positions: seeded draws of positions where one
//	             move (or a few) keeps the value, by layers, goal and
//	             difficulty band (docs/training.md), and the check of an
//	             answer with the refutation of a wrong one
//	training_run.go TrainingRun: one sitting of training, its positions
//	             and answers
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
