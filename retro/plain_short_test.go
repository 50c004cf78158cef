//go:build !long

package retro

// plainLongPairs adds the larger pairs to TestSolverMatchesPlain (with -tags long).
const plainLongPairs = false
