// Package analysis is the one answer muehlectl gives for a position: its
// value from the database and every legal move with the value it leads
// to, in the order the default perfect player prefers them, and the moves
// it picks among. muehlectl query, the protocol (muehlectl uci) and the
// server (muehlectl serve) all call Ask (Of, ValuesOf); its answer is
// play.Perfect.Evaluate and play.BestCount, the two calls the window's
// Show Perfect Moves makes (ui.DBEngines' evaluator, which cannot import
// a command's package), so that all four agree by construction;
// cmd/muehlectl's TestAnswersAgree holds query, the protocol and the
// server equal on sample positions.
//
// # Files
//
//	analysis.go  Ask (Of, ValuesOf): the answer for a position; ErrNotStored
//	json.go      the answer and the estimate in JSON (the server's API)
//	estimate.go  alpha-beta's estimate where the database has no layer,
//	             marked as such, never presented as a database value
package analysis
