// Package retrotest gives tests small databases computed by the solver:
// the players' tests (retro/search, play, teach), which must not import the solver
// itself, and the command's. Only tests import it (TestImportGraph
// checks). A database is solved once per test binary and shared by the
// tests that ask for it; it lives in a temporary folder that Main removes.
package retrotest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

// solved is one shared database, solved on first use.
type solved struct {
	once sync.Once
	db   *layers.DB
	err  error
}

// what says which layers of a game a shared database holds.
type what int

const (
	complete    what = iota // moving and placement layers, the placement classes reachable from the empty board
	completeAll             // moving and placement layers, every class of the placement layers
	movingOnly              // the moving layers alone
)

// key names a shared database: a game of some stones, and its layers.
type key struct {
	v    muehle.Variant
	what what
}

// options are the solver's options that compute the database.
func (k key) options() retro.SolveOptions {
	return retro.SolveOptions{Placement: k.what != movingOnly, PlacementAll: k.what == completeAll}
}

var (
	mu       sync.Mutex
	dbs      = map[key]*solved{}
	dirs     []string     // the folders Main removes
	opens    []*layers.DB // the databases Main closes
	mainRuns bool         // Main runs the tests: the folders will be removed
)

// Solved returns the complete database of Nine Men's Morris played with k
// stones per side (moving and placement layers, the placement classes
// reachable from the empty board, verified), solved once per test binary.
// Tests must not write into it or close it.
func Solved(tb testing.TB, k int) *layers.DB {
	return shared(tb, key{muehle.Standard.With(k), complete})
}

// SolvedAll is Solved with every class of the placement layers stored,
// reachable or not (retro.SolveOptions.PlacementAll).
func SolvedAll(tb testing.TB, k int) *layers.DB {
	return shared(tb, key{muehle.Standard.With(k), completeAll})
}

// SolvedGame is Solved of any game of the family: the complete database
// of v.
func SolvedGame(tb testing.TB, v muehle.Variant) *layers.DB {
	return shared(tb, key{v, complete})
}

// SolvedMoving is Solved of the moving layers alone: what muehlectl
// solve makes without --all-phases.
func SolvedMoving(tb testing.TB, k int) *layers.DB {
	return shared(tb, key{muehle.Standard.With(k), movingOnly})
}

// shared returns the shared database named by key.
func shared(tb testing.TB, key key) *layers.DB {
	tb.Helper()
	mu.Lock()
	if !mainRuns {
		mu.Unlock()
		tb.Fatalf("retrotest: a shared database needs the package's TestMain to call retrotest.Main, which removes its folder")
	}
	s := dbs[key]
	if s == nil {
		s = &solved{}
		dbs[key] = s
	}
	mu.Unlock()
	s.once.Do(func() {
		dir, err := os.MkdirTemp("", fmt.Sprintf("retrotest-%s-k%d-", key.v.Game, key.v.Stones))
		if err != nil {
			s.err = err
			return
		}
		mu.Lock()
		dirs = append(dirs, dir)
		mu.Unlock()
		s.db, s.err = solve(dir, key.v, key.options())
	})
	if s.err != nil {
		tb.Fatalf("retrotest: solving %s: %v", key.v, s.err)
	}
	return s.db
}

// CopyIn copies the shared complete database of k stones (Solved) into
// dir and returns it opened there, closed when tb ends: for a test that
// writes into the folder or hands it to a command that may. The copy
// costs milliseconds where solving the 4-stone game again costs seconds
// (a minute under the race detector).
func CopyIn(tb testing.TB, dir string, k int) *layers.DB {
	tb.Helper()
	return copyIn(tb, dir, key{muehle.Standard.With(k), complete})
}

// CopyGameIn is CopyIn of the complete database of any game (SolvedGame).
// Several games may be copied into one folder: each has its own subfolder
// there (layers.GameDir).
func CopyGameIn(tb testing.TB, dir string, v muehle.Variant) *layers.DB {
	tb.Helper()
	return copyIn(tb, dir, key{v, complete})
}

// CopyMovingIn is CopyIn of the moving layers alone (SolvedMoving).
func CopyMovingIn(tb testing.TB, dir string, k int) *layers.DB {
	tb.Helper()
	return copyIn(tb, dir, key{muehle.Standard.With(k), movingOnly})
}

// copyIn copies the shared database named by key into dir and opens it.
func copyIn(tb testing.TB, dir string, key key) *layers.DB {
	tb.Helper()
	if err := os.CopyFS(dir, os.DirFS(shared(tb, key).Dir())); err != nil {
		tb.Fatalf("retrotest: copying the database of %s: %v", key.v, err)
	}
	db, err := layers.OpenDB(dir, key.v)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// SolveAllIn solves the complete game of k stones in dir (as Solved, what
// is there already is kept) and returns the database, closed when tb ends.
func SolveAllIn(tb testing.TB, dir string, k int) *layers.DB {
	tb.Helper()
	return SolveIn(tb, dir, k, retro.SolveOptions{Placement: true})
}

// SolveIn solves the game of k stones in dir with opts (what is there
// already is kept) and returns the database, closed when tb ends.
func SolveIn(tb testing.TB, dir string, k int, opts retro.SolveOptions) *layers.DB {
	tb.Helper()
	db, err := layers.OpenDB(dir, muehle.Standard.With(k))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	if err := retro.Solve(context.Background(), db, opts); err != nil {
		tb.Fatal(err)
	}
	return db
}

// solve solves the game v in dir with opts and keeps the database open
// for Main to close.
func solve(dir string, v muehle.Variant, opts retro.SolveOptions) (*layers.DB, error) {
	db, err := layers.OpenDB(dir, v)
	if err != nil {
		return nil, err
	}
	mu.Lock()
	opens = append(opens, db)
	mu.Unlock()
	return db, retro.Solve(context.Background(), db, opts)
}

// Main runs the tests and removes the shared databases; a package whose
// tests use Solved calls it from TestMain: os.Exit(retrotest.Main(m)).
func Main(m *testing.M) int {
	mu.Lock()
	mainRuns = true
	mu.Unlock()
	code := m.Run()
	mu.Lock()
	defer mu.Unlock()
	for _, db := range opens {
		db.Close()
	}
	for _, dir := range dirs {
		os.RemoveAll(dir)
	}
	return code
}
