package dbservice

import (
	"os"
	"strconv"
	"strings"
)

// Load returns the machine's load average of the last minute (the
// processes running or waiting for a core), false where the system does
// not say (only Linux's /proc/loadavg is read).
func Load() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, false
	}
	l, err := strconv.ParseFloat(f[0], 64)
	return l, err == nil && l >= 0
}

// loadShare returns the speed relative to the model of a run of workers
// workers on cores cores beside load processes: the share of the cores it
// gets when every process gets the same, cores / (load + workers), at
// most 1. On the loaded development machine (load 19 on 2 cores) it said
// 0.10, and the 5-stone game and Lasker Morris with 4 stones ran at 0.20
// and 0.12 of the model's speed (docs/figures.md, "Estimates of small
// games").
func loadShare(load float64, cores, workers int) float64 {
	return min(1, float64(cores)/(load+float64(max(1, workers))))
}
