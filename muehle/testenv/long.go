package testenv

import "testing"

// Long skips t when the tests run with -short: t is a long test, over
// about 20 seconds (the Makefile's comment on -short). why says what
// makes it long, e.g. "solves the game of four stones"; the skip message
// reads "long: why; skipped with -short".
func Long(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("long: %s; skipped with -short", why)
	}
}

// Full reports whether the tests run in full, without -short: a test that
// does less with -short (fewer games, a smaller game) asks it, where a
// test that is long as a whole calls Long.
func Full() bool { return !testing.Short() }

// SlowUnderRace skips t under the race detector, which makes it too slow
// for the suite's race pass; make test runs it in its pass without the
// detector. why says what makes it slow, e.g. "solves the complete 4-stone
// game"; the skip message reads "slow under the race detector: why; runs
// without it". A test whose work runs on one goroutine, or whose
// goroutines another test runs under the detector, loses nothing by it.
func SlowUnderRace(t testing.TB, why string) {
	t.Helper()
	if Race {
		t.Skipf("slow under the race detector: %s; runs without it", why)
	}
}
