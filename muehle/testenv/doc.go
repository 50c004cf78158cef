// Package testenv says how the module's tests run: Long marks a long test
// (skipped with go test -short), SlowUnderRace one too slow under the race
// detector (skipped there), and Race tells whether the detector is on; the
// module has no other way to mark these. Only tests import it
// (TestImportGraph checks); it imports the standard library alone, so the
// tests of every package may use it, muehle's own included.
//
// One concern per file:
//
//	long.go      Long: skip a long test with -short, saying why it is
//	             long; Full: whether the tests run in full;
//	             SlowUnderRace: skip a test under the race detector
//	race.go      Race under the race detector (build tag race)
//	norace.go    Race without it
package testenv
