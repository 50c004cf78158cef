// Package search holds the players that search: the alpha-beta player,
// the conspiracy number player, their transposition table and evaluation,
// and the recorded search trees the window and muehlectl tree show. It
// reads the database only as layers.Prober (database values as scores at
// the leaves; the outcome alone, layers.OutcomeProber and KeptProber,
// where a compressed store would find a won position's depth by a ply of
// probes the window does not need) and imports layers and muehle alone: never the solver
// (package retro), and not the packages above it, play (the perfect
// players and the player names) and teach (review and training), which
// import it. TestImportGraph in package muehle enforces this; its tests
// play on small solved games from retro/retrotest and on the fakes of
// retro/playtest, helpers only tests may import.
//
// One concern per file:
//
//	search.go    the search: limits, options, results, the node and
//	             quiescence recursion, move ordering, repetition
//	alphabeta.go AlphaBeta, the player: iterative deepening, aspiration
//	             windows, ties at the root
//	tt.go        the transposition table (16-byte entries)
//	zobrist.go   Zobrist keys (board, side to move, stones in hand)
//	evaluate.go  the static evaluation (material, mills, mobility)
//	probe.go     database values as search scores (ProbeScore)
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
//	tree.go      TraceTree: the alpha-beta player's search recorded node
//	             by node (window, value, move ordering, cut moves), or
//	             minimax with the same code, with database values beside
//	tree_text.go the tree as text: scores, bounds, marks, the legend
//	ccns_tree.go TraceCCNS: the conspiracy number player's search recorded
//	             (value, evaluations, last target, the strategies each node
//	             holds for the root's decision), with database values beside
//	ccns_tree_text.go that tree as text: its lines, words, the legend
//
// Every player implements muehle.Player and is synchronous: Move returns
// when the move is chosen or ctx is done. A player is not safe for
// concurrent use; give each goroutine its own.
package search
