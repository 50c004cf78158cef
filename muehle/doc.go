// Package muehle implements the rules of Nine Men's Morris (Mühle) and of
// the other games of its family on the same engine (Three, Five, Six, Ten,
// Eleven and Twelve Men's Morris, Lasker Morris) exactly as docs/rules.md
// states them: the boards and the
// rule sets as data, positions, moves and their inverses (un-moves),
// symmetries, the game with its history, the Player interface with a random
// player, the text formats and perft.
//
// It uses the standard library only, and its hot loops (move and un-move
// generation, symmetry application) do not allocate.
//
// # Files
//
//	board.go     points, bitboards, Board: a board as data and the tables
//	             derived from it (neighbours, mill partners), removable stones
//	boards.go    the boards: standard, with diagonals, two squares (Five and
//	             Six Men's Morris), 3×3 with and without diagonals
//	rules.go     Rules: a rule set as data; Games, the registry; GameID
//	variant.go   Variant: a game and its stones per side, as a database
//	             holds it; MaxStones
//	position.go  Color, Position, Phase, Validate, colour swap
//	reachable.go CheckReachable: whether a game can reach a position (legal input)
//	move.go      Move, Play, IsLegal
//	movegen.go   AppendMoves, CountMoves, Blocked, IsOver
//	unmove.go    Unplay, AppendUnmoves, AppendUnslides
//	check.go     CheckMove: why a move is illegal, in words
//	reason.go    Reason: an error of this package as a sentence for a person
//	symmetry.go  the symmetries of each board (16 of the standard one)
//	game.go      Game: history, undo/redo (UndoTurn: back to the person's
//	             turn), repetition, result
//	record.go    the game record text
//	notation.go  point, move and position text
//	diagram.go   the board drawn in text
//	player.go    the Player interface and the random player
//	perft.go     perft
//	sample.go    RandomPositions: seeded sample positions for tests and benchmarks
//
// The tests check move generation of every game against a deliberately
// naive generator written from docs/rules.md (naive_test.go), un-moves
// against moves and against a brute-force search for parents, the
// symmetries as automorphisms and as all of them, perft of every game
// against docs/rules.md (depth 7 without -short), the text formats by round
// trips and fuzzing, the import graph of the whole module
// (imports_test.go), and the documentation against the files: each
// package's file list in its doc.go, the README's table of folders, every
// link and path the README and docs/ name (doclists_test.go).
//
// # Glossary
//
//   - Point: one of the intersections of a board, numbered row by row from
//     the top left and named by column and row: on the standard board 0 to
//     23, a1 to g7 (see the diagram).
//   - Board: the points, edges, mills and symmetries of a board, as data
//     (boards.go): the standard board, the one with diagonals, the small one
//     of Six Men's Morris.
//   - Rules: a game as data: its board, stones per side, and whether a side
//     with three stones flies, a full board is drawn, and the phases are
//     mixed (rules.go). Games lists them; a GameID is an entry's number.
//   - Bitboard: a set of points in a uint32; bit i stands for point i.
//   - Color: White or Black; White moves first.
//   - Phase: what the side to move does: Placing (stones in hand; in a
//     mixed game it may also move), Moving (slide along an edge) or Flying
//     (three stones, none in hand, in a game with flying: jump).
//   - Mill: three stones of one colour on one of the lines of three of the
//     board (16 on the standard board, 20 with the diagonals).
//   - Move: one ply: a placement, slide or jump, with the removal of an
//     opponent stone when it closes a mill.
//   - Position: both sides' stones, stones in hand, the side to move and
//     the game (Position.Game; 0 is the standard game).
//   - Game: a start position and the moves played since, with undo/redo
//     and the draw rules.
//   - Layer (package layers): the positions with given numbers of stones on
//     the board and in hand, e.g. the moving layer M(w,b): no stones in
//     hand, w stones for the side to move, b for the other.
//   - Index (package layers): a position's number inside its layer, the
//     same for all positions that differ by a symmetry.
//   - Value (package layers): the one-byte database entry: won, lost or
//     drawn for the side to move, with the depth.
//   - Depth: plies to the end of the game under perfect play; odd for won
//     positions, even for lost ones.
//   - child, parent: q is a child of p when one legal move of p leads to q;
//     p is then a parent of q.
//   - un-move: a move seen from its child: the move m of a parent q with
//     q.Play(m) == p, listed by p.AppendUnmoves and undone by p.Unplay(m).
//
// # Board
//
// Points by number and by coordinate:
//
//	 0(a7)----------1(d7)----------2(g7)
//	  |               |               |
//	  |   3(b6)-----4(d6)-----5(f6)   |
//	  |    |          |          |    |
//	  |    |   6(c5)-7(d5)-8(e5) |    |
//	  |    |    |          |     |    |
//	 9(a4)-10(b4)-11(c4)  12(e4)-13(f4)-14(g4)
//	  |    |    |          |     |    |
//	  |    |  15(c3)-16(d3)-17(e3)    |
//	  |    |          |          |    |
//	  |  18(b2)-----19(d2)-----20(f2) |
//	  |               |               |
//	21(a1)---------22(d1)---------23(g1)
//
// The 16 symmetries (Symmetry 0 to 15) are the 8 symmetries of the square,
// optionally followed by the exchange of the outer and inner rings (8 to
// 15). All of them map the middle ring {3,4,5,10,13,18,19,20} onto itself.
// They are also the symmetries of the board with diagonals; the small board
// of Five and Six Men's Morris has 16 of its own, the 3×3 boards of Three
// Men's Morris the square's 8, and docs/rules.md draws them all.
//
// # Bit layout
//
// A Bitboard holds point i in bit i (bit 0 = a7, bit 23 = g1; bits 24 to 31
// are always zero on the standard board; a board has at most 32 points). A
// Position is 12 bytes:
//
//	Stones [2]Bitboard  Stones[White], Stones[Black]: disjoint sets of points
//	Hand   [2]uint8     stones not yet placed, 0 to 9 each (to 12 in Twelve Men's Morris)
//	Turn   Color        the side to move: White = 0, Black = 1
//	Game   GameID       the rule set, Game.Rules(); 0 = Nine Men's Morris
//
// The move and un-move generators reach their game's tables by the Game
// byte alone: engines (rules.go) is an array of 256 per-game copies of the
// board's tables in fixed-size arrays (neighbours, mill partners, mills)
// with the rules as plain values, indexed without a bounds check and
// without a pointer to follow, so that the standard game runs as fast as
// with the fixed tables it had before.
//
// and a Move is three Points (int8): From (NoPoint = -1 for a placement),
// To, and Remove (NoPoint when nothing is removed).
//
// # Move text
//
// A placement is its point ("d6"), a slide or jump is origin and target
// joined by '-' ("d6-d5"), and a removal appends 'x' and the removed point
// ("b4-b6xd7", "d6xa1"). ParseMove ignores case and surrounding spaces.
//
// # Position text
//
// One line of four fields separated by spaces: the 24 points in the order
// of their numbers (a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2
// d2 f2 a1 d1 g1) as 'W' (White stone), 'B' (Black stone) or '.' (empty);
// the side to move, 'w' or 'b'; then White's and Black's stones in hand,
// one digit each. The start position is
//
//	........................ w 9 9
//
// and after 1. d6 d2 it is "....W..............B.... w 8 8". A position of
// another game has the points of its board (16 for Six Men's Morris, 9 for
// Three Men's Morris: a string of another length is refused with a sentence
// saying how many it wants) and a
// fifth field, the game's ID: "........................ w 12 12 twelve".
// Position.String writes it and ParsePosition reads it (spaces around and
// between fields are ignored; Rules.ParsePosition takes a text of four
// fields as one of its game). ParsePosition checks the syntax;
// Position.Validate checks that the position can occur in a game of k
// stones.
//
// # Game record text
//
// Optional header lines first, each [Name "value"]:
//
//	[Variant "<game ID>"]         the game: standard, twelve, lasker, six, three, … (GameIDs; default standard)
//	[Position "<position text>"]  the start position (default: empty board)
//	[Stones "k"]                  stones per side, 3 to the game's (default the game's: 9)
//	[NoRemovalLimit "n"]          draw after n plies without a removal (default off)
//
// in any order (without Variant, a Position text that names its game
// names the record's), then the moves in move text with the point names of
// the game's board, numbered in pairs (White's move and Black's
// reply share a number, starting at 1; a record whose start position has
// Black to move begins "1. ... d2"), a pair per line when written, any
// whitespace when read; then optionally the result: "1-0" (White won),
// "0-1" (Black won), "1/2-1/2" (drawn) or "*" (not over). For example
//
//	[NoRemovalLimit "50"]
//	1. d6 d2
//	2. a7 g7
//	*
//
// A comment in braces may follow any move, "1. d6 {drawn -> drawn} d2",
// and belongs to the move before it; it may span lines, does not nest, and
// a comment before the first move is an error. The review writes the
// database's verdict on each move there (docs/records.md).
//
// Game.Record writes it, with only the headers that differ from the
// default and always the result; ParseRecord reads it, replays every move
// and reports the line, move number and reason of the first problem.
// Game.RecordWithComments and ParseRecordWithComments do the same with the
// comments.
package muehle
