//go:build !race

package main

// raceEnabled is set when the tests run with the race detector (go test
// -race), which makes some tests ten times slower: those skip under it, or
// do less, and run in full without it (make test runs both ways).
const raceEnabled = false
