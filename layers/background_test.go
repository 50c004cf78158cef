package layers

import (
	"errors"
	"testing"

	"muehle/muehle"
)

// TestCheckInBackground opens a sound and a damaged layer with the
// checksums checked in the background: the sound one answers as before;
// the damaged one answers at once (unchecked) and is damaged once its
// check is done, also when it is opened again later.
func TestCheckInBackground(t *testing.T) {
	defer func(n uint64) { backgroundCheckSlots = n }(backgroundCheckSlots)
	backgroundCheckSlots = 0 // the small layers of the test too
	dir := t.TempDir()
	db, err := OpenDB(dir, 4)
	if err != nil {
		t.Fatal(err)
	}
	good, bad := Moving(3, 3), Moving(3, 4)
	for _, k := range []Key{good, bad} {
		if err := db.Write(k, fingerprintBody(t, db.Indexer().Layer(k))); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	flipByte(t, db.Path(bad), HeaderSize+100)

	db, err = OpenDB(dir, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.CheckInBackground()
	if _, err := db.Layer(good); err != nil {
		t.Fatalf("sound layer: %v", err)
	}
	if _, err := db.Layer(bad); err != nil {
		t.Fatalf("damaged layer before its check: got %v, want it opened unchecked", err)
	}
	// Check waits for the background check: the solver relies on it.
	if st, err := db.Check(bad); st != StatusDamaged || !errors.Is(err, ErrChecksum) {
		t.Errorf("Check of the damaged layer: got %v, %v; want damaged, ErrChecksum", st, err)
	}
	db.WaitChecks()
	if _, err := db.Layer(good); err != nil {
		t.Errorf("sound layer after its check: %v", err)
	}
	var dmg *DamagedError
	_, err = db.Layer(bad)
	if !errors.As(err, &dmg) || dmg.Key != bad || !errors.Is(err, ErrChecksum) || !errors.Is(err, ErrMissing) {
		t.Fatalf("damaged layer after its check: got %v, want a *DamagedError of %s wrapping ErrChecksum and ErrMissing", err, bad)
	}
	// A probe into it fails too.
	p := muehle.Position{Turn: muehle.White}
	p.Stones[muehle.White] = muehle.Bitboard(0b111 << 3)
	p.Stones[muehle.Black] = muehle.Bitboard(0b1111 << 12)
	if k := KeyOf(p); k != bad {
		t.Fatalf("test position %v is in layer %s, want %s", p, k, bad)
	}
	if _, err := db.Probe(p); !errors.As(err, &dmg) {
		t.Errorf("probe into the damaged layer: got %v, want a *DamagedError", err)
	}
	// Opened again after missingRecheck, it is checked before use.
	e := db.cached(bad)
	s, _ := keySlot(bad)
	db.slots[s].Store(&dbLayer{l: e.l, err: e.err, at: e.at.Add(-2 * missingRecheck)})
	if _, err := db.Layer(bad); !errors.As(err, &dmg) {
		t.Errorf("damaged layer opened again: got %v, want a *DamagedError at once", err)
	}
}
