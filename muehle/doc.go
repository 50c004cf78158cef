// Package muehle implements the rules of Nine Men's Morris (Mühle) exactly as
// shared/RULES.md states them: the board, positions, moves and their
// inverses, symmetries, the game with its history, notation and perft.
//
// It uses the standard library only, and its hot loops (move and un-move
// generation, symmetry application) do not allocate.
package muehle
