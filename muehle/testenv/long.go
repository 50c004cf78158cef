package testenv

import "testing"

// Long skips t when the tests run with -short: t is a long test, over
// about 20 seconds (the Makefile's comment on -short). why says what
// makes it long, e.g. "solves the game of 4 stones".
func Long(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("long test (%s): runs without -short", why)
	}
}
