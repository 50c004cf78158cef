//go:build long

package retro

// plainLongPairs adds the larger pairs to TestSolverMatchesPlain.
const plainLongPairs = true
