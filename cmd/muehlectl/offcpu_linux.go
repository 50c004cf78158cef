package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// offCPU accounts for the wall time of a move beyond its processor time,
// on the thread that makes the move (bench perfect locks the move's
// goroutine to its thread): the thread's time on a core (its CPU clock),
// the time it waited for one while runnable (run delay, from
// /proc/thread-self/schedstat), and the rest of the wall time, blocked (a
// lock, a page read from the disk, a sleep); its page faults (minor: no
// disk; major: read from the disk) and context switches (voluntary: it
// blocked; involuntary: the kernel gave the core to another task), from
// getrusage(RUSAGE_THREAD).
type offCPU struct {
	wall             time.Duration // the wall time accounted for (set by the caller)
	onCPU, runDelay  time.Duration
	minor, major     int64
	vol, involuntary int64
}

// minus returns o less p, field by field.
func (o offCPU) minus(p offCPU) offCPU {
	return offCPU{o.wall - p.wall, o.onCPU - p.onCPU, o.runDelay - p.runDelay, o.minor - p.minor, o.major - p.major, o.vol - p.vol, o.involuntary - p.involuntary}
}

// plus returns o and p added, field by field.
func (o offCPU) plus(p offCPU) offCPU {
	return offCPU{o.wall + p.wall, o.onCPU + p.onCPU, o.runDelay + p.runDelay, o.minor + p.minor, o.major + p.major, o.vol + p.vol, o.involuntary + p.involuntary}
}

// readOffCPU returns the calling thread's offCPU so far, and whether it
// could be read (Linux only). The caller has its goroutine locked to its
// thread.
func readOffCPU() (offCPU, bool) {
	var o offCPU
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return o, false
	}
	o.minor, o.major, o.vol, o.involuntary = ru.Minflt, ru.Majflt, ru.Nvcsw, ru.Nivcsw
	b, err := os.ReadFile("/proc/thread-self/schedstat") // on a core, waiting on a runqueue (ns), timeslices
	if err != nil {
		return o, false
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return o, false
	}
	delay, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return o, false
	}
	// The schedstat's own time on a core is brought up to date only when
	// the thread leaves its core or at a tick; the thread's CPU clock is
	// exact.
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return o, false
	}
	o.onCPU, o.runDelay = time.Duration(ts.Nano()), time.Duration(delay)
	return o, true
}
