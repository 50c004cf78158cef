// Package uci is muehlectl uci: the UCI-like protocol of mill engines
// ("UCI Protocol for Mill Games") on a reader and a writer, stdin and
// stdout, the way chess GUIs drive UCI engines; docs/engine.md describes
// the commands with an example exchange.
//
// The engine reads commands in one goroutine and thinks in another, so it
// answers isready and stop while thinking and never blocks on input.
// Unknown commands are ignored, as UCI says; a bad position or an illegal
// move is reported on an "info string" line and the engine goes on. The
// database's answer for a position is analysis.Of, the one the server,
// query and the window give; bestmove is the chosen player's (any player
// name of play.ParseSpec, the shipped perfect player by default).
//
// # Files
//
//	uci.go       the engine: the command loop, uci, isready, setoption
//	moves.go     position: startpos or fen, and moves in the protocol's
//	             notation (a removal also as a move of its own)
//	fen.go       the mill FEN (Sanmill's) read into a position
//	think.go     go, stop, the info lines and bestmove
package uci
