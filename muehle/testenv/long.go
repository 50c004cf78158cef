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
