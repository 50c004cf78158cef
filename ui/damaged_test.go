package ui

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muehle/layers"
	"muehle/retro/play"
)

// TestDamagedLayer damages layer 3-3 and checks that the engines treat it
// as missing (marks fail saying it is damaged, the perfect player falls
// back to alpha-beta), that the summary names it, and that Repair restores
// it.
func TestDamagedLayer(t *testing.T) {
	solvedEngines(t) // solves 3-3 into solved33.dir
	dir := t.TempDir()
	sub := filepath.Join(dir, "k9")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(solved33.dir, "k9", "m3-3.layer"))
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff // the body checksum fails
	if err := os.WriteFile(filepath.Join(sub, "m3-3.layer"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	e := NewEngines(dir)
	p, g := endgame33(t)

	ev, err := e.Evaluator()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Evaluate(context.Background(), p); err == nil || !strings.Contains(err.Error(), "layer 3-3, which is damaged") {
		t.Errorf("Evaluate in a damaged layer: got %v, want it to name the damaged layer", err)
	}
	if got := e.Damaged(); got != "3-3" {
		t.Errorf("Damaged: got %q, want 3-3", got)
	}
	if s := e.Summary(); !strings.Contains(s, " !") || !strings.Contains(s, "damaged, used as missing: 3-3") {
		t.Errorf("Summary does not show the damaged layer:\n%s", s)
	}
	pl, err := e.Player(play.Spec{Kind: play.KindPerfect, Lookahead: 1, Draws: play.DrawTrap}, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pl.Move(context.Background(), g); err != nil {
		t.Errorf("perfect player in a damaged layer: got %v, want an alpha-beta move", err)
	}
	if f, ok := pl.(interface{ LastFellBack() bool }); !ok || !f.LastFellBack() {
		t.Errorf("perfect player in a damaged layer: did not say it fell back to alpha-beta")
	}

	if err := e.Repair(context.Background(), func(DBProgress) {}); err != nil {
		t.Fatal(err)
	}
	if got := e.Damaged(); got != "" {
		t.Errorf("Damaged after Repair: got %q, want none", got)
	}
	db, _ := e.database()
	if st, err := db.Check(layers.Moving(3, 3)); st != layers.StatusVerified {
		t.Errorf("3-3 after Repair: got %v, %v, want verified", st, err)
	}
	if _, err := ev.Evaluate(context.Background(), p); err != nil {
		t.Errorf("Evaluate after Repair: %v", err)
	}
}
