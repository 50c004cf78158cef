package layers

import (
	"bytes"
	"os"
	"strconv"
)

// processStart returns when the process pid started, in clock ticks since
// the machine booted: field 22 of /proc/PID/stat. ok is false when it
// cannot be read.
func processStart(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The second field, the command name in parentheses, may hold spaces
	// and parentheses: the fields after it follow its last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	const startField = 22 - 3 // fields 3 (state) onwards follow the ')'
	if len(f) <= startField {
		return 0, false
	}
	v, err := strconv.ParseUint(string(f[startField]), 10, 64)
	return v, err == nil
}
