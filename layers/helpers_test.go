package layers

import (
	"os"
	"testing"
)

// needLong skips t unless long checks are asked for: with the build tag
// "long" or the environment variable MUEHLE_LONG=1, and not with -short.
func needLong(t testing.TB, what string) {
	t.Helper()
	if testing.Short() || !longBuild && os.Getenv("MUEHLE_LONG") != "1" {
		t.Skipf("%s: run with -tags long or MUEHLE_LONG=1", what)
	}
}
