// Package ui is the desktop program's window: the board widget, the side
// panel, the database panel, the set-up editor, the menus and the dialogs.
// It is the only package besides cmd/muehle that imports Fyne; the
// fyne.App is passed in (app.NewWithID lives in cmd/muehle).
//
// The game flow itself (whose turn it is, which player moves, computer
// moves in cancellable goroutines whose stale results are dropped,
// undo/redo, pause and step, review, the move speed, the perfect-move
// marks) is in the Fyne-free
// package ui/game, which builds and tests without cgo. This package wires
// it to widgets: a tap on a point of the board becomes one call of
// game.Controller.Tap, a tap on a side's stones in hand one of
// game.Controller.TapHand (placing chosen in Lasker Morris), and the
// controller's OnChange redraws the board from its View, the panels and
// the menus. Results of computer players reach
// the controller through fyne.Do.
//
// One concern per file:
//
//	app.go        the main window, options, preferences (players, speed,
//	              the last game, pause, the flipped board), redrawing on
//	              change, keys for review and pause, the board's share of
//	              the width
//	board.go      the board widget and its renderer (the edges of the
//	              game's board, per-point state, the mill just closed,
//	              names and stones in hand, framed when chosen for placing
//	              in Lasker Morris, the animation of a moving stone); taps
//	              on a point or on a side's strip
//	geometry.go   points ↔ pixels, the strips for the stones in hand and
//	              which side's strip a tap hits
//	theme.go      colours of stones, marks and values
//	appearance.go the light, dark or system theme of the window
//	sidepanel.go  the game tab: headline, players, state number, the
//	              database's verdict and the table of moves in plain words
//	movelist.go   the move list, which is also how a game is reviewed
//	review.go     Review Game: the database's verdict on every move, in
//	              the background; the marks in the move list, the best move
//	              as an arrow on the board, the refutation in the side
//	              panel; the verdicts kept in saved records and read back
//	searchtree.go Search Tree: a window with the alpha-beta player's
//	              search tree of the position on the board beside minimax's
//	              or the conspiracy number player's (play.TraceTree,
//	              play.TraceCCNS, in the background), node counts, database
//	              values and disagreements, moves left out, zoom, node
//	              limit; a node chosen in one tree is chosen in the other,
//	              and its position is drawn on a small board
//	treepane.go   one tree of that window: heading, rows, collapse and
//	              expand, the node of a line found and revealed; what a
//	              pane needs of each kind of tree (shownTree)
//	walk.go       a line of moves on the board (game.Walk): the refutation
//	              of a marked move or of a wrong answer, stepped through
//	              with buttons and keys while the game waits; taps on the
//	              board passed to the game unless a line is open
//	training.go   Analysis ▸ Training…: positions from the database
//	              (play.DrawTraining) answered on the board, right or wrong
//	              (play.CheckAnswer), the training bar
//	newgame.go    New Game (the game and its stones, the players and the
//	              draw rule), the questions before a game is given up or a
//	              new line started
//	dbpanel.go    the database tab: the layers present of the game on the
//	              board (or of the game whose computation runs, which
//	              keeps its lines until it ends), computing its small
//	              endgames or complete database, pause and resume
//	dboffer.go    the offer to compute a small game's whole database
//	              when a game of it starts with its folder empty
//	dbwork.go     the window's side of the database service
//	              (retro/dbservice: estimate, progress, time left, the
//	              solve record), what the perfect player does
//	dbconvert.go  layers of the older file format (folders of Nine Men's
//	              Morris only): the dialog that offers their conversion,
//	              run in the background (dbservice.Convert) with Pause
//	dbcompress.go the layers lying flat: Compress layers, the dialog that
//	              offers it, run in the background (dbservice.Compress)
//	              with Pause
//	dbimport.go   Database ▸ Import…: a package of layers (layers/pack)
//	              described, checked and installed in the background
//	              (dbservice.ImportFile), with progress, Pause and Resume
//	editor.go     the set-up dialog
//	menus.go      menus, shortcuts, the move speeds offered
//	help.go       the Help menu: the keyboard shortcuts, About (version,
//	              commit, database)
//	rules.go      the rules of each game for players, written from its
//	              entry of muehle.Games (board, stones, rule switches)
//	              and a paragraph about it
//	rulespic.go   their pictures, drawn from the board's data, and the
//	              Help ▸ Rules of the Game dialog
//	hint.go       Game ▸ Hint: the perfect player's move shown once, noted
//	              in the saved record
//	files.go      opening, saving, copying and pasting games and positions
//	games.go      the games the window plays (Nine and Twelve Men's
//	              Morris, Lasker Morris), the one last chosen, and
//	              following the game on the board: the engines' database,
//	              the players, the title
//	engines.go    DBEngines: the players and marks from retro/play and the
//	              database of the game on the board, and the solver and
//	              the tables of layers behind the database tab, for every
//	              game (Lasker Morris's layers with stones in hand grouped
//	              by the stones in each hand)
package ui
