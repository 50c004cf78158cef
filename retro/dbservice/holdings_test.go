package dbservice

import (
	"context"
	"os"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

// TestDescribeAndRepair solves 3-3 of Nine Men's Morris, says what the
// folder holds (with 3-4 being computed), damages the layer's body and
// finds it with CheckAll, and repairs it with the repair policy.
func TestDescribeAndRepair(t *testing.T) {
	db, err := layers.OpenDB(t.TempDir(), muehle.NineMensMorris)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := Solve(context.Background(), db, Run{Opts: retro.SolveOptions{MaxStones: 6}}); err != nil {
		t.Fatal(err)
	}
	k := layers.Moving(3, 3)
	h := Describe(db, Busy{Key: layers.Moving(3, 4), On: true})
	for _, want := range []string{"  3   # *", "  4   * ·", "# complete   · missing\n* computing  ! damaged", "0 of 497 layers complete"} {
		if !strings.Contains(h.Text, want) {
			t.Errorf("Describe lacks %q:\n%s", want, h.Text)
		}
	}
	if h.Moving != 1 || h.MovingAll != 49 || h.Placement != 0 || h.PlacementAll != 497 {
		t.Errorf("Describe: %d of %d moving, %d of %d placement layers; want 1 of 49, 0 of 497", h.Moving, h.MovingAll, h.Placement, h.PlacementAll)
	}
	if _, ok := RepairOptions(db); ok {
		t.Errorf("repair options of a sound folder: want none")
	}

	// The body damaged: a new DB finds it only when it reads the body.
	path := db.Path(k)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db2, err := layers.OpenDB(db.Dir(), muehle.NineMensMorris)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	CheckAll(db2)
	if d := KeyNames(Damaged(db2)); d != "3-3" {
		t.Fatalf("damaged after CheckAll: got %q, want 3-3", d)
	}
	if h := Describe(db2, Busy{}); !strings.Contains(h.Text, "  3   ! ·") || !strings.Contains(h.Text, "! damaged, used as missing: 3-3") {
		t.Errorf("Describe of the damaged layer:\n%s", h.Text)
	}
	opts, ok := RepairOptions(db2)
	if !ok || opts.MaxStones != 6 || opts.Placement {
		t.Fatalf("repair options: got %+v, %v; want the moving layers up to 6 stones", opts, ok)
	}
	if _, err := Solve(context.Background(), db2, Run{Opts: opts}); err != nil {
		t.Fatal(err)
	}
	if st, err := db2.Check(k); st != layers.StatusVerified {
		t.Errorf("3-3 after the repair: %v, %v; want verified", st, err)
	}
}
