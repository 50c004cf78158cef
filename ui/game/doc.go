// Package game is the game flow of the desktop program without Fyne: whose
// turn it is, which player moves, a person's taps, computer moves, undo and
// redo, pause and step, reviewing earlier positions, and what the board and
// the status line show. The window (package ui) draws what it is told and
// passes each tap on; this package builds and tests without cgo
// (CGO_ENABLED=0), as the model of Fyne's solitaire knows nothing of Fyne.
//
// The Controller is called on the UI thread only. A computer move, and the
// perfect-move marks of a position, are computed in a goroutine with a
// cancellable context and come back through the function the window gives
// NewController (fyne.Do there), tagged with the game's generation, so that
// a result for a position no longer on the board is dropped. The players
// that need the search or the database come in through the Engines
// interface; this package imports only muehle, layers and, for the one list
// of player kinds (play.Spec, play.Offered), retro/play (TestImportGraph in
// package muehle enforces it).
//
// # Files
//
//	controller.go the Controller: the game, the players, computer moves in
//	              goroutines, undo and redo, the move speed
//	tap.go        a person's taps: place, pick up, move, remove; in Lasker
//	              Morris, whose phases mix, a tap on an empty point places
//	              and a stone picked up moves, and a tap on the hand
//	              chooses placing (TapHand)
//	review.go     pause and step; reviewing an earlier position while the
//	              game waits, and a new line played from it
//	walk.go       a line of moves stepped through on the board apart from
//	              the game (a refutation, a wrong answer's punishment)
//	status.go     the View of the moment, the headline and the status line
//	view.go       View, what the board shows
//	players.go    a side's player as a play.Spec (Human the zero one), its
//	              title and preference string, the Engines interface,
//	              NewPlayer
//	marks.go      the perfect-move marks: MoveMark and the Evaluator
//
// Package gametest holds what the tests of this package and of the window
// share.
package game
