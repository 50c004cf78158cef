package play

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/retrotest"
	"muehle/retro/search"
)

// TestShippedDefaults checks the decided defaults of the shipped perfect
// player: the sector variant SectorPlies deep, the placement search 2 s a
// move with the book given and a table of 2^22, the fallback alpha-beta
// to depth 6 reading the database.
func TestShippedDefaults(t *testing.T) {
	db, err := layers.OpenDB(t.TempDir(), muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	book := ShippedBook(db)
	if book == nil || book.Path() != BookPath(db.Dir(), db.Variant()) {
		t.Fatalf("ShippedBook: got %v, want the book at %s", book, BookPath(db.Dir(), db.Variant()))
	}
	p := NewShipped(db, book, rand.NewPCG(1, 2), rand.NewPCG(3, 4))
	if p.Draws != DrawSector || p.DrawDepth != 4 || p.Lookahead != 1 {
		t.Errorf("got draws %s, depth %d, lookahead %d; want sector, 4, 1", p.Draws, p.DrawDepth, p.Lookahead)
	}
	if p.Placement == nil || p.Placement.MaxTime != 2*time.Second || p.Placement.Book() != book || p.Placement.bits != 22 {
		t.Fatalf("got placement search %+v, want 2 s a move, the book, 2^22 entries", p.Placement)
	}
	if p.Placement.tt != nil {
		t.Errorf("the table is made before the first search, want it made by the first")
	}
	ab, ok := p.fallback.(*search.AlphaBeta)
	if !ok || ab.Name() != "Alpha-beta (depth 6)" {
		t.Errorf("got fallback %#v, want alpha-beta to depth 6", p.fallback)
	}
}

// TestSpecNew checks the players Spec.New makes: the kind, the streams
// they draw from, and Env's placement time and level rate.
func TestSpecNew(t *testing.T) {
	db := retrotest.Solved(t, 3)
	env := Env{DB: db, Probe: db}
	src := func(seed uint64) Sources {
		return func(stream uint64) rand.Source { return rand.NewPCG(seed, stream) }
	}
	for _, tc := range []struct {
		name string
		want string // the player's Name
	}{
		{"random", "Random"}, {"ab:3", "Alpha-beta (depth 3)"}, {"fallible:2:50", "Fallible Alpha-beta (depth 2)"},
		{"perfect", "Perfect"}, {"perfect:bahnsen:3", "Perfect"}, {"level:4", "Level 4"},
	} {
		sp, err := ParseSpec(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		pl := sp.New(env, src(1))
		if got := pl.Name(); got != tc.want {
			t.Errorf("%s: got a player named %q, want %q", tc.name, got, tc.want)
		}
		if p, ok := pl.(*Perfect); ok && (p.Draws != sp.Draws || p.DrawDepth != sp.DrawDepth || p.Lookahead != sp.Lookahead) {
			t.Errorf("%s: got draws %s %d, lookahead %d, want %s %d, %d", tc.name, p.Draws, p.DrawDepth, p.Lookahead, sp.Draws, sp.DrawDepth, sp.Lookahead)
		}
		// The same sources give the same game; the player is fresh each
		// time (players keep state).
		var games [2][]muehle.Move
		for i := range games {
			g := muehle.NewGame(3)
			players := [2]muehle.Player{sp.New(env, src(7)), muehle.NewSeededRandom(9)}
			for g.Ply() < 40 {
				if r, _ := g.Result(); r != muehle.Ongoing {
					break
				}
				m, err := players[g.Position().Turn].Move(context.Background(), g.Clone())
				if err != nil {
					t.Fatal(err)
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			games[i] = g.History()
		}
		if !slices.Equal(games[0], games[1]) {
			t.Errorf("%s: two games from the same seeds differ:\n%v\n%v", tc.name, games[0], games[1])
		}
	}
	lv := Spec{Kind: KindLevel, Level: 3}.New(Env{DB: db, PlacementTime: -1, LevelRate: func(n int) float64 { return 0.5 }}, src(1)).(*Level)
	if lv.Rate() != 0.5 || lv.perfect.Placement != nil {
		t.Errorf("got level rate %v, placement search %v; want 0.5 and none", lv.Rate(), lv.perfect.Placement)
	}
	p := DefaultPerfect.New(Env{DB: db, PlacementTime: time.Second}, src(1)).(*Perfect)
	if p.Placement == nil || p.Placement.MaxTime != time.Second {
		t.Errorf("got placement search %+v, want 1 s a move", p.Placement)
	}
}

// TestSpecNewCCNS: "ccns:DUR" makes the conspiracy number player with that
// time, "ccns" takes search.DefaultMoveTime.
func TestSpecNewCCNS(t *testing.T) {
	db := retrotest.Solved(t, 3)
	src := func(stream uint64) rand.Source { return rand.NewPCG(1, stream) }
	for _, tc := range []struct {
		name string
		want time.Duration
		str  string
	}{{"ccns:50ms", 50 * time.Millisecond, "Conspiracy numbers (50ms)"}, {"ccns", search.DefaultMoveTime, "Conspiracy numbers (1s)"}} {
		sp, err := ParseSpec(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := sp.New(Env{Probe: db}, src).(*search.CCNS)
		if !ok || c.Name() != tc.str {
			t.Errorf("%s: got %#v, want a CCNS player of %s, named %q", tc.name, c, tc.want, tc.str)
		}
	}
}
