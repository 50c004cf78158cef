package layers

import "testing"

// needLong skips t, a long test, with -short.
func needLong(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("long: %s; skipped with -short", what)
	}
}
