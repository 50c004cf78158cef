// Package analysis is the one answer muehlectl gives for a position: its
// value from the database and every legal move with the value it leads
// to, in the order the default perfect player prefers them, and the moves
// it picks among. The answer is play.Perfect.Evaluate and play.BestCount,
// the code the window's Show Perfect Moves and `muehlectl query` read, so
// that the protocol (muehlectl uci), the server (muehlectl serve), query
// and the window agree by construction; cmd/muehlectl's TestAnswersAgree
// holds query, the protocol and the server equal on sample positions.
//
// # Files
//
//	analysis.go  Of: the answer for a position; ErrNotStored
//	json.go      the answer and the estimate in JSON (the server's API)
//	estimate.go  alpha-beta's estimate where the database has no layer,
//	             marked as such, never presented as a database value
package analysis
