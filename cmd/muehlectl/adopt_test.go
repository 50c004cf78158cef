package main

import (
	"context"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/muehle/testenv"
	"muehle/retro"
	"muehle/retro/retrotest"
)

// TestAdoptCommand gives Nine Men's Morris of 4 stones the moving layers
// of Lasker Morris of 4 stones solved in the same folder, which a solve's
// note points to (adoptHint), but those of a unit a solver holds, which
// are passed over; a solve of the game then computes the rest, and every
// layer of the folder has the figures and body checksum of the game
// solved from the beginning (retrotest.Solved). The flags are checked,
// and a game that shares nothing adopts nothing.
func TestAdoptCommand(t *testing.T) {
	testenv.SlowUnderRace(t, "solves Lasker Morris's moving layers and the standard game's placement of 4 stones")
	dir := t.TempDir()
	if out, errs, code := runCmd(t, "solve", "--db", dir, "--game", "lasker", "--stones", "4", "--compress"); code != 0 {
		t.Fatalf("solve lasker: status %d, output %q, stderr %q", code, out, errs)
	}
	db, err := layers.OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if hint := adoptHint(db, dir); !strings.Contains(hint, "lasker/k4 holds 4 moving layers of this game verified") || !strings.Contains(hint, "--game standard --stones 4 --from lasker --from-stones 4") {
		t.Errorf("the hint of a solve before adopting: %q", hint)
	}
	held, err := db.Claim(context.Background(), "m3-4", false)
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCmd(t, "adopt", "--db", dir, "--stones", "4", "--from", "lasker", "--from-stones", "4")
	held.Release()
	for _, want := range []string{"layer 1 of 4  3-3    adopted, compressed, ", "  3-4    passed over: ", "  4-3    passed over: ", "2 moving layers adopted from lasker k4 in ", "(0 verified here already, 2 passed over, 0 not verified there)"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("adopt: status %d, output %q, stderr %q; want %q in it", code, out, errs, want)
		}
	}
	out, errs, code = runCmd(t, "adopt", "--db", dir, "--stones", "4", "--from", "lasker", "--from-stones", "4")
	if code != 0 || !strings.Contains(out, "2 moving layers adopted from lasker k4 in ") || !strings.Contains(out, "(2 verified here already, 0 passed over") {
		t.Errorf("adopt again: status %d, output %q, stderr %q; want the 2 passed over adopted", code, out, errs)
	}
	if out, _, _ := runCmd(t, "adopt", "--db", dir, "--stones", "4", "--from", "lasker", "--from-stones", "4"); !strings.Contains(out, "nothing to adopt from lasker k4: 4 shared moving layers verified here already") {
		t.Errorf("adopt a third time: output %q; want nothing to adopt", out)
	}

	if hint := adoptHint(db, dir); hint != "" {
		t.Errorf("the hint once all is adopted: %q, want none", hint)
	}
	out, errs, code = runCmd(t, "solve", "--db", dir, "--stones", "4", "--all-phases")
	if code != 0 || !strings.Contains(out, "units to compute") || strings.Contains(out, "m3-3") {
		t.Fatalf("solve after adopting: status %d, output %q, stderr %q; want only the placement units", code, out, errs)
	}
	want := retrotest.Solved(t, 4)
	for _, k := range layers.OrderIn(want.Variant(), true) {
		hw, err := want.Header(k)
		if err != nil {
			t.Fatal(err)
		}
		hg, err := db.Header(k)
		if err != nil || hg != hw || !db.Verified(k) {
			t.Errorf("%v: header %+v, %v (verified %v); want %+v as solved from the beginning", k, hg, err, db.Verified(k), hw)
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"adopt", "--db", dir}, "--from: want the game"},
		{[]string{"adopt", "--db", dir, "--from", "standard"}, "--from standard: the game itself"},
		{[]string{"adopt", "--db", dir, "--from", "chess"}, "--from chess"},
		{[]string{"adopt", "--db", dir, "--from", "lasker", "--from-stones", "11"}, "--from-stones 11"},
	} {
		if _, errs, code := runCmd(t, c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: status %d, stderr %q; want status 2 and %q", c.args, code, errs, c.want)
		}
	}
	if out, errs, code := runCmd(t, "adopt", "--db", dir, "--game", "twelve", "--stones", "4", "--from", "lasker", "--from-stones", "4"); code != 0 || !strings.Contains(out, "nothing to adopt from lasker k4: 0 shared") {
		t.Errorf("twelve from lasker: status %d, output %q, stderr %q; want nothing to adopt", code, out, errs)
	}
}

// TestMemoryNote: a solve without --mem warns when its largest unit may
// take more memory than is available, and names a --mem within it;
// with --mem, with room, or not knowing the memory, it says nothing.
func TestMemoryNote(t *testing.T) {
	tasks := []retro.Task{{Cost: retro.Cost{MemBytes: 3 << 30}}, {Cost: retro.Cost{MemBytes: 15 << 30}}}
	avail := func(n uint64, ok bool) func() (uint64, bool) { return func() (uint64, bool) { return n, ok } }
	got := memoryNote(tasks, 0, avail(12<<30, true))
	for _, want := range []string{"its largest unit may take 15360 MiB and 12288 MiB of memory are available now", "--mem 9216 keeps"} {
		if !strings.Contains(got, want) {
			t.Errorf("memoryNote: %q, want %q in it", got, want)
		}
	}
	for _, c := range []struct {
		mem   int64
		avail func() (uint64, bool)
	}{{9216 << 20, avail(12<<30, true)}, {0, avail(16<<30, true)}, {0, avail(0, false)}} {
		if got := memoryNote(tasks, c.mem, c.avail); got != "" {
			t.Errorf("memoryNote with --mem %d: %q, want nothing", c.mem>>20, got)
		}
	}
}
