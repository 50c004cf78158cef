//go:build !linux

package main

import "time"

// offCPU is read on Linux only (offcpu_linux.go): bench perfect leaves out
// its account of the time off the processor elsewhere.
type offCPU struct {
	wall             time.Duration // the wall time accounted for (set by the caller)
	onCPU, runDelay  time.Duration
	minor, major     int64
	vol, involuntary int64
}

func (o offCPU) minus(p offCPU) offCPU { return o }
func (o offCPU) plus(p offCPU) offCPU  { return offCPU{wall: o.wall + p.wall} }

// readOffCPU reports that offCPU cannot be read here.
func readOffCPU() (offCPU, bool) { return offCPU{}, false }
