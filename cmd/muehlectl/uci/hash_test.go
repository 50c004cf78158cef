package uci

import (
	"strings"
	"testing"

	"muehle/layers"
)

// TestHash: the Hash option (and Options.Hash, muehlectl uci --mem) bounds
// the database's memory for compressed layers, on the database open and on
// one opened later; 0 is the default bound, and a bad value is reported.
func TestHash(t *testing.T) {
	var out strings.Builder
	e := New(&out, Options{DB: t.TempDir(), Game: "standard", Stones: 3, Hash: 7})
	defer e.Close()
	e.Do("uci")
	if want := "option name Hash type spin default 7 min 0"; !strings.Contains(out.String(), want) {
		t.Errorf("uci: no %q in %q", want, out.String())
	}
	limit := func() int64 {
		e.Do("isready")
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.db.CacheLimit()
	}
	if got := limit(); got != 7<<20 {
		t.Errorf("Options.Hash 7: cache limit %d, want %d", got, 7<<20)
	}
	e.Do("setoption name Hash value 3")
	if got := limit(); got != 3<<20 {
		t.Errorf("setoption Hash 3 on the open database: cache limit %d, want %d", got, 3<<20)
	}
	e.Do("setoption name Stones value 4") // another database: opened with Hash
	if got := limit(); got != 3<<20 {
		t.Errorf("Hash 3, the database of 4 stones: cache limit %d, want %d", got, 3<<20)
	}
	e.Do("setoption name Hash value 0")
	if got := limit(); got != layers.DefaultCacheBytes {
		t.Errorf("Hash 0: cache limit %d, want the default %d", got, int64(layers.DefaultCacheBytes))
	}
	out.Reset()
	e.Do("setoption name Hash value -5")
	if !strings.Contains(out.String(), "info string setoption Hash: -5 MiB: want 0 to") {
		t.Errorf("Hash -5: answered %q; want it refused", out.String())
	}
}
