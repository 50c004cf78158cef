// Package testenv says how the module's tests run: Long marks a long test
// (skipped with go test -short) and Race tells whether the race detector
// is on; the module has no other way to mark either. Only tests import it
// (TestImportGraph checks); it imports the standard library alone, so the
// tests of every package may use it, muehle's own included.
//
// One concern per file:
//
//	long.go      Long: skip a long test with -short, saying why it is long
//	race.go      Race under the race detector (build tag race)
//	norace.go    Race without it
package testenv
