// Package teach holds what the program teaches with the database: the
// review of a game (each move's verdict, principal lines, refutations)
// and training (positions where few moves keep the value, and the check of
// an answer). It reads the database through layers.Prober and, for
// training, TrainingDB, and imports layers and muehle; it may import the
// players below it (play, search) but never the solver (package retro),
// and nothing imports it but the window and muehlectl. TestImportGraph in
// package muehle enforces this.
//
// One concern per file:
//
//	review.go    the game review: each move's verdict (value before and
//	             after, the mark, the best move), principal lines and
//	             refutations
//	verdict_text.go a verdict as a game record comment, and back
//	training.go  training positions: seeded draws of positions where one
//	             move (or a few) keeps the value, by layers, goal and
//	             difficulty band (docs/training.md), and the check of an
//	             answer with the refutation of a wrong one
//	training_run.go TrainingRun: one sitting of training, its positions
//	             and answers
package teach
