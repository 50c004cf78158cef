package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// profileEnv names the environment variable that makes any command write
// a CPU profile (runtime/pprof) of its whole run to the file it names, for
// `go tool pprof`: how the solver's phases were profiled (docs/solver.md).
const profileEnv = "MUEHLE_CPUPROFILE"

// startProfile starts the CPU profile that profileEnv asks for and returns
// the function that ends it; without the variable it does nothing.
func startProfile() (stop func()) {
	path := os.Getenv(profileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "muehlectl: %s: %v\n", profileEnv, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
