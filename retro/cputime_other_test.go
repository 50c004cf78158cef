//go:build !unix

package retro

// processCPU is not measured on this system.
func processCPU() float64 { return 0 }
