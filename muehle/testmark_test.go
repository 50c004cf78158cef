package muehle

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOneTestMark: long tests are marked one way and the race detector has
// one switch (docs/design.md, "Long tests and the race detector"): no Go
// file outside muehle/testenv calls testing.Short(), sets a constant from
// the race build tag or skips under the detector by hand (if testenv.Race
// { t.Skip… }: testenv.SlowUnderRace says it), and no test file is named
// *_long_test.go.
func TestOneTestMark(t *testing.T) {
	root := moduleRoot(t)
	short := regexp.MustCompile(`testing\.Short\(\)`)
	raceSkip := regexp.MustCompile(`if testenv\.Race \{\s*t\.Skip`)
	raceTag := regexp.MustCompile(`(?m)^//go:build .*\brace\b`)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "muehle/testenv" || p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		if strings.HasSuffix(rel, "_long_test.go") {
			t.Errorf("%s: a long test is marked by testenv.Long, not by its file's name", rel)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if short.Match(b) && rel != "muehle/testmark_test.go" {
			t.Errorf("%s calls testing.Short(); use testenv.Long or testenv.Full", rel)
		}
		if raceSkip.Match(b) {
			t.Errorf("%s skips under the race detector by hand; use testenv.SlowUnderRace", rel)
		}
		if raceTag.Match(b) {
			t.Errorf("%s is built by the race tag; use testenv.Race", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNoGoroutines: neither the package muehle nor its tests start a
// goroutine (no go statement, no parallel test), so the race detector can
// find nothing in its tests and make test's race pass leaves them out;
// muehle's code runs on many goroutines in the race tests of the solver
// and the players (docs/design.md, "Long tests and the race detector").
func TestNoGoroutines(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				t.Errorf("%s: a go statement; take the package back into make test's race pass (Makefile)", fset.Position(n.Pos()))
			case *ast.SelectorExpr:
				if n.Sel.Name == "Parallel" {
					t.Errorf("%s: a parallel test; take the package back into make test's race pass (Makefile)", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
}
