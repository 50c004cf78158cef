package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"muehle/muehle/testenv"
)

func TestLayersCommand(t *testing.T) {
	for _, c := range []struct {
		args  []string
		lines int
		want  []string
	}{
		{[]string{"layers", "--stones", "3"}, 2, []string{"3-3 ", " 169626\n", "total "}},
		{[]string{"layers"}, 50, []string{"3-3 ", " 169626\n", "8-8 594066582 591726690\n", "total ", " 8904593601\n"}},
		// A small board's index: its slots are its symmetry classes
		// (docs/games.md: 228 in layer 3-3 of Three Men's Morris, 105,700
		// in layer 6-6 of Six Men's Morris).
		{[]string{"layers", "--game", "three"}, 2, []string{"3-3 228 228\n", "total 228 228\n"}},
		{[]string{"layers", "--game", "six"}, 17, []string{"6-6 105700 105700\n"}},
	} {
		if testenv.Race && len(c.args) == 1 {
			continue // every layer of the 9-stone game: a minute and a half under the race detector; run without it
		}
		var out, errOut bytes.Buffer
		if code := run(context.Background(), c.args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", c.args, code, errOut.String())
		}
		s := out.String()
		if got := strings.Count(s, "\n"); got != c.lines {
			t.Errorf("%v: got %d lines, want %d:\n%s", c.args, got, c.lines, s)
		}
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, s)
			}
		}
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"layers", "--stones", "10"}, &out, &errOut); code == 0 {
		t.Errorf("layers --stones 10: got exit 0, want an error")
	}
}
