package layers

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"muehle/muehle"
)

// TestRulesIDs checks the rules ids of the layer header: every game has
// the id doc.go lists for it, the list names every game once, an id names
// its game back, and a number that names no game is refused. Since the
// GameIDs are permanent (muehle.TestGamesOrder), so are these.
func TestRulesIDs(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	// The header table's entry: from "rules id:" to the next field.
	text := string(doc)
	start := strings.Index(text, "rules id: the game")
	end := strings.Index(text[start:], "\n//\t16 ")
	if start < 0 || end < 0 {
		t.Fatal("doc.go: the header table's rules id entry not found")
	}
	listed := map[string]uint32{}
	for _, m := range regexp.MustCompile(`(\d+) ([a-z-]+)`).FindAllStringSubmatch(text[start:start+end], -1) {
		id, _ := strconv.Atoi(m[1])
		if _, dup := listed[m[2]]; dup {
			t.Errorf("doc.go lists %s twice", m[2])
		}
		listed[m[2]] = uint32(id)
	}
	if len(listed) != len(muehle.Games) {
		t.Errorf("doc.go lists %d rules ids, muehle.Games has %d games", len(listed), len(muehle.Games))
	}
	for _, r := range muehle.Games {
		id := RulesID(r.Game())
		if want, ok := listed[r.ID]; !ok || id != want {
			t.Errorf("%s: RulesID %d, doc.go lists %d (found %v)", r.ID, id, want, ok)
		}
		if g, ok := gameOfRulesID(id); !ok || g != r.Game() {
			t.Errorf("gameOfRulesID(%d): got %v, %v, want %s", id, g, ok, r.ID)
		}
	}
	if id := RulesID(muehle.Standard); id != 1 {
		t.Errorf("RulesID(Standard): got %d, want 1 (every file written before the other games)", id)
	}
	for _, id := range []uint32{0, 200, 257, 1 << 31} {
		if g, ok := gameOfRulesID(id); ok {
			t.Errorf("gameOfRulesID(%d): got %s, want none", id, g)
		}
	}
}
