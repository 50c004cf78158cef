package layers

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// freeLine is the last line of cmd's dir: "2 Dir(s)  69,601,726,464 bytes
// free" (the digits grouped as the locale groups them).
var freeLine = regexp.MustCompile(`([0-9][0-9.,' \x{a0}\x{202f}]*) bytes free`)

// systemFreeBytes returns the space that cmd's dir says is free on the
// volume of dir; it skips the test when there is no cmd, or its output
// is not in English.
func systemFreeBytes(t *testing.T, dir string) uint64 {
	t.Helper()
	out, err := exec.Command("cmd", "/c", "dir", dir).Output()
	if err != nil {
		t.Skipf("no cmd to compare with: %v", err)
	}
	m := freeLine.FindAllStringSubmatch(string(out), -1)
	if m == nil {
		t.Skipf("dir's output has no \"bytes free\": %q", out)
	}
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, m[len(m)-1][1])
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		t.Fatalf("dir output %q: %v", out, err)
	}
	return n
}
