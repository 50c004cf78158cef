package main

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForgedHeaderFigures forges the won and drawn counts of layer 3-3's
// header with a fitting header checksum, as TestHeaderFiguresChecked in
// layers does, and checks the commands (issue 28): stats and verify find
// the damage, report does not print the false figures as sound, and solve
// does not say "nothing to do" but recomputes the layer.
func TestForgedHeaderFigures(t *testing.T) {
	dir := solvedK3(t)
	path := filepath.Join(dir, "k3", "m3-3.layer")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	le.PutUint64(b[32:], le.Uint64(b[32:])+1)
	le.PutUint64(b[48:], le.Uint64(b[48:])-1)
	tab := crc32.MakeTable(crc32.Castagnoli)
	le.PutUint32(b[72:], crc32.Update(crc32.Update(0, tab, b[:72]), tab, b[76:128]))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}

	for _, cmd := range []string{"stats", "verify", "report"} {
		code, out, stderr := muehlectl(cmd, "--db", dir, "--stones", "3")
		// The forged count may appear in the message, not as a figure.
		if code != 1 || !strings.Contains(out+stderr, "figures") || strings.Contains(out, "3-3 140622") || strings.Contains(out, "| 140622 |") {
			t.Errorf("%s: got exit %d, %q %q; want exit 1 naming the figures, without the forged 140622 as a figure", cmd, code, out, stderr)
		}
	}
	code, out, stderr := muehlectl("solve", "--db", dir, "--stones", "3")
	if code != 0 || strings.Contains(out, "nothing to do") {
		t.Errorf("solve: got exit %d, %q %q; want the layer recomputed", code, out, stderr)
	}
	code, out, _ = muehlectl("stats", "--db", dir, "--stones", "3")
	if code != 0 || out != "3-3 140621 28736 269 25 26\n" {
		t.Errorf("stats after solve: got exit %d, %q; want the 3-3 line of docs/rules.md", code, out)
	}
}
