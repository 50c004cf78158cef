package search

import (
	"os"
	"testing"

	"muehle/retro/retrotest"
)

// The conspiracy-number tests read small games the solver computed
// (retrotest.Solved), removed after the tests.
func TestMain(m *testing.M) { os.Exit(retrotest.Main(m)) }
