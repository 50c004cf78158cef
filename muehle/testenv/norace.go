//go:build !race

package testenv

// Race is true when the tests run with the race detector (go test -race),
// which makes some tests ten times slower: those skip under it, or do
// less, and run in full without it (make test runs both ways).
const Race = false
