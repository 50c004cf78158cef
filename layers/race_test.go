//go:build race

package layers

// raceEnabled is set when the tests run with the race detector, which makes
// the exhaustive index checks about ten times slower.
const raceEnabled = true
