package layers

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"muehle/muehle"
)

// fingerprint is a value that depends on a position only through things
// that all symmetries and the colour swap (with the side to move) keep: the
// mover's and the opponent's stones in mills and on the middle ring.
func fingerprint(p muehle.Position) Value {
	const ring = muehle.Bitboard(1<<3 | 1<<4 | 1<<5 | 1<<10 | 1<<13 | 1<<18 | 1<<19 | 1<<20)
	m, o := p.Mover(), p.Opponent()
	return Decided(muehle.InMill(m).Count() + 10*muehle.InMill(o).Count() + 100*(m&ring).Count())
}

// fingerprintBody fills a layer body by unranking every canonical slot.
func fingerprintBody(t *testing.T, l *LayerIndex) []byte {
	body := make([]byte, l.Size())
	for i := range l.Size() {
		if p, ok := l.Position(i); ok {
			body[i] = byte(fingerprint(p))
		}
	}
	return body
}

func TestDBProbe(t *testing.T) {
	dir := t.TempDir()
	db, err := OpenDB(dir, muehle.Standard.With(4))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := Moving(3, 4)
	p := muehle.Position{Stones: [2]muehle.Bitboard{0b111 << 9, 0b1111}, Turn: muehle.Black}
	if db.Has(k) {
		t.Errorf("Has(%v) before writing: got true", k)
	}
	if _, err := db.Probe(p); !errors.Is(err, ErrMissing) {
		t.Errorf("Probe before writing: got %v, want ErrMissing", err)
	}
	if err := db.Write(k, make([]byte, 5)); err == nil {
		t.Errorf("Write with a wrong size: got no error")
	}
	if err := db.Write(k, fingerprintBody(t, db.Indexer().Layer(k))); err != nil {
		t.Fatal(err)
	}
	if !db.Has(k) {
		t.Errorf("Has(%v) after writing: got false", k)
	}
	if db.Has(Moving(4, 3)) {
		t.Errorf("Has(4-3): got true, want false")
	}
	if want := filepath.Join(dir, "k4", "m3-4.layer"); db.Path(k) != want {
		t.Errorf("Path: got %s, want %s", db.Path(k), want)
	}
	r := rand.New(rand.NewPCG(5, 6))
	var wg sync.WaitGroup
	for g := range 2 {
		ps := make([]muehle.Position, 3000)
		for i := range ps {
			ps[i] = randomPosition(r, 3, 4)
		}
		wg.Go(func() {
			for _, p := range ps {
				got, err := db.Probe(p)
				if want := fingerprint(p); err != nil || got != want {
					t.Errorf("goroutine %d: Probe(%v): got %v, %v, want %v", g, p, got, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
	// Game over: the side to move has two stones.
	over := muehle.Position{Stones: [2]muehle.Bitboard{0b11, 0b111 << 9}}
	if v, err := db.Probe(over); err != nil || v != LossIn(0) {
		t.Errorf("Probe(game over): got %v, %v, want lost in 0", v, err)
	}
	if _, err := db.Probe(muehle.Position{Stones: [2]muehle.Bitboard{0b111, 0b110}}); err == nil {
		t.Errorf("Probe(overlapping stones): got no error")
	}
	if n := testing.AllocsPerRun(100, func() { db.Probe(p) }); n != 0 {
		t.Errorf("Probe allocates %v times, want 0", n)
	}
}

func TestDBBadFile(t *testing.T) {
	db, err := OpenDB(t.TempDir(), muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := Moving(3, 3)
	if err := os.MkdirAll(filepath.Dir(db.Path(k)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteLayer(db.Path(k), muehle.Standard.With(3), k, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if db.Has(k) {
		t.Errorf("Has with a file of the wrong size: got true")
	}
	_, err = db.Layer(k)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), db.Path(k)) {
		t.Errorf("Layer with a file of the wrong size: got %v, want ErrFormat naming the file", err)
	}
	// A good file replaces it through Write; the DB picks it up at once.
	body := make([]byte, db.Indexer().Layer(k).Size())
	for i := range body {
		body[i] = byte(Drawn)
	}
	if err := db.Write(k, body); err != nil {
		t.Fatal(err)
	}
	f, err := db.Layer(k)
	if err != nil {
		t.Fatal(err)
	}
	if h := f.Header(); h.Drawn != uint64(len(body)) {
		t.Errorf("drawn: got %d, want %d", h.Drawn, len(body))
	}
	if _, err := os.Stat(db.Path(k) + ".tmp"); err == nil {
		t.Errorf("temporary file left behind")
	}
}

// TestDBGames: each variant has its own folder, its files name their game,
// and a database of one game neither reads another's files nor probes its
// positions; the games the index cannot number are refused.
func TestDBGames(t *testing.T) {
	dir := t.TempDir()
	twelve, err := OpenDB(dir, muehle.Twelve.With(12))
	if err != nil {
		t.Fatal(err)
	}
	defer twelve.Close()
	if got, want := twelve.GameDir(), filepath.Join(dir, "twelve", "k12"); got != want {
		t.Errorf("GameDir = %s, want %s", got, want)
	}
	if got, want := JobsDir(dir, muehle.Twelve.With(12)), filepath.Join(dir, "twelve", "slurm-k12"); got != want {
		t.Errorf("JobsDir = %s, want %s", got, want)
	}
	// The largest layers of Twelve Men's Morris: a full board, and a
	// placement layer with every count above 9.
	for _, k := range []Key{Moving(12, 12), {W: 10, B: 11, WH: 1, BH: 0}, {W: 0, B: 0, WH: 12, BH: 12}} {
		if !k.Valid(12) {
			t.Errorf("%v not valid in the 12-stone game", k)
		}
		if _, ok := keySlot(k); !ok {
			t.Errorf("keySlot(%v) not ok", k)
		}
	}
	k := Moving(4, 3)
	if err := twelve.Write(k, fingerprintBody(t, twelve.Indexer().Layer(k))); err != nil {
		t.Fatal(err)
	}
	h, err := twelve.Header(k)
	if err != nil || h.Game != muehle.Twelve || h.Stones != 12 {
		t.Fatalf("Header = %+v, %v; want a file of twelve k12", h, err)
	}
	p := muehle.Position{Stones: [2]muehle.Bitboard{0b111 << 9, 0b1111}, Turn: muehle.Black, Game: muehle.Twelve}
	if v, err := twelve.Probe(p); err != nil || v != fingerprint(p) {
		t.Errorf("Probe = %v, %v; want %v", v, err, fingerprint(p))
	}
	p.Game = muehle.Standard
	if _, err := twelve.Probe(p); !errors.Is(err, muehle.ErrPosition) || !strings.Contains(err.Error(), "a position of standard in the database of twelve k12") {
		t.Errorf("Probe of a standard position: got %v, want ErrPosition naming both games", err)
	}
	// The file in the standard game's folder is refused for its game.
	std, err := OpenDB(dir, muehle.NineMensMorris)
	if err != nil {
		t.Fatal(err)
	}
	defer std.Close()
	if err := os.MkdirAll(std.GameDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(twelve.Path(k), std.Path(k)); err != nil {
		t.Fatal(err)
	}
	if _, err := std.Header(k); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "a file of Twelve Men's Morris, want Nine Men's Morris") {
		t.Errorf("a twelve file in the standard folder: got %v", err)
	}
	// Lasker Morris: every split of the hands is a layer, and only there.
	lasker, err := OpenDB(dir, muehle.Lasker.With(3))
	if err != nil {
		t.Fatal(err)
	}
	defer lasker.Close()
	split := Key{W: 2, B: 1, WH: 1, BH: 2}
	if !ValidIn(lasker.Variant(), split) || ValidIn(std.Variant(), split) {
		t.Errorf("layer %v: valid in lasker %v, in the standard game %v; want true, false", split, ValidIn(lasker.Variant(), split), ValidIn(std.Variant(), split))
	}
	if got, want := lasker.GameDir(), filepath.Join(dir, "lasker", "k3"); got != want {
		t.Errorf("GameDir = %s, want %s", got, want)
	}
	// Six Men's Morris: the 16-point board, its own index (small.go).
	six, err := OpenDB(dir, muehle.Six.With(6))
	if err != nil {
		t.Fatal(err)
	}
	defer six.Close()
	if got, want := six.GameDir(), filepath.Join(dir, "six", "k6"); got != want {
		t.Errorf("GameDir = %s, want %s", got, want)
	}
	for _, c := range []struct {
		v    muehle.Variant
		want string
	}{
		{muehle.Standard.With(10), "Nine Men's Morris with 10 stones per side (want 3 to 9)"},
	} {
		if _, err := OpenDB(dir, c.v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("OpenDB(%v): got %v, want an error saying %q", c.v, err, c.want)
		}
	}
}
